"""Animations from the rules' events: slides along paths, shots, floating text; speed settings."""

from __future__ import annotations

import pytest

from game.core.hexgrid import Hex
from game.shell.anim import AnimQueue, FloatText, Slide
from game.systems.tactical.rules.events import (
    AttackResolved,
    MarkerAdded,
    OverwatchFired,
    RollMade,
    StrengthLost,
    UnitDestroyed,
    UnitMoved,
)
from tests.client.clientfix import battle, click_hex, make_app, make_session

PATH = [Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0), Hex(4, 0)]


def world(h: Hex) -> tuple[float, float]:
    return (h.q * 100.0, h.r * 100.0)


def test_a_dash_under_fire_slides_to_the_shot_then_shows_the_hit_then_the_rest() -> None:
    events = [
        OverwatchFired(watcher_id="w", target_id="u", weapon="rifle", at=PATH[2], step=2),
        RollMade(label="hit", die_sides=10, die=9, total=9),
        AttackResolved(attacker_id="w", target_id="u", weapon="rifle", hits=1, damages=["full"],
                       strength_lost=1, result="pinned", mode="overwatch"),
        StrengthLost(unit_id="u", points=1, left=5),
        MarkerAdded(unit_id="u", marker="pinned"),
        UnitMoved(unit_id="u", path=PATH[:3], mode="dash", cost=2, stopped=True),
    ]
    q = AnimQueue()
    q.load(events, world, lambda uid: Hex(5, 5) if uid == "w" else PATH[2], 1.0)
    kinds = [[type(p).__name__ for p in beat.parts] for beat in q.beats]
    assert kinds[0] == ["Slide"]
    first = q.beats[0].parts[0]
    assert isinstance(first, Slide) and first.points == [world(h) for h in PATH[:3]]
    assert "Shot" in kinds[1]
    texts = [p.text for beat in q.beats for p in beat.parts if isinstance(p, FloatText)]
    assert "Overwatch!" in texts and "1 hit" in texts and "-1 strength" in texts and "PINNED" in texts
    # before anything plays, the mover is drawn at its start, not at its final hex
    assert q.unit_position("u") == world(PATH[0])
    q.update(0.14)  # one hex of the slide
    assert q.unit_position("u") == pytest.approx(world(PATH[1]))
    q.update(100)
    assert not q.busy and q.unit_position("u") is None


def test_destroyed_units_stay_drawn_until_their_destruction_plays() -> None:
    before = {"t": type("U", (), {"hex": Hex(3, 3)})()}
    events = [AttackResolved(attacker_id="a", target_id="t", weapon="gun", hits=3, damages=["full"] * 3,
                             strength_lost=3, result="destroyed"),
              UnitDestroyed(unit_id="t")]
    q = AnimQueue()
    q.load(events, world, lambda uid: Hex(0, 0) if uid == "a" else None, 1.0, before)
    assert "t" in q.ghosts
    q.update(q.beats[0].duration + 0.01)  # the hit text has played; the destruction starts
    q.update(0.0)
    assert "t" not in q.ghosts


def test_instant_animation_builds_nothing_and_fast_is_shorter_than_normal() -> None:
    events = [UnitMoved(unit_id="u", path=PATH, mode="move", cost=4)]
    instant, fast, normal = AnimQueue(), AnimQueue(), AnimQueue()
    instant.load(events, world, lambda uid: PATH[-1], 0.0)
    fast.load(events, world, lambda uid: PATH[-1], 0.35)
    normal.load(events, world, lambda uid: PATH[-1], 1.0)
    assert not instant.busy
    assert 0 < fast.beats[0].duration < normal.beats[0].duration


def test_in_the_window_a_moved_unit_slides_along_its_path() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="movement")
    app = make_app(session, blackout=False)
    app.settings.animation = "normal"
    scene = battle(app)
    start = session.state.units["r1"].hex
    click_hex(app, start)
    dest = session.board.hex_at(5, 2)
    # post the click and run exactly one short frame
    import pygame

    from tests.client.clientfix import hex_pos, post
    pos = hex_pos(app, dest)
    post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
         pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.step(dt=0.01)
    assert session.state.units["r1"].hex == dest  # the rules state is final at once
    assert scene.anim.busy
    x, _ = scene.unit_world("r1")
    sx, _ = scene.layout.hex_center(start)
    dx, _ = scene.layout.hex_center(dest)
    assert sx <= x < dx  # drawn on its way
    app.render()
    for _ in range(200):
        app.step(dt=0.02)
    assert not scene.anim.busy
    assert scene.unit_world("r1") == scene.layout.hex_center(dest)
