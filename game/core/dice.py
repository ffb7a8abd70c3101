"""The seeded random generator shared by every rule system. Pure: no I/O, no global random.

The generator is SplitMix64: its whole state is one 64-bit integer, so it is saved with the
game state as a plain number and a game replays bit for bit from the same seed.
"""

from __future__ import annotations

from dataclasses import dataclass

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


@dataclass(frozen=True, slots=True)
class Rng:
    """An immutable generator: every draw returns the value and the next generator."""

    state: int = 0

    @staticmethod
    def from_seed(seed: int) -> Rng:
        return Rng(_mix(seed & _MASK))

    def next_u64(self) -> tuple[int, Rng]:
        s = (self.state + _GOLDEN) & _MASK
        return _mix(s), Rng(s)

    def roll(self, sides: int) -> tuple[int, Rng]:
        """An unbiased die roll in 1..sides (rejection sampling)."""
        if sides < 1:
            raise ValueError("a die needs at least one side")
        limit = (1 << 64) - ((1 << 64) % sides)
        rng = self
        while True:
            value, rng = rng.next_u64()
            if value < limit:
                return value % sides + 1, rng
