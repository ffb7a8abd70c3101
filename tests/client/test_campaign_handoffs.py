"""The campaign window's hand-offs as the players meet them (a QA walkthrough's findings),
headless with real pygame events: nothing of one power's unsealed orders shows to another at a
proposal to fight a battle out, no hover state crosses a hand-off, and the hand-off names what
the next player will do."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game import paths  # noqa: E402
from tests.client.clientfix import press_button, top_name  # noqa: E402
from tests.client.test_campaign_client import _app as _campaign_app  # noqa: E402
from tests.client.test_campaign_client import key, play_to_orders, through_handoff  # noqa: E402


@pytest.fixture()
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path))
    return tmp_path


def _app() -> tuple[Any, Any]:
    return _campaign_app()


def _frame(app: Any) -> str:
    app.render()
    return hashlib.sha256(pygame.image.tobytes(app.screen, "RGB")).hexdigest()


def _to_proposer(app: Any, scene: Any, proposer: str) -> None:
    """Play to the orders; the powers before `proposer` seal theirs (Enter)."""
    play_to_orders(app, scene)
    for _ in range(4):
        through_handoff(app)
        if scene.viewer == proposer:
            return
        key(app, pygame.K_RETURN)
    raise AssertionError(f"{proposer} never came to the screen")


def _question_frame(proposer: str, manoeuvre_key: int, scale: str) -> tuple[str, list[str], Any, Any]:
    """(the frame under the proposal's question, the map's strings drawn with it, app, scene)."""
    app, scene = _app()
    _to_proposer(app, scene, proposer)
    key(app, manoeuvre_key)
    press_button(app, f"Propose: {scale}")
    assert top_name(app) == "handoff"
    key(app, pygame.K_SPACE)
    assert top_name(app) == "battle_proposal"
    frame = _frame(app)
    return frame, list(scene.drawn_strings), app, scene


@pytest.mark.parametrize("scale", ["tactical", "mass"])
@pytest.mark.parametrize("proposer", ["zones", "jibril"])
def test_the_proposal_question_shows_nothing_of_the_proposers_unsealed_orders(
        saves: Path, proposer: str, scale: str) -> None:
    # the QA run: the Zones chose Shock Attack, proposed a tactical battle, and Jibril's
    # Agree / Refuse question sat over the Zones' orders panel (dimmed but readable)
    shock, strings, _app1, scene = _question_frame(proposer, pygame.K_6, scale)
    defend, _strings, _app2, _scene2 = _question_frame(proposer, pygame.K_2, scale)
    assert strings == []  # the map and the side panel are not drawn under the question
    assert shock == defend  # the same screen whatever the proposer had chosen
    assert scene.orders_panel is None or scene._lent is not None


def test_after_a_refusal_the_proposer_gets_the_screen_back_through_one_hand_off(saves: Path) -> None:
    _frame1, _s, app, scene = _question_frame("zones", pygame.K_6, "tactical")
    press_button(app, "Refuse")
    assert top_name(app) == "handoff"  # "Jibril refused. Pass the screen back to The Zones."
    key(app, pygame.K_SPACE)
    app.step([])
    assert app.scenes.top is scene  # no second hand-off for the same pass
    app.render()
    assert any("Orders for battle B1" in s for s in scene.drawn_strings)
    assert scene.orders_panel is not None and scene.orders_panel.orders.manoeuvre == "shock_attack"


def test_when_an_agreed_battle_cannot_be_opened_the_screen_goes_back_through_a_hand_off(
        saves: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _frame1, _s, app, scene = _question_frame("zones", pygame.K_6, "tactical")
    monkeypatch.setattr(scene.fight, "choose", lambda *a, **k: False)  # e.g. the campaign could not be saved
    press_button(app, "Agree")
    app.step([])
    assert top_name(app) == "handoff"  # Jibril is still at the screen: it goes back to the Zones first
    assert app.scenes.top.side_name == "The Zones"
    key(app, pygame.K_SPACE)
    app.render()
    assert any("Orders for battle B1" in s for s in scene.drawn_strings)


def _buttons(scene: Any) -> list[Any]:
    import pygame_gui

    return [el for el in scene.ui.get_sprite_group().sprites() if isinstance(el, pygame_gui.elements.UIButton)]


def test_the_next_players_order_screen_shows_no_hover_left_by_the_pointer_of_the_last(saves: Path) -> None:
    # the QA run: the Zones clicked "6 Shock Attack" and sealed with Enter; Jibril's screen opened
    # with the pointer still there, its button lit and its tooltip up
    app, scene = _app()
    _to_proposer(app, scene, "zones")
    shock = next(b for b in _buttons(scene) if b.text == "6 Shock Attack")
    pygame.mouse.set_pos(shock.rect.center)
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=shock.rect.center, rel=(1, 0), buttons=(0, 0, 0))])
    for _ in range(30):  # long enough for the tooltip
        app.step([])
    assert any(b.hovered for b in _buttons(scene))  # (the pointer is really over it)
    key(app, pygame.K_6)
    key(app, pygame.K_RETURN)  # sealed: the hand-off to the Resistance Fronts
    assert top_name(app) == "handoff"
    key(app, pygame.K_SPACE)
    assert scene.viewer != "zones" and app.scenes.top is scene
    for _ in range(30):
        app.step([])
    assert not any(b.hovered for b in _buttons(scene))
    assert all(b.tool_tip is None for b in _buttons(scene))
    # the pointer moves: hovering works again
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=shock.rect.center, rel=(1, 0), buttons=(0, 0, 0))])
    app.step([])
    assert any(b.hovered for b in _buttons(scene))
