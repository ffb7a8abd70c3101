"""The battle scene's map view: the map picture kept with a margin for panning, the mode's hex
tints, objective and selection marks, unit counters, hex labels, the hovered path, animations,
the toast, the odds chart, and the panel backgrounds. Mixed into BattleScene
(game/client/scenes/battle.py), whose draw() puts these together each frame."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import pygame

from game.client import draw, fonts
from game.client.ail.battle_panels import _hit_chance, _preview_parts
from game.client.ail.labels import MapLabels, draw_toast, keep_inside, view_rect
from game.client.anim import FloatText, Shot
from game.hexgrid import Hex

BACKGROUND = (14, 16, 19)
PANEL_BG = (29, 33, 38)
PANEL_EDGE = (59, 67, 76)
# The kept picture of the map view reaches this far (screen pixels) beyond the view on every
# side, so panning frames only blit another part of it (see _build_view_layer).
VIEW_MARGIN = 192

if TYPE_CHECKING:
    from game.client.ail.battle import BattleScene
    from game.client.ail.modes import Mode
    from game.client.ail.rq import Queries
    from game.client.anim import AnimQueue
    from game.client.app import Settings
    from game.client.camera import Camera
    from game.client.mapcache import MapCache
    from game.hexlayout import HexLayout


class BattleDraw:
    """The drawing part of the battle scene."""

    if TYPE_CHECKING:  # provided by BattleScene (game/client/scenes/battle.py)
        _can_act: set[str]
        _chart: tuple[object, pygame.Surface] | None
        _counter_cache: dict[tuple[Any, ...], pygame.Surface]
        _frame_key: tuple[Any, ...] | None
        _hover_key: tuple[Any, ...] | None
        _hover_overlay: tuple[pygame.Surface, tuple[int, int]] | None
        _hover_overlay_key: tuple[Any, ...] | None
        _hover_preview: Any
        _occupant: dict[Hex, Any]
        _overlay: tuple[pygame.Surface, tuple[int, int]] | None
        _overlay_key: tuple[Any, ...] | None
        _places: list[tuple[Any, float, float]]
        _places_key: tuple[int, int] | None
        _toast: tuple[str, float] | None
        _view_layer: tuple[Any, pygame.Surface, tuple[int, int], tuple[int, int]] | None
        anim: AnimQueue
        camera: Camera
        chart_rect: pygame.Rect
        hover: Hex | None
        layout: HexLayout
        map_cache: MapCache
        map_labels: MapLabels
        mode: Mode
        q: Queries
        selected: str | None
        settings: Settings
        view_scrolls: int
        viewer: str | None

        def regions(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]: ...
        def side_colour(self, side: str | None) -> tuple[int, int, int]: ...
        @property
        def state(self) -> Any: ...
        def unit_world(self, unit_id: str) -> tuple[float, float]: ...

    def _kept_view_area(self, view: pygame.Rect) -> pygame.Rect | None:
        """Where in the kept picture the view is now, or None when it has to be drawn afresh."""
        layer = self._view_layer
        if layer is None or layer[0] != self._frame_key:
            return None
        origin = self.camera.map_origin_on_screen()
        built_at, shift = layer[2], layer[3]
        src = view.move(shift[0] - (origin[0] - built_at[0]), shift[1] - (origin[1] - built_at[1]))
        return src if layer[1].get_rect().contains(src) else None

    def _draw_view(self, surface: pygame.Surface, area: pygame.Rect | None = None) -> None:
        """The map, tints, objective and selection marks, units and the hovered path, inside
        `area` (default: the view)."""
        if area is None:
            area = self.regions()[2]
        z = self.camera.zoom
        origin = self.camera.map_origin_on_screen()
        surface.set_clip(area)
        self.map_labels.clear()  # labels are placed on screen each frame (labels.py)
        if not pygame.Rect(origin, self.map_cache.size_at(z)).contains(area):
            surface.fill(BACKGROUND, area)
        self.map_cache.blit(surface, z, self.settings.show_grid, origin, area)
        for overlay in (self._overlay_surface(z), self._hover_overlay_surface(z)):
            if overlay is not None:
                surface.blit(overlay[0], (origin[0] + overlay[1][0], origin[1] + overlay[1][1]))
        self._draw_marks(surface, origin, z)
        self._draw_units(surface, origin, z, area)
        self._draw_hex_labels(surface, origin, z)
        self._draw_path(surface, origin, z)
        surface.set_clip(None)

    @staticmethod
    def _on_view(origin: tuple[int, int], z: float, wx: float, wy: float) -> tuple[float, float]:
        """A world point on the view: the camera's world_to_screen, counted from the map's corner
        (a whole pixel) so that a point's fraction of a pixel never depends on where the camera
        is, and a picture kept while panning matches one drawn afresh to the pixel."""
        return origin[0] + wx * z, origin[1] + wy * z

    def _view_key(self) -> tuple[tuple[Any, ...], tuple[float, float]] | None:
        """Everything the map view's picture depends on (None while something moves)."""
        if self.anim.busy or self.anim.ghosts:
            return None
        st = self.state
        cam = self.camera
        try:
            mode_vars = tuple(sorted(vars(self.mode).items()))
            hash(mode_vars)
        except TypeError:
            return None
        return ((id(st), st.seq, cam.zoom_index, cam.view_x, cam.view_y, cam.view_w,
                 cam.view_h, self.hover, self.selected, type(self.mode).__name__, mode_vars,
                 self.settings.show_grid, self.viewer, st.pending is None, self._overlay_key,
                 self._hover_overlay_key), (cam.pos_x, cam.pos_y))

    def _draw_frames(self, surface: pygame.Surface) -> None:
        """The top bar and side panel backgrounds (plain fills: cheaper than toolkit panels).

        Drawn before the map view, which covers its own rectangle whole: the side panel's fill
        starts a few pixels left of the panel, on a multiple of 16 pixels, where whole rows of
        pixels are filled several times faster (measured: 0.04 ms against 0.22 ms at 1280 x 800)."""
        top, side, _ = self.regions()
        surface.fill(PANEL_BG, top)
        x0 = side.x - side.x % 16
        surface.fill(PANEL_BG, (x0, side.y, side.right - x0, side.h))
        surface.fill(PANEL_EDGE, (top.x, top.bottom - 1, top.w, 1))
        surface.fill(PANEL_EDGE, (side.x, side.y, 1, side.h))

    def _prepare(self) -> None:
        """Build what draw() will blit: the map layer of this zoom, the mode's hex tints."""
        z = self.camera.zoom
        quiet = self.state.pending is None and not self.anim.busy
        cheap = (type(self.mode).__name__, tuple(sorted(vars(self.mode).items())), id(self.state), self.state.seq,
                 quiet, z)
        if cheap != self._overlay_key:
            self._overlay_key = cheap
            fills = self.mode.fills(cast("BattleScene", self))[1] if quiet else []
            self._overlay = draw.hex_fill_surface(self.layout, fills, z)
        # what depends on the hovered hex is asked again only when the hover (or anything above) changes
        hover_key = (*cheap, self.hover)
        if hover_key != self._hover_key:
            self._hover_key = hover_key
            hkey, hfills = self.mode.hover_fills(cast("BattleScene", self)) if quiet else ((), [])
            dkey, dfills = self._danger_fills() if quiet else ((), [])
            hkey, hfills = (*hkey, *dkey), [*dfills, *hfills]
            if (*hkey, z) != self._hover_overlay_key:
                self._hover_overlay_key = (*hkey, z)
                self._hover_overlay = draw.hex_fill_surface(self.layout, hfills, z)
            self._hover_preview = self.mode.preview(cast("BattleScene", self)) if quiet else None
        pv = self._hover_preview
        chart_key = (id(pv[0]), id(pv[1])) if pv is not None else None
        if self._chart is None or self._chart[0] != chart_key:
            chart = pygame.Surface(self.chart_rect.size)
            local = chart.get_rect()
            if pv is None:
                pygame.draw.rect(chart, (16, 19, 23), local)
                pygame.draw.rect(chart, (59, 67, 76), local, 1)
                img = fonts.text("Hover a target: exact outcome odds", 12, (110, 106, 98))
                chart.blit(img, img.get_rect(center=local.center))
            else:
                _, odds = _preview_parts(pv[0])
                base = _preview_parts(pv[1])[1] if pv[1] is not None else None
                if odds is not None:
                    draw.bar_chart(chart, local, odds.results, base.results if base is not None else None)
            self._chart = (chart_key, chart)
        # the map view is kept as a picture, with a margin around it, drawn once for what it shows:
        # idle frames blit it, and so do panning frames, from further along, until the view goes
        # past the margin and it is drawn again there. While something moves (an animation) the
        # view is drawn straight onto the screen instead.
        key = self._view_key()
        view = self.regions()[2]
        old = self._view_layer
        self._frame_key = key
        if key is None:
            self.map_cache.prepare(z, self.settings.show_grid, self.camera.map_origin_on_screen(), view)
            return
        if old is not None and old[0] != key and old[0][0] == key[0]:  # only the camera moved
            self._view_layer = (key, old[1], old[2], old[3])
            self.view_scrolls += 1
        if self._kept_view_area(view) is None:
            self._build_view_layer(key, view, old[1] if old is not None else None)

    def _build_view_layer(self, key: Any, view: pygame.Rect, reuse: pygame.Surface | None) -> None:
        """Draw the map view, and VIEW_MARGIN pixels around it, into the kept picture.

        It is drawn as if the screen were bigger and the view started VIEW_MARGIN pixels in: the
        camera's viewport corner is moved there for the drawing. Every point is placed from the
        map's corner (a whole pixel; see _on_view), so the picture does not depend on where the
        camera was when it was drawn, and nothing is drawn at negative coordinates (where
        pygame's outlines and rounded corners fall a pixel differently): a view shown from a
        picture kept while panning matches one drawn for the new position pixel for pixel."""
        m = VIEW_MARGIN
        shift = (m - view.x + (m - view.x) % 2, m - view.y + (m - view.y) % 2)
        size = (view.w + 2 * m + 1, view.h + 2 * m + 1)
        pic = reuse if reuse is not None and reuse.get_size() == size else None
        if pic is None:
            pic = pygame.Surface(size)
            if pygame.display.get_surface() is not None:
                pic = pic.convert()
        cam = self.camera
        saved = cam.view_x, cam.view_y
        # the camera's own viewport corner, not the view's: GM mode and the replay narrow the
        # viewport, and the picture must place every point where the camera picks it
        cam.view_x, cam.view_y = saved[0] + shift[0], saved[1] + shift[1]
        try:
            origin = cam.map_origin_on_screen()
            self.map_cache.prepare(cam.zoom, self.settings.show_grid, origin, pic.get_rect())
            self._draw_view(pic, pic.get_rect())
        finally:
            cam.view_x, cam.view_y = saved
        built_at = cam.map_origin_on_screen()
        self._view_layer = (key, pic, built_at, shift)

    def _danger_fills(self) -> tuple[tuple[Any, ...], list[Any]]:
        """The hovered unit's overwatch danger zone (where a dash or charge would draw its shot)."""
        u = self.unit_at(self.hover) if self.hover is not None else None
        if u is None or u.stance != "overwatch" or self.mode.name == "attack":
            return ((), [])  # (while attacking, the hovered target's odds are what matters)
        zone = self.q.danger_zone(self.state, u.id)
        return (("danger", u.id, self.state.seq), [(h, draw.DANGER_COLOUR, 70, 2) for h in sorted(zone)])

    def _hover_overlay_surface(self, z: float) -> tuple[pygame.Surface, tuple[int, int]] | None:
        if self._hover_overlay_key is None or self._hover_overlay_key[-1] != z:
            return None
        return self._hover_overlay

    def _overlay_surface(self, z: float) -> tuple[pygame.Surface, tuple[int, int]] | None:
        if self._overlay_key is None or self._overlay_key[-1] != z:
            return None
        return self._overlay

    def _draw_marks(self, surface: pygame.Surface, origin: tuple[int, int], z: float) -> None:
        st = self.state
        for obj in st.setup.objectives:  # hexes to hold: a flag in the colour of the side that wants them
            for h in obj.hexes:
                colour = self.side_colour(obj.side)
                draw.hex_outline(surface, self.layout, h, z, origin, (10, 10, 12), 5, 0.86)
                draw.hex_outline(surface, self.layout, h, z, origin, (240, 200, 90), 2, 0.86)
                cx, cy = self._on_view(origin, z, *self.layout.hex_center(h))
                draw.objective_flag(surface, (cx, cy - self.layout.th * z * 0.28), colour, max(0.6, z))
        if self.hover is not None:
            draw.hex_outline(surface, self.layout, self.hover, z, origin, draw.HOVER_COLOUR, 2, 0.97)
        if self.selected and self.selected in st.units and not st.units[self.selected].destroyed:
            h = st.units[self.selected].hex
            draw.hex_outline(surface, self.layout, h, z, origin, (10, 10, 12), 6, 0.9)
            draw.hex_outline(surface, self.layout, h, z, origin, draw.SELECT_COLOUR, 3, 0.9)

    def _counter(self, unit: Any, size: int) -> pygame.Surface:
        st = self.state
        t = st.unit_type(unit.id) if unit.id in st.units else None
        markers = tuple(m for m, on in (("pinned", unit.pinned), ("out_of_action", unit.out_of_action),
                                        (unit.stance, unit.stance != "none")) if on)
        orders = bool(getattr(unit, "casualty_advantage", 0))
        key = (unit.type_id, unit.side, unit.strength, markers, size, orders)
        surf = self._counter_cache.get(key)
        if surf is None:
            colour = self.side_colour(unit.side)
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

    def unit_at(self, h: Hex) -> Any:
        """The live unit on a hex (the rules' state.unit_at, indexed once per state)."""
        self._unit_places()
        return self._occupant.get(h)

    def _unit_places(self) -> list[tuple[Any, float, float]]:
        """(unit, world x, world y) of every unit on the map, computed once per game state."""
        st = self.state
        if self._places_key != (id(st), st.seq):
            self._places_key = (id(st), st.seq)
            self._places = [(u, *self.layout.hex_center(u.hex)) for u in st.units.values() if not u.destroyed]
            self._occupant = {u.hex: u for u, _, _ in self._places}
            self._can_act = set(self.q.can_act(st, st.active_side)) \
                if st.pending is None and st.phase != "ended" else set()
        return self._places

    def _draw_units(self, surface: pygame.Surface, origin: tuple[int, int], z: float, area: pygame.Rect) -> None:
        st = self.state
        size = max(14, int(min(self.layout.tw, self.layout.th) * 0.72 * z))
        places = self._unit_places()
        if self.anim.busy or self.anim.ghosts:
            places = [(u, *self.unit_world(u.id)) for u, _, _ in places] + \
                     [(u, *self.unit_world(uid)) for uid, u in self.anim.ghosts.items()]
        cam = self.camera
        half = size / z  # world margin so counters half off the view still show
        wx0, wy0 = cam.screen_to_world(area.x, area.y)
        wx1, wy1 = cam.screen_to_world(area.right, area.bottom)
        ring = self.viewer == st.active_side
        for u, wx, wy in places:
            if not (wx0 - half <= wx <= wx1 + half and wy0 - half <= wy <= wy1 + half):
                continue
            sx, sy = self._on_view(origin, z, wx, wy)
            img = self._counter(u, size)
            rect = img.get_rect(center=(round(sx), round(sy)))
            if ring and u.id in self._can_act:
                pygame.draw.rect(surface, (255, 214, 110), rect.inflate(6, 6), 2, border_radius=5)
            surface.blit(img, rect)

    def _draw_hex_labels(self, surface: pygame.Surface, origin: tuple[int, int], z: float) -> None:
        if self.anim.busy or self.state.pending is not None:
            return
        for item in self.mode.hex_labels(cast("BattleScene", self)):
            h, label = item[0], item[1]
            live = len(item) < 3 or bool(item[2])
            self.map_labels.add(label, self.layout.hex_center(h), (0, -self.layout.th * z * 0.5),
                                (255, 200, 190) if live else (170, 170, 176), 12,
                                (70, 16, 12, 220) if live else (40, 40, 46, 220))

    def _draw_path(self, surface: pygame.Surface, origin: tuple[int, int], z: float) -> None:
        if self.anim.busy or self.state.pending is not None:
            return
        view = self.mode.path_view(cast("BattleScene", self))
        if view is None:
            return
        pts = [self._on_view(origin, z, *self.layout.hex_center(h)) for h in view.points]
        draw.draw_path(surface, pts, view.colour, max(2, int(4 * z)))
        r = self.layout.th * z * 0.5
        for ex in view.exposures:
            c = self._on_view(origin, z, *self.layout.hex_center(ex.hex))
            draw.danger_marker(surface, c, r * 0.45)
            wname = self.state.unit_name(ex.watcher_id)
            self.map_labels.add(f"{wname}: {draw.percent(_hit_chance(ex))}", self.layout.hex_center(ex.hex),
                                (0, -r * 0.9), draw.DANGER_COLOUR, 12)
        self.map_labels.add(view.label, self.layout.hex_center(view.points[-1]), (0, r * 0.95), (255, 255, 255), 13)

    def _draw_anim(self, surface: pygame.Surface) -> None:
        for part, f in self.anim.current_parts():
            if isinstance(part, Shot):
                a = self.camera.world_to_screen(*part.start)
                b = self.camera.world_to_screen(*part.end)
                tip = (a[0] + (b[0] - a[0]) * min(1.0, f * 1.6), a[1] + (b[1] - a[1]) * min(1.0, f * 1.6))
                pygame.draw.line(surface, (10, 10, 12), a, tip, 5)
                pygame.draw.line(surface, part.colour, a, tip, 3)
                pygame.draw.circle(surface, part.colour, tip, 4)
            elif isinstance(part, FloatText):
                x, y = self.camera.world_to_screen(*part.at)
                img = fonts.outlined(part.text, 16, part.colour)
                img.set_alpha(int(255 * (1 - max(0.0, f - 0.7) / 0.3)))
                surface.blit(img, keep_inside(img.get_rect(center=(round(x), round(y - 20 - 30 * f))),
                                              view_rect(self.camera)))

    def _draw_toast(self, surface: pygame.Surface, view: pygame.Rect) -> None:
        if self._toast is None:
            return
        draw_toast(surface, self._toast[0], view)  # wrapped to the view's width (labels.py)

    def _draw_chart(self, surface: pygame.Surface) -> None:
        if self._chart is not None:
            surface.blit(self._chart[1], self.chart_rect)


def _render_counter(t: Any, unit: Any, colour: tuple[int, int, int], size: int,
                    markers: tuple[str, ...]) -> pygame.Surface:
    """The unit's counter, drawn by game.render (engineer M's counter art)."""
    from game.render.counters import counter_surface

    return counter_surface(t, unit, colour, size, markers)


# Saves, the load menu, the replay view and GM mode register their keys, end-of-battle choices
# and the autosave hook (game/client/savegame.py).
