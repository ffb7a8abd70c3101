"""The battle camera: which part of the map is seen, at which zoom, inside a viewport rectangle.

World coordinates are map pixels at scale 1 (what HexLayout returns). Screen coordinates are
window pixels. The camera holds `pos`, the world point shown at the viewport's top-left corner,
and `zoom`, one of a few fixed levels (so the static map can be cached once per level).

No pygame surfaces here, only numbers, so it is easy to test.
"""

from __future__ import annotations

from dataclasses import dataclass

ZOOM_LEVELS: tuple[float, ...] = (0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0, 1.25, 1.5, 1.75, 2.0)
DEFAULT_ZOOM_INDEX = 6  # 1.0

# How far (in screen pixels) the map edge may be dragged inside the viewport.
EDGE_MARGIN = 64


@dataclass
class Camera:
    """Which part of the map the view shows, and at what zoom."""
    map_w: float
    map_h: float
    view_x: int = 0
    view_y: int = 0
    view_w: int = 800
    view_h: int = 600
    pos_x: float = 0.0
    pos_y: float = 0.0
    zoom_index: int = DEFAULT_ZOOM_INDEX

    def __post_init__(self) -> None:
        self.max_index = len(ZOOM_LEVELS) - 1

    # ------------------------------------------------------------------ geometry
    @property
    def zoom(self) -> float:
        return ZOOM_LEVELS[self.zoom_index]

    def set_viewport(self, x: int, y: int, w: int, h: int) -> None:
        self.view_x, self.view_y, self.view_w, self.view_h = x, y, max(1, w), max(1, h)
        self.clamp()

    def contains_screen(self, sx: float, sy: float) -> bool:
        return (self.view_x <= sx < self.view_x + self.view_w
                and self.view_y <= sy < self.view_y + self.view_h)

    def world_to_screen(self, wx: float, wy: float) -> tuple[float, float]:
        z = self.zoom
        return (self.view_x + (wx - self.pos_x) * z, self.view_y + (wy - self.pos_y) * z)

    def screen_to_world(self, sx: float, sy: float) -> tuple[float, float]:
        z = self.zoom
        return ((sx - self.view_x) / z + self.pos_x, (sy - self.view_y) / z + self.pos_y)

    def map_origin_on_screen(self) -> tuple[int, int]:
        """Where the top-left corner of the (zoomed) map surface is blitted."""
        sx, sy = self.world_to_screen(0.0, 0.0)
        return round(sx), round(sy)

    # ------------------------------------------------------------------ moves
    def _axis_limits(self, map_len: float, view_len: int) -> tuple[float, float]:
        """Allowed range of pos on one axis (world units)."""
        z = self.zoom
        seen = view_len / z
        if map_len <= seen:  # the whole map fits: keep it centred
            centre = (map_len - seen) / 2
            return centre, centre
        margin = EDGE_MARGIN / z
        return -margin, map_len - seen + margin

    def clamp(self) -> None:
        lo, hi = self._axis_limits(self.map_w, self.view_w)
        self.pos_x = min(max(self.pos_x, lo), hi)
        lo, hi = self._axis_limits(self.map_h, self.view_h)
        self.pos_y = min(max(self.pos_y, lo), hi)
        # whole screen pixels: the map's corner lands on a pixel, so a panned picture can be
        # scrolled by a whole number of pixels and match a fresh drawing exactly
        z = self.zoom
        self.pos_x = round(self.pos_x * z) / z
        self.pos_y = round(self.pos_y * z) / z

    def pan_screen(self, dx: float, dy: float) -> None:
        """Move the view by (dx, dy) screen pixels (positive dx shows more of the right side)."""
        z = self.zoom
        self.pos_x += dx / z
        self.pos_y += dy / z
        self.clamp()

    def zoom_at(self, steps: int, sx: float, sy: float) -> bool:
        """Zoom in (steps > 0) or out, keeping the world point under screen (sx, sy) still.

        Returns whether the zoom level changed."""
        new_index = min(max(self.zoom_index + steps, 0), self.max_index)
        if new_index == self.zoom_index:
            return False
        wx, wy = self.screen_to_world(sx, sy)
        self.zoom_index = new_index
        z = self.zoom
        self.pos_x = wx - (sx - self.view_x) / z
        self.pos_y = wy - (sy - self.view_y) / z
        self.clamp()
        return True

    def centre_on(self, wx: float, wy: float) -> None:
        z = self.zoom
        self.pos_x = wx - self.view_w / z / 2
        self.pos_y = wy - self.view_h / z / 2
        self.clamp()

    def ensure_visible(self, wx: float, wy: float, margin: float = 80) -> None:
        """Scroll just enough that the world point is inside the viewport (with a margin)."""
        sx, sy = self.world_to_screen(wx, wy)
        dx = dy = 0.0
        if sx < self.view_x + margin:
            dx = sx - (self.view_x + margin)
        elif sx > self.view_x + self.view_w - margin:
            dx = sx - (self.view_x + self.view_w - margin)
        if sy < self.view_y + margin:
            dy = sy - (self.view_y + margin)
        elif sy > self.view_y + self.view_h - margin:
            dy = sy - (self.view_y + self.view_h - margin)
        if dx or dy:
            self.pan_screen(dx, dy)
