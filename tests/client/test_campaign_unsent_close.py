"""A story post typed or orders chosen in part on the campaign map are not lost unasked by the
ways to quit that do not go through the map's own keys: the window's close button, and Esc or
Ctrl+Q on the hand-off screen that comes up between players while the draft is kept in the map
underneath. The question names what would be lost; "Back to the game" keeps it. A terminate
signal still quits after its recovery save, and names the draft on stderr as lost."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pygame
import pytest

from game import paths
from game.shell import actions
from tests.client.test_campaign_client import key, open_gm, through_handoff
from tests.client.test_campaign_unsent import STORY, _half_chosen_orders, _typed_post

POST = "The Zones: a story post typed, not posted"
ORDERS = "The Zones: orders for battle B1 chosen in part, not sealed"


@pytest.fixture(autouse=True)
def saves_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def _close(app: Any) -> None:
    app.step([pygame.event.Event(pygame.QUIT)])
    app.render()


def _ctrl_q(app: Any) -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=pygame.KMOD_CTRL, unicode="", scancode=0)])
    app.render()


def _orders_behind_the_hand_off() -> tuple[Any, Any]:
    """The Zones' orders chosen in part; the GM view opened and left, so the hand-off back to the
    Zones is up with the orders kept in the map under it; every move saved."""
    app, scene = _half_chosen_orders()
    open_gm(app)
    key(app, pygame.K_g)
    assert app.scenes.top.name == "handoff" and scene.unsent()
    actions.mark_saved(scene.session)
    return app, scene


def test_the_close_button_with_a_typed_post_and_no_unsaved_play_asks_and_back_keeps_the_text() -> None:
    app, scene = _typed_post()
    key(app, pygame.K_ESCAPE)  # (the box lets go of the keyboard)
    _close(app)  # it used to quit at once
    question = app.scenes.top
    assert app.running and question.name == "unsent_question" and POST in question.body_text
    key(app, pygame.K_RETURN)  # Back to the game
    assert app.running and app.scenes.top is scene and scene.text_entry.get_text() == STORY


def test_the_close_button_with_the_box_still_typing_keeps_what_was_typed() -> None:
    app, scene = _typed_post()  # the box has the keyboard: the close button is not a key
    _close(app)
    assert app.scenes.top.name == "unsent_question" and POST in app.scenes.top.body_text
    app.scenes.top.choose_label("Back to the game")
    assert scene.text_entry.get_text() == STORY


def test_the_close_button_with_unsaved_play_asks_about_the_post_then_the_play() -> None:
    app, scene = _typed_post()
    key(app, pygame.K_ESCAPE)
    scene.session.saved_steps = 0  # moves since the last save
    _close(app)
    assert app.scenes.top.name == "unsent_question"  # it used to ask about the moves only
    app.scenes.top.choose_label("Quit anyway")
    quit_dialog = app.scenes.top
    assert quit_dialog.name == "quit_dialog" and POST in quit_dialog.body_text
    quit_dialog.choose_label("Keep playing")
    assert app.running and app.scenes.top is scene and scene.text_entry.get_text() == STORY


def test_esc_on_the_hand_off_asks_before_losing_the_orders_under_it_and_back_keeps_them() -> None:
    app, scene = _orders_behind_the_hand_off()
    key(app, pygame.K_ESCAPE)  # it used to quit at once
    question = app.scenes.top
    assert app.running and question.name == "unsent_question" and ORDERS in question.body_text
    key(app, pygame.K_ESCAPE)  # the question's Esc: Back to the game
    assert app.scenes.top.name == "handoff"  # the map still hidden
    through_handoff(app)
    assert scene.viewer == "zones" and scene.orders_panel.orders.manoeuvre == "block"


def test_ctrl_q_on_the_hand_off_asks_and_quit_anyway_quits() -> None:
    app, scene = _orders_behind_the_hand_off()
    _ctrl_q(app)
    assert app.scenes.top.name == "unsent_question" and ORDERS in app.scenes.top.body_text
    app.scenes.top.choose_label("Quit anyway")
    assert not app.running


def test_esc_on_the_map_asks_once_about_the_post_then_once_about_the_play() -> None:
    app, scene = _typed_post()
    key(app, pygame.K_ESCAPE)
    scene.session.saved_steps = 0
    key(app, pygame.K_ESCAPE)
    assert [s.name for s in app.scenes][1:] == ["unsent_question"]
    app.scenes.top.choose_label("Quit anyway")
    assert [s.name for s in app.scenes][1:] == ["quit_dialog"]
    app.scenes.top.choose_label("Quit")
    assert not app.running


def test_a_terminate_signal_quits_after_its_recovery_save_and_names_the_lost_post(
        capsys: pytest.CaptureFixture[str]) -> None:
    app, scene = _typed_post()
    key(app, pygame.K_ESCAPE)
    app.terminate(signal.SIGTERM)
    app.step([])
    assert not app.running  # no unsaved play: it does not wait on the draft's question
    assert f"SIGTERM: not sent, and not kept: {POST}" in capsys.readouterr().err
