"""The playing surface as the rules see it: which hexes exist, their terrain name, roads.

Shared by every rule system. Pure: built by the map loader (game/io/tmx.py) or by tests,
never reads files itself. Terrain *names* live here; what a terrain does (move cost, cover,
line of sight) is rules data, looked up by each rule system.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from game.core.hexgrid import Hex, Stagger


@dataclass(frozen=True)
class Board:
    """The hex map as the rules see it: size, stagger, terrain and roads per hex."""
    width: int
    height: int
    stagger: Stagger
    terrain: Mapping[Hex, str]
    roads: frozenset[Hex] = field(default_factory=frozenset)
    name: str = ""

    def __contains__(self, h: object) -> bool:
        return h in self.terrain

    def terrain_at(self, h: Hex) -> str:
        return self.terrain[h]

    def is_road(self, h: Hex) -> bool:
        return h in self.roads

    def hex_at(self, col: int, row: int) -> Hex:
        return self.stagger.to_hex(col, row)

    def offset_of(self, h: Hex) -> tuple[int, int]:
        return self.stagger.to_offset(h)

    @staticmethod
    def filled(width: int, height: int, terrain: str = "clear", stagger: Stagger | None = None,
               overrides: Mapping[tuple[int, int], str] | None = None,
               roads: set[tuple[int, int]] | None = None) -> Board:
        """A width x height board of one terrain, with optional per-(col,row) overrides (tests)."""
        st = stagger or Stagger()
        cells: dict[Hex, str] = {}
        for col, row, h in st.iter_grid(width, height):
            cells[h] = (overrides or {}).get((col, row), terrain)
        road_hexes = frozenset(st.to_hex(c, r) for c, r in (roads or set()))
        return Board(width, height, st, cells, road_hexes)
