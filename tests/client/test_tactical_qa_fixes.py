"""Fixes from a QA walkthrough of the tactical window: each test names the behaviour it protects."""

from __future__ import annotations

import time
from typing import Any

import pygame

import game.systems.tactical.rules as ail
from game.shell import draw, fonts
from game.shell.app import App, Settings
from game.shell.launch import open_game
from game.shell.toolkit.richtext import plain
from game.systems.tactical.client import battle_panels, rq
from game.systems.tactical.client.battle import BattleScene, can_still_act
from game.systems.tactical.client.modes import AttackMode
from game.systems.tactical.rules.state import TurnSlot
from game.table import TABLE
from tests.client.clientfix import (
    battle,
    click_hex,
    hover_hex,
    key,
    make_app,
    make_session,
    press_button,
    settle,
    top_name,
)


def _far_target_preview(size: tuple[int, int]) -> Any:
    # bolt rifles at 12 hexes: no roll can hit (as the Hill Battery across the river)
    session = make_session([("r1", "rifle_section", "blue", (1, 2)), ("m1", "militia_band", "red", (13, 2))],
                           width=16, phase="attack")
    app = make_app(session, size=size, blackout=False)
    click_hex(app, session.state.units["r1"].hex)
    hover_hex(app, session.state.units["m1"].hex)
    return app, battle(app)


def test_at_960x600_every_row_of_the_odds_chart_has_its_own_room(monkeypatch: Any) -> None:
    drawn: list[list[pygame.Rect]] = []
    real = battle_panels.compact_chart

    def spy(*args: Any, **kwargs: Any) -> list[pygame.Rect]:
        drawn.append(real(*args, **kwargs))
        return drawn[-1]

    monkeypatch.setattr(battle_panels, "compact_chart", spy)
    app, scene = _far_target_preview((960, 600))
    scene.panels.update_chart(scene.mode.preview(scene))
    assert drawn, "a chart too short for a row per result is drawn in two columns"
    rows = drawn[-1]
    assert len(rows) == len(draw.RESULT_LABELS)
    label_h = fonts.text("Out of action", 12, (0, 0, 0)).get_height()
    assert all(r.h >= label_h - 2 for r in rows)
    assert all(pygame.Rect((0, 0), scene.panels.chart_rect.size).contains(r) for r in rows)  # in the chart's picture
    assert not any(a.colliderect(b) for i, a in enumerate(rows) for b in rows[i + 1:])


def test_at_1280x800_the_odds_chart_keeps_one_row_per_result(monkeypatch: Any) -> None:
    used: list[str] = []
    real = draw.bar_chart

    def compact(*args: Any, **kwargs: Any) -> list[pygame.Rect]:
        used.append("compact")
        return []

    def rows(*args: Any, **kwargs: Any) -> None:
        used.append("rows")
        real(*args, **kwargs)

    monkeypatch.setattr(battle_panels, "compact_chart", compact)
    monkeypatch.setattr(draw, "bar_chart", rows)
    app, scene = _far_target_preview((1280, 800))
    scene.panels.update_chart(scene.mode.preview(scene))
    assert used == ["rows"]
    assert (scene.panels.chart_rect.h - 8) / len(draw.RESULT_LABELS) >= battle_panels.CHART_ROW_MIN


def test_the_attack_preview_gives_the_hit_chance_and_why_it_is_0_before_the_breakdown() -> None:
    app, scene = _far_target_preview((960, 600))
    lines = scene.panels.shown("info").splitlines()
    assert lines[0].startswith("vs ") and "Hit chance 0%" in lines[0]
    assert lines[1].startswith("0% to hit: the best possible roll is 17")
    assert "no chance to hit" not in lines[1]  # said once, not twice
    assert lines[1].count("may still be made") == 1
    assert lines[2].startswith("Accuracy Challenge")


def _default_battle(size: tuple[int, int], phase: str = "attack") -> Any:
    session = open_game(TABLE)
    first = session.setup.sides[0].id
    order = tuple(TurnSlot(side=s.id) for s in session.setup.sides)
    session.state = session.state.model_copy(update={"phase": phase, "turn_order": order, "turn_index": 0,
                                                     "pending": None})
    app = make_app(session, size=size, blackout=False)
    return app, battle(app), first


def test_the_attack_hint_of_every_unit_and_weapon_of_the_default_map_fits_the_top_bar_at_960x600() -> None:
    app, scene, _ = _default_battle((960, 600))
    label = scene.panels.hint_label
    st = scene.session.state
    for u in st.live_units():
        for w in st.unit_type(u.id).weapons:
            hint = AttackMode(u.id, w.name).hint(scene)
            assert label.font.size(hint)[0] <= label.rect.w - 8, hint


