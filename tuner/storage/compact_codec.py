"""The compact journal's format: Optuna's journal records, each deflated in one stream with the records before it.

The default storage of a new study (`<study file name>.journal`, read and written by
`tuner.storage.compact_journal`). A plain Optuna journal repeats, for every
parameter of every trial, the worker's id, the names and the distribution's JSON: ~15 kB a trial for the
quickstart; the same records in this format take ~1.9 kB. The format is detected by the file's first bytes, so
a plain journal (written by Optuna or an older tuner) keeps opening and is appended to in its own format
(`tuner.storage.journal`). `tuner storage export-plain` writes the plain journal of a compact one (what
`optuna-dashboard FILE` and any Optuna program read; `tuner.storage.convert`); decoding every frame in order
gives that file byte for byte.

File layout::

    MAGIC                          one line naming the format (`head -1 FILE` says what it is)
    frame*                         one frame per journal record, in the order Optuna appended them
    frame   = varint(len(payload)) payload crc32(varint + payload):u32le
    payload = one deflate segment (raw deflate, 32 kB window) of the record's packed text, ended by a sync
              flush whose constant 4-byte tail (00 00 ff ff) is left out

The record's text is Optuna's JSON line (compact separators, ASCII, ending in a newline); packed, every float
literal of 5+ decimals that Python's repr gives back byte for byte is replaced by 0xff and the float's 8 bytes
(JSON text is ASCII: a byte >= 0x80 cannot be part of it). Trial parameters, CMA-ES's `x_for_tell`, heartbeats
and intermediate values are 17-digit floats; in a small deflate block a digit costs a byte, so this saves about
15% of the file.

Why one stream with a 32 kB window: every record repeats its writer's id (a uuid4 and a thread id) and most of
the record before it, which deflate then codes as back-references of a few bits; a record costs ~10-25 bytes.
A writer continues its deflate stream while it alone appends (~10 us a record); when another process has
appended meanwhile, it decodes those frames and starts a new stream with the last 32 kB of text as its
dictionary (~70 us). Readers decode the frames in order with one inflater (~4 us a record); a snapshot
(`tuner.storage.snapshots`) keeps the last 32 kB of text with the replay state, so a reader can start there.

Damage: decoding stops at the first frame that is incomplete, fails its crc or does not inflate. Opening a
study checks that the reader stopped at the file's end; else the file is refused, left unchanged, with one line:
when only the last frame is incomplete (a write that did not finish: a full disk, a machine crash) the line
says how to keep the complete records (`truncate -s N FILE`); a damaged frame with more bytes after it, or a
file that is no journal at all, gets no such advice. A writer refuses to append after bytes it cannot decode.
"""
from __future__ import annotations

import json
import re
import struct
import zlib
from typing import Any, Optional

from tuner.storage.journal import DamagedJournal

MAGIC = b"tuner compact journal 1 (a plain Optuna journal of it: tuner storage export-plain)\n"
WINDOW = 32 * 1024  # deflate's window: what a back-reference can reach
LEVEL = 6  # 9 saves 1% for 15% more time; 1 costs 15% more bytes (measured on a quickstart journal)
SYNC_TAIL = b"\x00\x00\xff\xff"
FLOAT_MARK = 0xFF
MAX_VARINT = 5
_FLOAT = struct.Struct(">d")
_U32 = struct.Struct("<I")
# A float literal of JSON text with 5+ decimals (shorter ones gain nothing), after the separator that starts a
# JSON value (a pattern that starts with a character set is searched for fast) and before one that ends it.
_FLOAT_LITERAL = re.compile(rb"([:,\[])(-?[0-9]+\.[0-9]{5,}(?:e[-+][0-9]+)?)(?=[,}\]])")


def pack_floats(text: bytes) -> bytes:
    """Replace the float literals that round-trip (repr) by FLOAT_MARK + their 8 bytes (see the module doc)."""
    if b"." not in text:
        return text
    return _FLOAT_LITERAL.sub(_pack_float, text)


def _pack_float(match) -> bytes:
    literal = match.group(2)
    value = float(literal)
    if repr(value).encode("ascii") != literal:
        return match.group()
    return match.group(1) + b"\xff" + _FLOAT.pack(value)


def _unpack_floats(data: bytes) -> bytes:
    i = data.find(b"\xff")
    if i < 0:
        return data
    parts, start = [], 0
    while i >= 0:
        parts.append(data[start:i])
        parts.append(repr(_FLOAT.unpack_from(data, i + 1)[0]).encode("ascii"))
        start = i + 9
        i = data.find(b"\xff", start)
    parts.append(data[start:])
    return b"".join(parts)



def record_text(log: dict) -> bytes:
    """A record as Optuna's journal file writes it (the line of the plain journal)."""
    return (json.dumps(log, separators=(",", ":")) + "\n").encode("ascii")


def _varint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def encode_frame(payload: bytes) -> bytes:
    head = _varint(len(payload)) + payload
    return head + _U32.pack(zlib.crc32(head))


