"""A power keeps its campaign colour when a battle is fought out from the campaign window (issue 28
item 6): the hand-off screens of a proposal are each in the colour of the player the screen passes
to, and the tactical battle that opens gives each side its power's campaign colour."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import paths  # noqa: E402
from game.core.palette import rgb  # noqa: E402
from tests.client.clientfix import key, press_button, top_name  # noqa: E402
from tests.client.test_campaign_client import _app, play_to_orders, through_handoff  # noqa: E402


@pytest.fixture()
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path))
    return tmp_path


def test_a_proposals_hand_offs_are_each_in_the_receiving_powers_campaign_colour(saves: Path) -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    assert scene.viewer == "zones"
    press_button(app, "Propose: tactical")
    assert top_name(app) == "handoff"
    assert app.scenes.top.colour == rgb(scene.state.cs.colour_of("jibril"))  # type: ignore[union-attr]
    key(app, pygame.K_SPACE)
    press_button(app, "Refuse")
    assert top_name(app) == "handoff"  # back to the Zones, in their colour
    assert app.scenes.top.colour == rgb(scene.state.cs.colour_of("zones"))  # type: ignore[union-attr]
    assert rgb(scene.state.cs.colour_of("zones")) != rgb(scene.state.cs.colour_of("jibril"))


def test_a_battle_fought_out_opens_with_each_side_in_its_powers_campaign_colour(saves: Path) -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    press_button(app, "Propose: tactical")
    key(app, pygame.K_SPACE)
    press_button(app, "Agree")
    battle = next(s for s in app.scenes if getattr(s, "session", None) is not None
                  and s.session.system.name == "ail-tactical")
    sides = {s.id: tuple(s.colour) for s in battle.session.state.setup.sides}
    assert sides == {p: rgb(scene.state.cs.colour_of(p)) for p in ("zones", "jibril")}