def test_the_end_phase_question_names_every_unit_that_can_still_act_or_says_how_many_more() -> None:
    app, scene, side = _default_battle((960, 600), phase="movement")
    waiting = rq.can_act(scene.session.state, side)
    assert len(waiting) == 7
    scene.end_phase()
    settle(app)
    assert top_name(app) == "confirm_end"
    said = plain(app.scenes.top.body_html)
    assert said.startswith("7 units can still act: ")
    for uid in waiting:
        assert scene.session.state.unit_name(uid) in said
    assert can_still_act([f"U{i}" for i in range(12)]) == \
        "12 units can still act: U0, U1, U2, U3, U4, U5, U6 and 5 more."
    assert can_still_act(["Mill Band"]) == "1 unit can still act: Mill Band."


def _defensive_prompt(size: tuple[int, int], far: tuple[int, int]) -> Any:
    # a rifle section attacks a militia band 3 hexes away in a corner of a big map; the view looks
    # at the other corner when the question opens
    c, r = far
    session = make_session([("r1", "rifle_section", "blue", (c - 3, r)), ("m1", "militia_band", "red", (c, r))],
                           width=40, height=30, phase="attack")
    app = make_app(session, size=size, blackout=False)
    scene = battle(app)
    scene.camera.centre_on(*scene.layout.hex_center(session.board.hex_at(1, 1)))
    scene.submit(ail.Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))
    settle(app)
    assert top_name(app) == "defensive"
    return app, scene, app.scenes.top


def _on_screen_beside(scene: Any, dialog: Any, uid: str) -> bool:
    x, y = scene.camera.world_to_screen(*scene.layout.hex_center(scene.session.state.units[uid].hex))
    return scene.camera.contains_screen(x, y) and not dialog.rect.inflate(40, 40).collidepoint(x, y)


def test_the_defensive_action_question_brings_the_attacked_unit_and_its_attacker_into_view() -> None:
    for size, far in (((1280, 800), (30, 20)), ((960, 600), (30, 20)), ((1280, 800), (36, 27))):
        app, scene, dialog = _defensive_prompt(size, far)
        assert _on_screen_beside(scene, dialog, "m1"), (size, far)
        assert _on_screen_beside(scene, dialog, "r1"), (size, far)


def _initiative_dialog() -> Any:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))])
    app = make_app(session, blackout=False)
    assert top_name(app) == "initiative"
    return app, app.scenes.top


def test_h_in_the_initiative_dialog_thinks_a_hint_and_shows_it_in_the_dialog() -> None:
    app, dialog = _initiative_dialog()
    key(app, pygame.K_h)
    assert top_name(app) == "initiative"
    for _ in range(400):  # the computer thinks in a thread (at most a second)
        if "Hint (" in dialog.body_text:
            break
        time.sleep(0.01)
        settle(app, 1)
    assert "Hint (" in dialog.body_text and "Why: " in dialog.body_text, dialog.body_text
    assert dialog.body_text.startswith("Commander ")  # the question itself is still there


def test_p_in_the_initiative_dialog_opens_the_players_dialog_then_the_question_again() -> None:
    app, dialog = _initiative_dialog()
    key(app, pygame.K_p)
    assert top_name(app) == "seats"
    press_button(app, "Done")
    settle(app)
    assert top_name(app) == "initiative"


def test_the_initiative_dialog_help_lists_its_hint_players_and_number_keys() -> None:
    app, dialog = _initiative_dialog()
    key(app, pygame.K_F1)
    assert top_name(app) == "help"
    said = app.scenes.top.body_text
    assert "H: hint" in said and "P: players" in said and "1-3: pick the button" in said


def test_the_dice_log_labels_of_an_attack_name_the_units_not_their_types() -> None:
    app, scene, side = _default_battle((1280, 800))
    session = scene.session
    st = session.state
    gun, band = "zone-gun", "zenith-militia-1"
    assert st.unit_name(gun) == "Hill Battery" and st.unit_type(gun).name == "Field Gun"
    scene.submit(ail.Attack(attacker_id=gun, target_id=band, weapon="field gun"))
    if session.state.pending is not None:  # the band may answer with a defensive action: it does not
        scene.submit(ail.DefensiveAction(unit_id=band, accept=False))
    labels = [e.label for step in session.history[-2:] for e in step.events if e.kind == "roll_made"]
    assert labels[0] == f"hit: Hill Battery field gun vs {st.unit_name(band)}"
    assert all("Field Gun" not in lb and "Militia Band" not in lb for lb in labels)
    log = [plain((ln,)) for ln in battle_panels.log_text(session, session.state)]
    hit = next(ln for ln in log if f"hit: Hill Battery field gun vs {st.unit_name(band)}" in ln)
    assert hit.startswith("hit: ")  # the label names the unit rolling: no second "Hill Battery" before it


