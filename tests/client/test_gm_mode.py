"""GM mode driven by real key presses, button clicks and map clicks: the toggle and its marks on
screen, placing / moving / editing / removing units, Advantage, forcing the next roll, undo and
redo of anything (dice included), GM actions marked in the save, export as a scenario."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.core.hexgrid import Hex
from game.io import saves
from game.shell import savegame
from game.shell.app import App
from game.shell.toolkit.richtext import Span, plain
from game.systems.tactical.io.scenario import load_scenario
from game.systems.tactical.rules.commands import parse_command
from tests.client.clientfix import battle, click_hex, key, press_button, top_name
from tests.client.test_load_menu import ctrl, demo_save, open_app, saves_dir  # noqa: F401 - fixture
from tests.client.test_replay_view import played_overwatch


def gm_on(app: App):  # type: ignore[no-untyped-def]
    key(app, pygame.K_F2)
    if top_name(app) == "gm_ask":  # two sides at the screen behind the blackout: the GM says so first
        key(app, pygame.K_g)
    assert top_name(app) == "gm"
    return app.scenes.top


def free_hex(app: App, near: Hex) -> Hex:
    st = battle(app).state
    for q in range(near.q, near.q + 4):
        for r in range(near.r - 2, near.r + 2):
            h = Hex(q, r)
            if h in st.board.terrain and st.unit_at(h) is None and st.board.terrain[h] == "clear":
                return h
    raise AssertionError("no free hex")


def test_f2_toggles_gm_mode_marked_on_screen_with_the_blackout_off(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    app.settings.blackout = True
    gm = gm_on(app)
    assert app.settings.blackout is False
    frame = app.render()
    _, _, view = battle(app).regions()
    assert tuple(frame.get_at((view.right - 2, view.centery)))[:3] == (224, 184, 100)  # the gold frame
    assert gm.name == "gm"
    key(app, pygame.K_F2)
    assert top_name(app) == "battle" and app.settings.blackout is True


def test_place_a_unit_then_undo_and_redo_it(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    gm = gm_on(app)
    before = set(battle(app).state.units)
    press_button(app, "Place")
    assert gm.tool == "place"
    target = free_hex(app, Hex(8, 3))
    click_hex(app, target)
    new = set(battle(app).state.units) - before
    assert len(new) == 1
    uid = new.pop()
    assert battle(app).state.units[uid].hex == target
    ctrl(app, pygame.K_z)
    assert uid not in battle(app).state.units
    ctrl(app, pygame.K_y)
    assert battle(app).state.units[uid].hex == target


def test_select_and_edit_a_unit_with_the_panel_buttons(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    gm_on(app)
    band = battle(app).state.units["band-1"]
    click_hex(app, band.hex)  # Select tool is the default
    assert battle(app).selected == "band-1"
    press_button(app, "Str -")
    press_button(app, "Next stance")
    press_button(app, "Pinned")
    u = battle(app).state.units["band-1"]
    assert (u.strength, u.stance, u.pinned) == (band.strength - 1, "overwatch", "next_turn")
    press_button(app, "Stat: physique")  # cycles to senses
    press_button(app, "+")
    assert battle(app).state.unit_type("band-1").stats.senses == 3
    for label in ("Stat: senses", "Stat: intellect", "Stat: aether"):
        press_button(app, label)  # on to move
    press_button(app, "+")
    assert battle(app).state.unit_type("band-1").move == 5


def test_move_tool_moves_a_unit_anywhere_free(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    gm_on(app)
    press_button(app, "Move")
    band = battle(app).state.units["band-2"]
    click_hex(app, band.hex)
    target = free_hex(app, Hex(9, 4))
    click_hex(app, target)
    assert battle(app).state.units["band-2"].hex == target


def test_advantage_and_forced_next_roll_from_the_panel(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    gm_on(app)
    pool = battle(app).state.sides["zone"].advantage["command"]
    press_button(app, "+1")
    assert battle(app).state.sides["zone"].advantage["command"] == pool + 1
    press_button(app, "-1")
    press_button(app, "-1")
    assert battle(app).state.sides["zone"].advantage["command"] == pool - 1
    press_button(app, "7")
    press_button(app, "3")
    assert battle(app).session.state.forced_rolls == (7, 3)
    press_button(app, "Clear")  # (beside the queued rolls)
    assert battle(app).session.state.forced_rolls == ()


def test_undo_and_redo_a_command_that_rolled_dice(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(played_overwatch(tmp_path / "ow.yaml"))
    session = battle(app).session
    dash = next(i for i, s in enumerate(session.history) if s.command.kind == "dash")
    original = session.history[dash]
    gm_on(app)
    while len(session.history) > dash:
        ctrl(app, pygame.K_z)
    assert battle(app).session.state == original.before
    ctrl(app, pygame.K_y)
    assert session.history[dash].events == original.events
    assert battle(app).state.units["troopers"].pinned


def test_gm_actions_are_marked_in_the_save(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    gm_on(app)
    press_button(app, "+1")
    key(app, pygame.K_F5)
    data = saves.load_save(savegame.quick_save_path(battle(app).session))
    assert data.header.gm_mode is True
    assert data.log[-1].gm and data.log[-1].command["kind"] == "gm_give_advantage"
    assert not any(e.gm for e in data.log[1:-1])  # the players' commands are not GM actions


def test_save_as_scenario_writes_a_file_that_loads_like_a_shipped_one(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    gm_on(app)
    click_hex(app, battle(app).state.units["band-1"].hex)
    press_button(app, "Stat: physique")
    press_button(app, "+")
    press_button(app, "Remove unit")
    press_button(app, "Save as scenario")
    files = [p for p in (saves_dir / "scenarios").glob("*.yaml") if not p.name.endswith("-units.yaml")]
    assert len(files) == 1
    sc = load_scenario(files[0])
    ids = {u.id for u in sc.setup.units}
    assert "band-1" not in ids and {"car", "runners", "band-2"} <= ids
    assert sc.map.path.name == "demo-movement.tmx"


def test_redo_is_dropped_once_the_battle_has_moved_on(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    gm = gm_on(app)
    press_button(app, "+1")
    ctrl(app, pygame.K_z)
    # a player's command after the undo: the undone GM action must not come back on top of it
    assert battle(app).submit(parse_command({"kind": "move", "unit_id": "car", "path": [[1, 2]]}))
    n = len(battle(app).session.history)
    ctrl(app, pygame.K_y)
    assert len(battle(app).session.history) == n and "Nothing to redo" in gm.message


def test_loading_a_save_from_gm_mode_restores_the_table_settings(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    app.settings.blackout = True
    gm_on(app)
    key(app, pygame.K_F5)
    key(app, pygame.K_F9)
    assert top_name(app) != "gm" and app.settings.blackout is True


def test_a_gm_mark_does_not_pass_to_the_next_command_after_an_ordinary_undo(tmp_path: Path,
                                                                             saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "s.yaml"))
    gm_on(app)
    move = parse_command({"kind": "move", "unit_id": "car", "path": [[1, 2]]})
    assert app.scenes.top.submit(move)  # a player's move made while GM mode is on: a GM action
    key(app, pygame.K_F2)
    ctrl(app, pygame.K_z)  # the battle's own undo (a move that rolled no dice)
    assert battle(app).submit(parse_command({"kind": "move", "unit_id": "car", "path": [[1, 2], [2, 2]]}))
    key(app, pygame.K_F5)
    data = saves.load_save(savegame.quick_save_path(battle(app).session))
    assert data.log[-1].command["path"] == [[1, 2], [2, 2]] and data.log[-1].gm is False


def test_the_selected_unit_and_the_last_message_show_in_the_panels_text_boxes(tmp_path: Path,
                                                                               saves_dir: Path) -> None:  # noqa: F811
    from game.shell.toolkit.richtext import RichTextBox

    app = open_app(demo_save(tmp_path / "s.yaml"))
    gm_on(app)
    click_hex(app, battle(app).state.units["band-1"].hex)
    gm = app.scenes.top
    assert isinstance(gm.unit_box, RichTextBox) and isinstance(gm.message_box, RichTextBox)
    name = battle(app).state.unit_name("band-1")
    assert gm.unit_box.html_text[0][0] == Span(name, bold=True) and gm.unit_box.text_height > 0  # its name, bold
    assert plain(gm.message_box.html_text) and gm.message_box.rect.w > 0


def test_the_top_bars_undo_looks_enabled_in_gm_mode_when_the_gm_can_undo_and_player_again_after(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    # the last command rolled dice: the player's Undo is greyed, but in GM mode a click on it is
    # the GM's undo (anything), so it looked greyed while it worked
    app = open_app(played_overwatch(tmp_path / "ow.yaml"))
    scene = battle(app)
    undo = scene.panels.top_buttons["undo"]
    assert not scene.session.can_undo and not undo.is_enabled
    gm_on(app)
    assert undo.is_enabled
    key(app, pygame.K_F2)  # GM mode off: the player's Undo again
    assert top_name(app) != "gm" and not undo.is_enabled
