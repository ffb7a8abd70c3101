"""Nothing typed or chosen on the campaign map and not sent yet is thrown away by a key: Esc lets
go of the post box keeping its text, stops picking a hex keeping the orders, and asks before
quitting while a post is typed or orders are chosen in part (even with no unsaved play, when the
shell's Esc quits at once); Ctrl+Q asks too; the typed post and the orders being chosen survive
the panel being rebuilt (E, a resize, the GM view); Done posting with a typed post asks first."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pygame
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game import paths  # noqa: E402
from game.shell import actions  # noqa: E402
from tests.client.test_campaign_client import (  # noqa: E402
    _app,
    click,
    key,
    open_gm,
    play_to_orders,
    play_to_posts,
    through_handoff,
)

STORY = "The Zones hold the ford at dawn"


@pytest.fixture(autouse=True)
def saves_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def _typed_post() -> tuple[Any, Any]:
    """The Zones' post box with a story typed in it, every move saved (Esc alone would quit)."""
    app, scene = _app()
    play_to_posts(app, scene)
    actions.mark_saved(scene.session)
    click(app, scene.text_entry.rect.center)
    assert scene.typing()
    scene.text_entry.set_text("")
    for ch in STORY:
        app.step([pygame.event.Event(pygame.TEXTINPUT, text=ch)])
    assert scene.text_entry.get_text() == STORY
    return app, scene


def _half_chosen_orders() -> tuple[Any, Any]:
    """The Zones' sealed-orders screen with Block chosen (not sealed), every move saved."""
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    assert scene.viewer == "zones" and scene.orders_panel is not None
    key(app, pygame.K_3)
    assert scene.orders_panel.orders.manoeuvre == "block"
    actions.mark_saved(scene.session)
    return app, scene


def test_esc_twice_from_a_typed_post_with_no_unsaved_play_asks_before_quitting_and_keeps_the_text() -> None:
    app, scene = _typed_post()
    key(app, pygame.K_ESCAPE)  # lets go of the box
    assert app.running and app.scenes.top is scene and not scene.typing()
    assert scene.text_entry.get_text() == STORY
    key(app, pygame.K_ESCAPE)  # would quit at once: no unsaved play
    assert app.running and app.scenes.top.name == "unsent_question"
    assert "The Zones: a story post typed, not posted" in app.scenes.top.body_text
    key(app, pygame.K_ESCAPE)  # the question's Esc: back to the game
    assert app.running and app.scenes.top is scene and scene.text_entry.get_text() == STORY


def test_quit_anyway_from_the_question_quits() -> None:
    app, scene = _typed_post()
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_ESCAPE)
    app.scenes.top.choose_label("Quit anyway")
    assert not app.running


def test_ctrl_q_with_a_typed_post_asks_first() -> None:
    app, scene = _typed_post()
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q, mod=pygame.KMOD_CTRL, unicode="", scancode=0)])
    assert app.running and app.scenes.top.name == "unsent_question"


def test_the_typed_post_survives_the_panel_being_rebuilt() -> None:
    app, scene = _typed_post()
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_e)  # the planner toggled: the panel's widgets are made afresh
    app.resize((960, 600))
    assert scene.text_entry.get_text() == STORY


def test_done_posting_with_a_typed_post_asks_first_and_post_then_done_posts_it() -> None:
    app, scene = _typed_post()
    key(app, pygame.K_ESCAPE)
    posts = len(scene.state.posts)
    key(app, pygame.K_RETURN)  # Done posting
    assert app.scenes.top.name == "done_posting" and "zones" not in scene.state.narrative_done
    key(app, pygame.K_RETURN)  # Post, then done
    assert [p.text for p in scene.state.posts[posts:]] == [STORY]
    assert "zones" in scene.state.narrative_done


def test_esc_with_orders_chosen_in_part_and_no_unsaved_play_asks_before_quitting() -> None:
    app, scene = _half_chosen_orders()
    key(app, pygame.K_ESCAPE)
    assert app.running and app.scenes.top.name == "unsent_question"
    assert "orders for battle" in app.scenes.top.body_text
    key(app, pygame.K_RETURN)  # Back to the game
    assert app.scenes.top is scene and scene.orders_panel.orders.manoeuvre == "block"


def test_esc_with_nothing_typed_or_chosen_and_no_unsaved_play_still_quits_at_once() -> None:
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    actions.mark_saved(scene.session)
    key(app, pygame.K_ESCAPE)
    assert not app.running


def test_esc_while_picking_a_hex_stops_picking_and_keeps_the_orders() -> None:
    app, scene = _half_chosen_orders()
    key(app, pygame.K_1)  # Withdraw: a hex to pick
    panel = scene.orders_panel
    panel.picking = "withdraw"
    key(app, pygame.K_ESCAPE)
    assert app.running and app.scenes.top is scene
    assert panel.picking is None and panel.orders.manoeuvre == "withdraw"


def test_the_orders_being_chosen_survive_the_gm_view() -> None:
    app, scene = _half_chosen_orders()
    open_gm(app)
    assert scene.gm
    key(app, pygame.K_g)  # leave it: the screen goes back to the Zones through a hand-off
    through_handoff(app)
    assert not scene.gm and scene.viewer == "zones"
    assert scene.orders_panel is not None and scene.orders_panel.orders.manoeuvre == "block"
