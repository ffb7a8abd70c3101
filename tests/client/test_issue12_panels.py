"""The side panel, the hand-off and the messages as a newcomer meets them (issue 12, items 5-10),
driven by real pygame events: only a deliberate key or the button passes the hand-off, the dice
log reads an attack top down, the panel fits a 960x600 window with no empty band, the end button
names the phase, and a click on water says why the unit cannot go there."""

from __future__ import annotations

import pygame

from game.shell.scenes.handoff import HandoffScene
from game.shell.toolkit.richtext import plain
from game.systems.tactical.client import rq
from tests.client.clientfix import battle, click_at, click_hex, key, make_app, make_session, settle, top_name


def _handoff_app():  # type: ignore[no-untyped-def]
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="movement")
    app = make_app(session, blackout=True)
    settle(app)
    assert top_name(app) == "handoff"
    return app


def test_a_stray_key_or_click_does_not_pass_the_handoff_but_enter_does() -> None:
    app = _handoff_app()
    for k in (pygame.K_a, pygame.K_ESCAPE, pygame.K_e, pygame.K_TAB):
        key(app, k)
        assert top_name(app) == "handoff", k  # the map stays hidden
    click_at(app, (20, 20))  # a click away from the button
    assert top_name(app) == "handoff"
    key(app, pygame.K_RETURN)
    assert top_name(app) == "battle"


def test_the_handoff_passes_on_a_click_on_its_button_or_on_space() -> None:
    app = _handoff_app()
    top = app.scenes.top
    assert isinstance(top, HandoffScene)
    click_at(app, top.button.rect.center)
    assert top_name(app) == "battle"
    app2 = _handoff_app()
    key(app2, pygame.K_SPACE)
    assert top_name(app2) == "battle"


def test_the_dice_log_groups_an_attack_under_its_command_in_the_order_rolled() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (5, 2))],
                           phase="attack", rule_changes={"defensive_action_prompt": "never"})
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    click_hex(app, session.state.units["m1"].hex)
    assert session.history, "the attack was made"
    log = scene.log_text()
    lines = [plain((ln,)) for ln in log]
    assert "attacks" in lines[0].lower() or "bolt rifles" in lines[0]  # the command heads its group
    assert all(sp.bold for sp in log[0])  # in bold
    events = [e for e in session.history[-1].events if e.kind in ("roll_made", "attack_resolved")]
    rolls = [i for i, line in enumerate(lines) if "d10=" in line or "d6=" in line]
    assert rolls and rolls == sorted(rolls)
    first_roll = next(e for e in events if e.kind == "roll_made")
    assert first_roll.label in lines[rolls[0]]  # the first roll made is the first roll listed


def test_the_side_panel_fits_a_960_by_600_window_with_no_empty_band() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="movement")
    app = make_app(session, size=(960, 600), blackout=False)
    scene = battle(app)
    _, side, _ = scene.regions()
    assert scene.panels.actions_rect.h == 0  # nothing selected: no button band at all
    assert scene.panels.unit_box.rect.h >= 160  # room for the unit card
    assert scene.panels.log_box.rect.bottom <= side.bottom and scene.panels.log_box.rect.h >= 80
    click_hex(app, session.state.units["r1"].hex)
    settle(app)
    assert scene.panels.actions_rect.h > 0  # the buttons get the rows they need
    assert scene.panels.unit_box.rect.h >= 110
    assert scene.panels.actions_rect.bottom <= scene.panels.info_box.rect.top
    assert scene.panels.log_box.rect.bottom <= side.bottom


def test_the_end_button_never_offers_to_end_a_phase_that_is_not_on() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="attack")
    app = make_app(session, blackout=False)
    scene = battle(app)
    assert scene.panels.top_buttons["end"].text == "End attack (E)"
    session.state = session.state.model_copy(update={"phase": "initiative"})
    scene.refresh_panels(force=True)
    assert "attack" not in scene.panels.top_buttons["end"].text.lower()


def test_clicking_water_says_the_hex_is_impassable() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           overrides={(3, 2): "water"}, phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    click_hex(app, session.board.hex_at(3, 2))
    assert scene.toast_text is not None and "impassable" in scene.toast_text.lower()
    assert session.state.units["r1"].hex == session.board.hex_at(2, 2)


def test_a_unit_that_charged_is_not_offered_again_as_ready() -> None:
    session = make_session([("b1", "militia_band", "blue", (2, 2)), ("r1", "rifle_section", "red", (5, 2)),
                            ("b2", "militia_band", "blue", (2, 6))],
                           phase="movement", rule_changes={"defensive_action_prompt": "never"})
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["b1"].hex)
    click_hex(app, session.state.units["r1"].hex)  # the red target: charge it
    settle(app)
    assert session.history and session.history[-1].command.kind == "charge"
    assert scene.mode.name == "select" and scene.mode.unit_id is None  # nothing left to offer
    assert "b1" not in rq.can_act(session.state, "blue")


def test_the_top_hint_in_a_small_window_shows_whole_sentences_that_fit() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="movement")
    app = make_app(session, size=(960, 600), blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    full = scene.mode.hint(scene)
    shown = scene.panels.hint_label.text
    assert scene.panels.hint_label.font.size(shown)[0] <= scene.panels.hint_label.rect.w
    assert shown.endswith(".") and full.startswith(shown[:-1].rstrip(";"))
    assert scene.panels.hint_label.rect.right <= min(b.rect.left for b in scene.panels.top_buttons.values())
