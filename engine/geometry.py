"""The board's fixed geometry: 37 hexagonal cells, their cube coordinates, neighbours and bitboard tables.

Cells are numbered as the official referee numbers them: 0 is the centre, then rings 1, 2 and 3, each walked
from its cell in direction 0. A set of cells is an int64 bitboard with bit c for cell c.

Tables are flat int64 arrays so that compiled code and the exported pure-Python bot index them the same
way, for example ``WITHIN[r * CELLS + c]``.
"""
from __future__ import annotations

import numpy as np

CELLS = 37
RINGS = 3
DIRECTIONS = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))

# Iteration order of the referee's HashMap<CubeCoord, Cell>; the hole generator draws indexes into it.
HASH_ORDER = np.array(
    [1, 6, 8, 16, 21, 32, 19, 34, 35, 36, 11, 12, 13, 24, 29, 0, 2, 5, 9,
     15, 22, 31, 7, 17, 18, 20, 33, 25, 26, 27, 28, 3, 4, 10, 14, 23, 30],
    dtype=np.int64,
)


def _spiral() -> list[tuple[int, int, int]]:
    def step(cube, direction, times=1):
        dx, dy, dz = DIRECTIONS[direction]
        return cube[0] + dx * times, cube[1] + dy * times, cube[2] + dz * times

    cubes = [(0, 0, 0)]
    cube = step((0, 0, 0), 0)
    for ring in range(1, RINGS + 1):
        for orientation in range(6):
            for _ in range(ring):
                cubes.append(cube)
                cube = step(cube, (orientation + 2) % 6)
        cube = step(cube, 0)
    return cubes


CUBES: list[tuple[int, int, int]] = _spiral()
_INDEX = {cube: i for i, cube in enumerate(CUBES)}


def cell_at(x: int, y: int, z: int) -> int:
    """The cell at cube coordinates (x, y, z), or -1 off the board."""
    return _INDEX.get((x, y, z), -1)


def cube_distance(a: tuple[int, int, int], b: tuple[int, int, int]) -> int:
    return (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2])) // 2


def _tables():
    n = CELLS
    ring = np.array([cube_distance(c, (0, 0, 0)) for c in CUBES], dtype=np.int64)
    mirror = np.array([cell_at(-x, -y, -z) for x, y, z in CUBES], dtype=np.int64)
    neighbor = np.full(n * 6, -1, dtype=np.int64)
    distance = np.zeros(n * n, dtype=np.int64)
    within = np.zeros(4 * n, dtype=np.int64)
    shadow_ray = np.zeros(6 * n * 4, dtype=np.int64)
    for c, (x, y, z) in enumerate(CUBES):
        for d, (dx, dy, dz) in enumerate(DIRECTIONS):
            neighbor[c * 6 + d] = cell_at(x + dx, y + dy, z + dz)
            ray = 0
            for s in range(1, 4):
                t = cell_at(x + dx * s, y + dy * s, z + dz * s)
                if t >= 0:
                    ray |= 1 << t
                shadow_ray[(d * n + c) * 4 + s] = ray
        for t, other in enumerate(CUBES):
            dist = cube_distance(CUBES[c], other)
            distance[c * n + t] = dist
            for r in range(dist, 4):
                within[r * n + c] |= 1 << t
    return ring, mirror, neighbor, distance, within, shadow_ray


RING, MIRROR, NEIGHBOR, DISTANCE, WITHIN, SHADOW_RAY = _tables()
ALL_CELLS = (1 << CELLS) - 1


def _seed_targets():
    """Targets of a SEED from cell c by a tree of size s, in the order the referee lists them.

    The referee walks offsets dx = -s..s and, inside, dy = max(-s, -dx-s)..min(s, -dx+s); targets off the
    board are skipped. ``SEED_TARGETS[(s * CELLS + c) * CELLS + i]`` is the i-th target and
    ``SEED_TARGET_COUNT[s * CELLS + c]`` their number.
    """
    n = CELLS
    targets = np.full(4 * n * n, -1, dtype=np.int64)
    count = np.zeros(4 * n, dtype=np.int64)
    for s in range(4):
        for c, (x, y, z) in enumerate(CUBES):
            k = 0
            for dx in range(-s, s + 1):
                for dy in range(max(-s, -dx - s), min(s, -dx + s) + 1):
                    t = cell_at(x + dx, y + dy, z - dx - dy)
                    if t >= 0:
                        targets[(s * n + c) * n + k] = t
                        k += 1
            count[s * n + c] = k
    return targets, count


SEED_TARGETS, SEED_TARGET_COUNT = _seed_targets()


def cells_of(bits: int) -> list[int]:
    """The cells of a bitboard, in ascending order."""
    return [c for c in range(CELLS) if bits >> c & 1]


def _spread_tables():
    """SPREAD[((r - 1) * 5 + k) * 256 + v] for r = 1..3: the cells within distance r of the cells whose bits,
    in byte k of a bitboard, are v. A set's whole neighbourhood is then 5 lookups, whatever its size."""
    table = np.zeros(3 * 5 * 256, dtype=np.int64)
    for r in range(1, 4):
        for k in range(5):
            for v in range(256):
                bits = 0
                for i in range(8):
                    c = 8 * k + i
                    if v >> i & 1 and c < CELLS:
                        bits |= int(WITHIN[r * CELLS + c])
                table[((r - 1) * 5 + k) * 256 + v] = bits
    return table


SPREAD = _spread_tables()
