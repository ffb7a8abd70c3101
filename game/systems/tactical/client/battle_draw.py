"""The battle scene's map view: the map picture kept with a margin for panning, the mode's hex
tints, objective and selection marks, unit counters, hex labels, the hovered path, animations,
the toast, and the panel backgrounds.

`MapView` is one part of the battle scene (game/systems/tactical/client/battle.py), constructed by it, owning
the camera, the map cache and everything drawn from them. What it reads of the game for a frame
(the state on screen, the input mode, the hover, the selection, the viewer, the animations) is
passed to each call as a `MapContext`; it keeps no reference to the scene."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import pygame

from game.core.hexgrid import Hex
from game.render.counters import counter_surface
from game.shell import draw, fonts
from game.shell.anim import FloatText, Shot
from game.shell.camera import Camera
from game.shell.mapcache import MapCache, board_picture, tiled_picture
from game.shell.toolkit import blits
from game.systems.tactical.client import rq
from game.systems.tactical.client.labels import (
    LABEL_BG,
    MapLabel,
    MapLabels,
    draw_toast,
    keep_inside,
    view_rect,
)
from game.systems.tactical.client.text import terrain_colours
from game.systems.tactical.client.widgets import hit_chance

BACKGROUND = (14, 16, 19)
PANEL_BG = (29, 33, 38)
PANEL_EDGE = (59, 67, 76)
HINT_COLOUR = (110, 220, 255)  # the hint key's mark: where its command acts
HINT_RING = 0.78  # the mark's ring, as a share of the hex
HINT_SIZE = 12  # its label's letters
# The kept picture of the map view reaches this far (screen pixels) beyond the view on every
# side, so panning frames only blit another part of it (see _build_view_layer).
VIEW_MARGIN = 192

if TYPE_CHECKING:
    from game.core.hexlayout import HexLayout
    from game.shell.anim import AnimQueue
    from game.shell.app import Settings
    from game.shell.session import Session
    from game.systems.tactical.client.modes import Mode


class MapContext(Protocol):
    """What the map view reads of the scene for one call (never kept between calls)."""

    mode: Mode
    hover: Hex | None
    selected: str | None
    viewer: str | None
    anim: AnimQueue

    @property
    def state(self) -> Any: ...

    def side_colour(self, side: str | None) -> tuple[int, int, int]: ...

    def unit_at(self, h: Hex) -> Any: ...

    def is_mine(self, unit_id: str) -> bool: ...


@dataclass(frozen=True)
class ScreenState:
    """What the scene knows of the screen as it draws the map view.

    kept: the screen still shows the scene's last frame (the same scenes drawn on the same
        window, nothing else drew on it since; App.screen_kept).
    covered: something is drawn over the map view this frame (a toolkit window or tooltip over
        it): the view is drawn whole, this frame and the next."""

    kept: bool
    covered: bool


def _box(points: list[tuple[float, float]], pad: float) -> pygame.Rect:
    """The whole-pixel rectangle around `points`, `pad` pixels more on each side."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, y0 = math.floor(min(xs) - pad), math.floor(min(ys) - pad)
    return pygame.Rect(x0, y0, math.ceil(max(xs) + pad) - x0 + 1, math.ceil(max(ys) + pad) - y0 + 1)


