"""After a hand-off the tactical client shows the battle as the side on screen may see it
(`session.view(side)`, as the campaign client does): no dice generator state and no GM-forced
rolls reach what it draws, and for everything a side may see, the screen is the same as when it
was drawn from the whole state."""

from __future__ import annotations

import pygame
import pytest

from game.systems.tactical.rules.system import AILSystem
from tests.client.clientfix import battle, click_hex, continue_handoff, hover_hex, make_app, make_session

UNITS = [("r1", "rifle_section", "blue", (2, 3)), ("a1", "armoured_infantry", "red", (6, 3))]
SHOWN = ("status", "hint", "unit", "info", "log")


def _play(monkeypatch: pytest.MonkeyPatch | None) -> tuple[dict[str, str], bytes, object]:
    if monkeypatch is not None:  # the screen as it was drawn before: from the whole state
        monkeypatch.setattr(AILSystem, "view", lambda self, state, side: state)
    session = make_session(UNITS, phase="attack", forced=[9, 4])
    app = make_app(session)
    continue_handoff(app)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    hover_hex(app, session.state.units["a1"].hex)
    app.step()
    shown = {k: scene.panels.shown(k) for k in SHOWN}
    return shown, pygame.image.tobytes(app.render(), "RGB"), scene


def test_after_the_hand_off_the_scene_shows_the_sides_view_without_the_dice_to_come() -> None:
    _, _, scene = _play(None)
    assert scene.viewer == "blue"  # type: ignore[attr-defined]
    real = scene.session.state  # type: ignore[attr-defined]
    assert real.forced_rolls == (9, 4) and real.rng != 0
    seen = scene.state  # type: ignore[attr-defined]
    assert seen is not real and seen.forced_rolls == () and seen.rng == 0
    assert seen.units == real.units and seen.sides == real.sides


def test_what_the_side_sees_is_what_it_saw_before_the_view_for_the_visible_parts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    with_view, picture, _ = _play(None)
    assert "Accuracy Challenge" in with_view["info"]  # the attack preview is up
    whole, picture_whole, _ = _play(monkeypatch)
    assert with_view == whole
    assert picture == picture_whole