class Cursor:
    """A place in the journal: byte offset, records before it, crc32 of the bytes before it, the last WINDOW
    bytes of packed text before it (the deflate history), and an inflater standing there (made when needed)."""

    __slots__ = ("offset", "number", "crc", "window", "_inflater")

    def __init__(self, offset: int = len(MAGIC), number: int = 0, crc: int = zlib.crc32(MAGIC),
                 window: bytes = b"") -> None:
        self.offset, self.number, self.crc = offset, number, crc
        self.window = bytearray(window)
        self._inflater: Any = None  # a zlib decompress object

    def history(self) -> bytes:
        return bytes(self.window[-WINDOW:])

    def inflater(self):
        if self._inflater is None:
            history = self.history()
            self._inflater = zlib.decompressobj(-15, zdict=history) if history else zlib.decompressobj(-15)
        return self._inflater

    def deflater(self):
        """A new deflate stream that continues from here."""
        history = self.history()
        return (zlib.compressobj(LEVEL, zlib.DEFLATED, -15, 9, zdict=history) if history
                else zlib.compressobj(LEVEL, zlib.DEFLATED, -15, 9))

    def remember(self, packed: bytes) -> None:
        window = self.window
        window += packed
        if len(window) > 2 * WINDOW:
            del window[:-WINDOW]


CUT, BAD = "cut", "bad"


def decode_frames(data, base: int, cursor: Cursor, texts: list) -> Optional[str]:
    """Decode the complete frames of `data` (the file's bytes from offset `base` == cursor.offset), appending
    each record's text to `texts` and moving `cursor` past it. Returns None when every byte was decoded, CUT
    when the last frame is incomplete, BAD when a frame fails its crc or does not inflate (cursor stops there)."""
    view = memoryview(data)
    end = len(data)
    i = cursor.offset - base
    crc, number = cursor.crc, cursor.number
    crc32, remember, append = zlib.crc32, cursor.remember, texts.append
    inflater = cursor.inflater()
    status = None
    while i < end:
        length, shift, j = 0, 0, i
        while True:
            if j >= end:
                status = CUT
                break
            byte = data[j]
            length |= (byte & 0x7F) << shift
            j += 1
            if byte < 0x80:
                break
            shift += 7
            if j - i >= MAX_VARINT:
                status = BAD
                break
        if status is not None:
            break
        stop = j + length
        if stop + 4 > end:
            status = CUT
            break
        frame_crc = crc32(view[i:stop])
        if frame_crc != _U32.unpack_from(data, stop)[0] or length == 0:
            status = BAD
            break
        try:
            packed = inflater.decompress(bytes(view[j:stop]) + SYNC_TAIL)
        except zlib.error:
            status = BAD
            break
        if not packed.endswith(b"\n") or inflater.unconsumed_tail:
            status = BAD
            break
        remember(packed)
        append(_unpack_floats(packed))
        crc = crc32(view[i:stop + 4], crc)
        number += 1
        i = stop + 4
    if status is not None:
        cursor._inflater = None  # it may have consumed part of a bad frame
    cursor.offset, cursor.number, cursor.crc = base + i, number, crc
    return status


def _one_last_frame(rest: bytes) -> bool:
    """Whether `rest` (the bytes from where decoding stopped to the file's end) is at most one frame: a frame cut
    short, one whose bytes are wrong, or zeros (what a machine crash leaves of a write)."""
    if not rest.strip(b"\x00"):
        return True
    length, shift = 0, 0
    for i, byte in enumerate(rest[:MAX_VARINT]):
        length |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return i + 1 + length + 4 >= len(rest)
    return False


def describe_stop(path: str, rest: bytes, offset: int, size: int, number: int) -> str:
    """Why the journal cannot be read from `offset` on (a sentence without the file name), with the truncate
    advice only when what is left is its last frame, not written completely."""
    if _one_last_frame(rest):
        return (f"its last record is cut short (bytes {offset}-{size} are an incomplete record: a write that did "
                f"not finish); it was left unchanged (restore it from a copy, or keep its first {offset} bytes, "
                f"which drops that last record: truncate -s {offset} {path})")
    return (f"a record cannot be read (the one after the first {number} records, at byte {offset}, fails its "
            f"check, and {size - offset} bytes follow); it was left unchanged (restore it from a copy)")


def file_kind(path: str) -> str:
    """`compact`, `plain` (an Optuna journal of JSON lines), `empty` (or missing), or `other`."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(MAGIC))
    except FileNotFoundError:
        return "empty"
    if not head:
        return "empty"
    if head == MAGIC or (len(head) < len(MAGIC) and MAGIC.startswith(head)):
        return "compact"
    if re.match(rb'\{\s*"op_code"\s*:', head):
        return "plain"
    return "other"


def not_a_journal(path: str) -> DamagedJournal:
    with open(path, "rb") as handle:
        head = handle.read(24)
    return DamagedJournal(f"{path} is not a usable Optuna journal file: it is no journal at all (neither a compact "
                          f"journal, whose first line is {MAGIC[:23].decode()}..., nor Optuna's JSON lines; it "
                          f"starts with {head!r}); it was left unchanged (is it the file meant? point the study's "
                          f"storage at its journal, or move this file away to start the study afresh)")