class MapView:
    """The map view of the battle scene.

    Public fields:
        layout: the hex layout of the map (world pixels of each hex).
        camera: the camera (zoom, pan, the viewport on the screen).
        map_cache: the map picture at each zoom level, in chunks.
        view_scrolls: panned frames shown from the kept picture without redrawing it (tests,
            benchmarks count them).
        hover_preview: the input mode's preview for the hovered hex, as of the last prepare().
        map_labels: the labels over the map (hit chances, path cost, overwatch shooters), collected
            while the picture is drawn and placed inside the view each frame (labels.py).
    Everything else (tints, the kept picture, counters, the unit index) is private to it."""

    def __init__(self, session: Session, settings: Settings) -> None:
        self._settings = settings
        self.layout: HexLayout = session.layout
        w, h = session.layout.map_pixel_size
        self.camera = Camera(w, h)
        if session.map_data is not None:
            picture = tiled_picture(session.map_data)
        else:
            picture = board_picture(session.board, session.layout, terrain_colours(session.setup.rules))
        self.map_cache = MapCache(picture, self.layout, session.board.terrain)
        self.view_scrolls = 0
        self.hover_preview: Any = None
        self.map_labels = MapLabels()
        self._overlay_key: tuple[Any, ...] | None = None
        # the mode's tints (_fills), as stamps of tinted hexes blended straight onto the part of
        # the map a picture shows (draw.hex_tint_stamps): (zoom, [(stamp, x, y, right, bottom)] in
        # zoomed map pixels); None: not made for these tints yet
        self._fills: list[Any] = []
        self._overlay: tuple[float, list[tuple[pygame.Surface, int, int, int, int]]] | None = None
        self._hover_overlay_key: tuple[Any, ...] | None = None
        # the hovered hex's tints: stamps blended straight onto the picture (draw.hex_tint_stamps)
        self._hover_overlay: list[tuple[pygame.Surface, tuple[int, int]]] | None = None
        self._hover_overlay_box: pygame.Rect | None = None  # around all of them
        self._danger_overlay_key: tuple[Any, ...] | None = None
        self._danger_overlay: tuple[pygame.Surface, tuple[int, int]] | None = None
        self._hover_key: tuple[Any, ...] | None = None
        self._base_labels: list[Any] = []  # the labels of the last _draw_base (those of the hover follow)
        self._layer_labels: list[Any] = []  # the labels of the kept picture
        # The kept picture with what follows the mouse drawn over it, made on the second frame
        # the hover stays the same (the first draws it straight onto the screen): (what it shows,
        # picture, labels). Idle and panning frames then blit one picture, as before the hover
        # layer was split off. _hover_drawn: what the last frame showed (drawn straight, or the
        # kept one): the same again is composed, another is drawn straight.
        self._composed: tuple[Any, pygame.Surface, list[Any], tuple[Any, pygame.Rect | None] | None] | None = None
        self._hover_drawn: Any = None
        # What the screen's view shows after the last draw from the kept picture: (which part
        # of which picture, where), the rectangle the hover's drawing covered there, whether
        # anything (a toast, the toolkit) was drawn over the view, and whether that rectangle is
        # known (not after a pan: it is worked out only for a new hover), and what it shows (as
        # `shows` in draw); None: not known (drawn straight, or never). A new hover on an
        # unchanged screen restores and redraws only the old and the new hover's rectangles, a
        # frame where nothing changed draws nothing of the view (see ScreenState).
        self._on_screen: tuple[Any, pygame.Rect | None, bool, bool, Any] | None = None
        # the surface a danger zone's tints were last drawn in, kept to draw the next one in (also
        # while none is shown): a fresh surface's first touch costs more than the drawing
        self._danger_buffer: pygame.Surface | None = None
        self._places_key: tuple[int, int] | None = None
        self._places: list[tuple[Any, float, float]] = []
        self._rings = False
        self._occupant: dict[Hex, Any] = {}
        self._frame_key: tuple[Any, ...] | None = None
        # the kept picture of the map view: (frame key, picture, map origin on screen when it was
        # drawn, picture position of the screen's (0, 0) then); see _build_view_layer
        self._view_layer: tuple[Any, pygame.Surface, tuple[int, int], tuple[int, int]] | None = None
        # the margin the kept picture has around the view: none when it was drawn for a change of
        # what the map shows (a click, a command), the full VIEW_MARGIN once a quiet frame (nothing
        # changed since the last) or a pan has drawn it again with one
        self._layer_margin = VIEW_MARGIN
        self._spare: dict[tuple[int, int], pygame.Surface] = {}  # kept pictures' surfaces by size
        self._counter_cache: dict[tuple[Any, ...], pygame.Surface] = {}

    def centre_map(self) -> None:
        """Look at the middle of the map (once the viewport is set)."""
        w, h = self.layout.map_pixel_size
        self.camera.centre_on(w / 2, h / 2)

    # ------------------------------------------------------------------ what others ask
    def forget_overlay(self) -> None:
        """Draw the mode's hex tints afresh next frame (e.g. after the viewport changed)."""
        self._overlay_key = None

    def forget_picture(self) -> None:
        """Draw the kept picture of the view from scratch next frame."""
        self._view_layer = None

    @property
    def overlay_shown(self) -> bool:
        """Whether the mode's hex tints are built (the frame benchmark checks they are up)."""
        return bool(self._fills)

    def kept_picture_current(self) -> bool:
        """Whether the kept picture is the one of the last prepared frame (tests)."""
        return self._view_layer is not None and self._view_layer[0] == self._frame_key

    def unit_at(self, ctx: MapContext, h: Hex) -> Any:
        """The live unit on a hex (the rules' state.unit_at, indexed once per state)."""
        self._unit_places(ctx)
        return self._occupant.get(h)

    def unit_world(self, ctx: MapContext, unit_id: str) -> tuple[float, float]:
        """Where a unit is drawn now, in world pixels (along its animation while it moves)."""
        pos = ctx.anim.unit_position(unit_id)
        if pos is not None:
            return pos
        u = ctx.state.units.get(unit_id) or ctx.anim.ghosts.get(unit_id)
        assert u is not None, unit_id
        return self.layout.hex_center(u.hex)

    def counter(self, ctx: MapContext, unit: Any, size: int) -> pygame.Surface:
        """The counter picture of a unit at a size (kept: the same unit state draws once)."""
        st = ctx.state
        t = st.unit_type(unit.id) if unit.id in st.units else None
        markers = tuple(m for m, on in (("pinned", unit.pinned), ("out_of_action", unit.out_of_action),
                                        (unit.stance, unit.stance != "none")) if on)
        orders = bool(getattr(unit, "casualty_advantage", 0))
        key = (unit.type_id, unit.side, unit.strength, markers, size, orders)
        surf = self._counter_cache.get(key)
        if surf is None:
            colour = ctx.side_colour(unit.side)
            surf = _render_counter(t, unit, colour, size, markers)
            if orders:  # a standing order to spend Advantage on casualty rolls: a gold pip
                surf = surf.copy()
                r = max(3, size // 9)
                at = (surf.get_width() - r - 2, surf.get_height() - r - 2)
                pygame.draw.circle(surf, (10, 10, 12), at, r + 1)
                pygame.draw.circle(surf, (240, 200, 90), at, r)
            if pygame.display.get_surface() is not None:
                surf = surf.convert_alpha()
            if len(self._counter_cache) > 400:
                self._counter_cache.clear()
            self._counter_cache[key] = surf
        return surf

    # ------------------------------------------------------------------ each frame
    def prepare(self, ctx: MapContext, view: pygame.Rect) -> None:
        """Build what draw() will blit: the map layer of this zoom, the mode's hex tints, the
        hover's tints and preview, the kept picture of the view."""
        z = self.camera.zoom
        st = ctx.state
        quiet = st.pending is None and not ctx.anim.busy
        cheap = (type(ctx.mode).__name__, tuple(sorted(vars(ctx.mode).items())), id(st), st.seq, quiet, z)
        if cheap != self._overlay_key:
            self._overlay_key = cheap
            self._fills = ctx.mode.fills(ctx)[1] if quiet else []
            self._overlay = None
        # what depends on the hovered hex is asked again only when the hover (or anything above) changes
        hover_key = (*cheap, ctx.hover)
        hover_changed = hover_key != self._hover_key
        if hover_changed:
            self._hover_key = hover_key
            hkey, hfills = ctx.mode.hover_fills(ctx) if quiet else ((), [])
            dkey, dfills = self._danger_fills(ctx) if quiet else ((), [])
            if (*hkey, z) != self._hover_overlay_key:
                self._hover_overlay_key = (*hkey, z)
                self._hover_overlay = draw.hex_tint_stamps(self.layout, hfills, z) or None
                self._hover_overlay_box = None if self._hover_overlay is None else pygame.Rect(
                    self._hover_overlay[0][1], self._hover_overlay[0][0].get_size()).unionall(
                    [pygame.Rect(at, pic.get_size()) for pic, at in self._hover_overlay])  # zoomed map pixels
            if (*dkey, z) != self._danger_overlay_key:  # under the counters: part of the kept picture
                self._danger_overlay_key = (*dkey, z)
                self._danger_overlay = self._danger_tints(dfills, z)
            self.hover_preview = ctx.mode.preview(ctx) if quiet else None
        # the map view is kept as a picture, with a margin around it, drawn once for what it shows:
        # idle frames blit it, and so do panning frames, from further along, until the view goes
        # past the margin and it is drawn again there. What the map shows changing (a click, a
        # command) draws the view alone, and the next quiet frame draws it again with the margin:
        # the player waits for half the drawing (at 100 x 100 a click's picture is half margin).
        # While something moves (an animation) the view is drawn straight onto the screen instead.
        key = self._view_key(ctx)
        old = self._view_layer
        self._frame_key = key
        if key is None:
            self.map_cache.prepare(z, self._settings.show_grid, self.camera.map_origin_on_screen(), view)
            return
        if old is not None and old[0] != key and old[0][0] == key[0]:  # only the camera moved
            self._view_layer = (key, old[1], old[2], old[3])
            self.view_scrolls += 1
        if self._kept_view_area(view) is None:
            changed = old is None or old[0][0] != key[0]
            self._build_view_layer(ctx, key, view, 0 if changed else VIEW_MARGIN)
        elif self._layer_margin < VIEW_MARGIN and not hover_changed and old is not None and old[0] == key:
            self._build_view_layer(ctx, key, view)  # a quiet frame: now the margin for panning

    def draw(self, surface: pygame.Surface, ctx: MapContext, view: pygame.Rect, screen_size: tuple[int, int],
             toast: str | None, screen: ScreenState | None = None) -> None:
        """The map view on the screen: the kept picture (or, while something moves, drawn
        straight), then the animations and the toast over it. `screen`: what the caller knows
        of the screen (None: nothing, the view is drawn whole)."""
        src = None
        if self._frame_key is not None and surface.get_size() == screen_size:
            src = self._kept_view_area(view)
            if src is None:  # forgotten since the last update: draw it again
                self._build_view_layer(ctx, self._frame_key, view)
                src = self._kept_view_area(view)
        covered = screen is None or screen.covered or toast is not None
        clip = view
        if src is not None and self._view_layer is not None:
            layer = self._view_layer
            shows = (self._hover_key, self._hover_overlay_key, id(layer[1]), layer[0][0], layer[2], layer[3])
            where = (surface.get_size(), tuple(view), id(layer[1]), layer[0], tuple(src))
            last = self._on_screen
            # the hover's rectangle: worked out for a new hover, the same as the last frame's
            # when nothing moved, not known after a pan (the next hover then draws the view whole)
            known = last is not None and last[0] == where and last[3]
            extent = last[1] if known and last is not None else None
            if (screen is not None and screen.kept and not covered and last is not None and last[0] == where
                    and not last[2] and last[4] == shows):
                # the window shows this very picture already (nothing changed since the last
                # frame: an idle frame): nothing of the view is drawn again
                clip = pygame.Rect(view.x, view.y, 0, 0)
            elif self._composed is None or self._composed[0] != shows:
                if self._hover_drawn != shows:
                    # the part of the kept picture the camera shows now, and over it what
                    # follows the mouse (a new hover: no picture is drawn for it); when the
                    # screen still shows that part with the last hover over it, only the last
                    # and the new hover's rectangles are drawn again
                    extent, known = self._hover_extent(ctx, view), True
                    clip = self._changed_area(screen, where, extent, view) if not covered else view
                    blits.blit(surface, layer[1], clip.topleft,
                               pygame.Rect(src.x + clip.x - view.x, src.y + clip.y - view.y, clip.w, clip.h))
                    self._base_labels = self._layer_labels  # the kept picture's own labels
                    self._draw_hover(surface, ctx, clip)
                    self._hover_drawn = shows
                else:
                    self._compose(ctx, shows, (where, extent) if known else None)
            if self._composed is not None and self._composed[0] == shows:
                clip = view
                blits.blit(surface, self._composed[1], view.topleft, src)
                self.map_labels.items = list(self._composed[2])
                self._hover_drawn = shows  # (what the screen shows now, however it was drawn)
                mark = self._composed[3]  # the rectangle of the hover it holds, where it was drawn
                known = mark is not None and mark[0] == where
                extent = mark[1] if known and mark is not None else None
            self._on_screen = (where, extent, covered, known, shows)
        else:  # something moves (or an odd surface): drawn straight onto it
            self._draw_view(surface, ctx, view)
            self._on_screen = None
        surface.set_clip(clip)
        self.map_labels.draw(surface, self.camera)  # kept inside the map's view (labels.py)
        self._draw_anim(surface, ctx)
        if toast is not None:
            draw_toast(surface, toast, view_rect(self.camera))  # wrapped to the view's width
        surface.set_clip(None)

    def _changed_area(self, screen: ScreenState | None, where: Any, extent: pygame.Rect | None,
                      view: pygame.Rect) -> pygame.Rect:
        """The part of the view to draw again for a new hover: the last and the new hover's
        rectangles when the screen still shows what the last draw left there (the same part of
        the same kept picture, nothing drawn over the view then or now), else the whole view."""
        last = self._on_screen
        if screen is None or not screen.kept or last is None or last[0] != where or last[2] or not last[3]:
            return view
        parts = [r for r in (last[1], extent) if r is not None]
        if not parts:
            return pygame.Rect(view.x, view.y, 0, 0)
        return parts[0].unionall(parts[1:]).clip(view)

    def _hover_extent(self, ctx: MapContext, view: pygame.Rect) -> pygame.Rect | None:
        """The screen rectangle (inside `view`) that `_draw_hover` and the hover's labels draw
        in, worked out from what they will draw: the dash tints' stamps, the hovered hex's
        outline, the path with its dots and overwatch markers, the labels' boxes. None: nothing."""
        z = self.camera.zoom
        ox, oy = self.camera.map_origin_on_screen()
        rects: list[pygame.Rect] = []
        if self._at_zoom(self._hover_overlay_key, self._hover_overlay, z) and self._hover_overlay_box is not None:
            rects.append(self._hover_overlay_box.move(ox, oy))
        if ctx.hover is not None:
            rects.append(_box(draw.scaled_corners(self.layout, ctx.hover, z, ox, oy, 0.97), 4))
        path = self._path(ctx)
        if path is not None:
            w = max(2, int(4 * z))
            pts = [self._on_view((ox, oy), z, *self.layout.hex_center(h)) for h in path.points]
            rects.append(_box(pts, w + 6))
            r = max(6.0, self.layout.th * z * 0.5 * 0.45)
            for ex in path.exposures:
                rects.append(_box([self._on_view((ox, oy), z, *self.layout.hex_center(ex.hex))], r * 1.35 + 4))
            bounds = view_rect(self.camera)
            rects.extend(self.map_labels.box(label, self.camera, bounds) for label in self._path_labels(ctx, path, z))
        if not rects:
            return None
        out = rects[0].unionall(rects[1:]).clip(view)
        return out if out.w and out.h else None

    def _danger_tints(self, fills: list[Any], z: float) -> tuple[pygame.Surface, tuple[int, int]] | None:
        """A hovered watcher's danger zone tinted, in the surface the last one used."""
        out = draw.hex_fill_surface(self.layout, fills, z, self._danger_buffer)
        if out is not None:
            self._danger_buffer = out[0].get_parent() or out[0]
        return out

    @staticmethod
    def _blit_tints(surface: pygame.Surface, tints: tuple[pygame.Surface, tuple[int, int]] | None,
                    origin: tuple[int, int]) -> None:
        if tints is not None:
            surface.blit(tints[0], (origin[0] + tints[1][0], origin[1] + tints[1][1]))

    # ------------------------------------------------------------------ the kept picture
    def _compose(self, ctx: MapContext, shows: Any, mark: tuple[Any, pygame.Rect | None] | None) -> None:
        """The kept picture with what follows the mouse drawn over it (see _composed); `mark`:
        the hover's rectangle on the screen and for which part of the picture (None: not known)."""
        _, pic, built_at, shift = self._view_layer  # type: ignore[misc]
        out = self._composed[1] if self._composed is not None else None
        if out is None or out.get_size() != pic.get_size():
            out = draw.for_display(pygame.Surface(pic.get_size()))
        blits.blit(out, pic, (0, 0))
        self._base_labels = self._layer_labels
        # the map's corner in the picture (where it was drawn with the camera moved by `shift`)
        self._draw_hover(out, ctx, out.get_rect(), (built_at[0] + shift[0], built_at[1] + shift[1]))
        self._composed = (shows, out, list(self.map_labels.items), mark)

    def _kept_view_area(self, view: pygame.Rect) -> pygame.Rect | None:
        """Where in the kept picture the view is now, or None when it has to be drawn afresh."""
        layer = self._view_layer
        if layer is None or layer[0] != self._frame_key:
            return None
        origin = self.camera.map_origin_on_screen()
        built_at, shift = layer[2], layer[3]
        src = view.move(shift[0] - (origin[0] - built_at[0]), shift[1] - (origin[1] - built_at[1]))
        return src if layer[1].get_rect().contains(src) else None

    def _draw_view(self, surface: pygame.Surface, ctx: MapContext, area: pygame.Rect) -> None:
        """The map, tints, objective and selection marks, units and the hovered path, inside `area`."""
        self._draw_base(surface, ctx, area)
        self._draw_hover(surface, ctx, area)

    def _draw_base(self, surface: pygame.Surface, ctx: MapContext, area: pygame.Rect, direct: bool = False) -> None:
        """What the kept picture holds, inside `area`: the map, the mode's tints (and a hovered
        watcher's danger zone), objective and selection marks, units and hex labels. Nothing that
        follows the mouse from hex to hex: moving it redraws none of this (see _draw_hover).
        `direct`: the map painted for `area` alone, no chunk made (MapCache.paint)."""
        z = self.camera.zoom
        origin = self.camera.map_origin_on_screen()
        surface.set_clip(area)
        self.map_labels.clear()  # labels are placed on screen each frame (labels.py)
        if not pygame.Rect(origin, self.map_cache.size_at(z)).contains(area):
            surface.fill(BACKGROUND, area)
        if not (direct and self.map_cache.paint(surface, z, self._settings.show_grid, origin, area)):
            self.map_cache.blit(surface, z, self._settings.show_grid, origin, area)
        need = area.move(-origin[0], -origin[1])  # the part of the zoomed map drawn here
        ox, oy = origin
        surface.blits([(pic, (ox + x, oy + y)) for pic, x, y, r, b in self._mode_stamps(z)
                       if x < need.right and r > need.x and y < need.bottom and b > need.y], doreturn=False)
        self._blit_tints(surface, self._at_zoom(self._danger_overlay_key, self._danger_overlay, z), origin)
        self._draw_marks(surface, ctx, origin, z)
        self._draw_units(surface, ctx, origin, z, area)
        self._draw_hex_labels(surface, ctx, origin, z)
        self._base_labels = list(self.map_labels.items)
        surface.set_clip(None)

    def _draw_hover(self, surface: pygame.Surface, ctx: MapContext, area: pygame.Rect,
                    origin: tuple[int, int] | None = None) -> None:
        """What follows the mouse, drawn over the rest, inside `area`: the hovered hex's tints
        (where a dash could go after moving there: free hexes, never under a counter), its outline
        and the hovered path with its labels. `origin`: the map's corner on `surface` (the
        camera's on the screen by default)."""
        z = self.camera.zoom
        if origin is None:
            origin = self.camera.map_origin_on_screen()
        surface.set_clip(area)
        self.map_labels.items = list(self._base_labels)
        stamps = self._at_zoom(self._hover_overlay_key, self._hover_overlay, z)
        if stamps:
            ox, oy = origin
            surface.blits([(pic, (ox + x, oy + y)) for pic, (x, y) in stamps], doreturn=False)
        if ctx.hover is not None:
            draw.hex_outline(surface, self.layout, ctx.hover, z, origin, draw.HOVER_COLOUR, 2, 0.97)
        self._draw_path(surface, ctx, origin, z)
        surface.set_clip(None)

    @staticmethod
    def _on_view(origin: tuple[int, int], z: float, wx: float, wy: float) -> tuple[float, float]:
        """A world point on the view: the camera's world_to_screen, counted from the map's corner
        (a whole pixel) so that a point's fraction of a pixel never depends on where the camera
        is, and a picture kept while panning matches one drawn afresh to the pixel."""
        return origin[0] + wx * z, origin[1] + wy * z

    def _view_key(self, ctx: MapContext) -> tuple[tuple[Any, ...], tuple[float, float]] | None:
        """Everything the map view's picture depends on (None while something moves)."""
        if ctx.anim.busy or ctx.anim.ghosts:
            return None
        st = ctx.state
        cam = self.camera
        try:
            mode_vars = tuple(sorted(vars(ctx.mode).items()))
            hash(mode_vars)
        except TypeError:
            return None
        return ((id(st), st.seq, cam.zoom_index, cam.view_x, cam.view_y, cam.view_w,
                 cam.view_h, ctx.selected, type(ctx.mode).__name__, mode_vars,
                 self._settings.show_grid, ctx.viewer, st.pending is None, self._overlay_key,
                 self._danger_overlay_key), (cam.pos_x, cam.pos_y))

    def _build_view_layer(self, ctx: MapContext, key: Any, view: pygame.Rect, margin: int = VIEW_MARGIN) -> None:
        """Draw the map view, and `margin` pixels around it, into the kept picture.

        It is drawn as if the screen were bigger and the view started `margin` pixels in: the
        camera's viewport corner is moved there for the drawing. Every point is placed from the
        map's corner (a whole pixel; see _on_view), so the picture does not depend on where the
        camera was when it was drawn, and nothing is drawn at negative coordinates (where
        pygame's outlines and rounded corners fall a pixel differently): a view shown from a
        picture kept while panning matches one drawn for the new position pixel for pixel."""
        m = margin
        shift = (m - view.x + (m - view.x) % 2, m - view.y + (m - view.y) % 2)
        size = (view.w + 2 * m + 1, view.h + 2 * m + 1)
        if self._view_layer is not None:  # its surface is drawn in again when a picture of its size is
            self._spare[self._view_layer[1].get_size()] = self._view_layer[1]
        pic = self._spare.pop(size, None)
        if pic is None:
            if len(self._spare) > 2:  # the window changed size: the others will not be needed
                self._spare.clear()
            pic = draw.for_display(pygame.Surface(size))
        self._layer_margin = m
        cam = self.camera
        saved = cam.view_x, cam.view_y
        # the camera's own viewport corner, not the view's: GM mode and the replay narrow the
        # viewport, and the picture must place every point where the camera picks it
        cam.view_x, cam.view_y = saved[0] + shift[0], saved[1] + shift[1]
        try:
            origin = cam.map_origin_on_screen()
            # the view alone with none of its map chunks made (the first frame, the first at a new
            # zoom): the map is painted for the view only, and the chunks made when the picture is
            # drawn again with its margin, on the next quiet frame
            direct = m == 0 and not self.map_cache.any_made(cam.zoom, self._settings.show_grid, origin, pic.get_rect())
            if not direct:
                self.map_cache.prepare(cam.zoom, self._settings.show_grid, origin, pic.get_rect())
            self._draw_base(pic, ctx, pic.get_rect(), direct=direct)
            self._layer_labels = self._base_labels
        finally:
            cam.view_x, cam.view_y = saved
        built_at = cam.map_origin_on_screen()
        self._view_layer = (key, pic, built_at, shift)

    # ------------------------------------------------------------------ parts of the picture
    def _danger_fills(self, ctx: MapContext) -> tuple[tuple[Any, ...], list[Any]]:
        """The hovered unit's overwatch danger zone (where a dash or charge would draw its shot)."""
        u = self.unit_at(ctx, ctx.hover) if ctx.hover is not None else None
        if u is None or u.stance != "overwatch" or ctx.mode.name == "attack":
            return ((), [])  # (while attacking, the hovered target's odds are what matters)
        st = ctx.state
        zone = rq.danger_zone(st, u.id)
        return (("danger", u.id, st.seq), [(h, draw.DANGER_COLOUR, 70, 2) for h in sorted(zone)])

    @staticmethod
    def _at_zoom(key: tuple[Any, ...] | None, tints: Any, z: float) -> Any:
        """Tints made for zoom `z` (the last item of their key), else None."""
        return tints if key is not None and key[-1] == z else None

    def _mode_stamps(self, z: float) -> list[tuple[pygame.Surface, int, int, int, int]]:
        """The mode's tints at zoom `z`: each hex's stamp and its box in zoomed map pixels. Made
        once for the tints and the zoom; a picture blends those it shows (at 100 x 100 a click's
        reach tints ~500 hexes: drawing them into a clear surface the size of the view and
        blending that cost twice as much)."""
        if self._overlay_key is None or self._overlay_key[-1] != z:
            return []
        if self._overlay is None or self._overlay[0] != z:
            self._overlay = (z, [(pic, x, y, x + pic.get_width(), y + pic.get_height())
                                 for pic, (x, y) in draw.hex_tint_stamps(self.layout, self._fills, z)])
        return self._overlay[1]

    def _draw_marks(self, surface: pygame.Surface, ctx: MapContext, origin: tuple[int, int], z: float) -> None:
        st = ctx.state
        for obj in st.setup.objectives:  # hexes to hold: a flag in the colour of the side that wants them
            for h in obj.hexes:
                colour = ctx.side_colour(obj.side)
                draw.hex_outline(surface, self.layout, h, z, origin, (10, 10, 12), 5, 0.86)
                draw.hex_outline(surface, self.layout, h, z, origin, (240, 200, 90), 2, 0.86)
                cx, cy = self._on_view(origin, z, *self.layout.hex_center(h))
                draw.objective_flag(surface, (cx, cy - self.layout.th * z * 0.28), colour, max(0.6, z))
        sel = ctx.selected
        if sel and sel in st.units and not st.units[sel].destroyed:
            h = st.units[sel].hex
            draw.hex_outline(surface, self.layout, h, z, origin, (10, 10, 12), 6, 0.9)
            draw.hex_outline(surface, self.layout, h, z, origin, draw.SELECT_COLOUR, 3, 0.9)
        hinted = ctx.mode.hinted
        if hinted is not None:  # where the hint key's command acts
            draw.hex_outline(surface, self.layout, hinted[0], z, origin, (10, 10, 12), 6, HINT_RING)
            draw.hex_outline(surface, self.layout, hinted[0], z, origin, HINT_COLOUR, 3, HINT_RING)

    def _unit_places(self, ctx: MapContext) -> list[tuple[Any, float, float]]:
        """(unit, world x, world y) of every unit on the map, computed once per game state."""
        st = ctx.state
        if self._places_key != (id(st), st.seq):
            self._places_key = (id(st), st.seq)
            self._places = [(u, *self.layout.hex_center(u.hex)) for u in st.units.values() if not u.destroyed]
            self._occupant = {u.hex: u for u, _, _ in self._places}
            # rings go round the counters in view whose unit can act (asked of those units only:
            # at 1,000 units asking the whole side cost a first frame, and each command, 40 ms)
            self._rings = st.pending is None and st.phase != "ended"
        return self._places

    def _draw_units(self, surface: pygame.Surface, ctx: MapContext, origin: tuple[int, int], z: float,
                    area: pygame.Rect) -> None:
        st = ctx.state
        size = self._counter_size(z)
        places = self._unit_places(ctx)
        anim = ctx.anim
        if anim.busy or anim.ghosts:
            places = [(u, *self.unit_world(ctx, u.id)) for u, _, _ in places] + \
                     [(u, *self.unit_world(ctx, uid)) for uid, u in anim.ghosts.items()]
        cam = self.camera
        half = size / z  # world margin so counters half off the view still show
        wx0, wy0 = cam.screen_to_world(area.x, area.y)
        wx1, wy1 = cam.screen_to_world(area.right, area.bottom)
        ring = ctx.viewer == st.active_side
        for u, wx, wy in places:
            if not (wx0 - half <= wx <= wx1 + half and wy0 - half <= wy <= wy1 + half):
                continue
            sx, sy = self._on_view(origin, z, wx, wy)
            img = self.counter(ctx, u, size)
            rect = img.get_rect(center=(round(sx), round(sy)))
            if ring and self._rings and rq.unit_can_act(st, u.id):
                pygame.draw.rect(surface, (255, 214, 110), rect.inflate(6, 6), 2, border_radius=5)
            surface.blit(img, rect)

    def _draw_hex_labels(self, surface: pygame.Surface, ctx: MapContext, origin: tuple[int, int],
                         z: float) -> None:
        if ctx.anim.busy or ctx.state.pending is not None:
            return
        for item in ctx.mode.hex_labels(ctx):
            h, label = item[0], item[1]
            live = len(item) < 3 or bool(item[2])
            self.map_labels.add(label, self.layout.hex_center(h), (0, -self.layout.th * z * 0.5),
                                (255, 200, 190) if live else (170, 170, 176), 12,
                                (70, 16, 12, 220) if live else (40, 40, 46, 220))
        hinted = ctx.mode.hinted
        if hinted is not None:  # beside its ring, kept clear of counters, other labels and the edge
            self._hint_label(ctx, hinted, z)

    def _hint_label(self, ctx: MapContext, hinted: tuple[Hex, str], z: float) -> None:
        """The hint mark's label: under its ring, else above it, to a side or at a corner,
        wherever it first covers no counter near it, no other label (a hit chance, a path's
        cost) and stays whole inside the view (labels.py places it each frame). It sat on the
        bottom edge of the ring, over the counter of the hex below (QA at 960 x 600)."""
        centre = self.layout.hex_center(hinted[0])
        w, h = fonts.text(hinted[1], HINT_SIZE, HINT_COLOUR, True).get_size()
        w, h = w + 10, h + 4  # its box
        ry = self.layout.th * z * 0.5 * HINT_RING + 3  # the ring's half height and width, a gap
        rx = self.layout.tw * z * 0.5 * HINT_RING + 3
        below, above = ry + h / 2, -(ry + h / 2)
        right, left = rx + w / 2, -(rx + w / 2)
        places = ((0.0, below), (0.0, above), (right, 0.0), (left, 0.0),
                  (right, below), (left, below), (right, above), (left, above))
        half = self._counter_size(z) / (2 * z)  # a counter's half side, in world units
        reach = (self.layout.tw + self.layout.th) * 1.5 + (w + h) / z  # the counters it could reach
        avoid = tuple((wx, wy, half) for _, wx, wy in self._unit_places(ctx)
                      if abs(wx - centre[0]) <= reach and abs(wy - centre[1]) <= reach)
        self.map_labels.add(hinted[1], centre, places[0], HINT_COLOUR, HINT_SIZE, (10, 36, 48, 230), clear=True,
                            alternatives=places[1:], avoid=avoid)

    def _counter_size(self, z: float) -> int:
        """A counter's side on screen at zoom `z` (pixels)."""
        return max(14, int(min(self.layout.tw, self.layout.th) * 0.72 * z))

    @staticmethod
    def _path(ctx: MapContext) -> Any:
        """The hovered path the mode shows (none while something moves or a decision waits)."""
        if ctx.anim.busy or ctx.state.pending is not None:
            return None
        return ctx.mode.path_view(ctx)

    def _path_labels(self, ctx: MapContext, view: Any, z: float) -> list[MapLabel]:
        """The path's labels: who fires overwatch where and at what chance, and the path's own."""
        r = self.layout.th * z * 0.5
        out = [MapLabel(f"{ctx.state.unit_name(ex.watcher_id)}: {draw.percent(hit_chance(ex))}",
                        self.layout.hex_center(ex.hex), (0, -r * 0.9), draw.DANGER_COLOUR, 12, LABEL_BG)
               for ex in view.exposures]
        out.append(MapLabel(view.label, self.layout.hex_center(view.points[-1]), (0, r * 0.95), (255, 255, 255), 13,
                            LABEL_BG))
        return out

    def _draw_path(self, surface: pygame.Surface, ctx: MapContext, origin: tuple[int, int], z: float) -> None:
        view = self._path(ctx)
        if view is None:
            return
        pts = [self._on_view(origin, z, *self.layout.hex_center(h)) for h in view.points]
        draw.draw_path(surface, pts, view.colour, max(2, int(4 * z)))
        r = self.layout.th * z * 0.5
        for ex in view.exposures:
            draw.danger_marker(surface, self._on_view(origin, z, *self.layout.hex_center(ex.hex)), r * 0.45)
        self.map_labels.items.extend(self._path_labels(ctx, view, z))

    def _draw_anim(self, surface: pygame.Surface, ctx: MapContext) -> None:
        cam = self.camera
        for part, f in ctx.anim.current_parts():
            if isinstance(part, Shot):
                a = cam.world_to_screen(*part.start)
                b = cam.world_to_screen(*part.end)
                tip = (a[0] + (b[0] - a[0]) * min(1.0, f * 1.6), a[1] + (b[1] - a[1]) * min(1.0, f * 1.6))
                pygame.draw.line(surface, (10, 10, 12), a, tip, 5)
                pygame.draw.line(surface, part.colour, a, tip, 3)
                pygame.draw.circle(surface, part.colour, tip, 4)
            elif isinstance(part, FloatText):
                x, y = cam.world_to_screen(*part.at)
                img = fonts.outlined(part.text, 16, part.colour)
                img.set_alpha(int(255 * (1 - max(0.0, f - 0.7) / 0.3)))
                surface.blit(img, keep_inside(img.get_rect(center=(round(x), round(y - 20 - 30 * f))),
                                              view_rect(cam)))


def draw_frames(surface: pygame.Surface, top: pygame.Rect, side: pygame.Rect) -> None:
    """The top bar and side panel backgrounds (plain fills: cheaper than toolkit panels), none of
    it in the map view (which may draw only what changed on it: see MapView.draw).

    The side panel is filled in two parts, split at a multiple of 16 pixels: SDL fills whole
    rows starting there several times faster (measured at 1280 x 800: 0.07 ms against 0.48 ms
    for the panel filled from its edge in one)."""
    surface.fill(PANEL_BG, top)
    x1 = min(side.right, side.x + (-side.x) % 16)
    if x1 > side.x:
        surface.fill(PANEL_BG, (side.x, side.y, x1 - side.x, side.h))
    surface.fill(PANEL_BG, (x1, side.y, side.right - x1, side.h))
    surface.fill(PANEL_EDGE, (top.x, top.bottom - 1, top.w, 1))
    surface.fill(PANEL_EDGE, (side.x, side.y, 1, side.h))


def _render_counter(t: Any, unit: Any, colour: tuple[int, int, int], size: int,
                    markers: tuple[str, ...]) -> pygame.Surface:
    """The unit's counter, drawn by game.render (engineer M's counter art)."""
    return counter_surface(t, unit, colour, size, markers)
