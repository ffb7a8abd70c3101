"""A mass battle fought out from the campaign (the GM's Battle panel, "Fight: mass"), played to its
end on the mass board: hand-offs only before its sealed choices, the battle-over summary with the
way back to the campaign, and the way back taken."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.systems.mass.client import MassBoardScene
from tests.client.clientfix import press_button, top_name
from tests.client.test_campaign_client import _app, key, open_gm, play_to_orders, through_handoff


@pytest.fixture
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path))
    return tmp_path


def test_a_mass_battle_from_the_campaign_is_played_to_its_end_and_the_summary_leads_back(saves: Path) -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    open_gm(app)
    key(app, pygame.K_b)  # the battle B2
    press_button(app, "Fight: mass")
    board = next(s for s in app.scenes if isinstance(s, MassBoardScene))
    session = board.session
    handoffs = 0
    for _ in range(3000):
        if session.state.stage == "ended":
            break
        if top_name(app) == "handoff":
            handoffs += 1
            key(app, pygame.K_SPACE)
            continue
        quiet = [i for i, c in enumerate(board.legal)
                 if c.kind not in ("surrender", "cede") and getattr(c, "action", "") != "flee"]
        board.choose(quiet[0])
        key(app, pygame.K_RETURN)
    assert session.state.stage == "ended"
    secret = sum(1 for st in session.history if session.system.sealed(st.before, st.command))  # type: ignore[attr-defined]
    assert handoffs <= secret
    assert board.apply_button is None and board.summary_fits
    back = next(b for b, k in board.end_buttons.items() if k == "back")
    assert back.text == (session.return_label or "Back to the campaign")
    assert {b.text for b in board.end_buttons} == {back.text, "Save", "New battle", "Quit"}
    press_button(app, back.text)
    assert top_name(app) == "battle_return"  # the campaign asks to apply the battle's result
