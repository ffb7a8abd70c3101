"""GM mode over a battle whose unit was being moved (QA at 960x600): the move's tints said a click
would move the unit, and the side panel's buttons (Dash, Give Leadership) looked live but a click
on one did nothing and said nothing."""

from __future__ import annotations

from typing import Any

import pygame

from game.systems.tactical.client.modes import MoveMode, SelectMode
from tests.client.clientfix import battle, click_at, click_hex, key, make_app, make_session, settle


def _app() -> Any:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 4))],
                           phase="movement")
    sides = dict(session.state.sides)
    sides["blue"] = sides["blue"].model_copy(update={"advantage": {**sides["blue"].advantage, "leadership": 2}})
    session.state = session.state.model_copy(update={"sides": sides})
    return make_app(session, size=(960, 600), blackout=False)


def test_opening_gm_mode_leaves_the_units_move_so_its_tints_do_not_promise_a_move() -> None:
    app = _app()
    scene = battle(app)
    click_hex(app, scene.state.units["r1"].hex)
    assert isinstance(scene.mode, MoveMode)
    key(app, pygame.K_F2)
    assert isinstance(scene.mode, SelectMode) and scene.selected == "r1"


def test_a_click_on_the_battles_own_button_in_gm_mode_says_why_it_waits() -> None:
    app = _app()
    scene = battle(app)
    click_hex(app, scene.state.units["r1"].hex)
    key(app, pygame.K_F2)
    gm = app.scenes.top
    settle(app, 2)
    give = next(el for el in scene.ui.get_sprite_group().sprites()
                if getattr(el, "text", "").startswith("Give Leadership") and el.visible)
    before = len(scene.session.history)
    click_at(app, give.rect.center)
    assert len(scene.session.history) == before  # nothing played
    assert gm.message == f"'{give.text}' is the battle's, not the GM's: F2 leaves GM mode, then press it."


def test_a_unit_the_gm_places_is_selected_so_the_panel_edits_it_next() -> None:
    app = _app()
    scene = battle(app)
    key(app, pygame.K_F2)
    gm = app.scenes.top
    gm.press("tool:place")
    target = scene.state.board.hex_at(5, 5)
    assert scene.state.unit_at(target) is None
    click_hex(app, target)
    placed = scene.state.unit_at(target)
    assert placed is not None and scene.selected == placed.id
    assert gm.message.startswith("GM: places")  # what was done, still said
    strength = placed.strength
    gm.press("str-")
    assert scene.state.units[placed.id].strength == strength - 1


def test_the_battles_keys_in_gm_mode_act_or_say_why_they_wait() -> None:
    app = _app()
    key(app, pygame.K_F2)
    gm = app.scenes.top
    key(app, pygame.K_h)  # the hint is the game's
    assert gm.message == "H (hint) is the game's, not GM mode's: F2 leaves GM mode first."
    key(app, pygame.K_TAB)
    assert gm.message.startswith("Tab or N (next unit that can still act) is the game's")
    key(app, pygame.K_e)  # as the top bar's End button says
    assert gm.message == "The phase ends from the game's screen: F2 leaves GM mode, then E."
    key(app, pygame.K_o)  # the options open, as the top bar's Options button does
    assert app.scenes.top.name != "gm"
    key(app, pygame.K_ESCAPE)
    assert app.scenes.top.name == "gm"
    key(app, pygame.K_p)  # the players dialog: the GM's to change
    assert app.scenes.top.name != "gm"
