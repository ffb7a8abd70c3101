"""Frame benchmark: the real battle scene on the 100 x 100 map with 300 units, headless.

A unit is selected (its reach overlay is up), the mouse hovers a hex in its reach (path, cost and
overwatch markers drawn) and the side panels are shown. One frame is what `App.run` does per
frame: `step` (events, update), `render` and `pygame.display.flip`. The baseline frame is one
pre-rendered 1280 x 800 surface blitted and flipped. Idle frames, panning frames (an arrow key
held) and baseline frames are timed interleaved in blocks so that machine noise hits them alike.
Zoom: the first frame after a wheel step, which rebuilds the cached map layer for the new level.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import pygame

from game.bench.harness import Figure, ms, real_display
from game.shell.app import App, Settings
from game.shell.launch import layout_of
from game.systems.tactical.client.battle import BattleScene
from game.systems.tactical.client.plugin import tactical_session
from game.systems.tactical.plugin import alone
from game.systems.tactical.rules import initial_state, move_reach
from game.systems.tactical.rules.state import TurnSlot

SIZE = (1280, 800)


def _session(battle: Any) -> Any:
    order = (TurnSlot(side="blue"), TurnSlot(side="red"))
    state = initial_state(battle.setup, battle.board, 1).model_copy(
        update={"phase": "movement", "turn_order": order, "turn_index": 0, "pending": None})
    return tactical_session(battle.setup, battle.board, layout_of(battle.map_data), 1, state=state,
                            map_data=battle.map_data)


def _pick_unit(session: Any) -> str:
    """A blue unit near the middle of the map, so that the view is full of map and units."""
    st = session.state
    cx, cy = st.board.width // 2, st.board.height // 2
    blue = [u for u in st.live_units("blue")]
    best = min(blue, key=lambda u: (abs(st.board.offset_of(u.hex)[0] - cx) + abs(st.board.offset_of(u.hex)[1] - cy),
                                    u.id))
    return str(best.id)


def run(battle: Any, *, quick: bool = False, log: Callable[[str], None] = print) -> list[Figure]:
    display = real_display()
    if not display:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    where = "real display: frames include the flip" if display else \
        "NO real display (SDL dummy driver): flips cost nothing here"

    session = _session(battle)

    app = App(alone(), size=SIZE, headless=not display, settings=Settings(animation="instant", blackout=False))
    scene = BattleScene(app, session)
    app.scenes.push(scene)
    pygame.event.clear()

    def frame(events: list[Any] | None = None) -> None:
        app.step(events or [])
        app.render()
        pygame.display.flip()

    t0 = time.perf_counter()
    frame()
    first = time.perf_counter() - t0
    uid = _pick_unit(session)
    scene.camera.centre_on(*scene.unit_world(uid))
    frame()
    ux, uy = scene.camera.world_to_screen(*scene.unit_world(uid))
    pos = (round(ux), round(uy))
    frame([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
           pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
           pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)])
    reach = move_reach(session.state, uid)
    far = max(sorted(reach.costs), key=lambda h: reach.costs[h])
    hx, hy = scene.camera.world_to_screen(*scene.layout.hex_center(far))
    frame([pygame.event.Event(pygame.MOUSEMOTION, pos=(round(hx), round(hy)), rel=(0, 0), buttons=(0, 0, 0))])
    for _ in range(3):
        frame()
    selected = scene.selected == uid
    overlay = scene.map_view.overlay_shown  # the benchmark checks the overlay is really up
    log(f"  frame: {len(session.state.units)} units, selected {uid}: {selected}, reach overlay: {overlay}, "
        f"map {scene.layout.map_pixel_size[0]}x{scene.layout.map_pixel_size[1]} px")

    # baseline: one pre-rendered surface blitted and flipped
    screen = app.screen
    pre = app.render().copy().convert()

    def baseline() -> None:
        screen.blit(pre, (0, 0))
        pygame.display.flip()

    pan_dir = [pygame.K_RIGHT]

    blocks = 4 if quick else 10
    per_block = 15 if quick else 30
    idle_t: list[float] = []
    pan_t: list[float] = []
    base_t: list[float] = []
    for b in range(blocks):
        for _ in range(per_block):
            t0 = time.perf_counter()
            baseline()
            base_t.append(time.perf_counter() - t0)
        for _ in range(per_block):
            t0 = time.perf_counter()
            frame()
            idle_t.append(time.perf_counter() - t0)
        key = pan_dir[0]
        frame([pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0)])
        for _ in range(per_block):
            t0 = time.perf_counter()
            frame()
            pan_t.append(time.perf_counter() - t0)
        frame([pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode="", scancode=0)])
        pan_dir[0] = pygame.K_LEFT if b % 2 == 0 else pygame.K_RIGHT
    base = statistics.median(base_t)
    idle = statistics.median(idle_t)
    pan = statistics.median(pan_t)

    # zoom: first frame after one wheel step (cache rebuilt), each way, a few times
    zoom_times: list[float] = []
    build_times: list[float] = []
    centre = scene.camera.view_x + scene.camera.view_w // 2, scene.camera.view_y + scene.camera.view_h // 2
    steps = [1, -1, -1, 1] * (1 if quick else 2)
    for s in steps:
        scene.map_cache.clear()
        builds = scene.map_cache.builds + scene.map_cache.paints  # chunks made, or the view painted alone
        ev = pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=s, flipped=False, precise_x=0.0, precise_y=float(s))
        pygame.mouse.set_pos(centre)
        t0 = time.perf_counter()
        frame([ev])
        zoom_times.append(time.perf_counter() - t0)
        drawn = scene.map_cache.builds + scene.map_cache.paints - builds
        if not drawn:
            log("  frame: the wheel did not rebuild the map layer (zoom not handled?)")
        build_times.append(float(drawn))
    zoom = statistics.median(zoom_times)
    pygame.quit()
    return [
        Figure("frame: idle frame / baseline frame (100x100 map, 300 units, reach overlay, panels)", idle / base,
               3.0, "ratio_max", details={"idle ms": ms(idle), "baseline ms": ms(base), "idle fps": 1 / idle}, note=where),
        Figure("frame: panning frame / baseline frame", pan / base, 3.0, "ratio_max",
               details={"panning ms": ms(pan), "baseline ms": ms(base), "panning fps": 1 / pan,
                        "slowest panning frame ms": ms(max(pan_t))}),
        Figure("frame: slowest of idle and panning, frames per second", 1 / max(idle, pan), 60.0, "min",
               unit=" fps"),
        Figure("frame: zoom step (first frame after the wheel, map layer rebuilt)", ms(zoom), 150.0, "max",
               unit=" ms", details={"worst zoom frame ms": ms(max(zoom_times)),
                                    "map pieces drawn per step (chunks, or the view painted alone)":
                                        statistics.median(build_times),
                                    "first battle frame ms (whole map drawn once)": ms(first)}),
    ]
