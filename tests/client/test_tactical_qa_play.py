"""Fixes from a player's and a GM's QA pass of the tactical window (played under Xvfb at 960x600
and 1280x800): each test names the behaviour it protects."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pygame
import pytest

import game.systems.tactical.rules as ail
from game import paths
from game.shell.app import App, Settings
from game.shell.toolkit.richtext import plain
from game.table import TABLE
from tests.client.clientfix import (
    battle,
    click_at,
    click_hex,
    key,
    make_app,
    make_session,
    press_button,
    settle,
    top_name,
)


def test_no_never_ask_stops_the_defensive_action_question_against_the_computer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the computer's two rifle sections attack one militia band in turn; the band's side is the
    # one at the screen (against the computer it always is): 'No, never ask' held only for a side
    # behind the hand-off, and the question came back at the next attack
    session = make_session([("r1", "rifle_section", "blue", (2, 4)), ("r2", "rifle_section", "blue", (2, 5)),
                            ("m1", "militia_band", "red", (5, 4))], phase="attack")
    session.seats.set("blue", "easy")
    app = make_app(session, size=(960, 600))
    scene = battle(app)
    thinking: Any = lambda *args, **kwargs: None  # noqa: E731  (the computer's own moves: still thinking)
    monkeypatch.setattr(scene.thinker, "poll", thinking)
    scene.submit(ail.Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))
    settle(app)
    assert top_name(app) == "defensive" and scene.viewer == "red"
    press_button(app, "No, never ask")
    assert scene.viewer == "red"
    assert not app.settings.ask_defensive
    asked = len([s for s in session.history if s.command.kind == "defensive_action"])
    scene.submit(ail.Attack(attacker_id="r2", target_id="m1", weapon="bolt rifles"))
    settle(app)
    assert top_name(app) != "defensive"
    answers = [s.command for s in session.history if s.command.kind == "defensive_action"]
    assert len(answers) == asked + 1 and answers[-1].accept is False  # answered no, as the table chose
    assert session.state.pending is None


def test_the_hint_asked_in_the_initiative_dialog_is_scrolled_into_view_at_960x600(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the default scenario's commanders have a Personal option each: with the hint at its foot
    # the body is taller than its box at 960x600, and the hint was below the fold (its toast is
    # under the dialog)
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path))
    app = App.for_scenario(TABLE, paths.default_scenario(), size=(960, 600), headless=True,
                           settings=Settings(animation="instant", blackout=False))
    settle(app)
    assert top_name(app) == "briefing"
    key(app, pygame.K_RETURN)
    assert top_name(app) == "initiative"
    dialog: Any = app.scenes.top
    key(app, pygame.K_h)
    deadline = time.monotonic() + 20
    while "Hint (" not in dialog.body_text:
        assert time.monotonic() < deadline, "no hint thought"
        time.sleep(0.01)
        settle(app, 1)
    box = dialog.body
    assert box.max_scroll > 0, "the body with its hint is taller than its box at 960x600"
    assert box.scroll == box.max_scroll  # the foot, where the hint is, shows


def test_a_click_on_a_greyed_action_button_says_why_in_the_rules_words() -> None:
    # a field gun has no melee weapon: Guard is greyed, and the toolkit neither presses a greyed
    # button nor shows its tooltip, so a click on it said nothing
    session = make_session([("g1", "field_gun", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="attack")
    app = make_app(session, size=(960, 600), blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["g1"].hex)
    guard = _button(app, "Guard")
    assert not guard.is_enabled
    before = len(session.history)
    click_at(app, guard.rect.center)
    refusal = ail.apply(session.state, ail.EnterStance(unit_id="g1", stance="guard"))
    assert isinstance(refusal, ail.Rejection)
    assert scene.toast_text == f"Guard: {refusal.reason}."  # e.g. 'Field Gun 1 has no melee weapon'
    assert scene.panels.hint_label.text.startswith("Guard: ")
    assert len(session.history) == before  # nothing played


def _button(app: Any, label: str) -> Any:
    import pygame_gui

    found = [el for el in app.scenes.top.ui.get_sprite_group().sprites()
             if isinstance(el, pygame_gui.elements.UIButton) and el.text == label and el.visible]
    assert found, f"no button {label!r}"
    return found[0]


def test_a_buttons_tooltip_shows_over_the_odds_chart_drawn_after_the_toolkit() -> None:
    # an action button's tooltip reaching down over the odds chart was cut off by the chart's
    # picture (drawn over the toolkit's elements)
    from game.shell.toolkit.drawing import draw_toolkit
    from tests.client.clientfix import themed_manager

    manager = themed_manager((400, 300))
    tip = manager.create_tool_tip("Hold a ranged shot for the first enemy that dashes or charges in range.",
                                  (120, 40), (0, 0), None, None)
    manager.update(0.01)
    chart = pygame.Surface((400, 300))
    chart.fill((255, 0, 255))
    surface = pygame.Surface((400, 300))
    draw_toolkit(surface, manager, [(chart, pygame.Rect(0, 0, 400, 300))])  # the chart under all of it
    box = tip.rect.clip(surface.get_rect())
    assert box.w > 8 and box.h > 8
    assert all(surface.get_at((x, box.centery))[:3] != (255, 0, 255) for x in range(box.x + 2, box.right - 2))
    tip.kill()


def test_a_click_on_greyed_minus_1_advantage_says_none_is_named_yet() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (6, 2))],
                           phase="attack")
    st = session.state
    blue = st.sides["blue"].model_copy(update={"advantage": {**st.sides["blue"].advantage, "command": 1}})
    session.state = st.model_copy(update={"sides": {**st.sides, "blue": blue}})
    app = make_app(session, size=(960, 600), blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r1"].hex)
    click_at(app, _button(app, "−1 Advantage").rect.center)
    assert scene.toast_text == "−1 Advantage: no Advantage named for the hit roll yet (+1 Advantage names a point)."
    click_at(app, _button(app, "+1 Advantage (0/1)").rect.center)  # names the one point
    click_at(app, _button(app, "+1 Advantage (1/1)").rect.center)
    assert scene.toast_text == "+1 Advantage (1/1): the command Advantage held (1) is all named already."


def test_undo_in_the_initiative_dialog_says_to_answer_it_first_not_to_close_it() -> None:
    # the dialog of a decision the rules wait for cannot be closed; 'close this first' asked the
    # impossible (and an undo there would take back the other side's sealed choice)
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))])
    app = make_app(session, size=(960, 600), blackout=False)
    key(app, pygame.K_1)  # the first side's choice (sealed)
    assert top_name(app) == "initiative"
    made = len(session.history)
    dialog: Any = app.scenes.top
    key(app, pygame.K_z, pygame.KMOD_LCTRL)
    assert top_name(app) == "not_here"
    said = app.scenes.top.body_text  # type: ignore[union-attr]
    assert said == (f"{dialog.title}: answer it first (a button below; H: a hint); "
                    "undo (Ctrl+Z) works from the game's screen.")
    assert len(session.history) == made  # the sealed choice stands
    key(app, pygame.K_RETURN)
    assert app.scenes.top is dialog


def test_the_replay_view_scrolls_to_the_unit_each_command_acts_with_and_marks_gm_steps_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # stepping through the overwatch demo at 960x600, 'Rubble Watch takes overwatch' showed a map
    # without Rubble Watch (under the replay's own panel); and the GM's roll was 'GM GM: set next roll'
    from game.shell import launch
    from tests.client.test_replay_view import played_overwatch

    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))
    session = launch.session_from_save(TABLE, played_overwatch(tmp_path / "ow.yaml"))
    assert session is not None
    app = make_app(session, size=(960, 600), blackout=False)
    settle(app)
    key(app, pygame.K_F3)
    view: Any = app.scenes.top
    assert top_name(app) == "replay"
    key(app, pygame.K_HOME)
    shown = 0
    for i, step in enumerate(view.steps[:13]):
        key(app, pygame.K_RIGHT)
        assert view.index == i + 1
        uid = getattr(step.command, "unit_id", None) or getattr(step.command, "attacker_id", None)
        unit = view.display.state.units.get(uid) if isinstance(uid, str) else None
        if unit is not None:
            cam = view.view.camera
            x, y = cam.world_to_screen(*view.view.layout.hex_center(unit.hex))
            assert cam.contains_screen(x, y), f"command {i + 1} ({step.command.kind}): its unit is off the map view"
            shown += 1
        words = plain(view.step_box.html_text)
        assert "GM GM" not in words, words
    assert shown >= 5


def test_in_gm_mode_the_battles_top_bar_buttons_answer_a_click() -> None:
    # under GM mode the battle's Undo / End / Options / Help stayed drawn and lit but did nothing
    from tests.client.test_gm_mode import gm_on

    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="movement")
    app = make_app(session, size=(960, 600), blackout=False)
    scene = battle(app)
    gm: Any = gm_on(app)
    gm.press("roll:5")  # a GM command: the next roll
    assert session.state.forced_rolls == (5,)
    top = scene.panels.top_buttons
    click_at(app, top["end"].rect.center)
    assert top_name(app) == "gm" and session.state.phase == "movement"
    assert gm.message == "The phase ends from the game's screen: F2 leaves GM mode, then E."
    click_at(app, top["undo"].rect.center)  # the GM's undo, as Ctrl+Z
    assert session.state.forced_rolls == ()
    click_at(app, top["help"].rect.center)
    assert top_name(app) == "help"
    assert "leave GM mode" in plain(app.scenes.top.body_html)  # type: ignore[union-attr]
    key(app, pygame.K_ESCAPE)
    click_at(app, top["options"].rect.center)
    assert top_name(app) == "options"


def test_a_tactical_saves_replay_opened_alone_neither_lists_nor_ignores_the_save_keys(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `python -m game replay SAVE --view`: Ctrl+O did nothing and said nothing, F1 listed the save
    # keys, and M's word sent the player to Ctrl+O, which does nothing in that window
    from game.shell.keys import help_groups
    from game.shell.launch import open_replay_file
    from game.systems.tactical.client.replay import ReplayScene
    from tests.client.test_replay_view import played_overwatch

    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))
    path = played_overwatch(tmp_path / "ow.yaml")
    app = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    assert open_replay_file(app, path) is None
    view: Any = app.scenes.top
    assert isinstance(view, ReplayScene) and view.alone()
    keys = {b.label: b.what for _group, bindings in help_groups(view) for b in bindings}
    assert not {"F5", "F9", "Ctrl+S", "Ctrl+O", "Ctrl+B", "M"} & set(keys)
    assert keys["Esc"] == "close the replay view and its window"
    for k, mod, label in ((pygame.K_o, pygame.KMOD_LCTRL, "Ctrl+O"), (pygame.K_F5, 0, "F5")):
        key(app, k, mod)
        assert view.view.toast_text.startswith(f"{label} does nothing here: this is the replay of a save"), \
            view.view.toast_text
    key(app, pygame.K_m)
    assert "`python -m game play SAVE` plays it" in (view.view.toast_text or "")
    assert "Ctrl+O" not in (view.view.toast_text or "")


def test_counts_a_player_reads_in_the_briefing_and_the_end_summary_take_the_right_number() -> None:
    # a one-round scenario with one unit a side read '1 units' and '1 rounds'
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           round_limit=1)
    session.description = "Hold the ford."
    app = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant", blackout=False))
    from game.systems.tactical.client.battle import BattleScene

    app.scenes.push(BattleScene(app, session))
    settle(app)
    assert top_name(app) == "briefing"
    said = plain(app.scenes.top.body_html)  # type: ignore[union-attr]
    assert "Blue: 1 unit, commander" in said and "1 units" not in said
    assert "1 round. Press F1" in said
    scene = battle(app)
    st = session.state.model_copy(update={"phase": "ended", "winner": "blue", "end_reason": "Red is destroyed."})
    summary = plain(scene.dialogs.end(st, scene).body_html)
    assert "Red: 0 of 1 unit lost" in summary


def test_f1_on_the_end_summary_lists_the_keys_of_its_buttons() -> None:
    from game.shell.keys import help_groups

    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="attack")
    app = make_app(session, size=(960, 600), blackout=False)
    scene = battle(app)
    st = session.state.model_copy(update={"phase": "ended", "winner": "blue", "end_reason": "Red is destroyed."})
    dialog = scene.dialogs.end(st, scene)
    listed = {b.label: b.what for _group, bindings in help_groups(dialog) for b in bindings}
    assert {"R", "L", "P", "Q"} <= set(listed), listed
    assert listed["R"].startswith("restart the battle") and listed["P"] == "the replay view of this battle"
    app.push(dialog)
    settle(app)
    key(app, pygame.K_r)  # the key listed does what it says: the restart question
    assert top_name(app) != "end"


def test_gm_modes_message_shows_without_scrolling_at_960x600_and_1280x800() -> None:
    # the GM's messages (a tool's prompt, 'Refused: ...', 'Nothing to undo.') were in a box at the
    # foot of the GM panel, below the fold in both window sizes
    from tests.client.test_gm_mode import gm_on

    for size in ((960, 600), (1280, 800)):
        session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                               phase="movement")
        app = make_app(session, size=size, blackout=False)
        gm: Any = gm_on(app)
        press_button(app, "Move")
        box = gm.message_box
        assert plain(box.html_text) == "Move: click a unit, then any free hex."
        panel = gm._rect()
        assert panel.contains(box.rect), (size, box.rect, panel)  # on screen, not scrolled away
        click_at(app, battle(app).panels.top_buttons["undo"].rect.center)  # nothing for the GM to undo
        assert plain(gm.message_box.html_text) == "Nothing to undo." and panel.contains(gm.message_box.rect)


def test_when_the_battle_ends_the_top_line_says_so_not_the_last_commands_message() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="attack")
    app = make_app(session, size=(960, 600), blackout=False)
    scene = battle(app)
    scene.toast("Computer (easy), Blue: end phase Blue. Why: no attack or stance worth taking", 6.0)
    session.state = session.state.model_copy(update={"phase": "ended", "winner": "blue",
                                                     "end_reason": "Red is destroyed."})
    scene.after_change()
    settle(app)
    assert top_name(app) == "end"
    assert scene.panels.hint_label.text == "The battle is over."
    scene.toast("Saved to x.yaml", 4.0)  # a message given after the end still shows
    scene.panels.refresh_hint(scene)
    assert scene.panels.hint_label.text.startswith("Saved to x.yaml")


def test_a_computers_message_too_long_for_the_top_line_keeps_what_was_done_at_960x600() -> None:
    # the top line read 'Computer (hard)...' for every computer command at 960x600
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="attack")
    app = make_app(session, size=(960, 600), blackout=False)
    scene = battle(app)
    said = ("Computer (hard), Zone Expeditionary Column: attack Resistance Car at Market Band (machine gun). "
            "Why: attack Market Band with machine gun: 30% to hit, 0% to destroy, expected 0.21")
    scene.toast(said, 6.0)
    scene.panels.refresh_hint(scene)
    shown = scene.panels.hint_label.text
    label = scene.panels.hint_label
    assert shown.endswith("…") and said.startswith(shown[:-1])
    assert shown.startswith("Computer (hard), Zone Expeditionary Column: attack")  # what it did, not only who
    assert label.font.size(shown)[0] <= label.rect.w - 8


def test_the_replay_of_a_battle_fought_to_its_end_is_not_titled_so_far() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           phase="attack")
    app = make_app(session, size=(960, 600), blackout=False)
    key(app, pygame.K_F3)
    assert top_name(app) == "replay" and app.scenes.top.game_title == "test (so far)"  # type: ignore[union-attr]
    key(app, pygame.K_ESCAPE)
    session.state = session.state.model_copy(update={"phase": "ended", "winner": "blue", "end_reason": "Red is out."})
    battle(app).after_change()
    settle(app)
    assert top_name(app) == "end"
    key(app, pygame.K_p)  # the summary's Replay
    assert top_name(app) == "replay" and app.scenes.top.game_title == "test"  # type: ignore[union-attr]


def test_the_map_scrolls_to_show_the_computers_attack_and_its_target(monkeypatch: pytest.MonkeyPatch) -> None:
    # against the computer, its shot at a person's unit played out at the edge of the view (or off it), its
    # target (with the hits floating over it) half off the map
    from types import SimpleNamespace

    session = make_session([("r1", "rifle_section", "blue", (30, 20)), ("m1", "militia_band", "red", (33, 20))],
                           width=40, height=30, phase="attack", rule_changes={"defensive_action_prompt": "never"})
    session.seats.set("blue", "easy")
    app = make_app(session, size=(960, 600))
    scene = battle(app)
    scene.camera.centre_on(*scene.layout.hex_center(session.board.hex_at(1, 1)))
    shot = ail.Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles")
    answers = [SimpleNamespace(decision=SimpleNamespace(command=shot, why="a test shot"))]
    monkeypatch.setattr(scene.thinker, "poll", lambda *a, **k: answers.pop() if answers else None)
    settle(app, 3)
    assert any(s.command == shot for s in session.history)
    cam = scene.camera
    for uid in ("m1", "r1"):
        x, y = cam.world_to_screen(*scene.layout.hex_center(session.state.units[uid].hex))
        assert cam.contains_screen(x, y), uid


def test_the_computers_attack_that_asks_a_defensive_action_keeps_the_dialogs_framing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the scroll to the computer's command came after the question's own framing, and put the unit
    # attacked under the dialog
    from types import SimpleNamespace

    session = make_session([("r1", "rifle_section", "blue", (30, 20)), ("m1", "militia_band", "red", (33, 20))],
                           width=40, height=30, phase="attack")
    session.seats.set("blue", "easy")
    app = make_app(session, size=(960, 600))
    scene = battle(app)
    scene.camera.centre_on(*scene.layout.hex_center(session.board.hex_at(1, 1)))
    shot = ail.Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles")
    answers = [SimpleNamespace(decision=SimpleNamespace(command=shot, why="a test shot"))]
    monkeypatch.setattr(scene.thinker, "poll", lambda *a, **k: answers.pop() if answers else None)
    framed: list[tuple[float, float]] = []
    real = scene._frame_beside

    def frame(*args: Any) -> None:
        real(*args)
        framed.append(scene.camera.screen_to_world(480, 300))

    monkeypatch.setattr(scene, "_frame_beside", frame)
    settle(app, 3)
    assert top_name(app) == "defensive"
    assert framed and scene.camera.screen_to_world(480, 300) == framed[-1]  # nothing scrolled it after
    dialog: Any = app.scenes.top
    x, y = scene.camera.world_to_screen(*scene.layout.hex_center(session.state.units["m1"].hex))
    assert scene.camera.contains_screen(x, y) and not dialog.rect.inflate(40, 40).collidepoint(x, y)
