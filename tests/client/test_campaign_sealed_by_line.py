"""The campaign panel's battle lines say who has sealed orders in every battle (who, never what:
the rules' `sealed_by`, public, as the log's 'X seals orders for B2'). They read the viewer's view,
which holds only the viewer's own orders, so another battle said 'no one yet' after its players
had sealed."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game import paths  # noqa: E402
from tests.client.test_campaign_client import _app, key, play_to_orders, through_handoff  # noqa: E402


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def test_another_battles_line_names_who_sealed_and_never_what() -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    key(app, pygame.K_5)  # the Zones: Attack in B1
    key(app, pygame.K_RETURN)
    through_handoff(app)
    key(app, pygame.K_1)  # the Resistance: Withdraw in B2
    key(app, pygame.K_RETURN)
    through_handoff(app)
    scene.viewer = "zones"  # (the Zones' screen, waiting for the others: no orders of theirs to give)
    scene._build()
    app.render()
    assert scene.orders_panel is None
    shown = " ".join(" ".join(scene.drawn_strings).split())  # (wrapped lines joined)
    assert "Resistance Fronts vs Zenith Empire · orders sealed by: Resistance Fronts" in shown  # not 'no one yet'
    assert "The Zones vs Jibril · orders sealed by: The Zones" in shown
    assert "Withdraw" not in shown  # who sealed, never what


def test_the_panel_heading_is_whole_at_960x600_however_long_the_players_name(monkeypatch: pytest.MonkeyPatch) -> None:
    from game.shell.app import App, Settings
    from game.shell.launch import open_game, scene_for
    from game.systems.campaign.rules.state import CampaignState
    from game.table import TABLE

    app = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    scene: Any = scene_for(app, open_game(TABLE, "maps/campaign/teaching.yaml"))
    app.push(scene)
    through_handoff(app)
    named = CampaignState.player_name
    monkeypatch.setattr(CampaignState, "player_name", lambda self, pid: "The Most Serene Resistance Fronts of the "
                        "Isle" if pid == scene.viewer else named(self, pid))
    scene.session.state = scene.state.model_copy(update={"week": 12})
    app.render()
    from game.shell.fonts import font

    text, head = next((t, r) for t, r in scene.drawn_rects if t.startswith("Week 12:"))
    assert " · The Most Serene" in text  # the name, cut at a word when it cannot be whole
    assert head.x + min(font(s, True).size(text)[0] for s in (13, 15)) <= 960, (text, head)  # (blit clips its rect)
