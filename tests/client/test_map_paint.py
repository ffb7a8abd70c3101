"""The first picture of the view (the first frame, the first at a new zoom) is painted for the view
alone, straight from the map's region painter (MapCache.paint), instead of from the chunks
around it, which cover up to 3.5 times its area. It must be the very pixels the chunks give
(the picture drawn again with its margin replaces it a frame later, and panning shows the two
side by side), wherever the view is, at every zoom, with and without the grid."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from game.shell import launch  # noqa: E402
from game.shell.mapcache import BACKGROUND, MapCache, board_picture, tiled_picture  # noqa: E402
from game.table import TABLE  # noqa: E402


@pytest.fixture(scope="module")
def default_map() -> Any:
    pygame.display.init()
    pygame.display.set_mode((64, 64))
    return launch.open_game(TABLE, None)


def _caches(session: Any) -> tuple[MapCache, MapCache]:
    pic = tiled_picture(session.map_data)
    assert pic.region is not None  # the default map's tiles can be painted region by region
    return MapCache(pic, session.layout, session.board.terrain), MapCache(pic, session.layout, session.board.terrain)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(x=st.integers(-300, 1400), y=st.integers(-300, 1000), w=st.integers(1, 960), h=st.integers(1, 760),
       zoom=st.sampled_from([0.5, 0.75, 1.0, 1.25, 1.5]), grid=st.booleans())
def test_the_view_painted_alone_is_the_pixels_its_chunks_give(default_map: Any, x: int, y: int, w: int, h: int,
                                                               zoom: float, grid: bool) -> None:
    painted, chunked = _caches(default_map)
    view = pygame.Rect(5, 7, w, h)
    origin = (view.x - x, view.y - y)  # the map's corner on the screen: the view shows the map from (x, y)
    a = pygame.Surface((w + 10, h + 14))
    b = a.copy()
    a.fill(BACKGROUND)
    b.fill(BACKGROUND)
    a.set_clip(view)  # as MapView draws: clipped to the view (the chunks reach beyond it)
    b.set_clip(view)
    assert not painted.any_made(zoom, grid, origin, view)
    assert painted.paint(a, zoom, grid, origin, view)
    assert painted.builds == 0  # no chunk made for it
    chunked.blit(b, zoom, grid, origin, view)
    assert pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")
    assert chunked.any_made(zoom, grid, origin, view) or not view.colliderect(
        pygame.Rect(origin, chunked.size_at(zoom)))


def test_a_map_without_a_region_painter_is_not_painted(default_map: Any) -> None:
    s = default_map
    cache = MapCache(board_picture(s.board, s.layout, {}), s.layout, s.board.terrain)
    surf = pygame.Surface((100, 100))
    assert not cache.paint(surf, 1.0, True, (0, 0), surf.get_rect())


def test_the_first_frame_makes_no_chunk_and_the_next_quiet_frame_the_margins(tmp_path: Any) -> None:
    from game.shell.launch import layout_of
    from game.systems.tactical.bench import bigmap
    from game.systems.tactical.client import battle_draw
    from game.systems.tactical.client.plugin import tactical_session
    from game.systems.tactical.rules import initial_state
    from game.systems.tactical.rules.state import TurnSlot
    from tests.client.clientfix import battle, make_app

    made = bigmap.big_battle(str(tmp_path), 40, 30, 20)  # a Tiled map, in the Movement phase
    sides = tuple(TurnSlot(side=x.id) for x in made.setup.sides)
    state = initial_state(made.setup, made.board, 1).model_copy(
        update={"phase": "movement", "turn_order": sides, "turn_index": 0, "pending": None})
    session = tactical_session(made.setup, made.board, layout_of(made.map_data), 1, state=state,
                               map_data=made.map_data)
    app = make_app(session, blackout=False)  # (make_app runs the first step)
    view = battle(app).map_view
    app.render()
    assert view.map_cache.builds == 0 and view.map_cache.paints == 1  # the first picture: the view painted alone
    assert view._layer_margin == 0
    first = pygame.image.tobytes(app.screen, "RGB")
    app.step()  # a quiet frame: the picture drawn again with its margin, from chunks
    app.render()
    assert view.map_cache.builds > 0 and view._layer_margin == battle_draw.VIEW_MARGIN
    assert pygame.image.tobytes(app.screen, "RGB") == first  # the same pixels on the screen