def test_the_replay_view_unit_panel_says_what_the_replay_does_not_tab_or_clicks() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="movement")
    app = make_app(session, blackout=False)
    battle(app).submit(ail.EndPhase(side="blue"))
    key(app, pygame.K_F3)
    assert top_name(app) == "replay"
    view = app.scenes.top.view  # type: ignore[union-attr]
    said = view.panels.shown("unit")
    assert said.startswith("Replay: hover a unit") and "Tab" not in said
    key(app, pygame.K_ESCAPE)
    assert top_name(app) == "battle"
    assert battle(app).panels.shown("unit").startswith("No unit selected. Click a unit")  # the live game's own


def test_when_the_map_is_centred_on_a_side_the_hover_panel_follows_the_hex_under_the_still_pointer() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (38, 28))],
                           width=40, height=30, phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)
    blue = session.state.units["r1"].hex
    scene._centre_on_side("blue")
    settle(app)
    hover_hex(app, blue)
    assert scene.hover == blue
    scene._centre_on_side("red")  # (what a new turn does: the camera jumps to the side's units)
    settle(app)
    assert scene.hover != blue and scene.hover == scene.hex_at(scene.mouse)  # QA: the panel kept the old hex


def test_after_ctrl_y_the_top_line_says_what_was_played_again_not_taken_back() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    click_hex(app, session.state.board.hex_at(3, 3))
    key(app, pygame.K_z, pygame.KMOD_LCTRL)
    assert scene.panels.hint_label.text.startswith("Taken back: move Rifle Section 1 to 3,3")
    key(app, pygame.K_y, pygame.KMOD_LCTRL)
    assert scene.panels.hint_label.text.startswith("Played again: move Rifle Section 1 to 3,3")


def test_h_in_the_defensive_action_dialog_shows_the_computers_answer_in_the_dialog() -> None:
    app, scene, dialog = _defensive_prompt((960, 600), (30, 20))
    assert "H" in [b.label for b in dialog.key_map()]  # (listed in its F1 help)
    key(app, pygame.K_h)
    assert top_name(app) == "defensive"
    for _ in range(400):  # the computer thinks in a thread (at most a second)
        if "Hint (" in dialog.body_text:
            break
        time.sleep(0.01)
        settle(app, 1)
    assert "Hint (" in dialog.body_text and "Why: " in dialog.body_text, dialog.body_text
    assert "defensive" in dialog.body_text.split("Hint (")[1]  # the answer it would give
    assert dialog.body_text.startswith("Militia Band 1 is about to be attacked")  # the question is still there
    assert dialog.rect.bottom <= 600


def test_f1_on_the_opening_briefing_lists_its_keys_then_the_battles_then_the_shells() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))])
    session.description = "Hold the ford."
    app = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant", blackout=False))
    app.scenes.push(BattleScene(app, session))
    settle(app)
    assert top_name(app) == "briefing"
    key(app, pygame.K_F1)
    assert top_name(app) == "help"
    said = app.scenes.top.body_text
    assert said.startswith("The briefing\nEnter or Esc: start the battle")
    assert "P: players" in said
    battle_part = said.split("The battle (on the map, once the briefing is closed)\n")[1]
    for label in ("Tab or N: ", "E or Enter: ", "H: hint", "G: hex grid", "F3: replay view"):
        assert label in battle_part, label
    assert "\nSaves\nF5: quick save" in said
    key(app, pygame.K_F1)  # closes the help: the briefing is still there, then starts the battle
    assert top_name(app) == "briefing"
    key(app, pygame.K_RETURN)
    assert top_name(app) != "briefing"


def test_after_a_dialog_the_hover_is_where_the_pointer_is_not_the_hex_it_left_so_no_stale_attack_line() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (6, 3))],
                           phase="attack")
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    hover_hex(app, session.state.units["m1"].hex)
    assert scene.map_view._path(scene) is not None  # the red line to the target
    key(app, pygame.K_e)  # "End the attack phase?": the pointer goes to the dialog, off the map
    assert top_name(app) == "confirm_end"
    key(app, pygame.K_ESCAPE)  # Keep playing: the same unit, the same mode
    assert top_name(app) == "battle" and isinstance(scene.mode, AttackMode)
    # (the test's pointer is at the window's corner: over no hex)
    assert scene.hover is None and scene.map_view._path(scene) is None


def test_under_the_defensive_action_question_the_map_shows_no_hit_chances_or_attack_line_of_the_hover_before() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (6, 3))],
                           phase="attack")
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    hover_hex(app, session.state.units["m1"].hex)
    app.render()
    assert any(item.text.endswith("% to hit") for item in scene.map_labels.items)  # the line's label
    click_hex(app, session.state.units["m1"].hex)  # the attack: its target's side is asked first
    assert top_name(app) == "defensive"
    app.render()
    shown = [item.text for item in scene.map_labels.items]
    assert not any("%" in t for t in shown), shown
