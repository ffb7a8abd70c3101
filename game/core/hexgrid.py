"""Axial hex maths and Tiled offset conversion. Pure: no pygame, no I/O.

Hexes use axial coordinates (q, r) with the implied cube coordinate s = -q - r.
Tiled's staggered hexagonal maps address tiles by (col, row); `Stagger` describes
which of the four layouts a map uses and converts both ways.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, NamedTuple


class Hex(NamedTuple):
    """An axial hex coordinate."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: object) -> Hex:
        if not isinstance(other, Hex):
            return NotImplemented
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)

    def __str__(self) -> str:
        return f"({self.q},{self.r})"


# The six axial directions, counter-clockwise starting east (pointy-top view).
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)


def neighbours(h: Hex) -> list[Hex]:
    """The six hexes adjacent to `h`, in DIRECTIONS order."""
    q, r = h
    return [Hex(q + dq, r + dr) for dq, dr in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two hexes."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(center: Hex, radius: int) -> list[Hex]:
    """Hexes exactly `radius` steps from `center` (just the centre for radius 0)."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    if radius == 0:
        return [center]
    results: list[Hex] = []
    h = center + DIRECTIONS[4].scale(radius)
    for side in range(6):
        for _ in range(radius):
            results.append(h)
            h = h + DIRECTIONS[side]
    return results


def hex_range(center: Hex, radius: int) -> list[Hex]:
    """All hexes within `radius` steps of `center`, centre included."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    out: list[Hex] = []
    for dq in range(-radius, radius + 1):
        lo = max(-radius, -dq - radius)
        hi = min(radius, -dq + radius)
        for dr in range(lo, hi + 1):
            out.append(Hex(center.q + dq, center.r + dr))
    return out


def _cube_round(fq: float, fr: float, fs: float) -> Hex:
    q = round(fq)
    r = round(fr)
    s = round(fs)
    dq = abs(q - fq)
    dr = abs(r - fr)
    ds = abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


def hex_round(fq: float, fr: float) -> Hex:
    """Round fractional axial coordinates to the nearest hex."""
    return _cube_round(fq, fr, -fq - fr)


# A tiny fixed offset applied to both ends of a line so that lines running exactly
# along hex edges always fall to the same side, whichever way they are drawn.
_NUDGE = (1e-6, 2e-6, -3e-6)


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from `a` to `b`, both ends included.

    Uses cube linear interpolation with a fixed nudge so that ties along hex edges
    resolve the same way every time (deterministic line of sight).
    """
    n = distance(a, b)
    if n == 0:
        return [a]
    aq, ar, as_ = a.q + _NUDGE[0], a.r + _NUDGE[1], a.s + _NUDGE[2]
    bq, br, bs = b.q + _NUDGE[0], b.r + _NUDGE[1], b.s + _NUDGE[2]
    out: list[Hex] = []
    for i in range(n + 1):
        t = i / n
        out.append(_cube_round(aq + (bq - aq) * t, ar + (br - ar) * t, as_ + (bs - as_) * t))
    return out


def direction_between(a: Hex, b: Hex) -> int | None:
    """Index into DIRECTIONS if `b` is adjacent to `a`, else None."""
    d = b - a
    try:
        return DIRECTIONS.index(d)
    except ValueError:
        return None


StaggerAxis = Literal["x", "y"]
StaggerIndex = Literal["odd", "even"]


@dataclass(frozen=True, slots=True)
class Stagger:
    """One of Tiled's four staggered hexagonal layouts.

    axis "y": rows are staggered (pointy-top hexes); axis "x": columns are staggered
    (flat-top hexes). index "odd"/"even": which rows/columns are shifted.
    """

    axis: StaggerAxis = "y"
    index: StaggerIndex = "odd"

    @property
    def pointy(self) -> bool:
        return self.axis == "y"

    def _shifted(self, n: int) -> int:
        """1 if row/column n is a staggered (shifted) one, else 0."""
        odd = n & 1
        return odd if self.index == "odd" else 1 - odd

    def to_hex(self, col: int, row: int) -> Hex:
        """Tiled tile (col, row) -> axial hex."""
        if self.axis == "y":
            # Staggered rows shift half a hex to the right.
            # The axial q of a row's first tile moves left by one every two rows.
            r = row
            if self.index == "odd":
                q = col - (row - (row & 1)) // 2
            else:
                q = col - (row + (row & 1)) // 2
            return Hex(q, r)
        q = col
        if self.index == "odd":
            r = row - (col - (col & 1)) // 2
        else:
            r = row - (col + (col & 1)) // 2
        return Hex(q, r)

    def to_offset(self, h: Hex) -> tuple[int, int]:
        """Axial hex -> Tiled tile (col, row)."""
        q, r = h
        if self.axis == "y":
            row = r
            if self.index == "odd":
                col = q + (r - (r & 1)) // 2
            else:
                col = q + (r + (r & 1)) // 2
            return col, row
        col = q
        if self.index == "odd":
            row = r + (q - (q & 1)) // 2
        else:
            row = r + (q + (q & 1)) // 2
        return col, row

    def iter_grid(self, width: int, height: int) -> Iterator[tuple[int, int, Hex]]:
        """Every (col, row, hex) of a width x height map, row by row."""
        for row in range(height):
            for col in range(width):
                yield col, row, self.to_hex(col, row)
