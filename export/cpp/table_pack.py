"""Long tables of a C++ export, packed into a string: CodinGame accepts 100,000 characters and the C++ standard
library has no zlib, so the export carries its own small format, which the runtime's `unpack_table` reads.

The table's 64-bit values (little-endian) are laid out byte plane by byte plane (every value's byte 0, then
every byte 1, ...: a bitboard's high bytes are mostly alike), compressed by a plain LZ77 and written in base64
without padding. The LZ77 stream is a sequence of tokens: a byte t < 128 is followed by t + 1 literal bytes;
a byte t >= 128 copies t - 124 bytes (4 to 131) from a distance given by the next two bytes (little-endian).
"""
from __future__ import annotations

import base64

import numpy as np

MIN_MATCH = 4
MAX_MATCH = 131
MAX_LITERALS = 128
WINDOW = 65535
CANDIDATES = 32  # earlier positions tried per match


def byte_planes(values: np.ndarray) -> bytes:
    wide = values.astype("<i8" if values.dtype.kind in "iub" else "<f8")
    return wide.view(np.uint8).reshape(len(values), 8).T.tobytes()


def compress(data: bytes) -> bytes:
    out = bytearray()
    literals = bytearray()
    seen: dict = {}

    def flush():
        for start in range(0, len(literals), MAX_LITERALS):
            chunk = literals[start:start + MAX_LITERALS]
            out.append(len(chunk) - 1)
            out.extend(chunk)
        literals.clear()

    i = 0
    while i < len(data):
        key = data[i:i + MIN_MATCH]
        best_length, best_distance = 0, 0
        if len(key) == MIN_MATCH:
            for j in reversed(seen.get(key, [])[-CANDIDATES:]):
                if i - j > WINDOW:
                    break
                length = 0
                while i + length < len(data) and length < MAX_MATCH and data[j + length] == data[i + length]:
                    length += 1
                if length > best_length:
                    best_length, best_distance = length, i - j
        step = best_length if best_length >= MIN_MATCH else 1
        for k in range(i, i + step):
            seen.setdefault(data[k:k + MIN_MATCH], []).append(k)
        if best_length >= MIN_MATCH:
            flush()
            out.append(128 + best_length - MIN_MATCH)
            out.extend(best_distance.to_bytes(2, "little"))
        else:
            literals.append(data[i])
        i += step
    flush()
    return bytes(out)


def pack_table(values: np.ndarray) -> str:
    """The text of a 1-D int or float table as `unpack_table` reads it."""
    return base64.b64encode(compress(byte_planes(values))).decode("ascii").rstrip("=")
