"""Delete in the load menu (Ctrl+O): the Delete key or button asks first, naming the save (its
scenario, when it was saved, what kind of save), then moves the file into `deleted/` in the saves
folder, never erasing and never overwriting; the menu never lists that folder, says where the save
went, keeps a sensible selection, names the current game's save as such before deleting it, and
reports a move the system refuses with the file and the reason."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pygame
import pytest

from game import paths
from game.io import saves
from game.shell import fonts, savegame
from game.shell.scenes.dialog import DialogScene
from game.shell.scenes.load_menu import LoadMenuScene
from game.systems.tactical.rules.commands import parse_command
from tests.client.clientfix import battle, key, press_button, top_name
from tests.client.test_load_menu import ctrl, demo_save, open_app, saves_dir  # noqa: F401 - fixture


def _menu(app: object) -> LoadMenuScene:
    top = app.scenes.top  # type: ignore[attr-defined]
    assert isinstance(top, LoadMenuScene), getattr(top, "name", None)
    return top


def _question(app: object) -> DialogScene:
    top = app.scenes.top  # type: ignore[attr-defined]
    assert isinstance(top, DialogScene) and top.name == "delete_question", getattr(top, "name", None)
    return top


def _names(menu: LoadMenuScene) -> list[str]:
    return [listing.path.name for listing in menu.listings]


def _select(app: object, menu: LoadMenuScene, name: str) -> None:
    target = _names(menu).index(name)
    while menu.index != target:
        key(app, pygame.K_DOWN if menu.index < target else pygame.K_UP)  # type: ignore[arg-type]


def _three_saves(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for n, name in enumerate(("a.yaml", "b.yaml", "c.yaml")):
        path = demo_save(folder / name, commands=3 + n)
        os.utime(path, (1_000_000 + 100 * (3 - n), 1_000_000 + 100 * (3 - n)))  # a newest: listed first


def test_delete_key_asks_naming_the_save_and_only_then_moves_it_into_the_deleted_folder(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    _three_saves(saves_dir)
    app = open_app(demo_save(tmp_path / "start.yaml"))
    ctrl(app, pygame.K_o)
    menu = _menu(app)
    _select(app, menu, "b.yaml")
    key(app, pygame.K_DELETE)
    question = _question(app)
    text = question.body_text
    assert "b.yaml" in text and "Scenario:" in text and "demo-movement" in text  # which save
    assert "saved " in text and "What it is: a save" in text  # when, and what kind
    assert str(saves_dir / "deleted") in text and "not erased" in text  # where it goes
    assert (saves_dir / "b.yaml").exists()  # nothing moved before the answer
    press_button(app, "Delete")
    assert top_name(app) == "load_menu"
    assert not (saves_dir / "b.yaml").exists()
    assert saves.read_header(saves_dir / "deleted" / "b.yaml").commands == 4
    assert _names(menu) == ["a.yaml", "c.yaml"]  # refreshed, and the deleted folder is not listed
    assert menu.index == 1 and menu.selected is not None and menu.selected.path.name == "c.yaml"  # the next one
    assert menu.note is not None and str(saves_dir / "deleted" / "b.yaml") in menu.note


def test_keep_or_esc_in_the_delete_question_leaves_the_save_where_it_is(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    _three_saves(saves_dir)
    app = open_app(demo_save(tmp_path / "start.yaml"))
    ctrl(app, pygame.K_o)
    key(app, pygame.K_DELETE)
    _question(app)
    key(app, pygame.K_ESCAPE)
    assert top_name(app) == "load_menu"
    press_button(app, "Delete")  # the button asks too
    _question(app)
    press_button(app, "Keep")
    assert top_name(app) == "load_menu"
    assert _names(_menu(app)) == ["a.yaml", "b.yaml", "c.yaml"]
    assert not (saves_dir / "deleted").exists()


def test_deleting_the_last_save_selects_the_one_before_and_a_name_clash_gets_a_suffix_never_overwriting(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    _three_saves(saves_dir)
    (saves_dir / "deleted").mkdir()
    (saves_dir / "deleted" / "c.yaml").write_text("deleted before\n", encoding="utf-8")
    app = open_app(demo_save(tmp_path / "start.yaml"))
    ctrl(app, pygame.K_o)
    menu = _menu(app)
    _select(app, menu, "c.yaml")
    key(app, pygame.K_DELETE)
    key(app, pygame.K_RETURN)  # Enter answers Delete
    assert (saves_dir / "deleted" / "c.yaml").read_text(encoding="utf-8") == "deleted before\n"
    assert (saves_dir / "deleted" / "c-2.yaml").is_file() and not (saves_dir / "c.yaml").exists()
    assert menu.note is not None and "c-2.yaml" in menu.note
    assert _names(menu) == ["a.yaml", "b.yaml"] and menu.index == 1  # the one before, now the last


def test_a_quick_saves_backup_goes_into_the_deleted_folder_with_it(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "start.yaml"))
    key(app, pygame.K_F5)
    key(app, pygame.K_F5)  # the second keeps the first as .bak
    quick = next(saves_dir.glob("quicksave-*.yaml"))
    assert quick.with_name(quick.name + ".bak").exists()
    ctrl(app, pygame.K_o)
    key(app, pygame.K_DELETE)
    assert "a quick save (F5" in _question(app).body_text
    key(app, pygame.K_RETURN)
    assert not quick.exists() and not quick.with_name(quick.name + ".bak").exists()
    assert (saves_dir / "deleted" / quick.name).is_file() and (saves_dir / "deleted" / (quick.name + ".bak")).is_file()


def test_the_deleted_folder_is_never_listed_as_saves(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    (saves_dir / "deleted").mkdir(parents=True)
    demo_save(saves_dir / "deleted" / "gone.yaml")
    demo_save(saves_dir / "kept.yaml")
    app = open_app(demo_save(tmp_path / "start.yaml"))
    ctrl(app, pygame.K_o)
    assert _names(_menu(app)) == ["kept.yaml"]


def test_the_save_the_current_game_was_loaded_from_is_named_as_the_current_games_before_it_is_deleted(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    saves_dir.mkdir(parents=True)
    other = demo_save(saves_dir / "other.yaml", commands=3)
    os.utime(other, (1_000_000, 1_000_000))
    current = demo_save(saves_dir / "current.yaml")
    app = open_app(current)  # the game on screen was loaded from current.yaml
    ctrl(app, pygame.K_o)
    menu = _menu(app)
    _select(app, menu, "other.yaml")
    key(app, pygame.K_DELETE)
    assert "playing now" not in _question(app).body_text and _question(app).title == "Delete this save?"
    key(app, pygame.K_ESCAPE)
    _select(app, menu, "current.yaml")
    key(app, pygame.K_DELETE)
    question = _question(app)
    assert question.title == "Delete the current game's save?"
    assert "the game you are playing now was loaded from" in question.body_text
    assert current.exists()
    press_button(app, "Delete")
    assert not current.exists() and (saves_dir / "deleted" / "current.yaml").is_file()
    key(app, pygame.K_ESCAPE)
    assert top_name(app) == "battle"  # the game goes on


def test_a_move_the_system_refuses_is_reported_naming_the_file_and_the_error_and_nothing_moves(
        tmp_path: Path, saves_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    _three_saves(saves_dir)

    def read_only(*args: object, **kwargs: object) -> None:  # what a read-only saves folder answers
        raise PermissionError(errno.EACCES, "Permission denied", str(args[0]))

    monkeypatch.setattr(os, "link", read_only)
    monkeypatch.setattr(Path, "rename", read_only)
    app = open_app(demo_save(tmp_path / "start.yaml"))
    ctrl(app, pygame.K_o)
    menu = _menu(app)
    key(app, pygame.K_DELETE)
    key(app, pygame.K_RETURN)
    assert top_name(app) == "load_menu"
    assert menu.heading == "Not deleted" and menu.message is not None
    assert str(saves_dir / "a.yaml") in menu.message and "Permission denied" in menu.message
    assert (saves_dir / "a.yaml").is_file() and _names(menu) == ["a.yaml", "b.yaml", "c.yaml"]
    assert not any((saves_dir / "deleted").glob("*.yaml"))


def test_a_deleted_folder_that_cannot_be_made_refuses_the_delete_with_the_os_error(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    """A real refusal of the OS (not a simulated one): a file named `deleted` is in the way of the folder."""
    _three_saves(saves_dir)
    (saves_dir / "deleted").write_text("not a folder\n", encoding="utf-8")
    app = open_app(demo_save(tmp_path / "start.yaml"))
    ctrl(app, pygame.K_o)
    menu = _menu(app)
    key(app, pygame.K_DELETE)
    key(app, pygame.K_RETURN)
    assert menu.heading == "Not deleted" and menu.message is not None
    assert "a.yaml" in menu.message and "File exists" in menu.message
    assert (saves_dir / "a.yaml").is_file()


def test_the_selected_rows_bold_text_is_cut_to_fit_its_button_not_drawn_past_its_edges(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    """(Seen while checking Delete under Xvfb: a long autosave name, selected, ran past both ends.)"""
    (saves_dir / "autosave").mkdir(parents=True)
    demo_save(saves_dir / "autosave" / "autosave-ail-tactical-demo-movement-r02-20261203-181607.yaml")
    app = open_app(demo_save(tmp_path / "start.yaml"))
    ctrl(app, pygame.K_o)
    menu = _menu(app)
    (row,) = [b for b, n in menu.row_buttons.items() if n == menu.index]
    assert row.text.startswith("> autosave/") and row.text.endswith("...")  # type: ignore[attr-defined]
    assert fonts.font(14, True).size(row.text)[0] <= row.rect.width - 16  # type: ignore[attr-defined]


def test_a_file_that_cannot_be_read_is_deleted_the_same_way_and_the_question_says_it_cannot_be_read(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    saves_dir.mkdir(parents=True)
    (saves_dir / "junk.yaml").write_text("--- # header\nformat: [\n", encoding="utf-8")
    app = open_app(demo_save(tmp_path / "start.yaml"))
    ctrl(app, pygame.K_o)
    menu = _menu(app)
    assert _names(menu) == ["junk.yaml"]
    key(app, pygame.K_BACKSPACE)  # (the Delete key of some keyboards)
    text = _question(app).body_text
    assert "junk.yaml" in text and "Last changed" in text and "a file that cannot be read as a save" in text
    press_button(app, "Delete")
    assert (saves_dir / "deleted" / "junk.yaml").is_file() and menu.listings == []
    assert menu.delete_button.is_enabled is False and menu.selected is None


def test_list_saves_itself_never_offers_a_save_in_the_deleted_folder(tmp_path: Path) -> None:
    assert saves.DELETED_DIR == savegame.DELETED_DIR  # one folder, named in two layers
    listed_before = {s.path.name for s in saves.list_saves(tmp_path)}
    assert listed_before == set()
    (tmp_path / savegame.DELETED_DIR).mkdir()
    src = next(iter(paths.data_root().joinpath("tests", "fixtures", "saves").glob("*.yaml")))
    (tmp_path / savegame.DELETED_DIR / "old.yaml").write_bytes(src.read_bytes())
    (tmp_path / "kept.yaml").write_bytes(src.read_bytes())
    assert {s.path.name for s in saves.list_saves(tmp_path)} == {"kept.yaml"}


def test_loading_from_the_menu_over_moves_since_the_last_save_asks_first_and_keeps_them_in_the_recovery_save(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    saves_dir.mkdir(parents=True, exist_ok=True)
    demo_save(saves_dir / "other.yaml", commands=3)
    app = open_app(demo_save(tmp_path / "start.yaml"))
    scene = battle(app)
    scene.submit(parse_command({"kind": "move", "unit_id": "car", "path": [[1, 2], [2, 2]]}))
    moved = scene.state
    ctrl(app, pygame.K_o)
    key(app, pygame.K_RETURN)  # Load the selected save
    assert top_name(app) == "load_question"
    key(app, pygame.K_ESCAPE)  # Keep playing: nothing changes
    assert battle(app) is scene and scene.state == moved
    key(app, pygame.K_ESCAPE)  # (the menu)
    ctrl(app, pygame.K_o)
    key(app, pygame.K_RETURN)
    press_button(app, "Load")
    assert battle(app) is not scene and len(battle(app).session.history) == 3
    (recovery,) = savegame.recovery_paths()  # a recovery save of its own, in recovery/
    assert recovery.parent == savegame.recovery_dir()
    assert saves.read_header(recovery).commands == 5  # the move that was on the screen is kept


def test_with_no_saves_delete_replay_and_load_say_there_is_nothing_to_act_on(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "start.yaml"))
    ctrl(app, pygame.K_o)
    menu = app.scenes.top
    assert isinstance(menu, LoadMenuScene) and not menu.listings
    for k, what in ((pygame.K_DELETE, "delete"), (pygame.K_r, "replay"), (pygame.K_RETURN, "load")):
        menu.message = None
        key(app, k)
        assert app.scenes.top is menu and menu.message == f"There is no save in {menu.folder} to {what}.", what


def test_f5_over_another_games_quick_save_says_it_replaced_it_and_where_that_one_went(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(demo_save(tmp_path / "start.yaml"))
    scene = battle(app)
    key(app, pygame.K_F5)
    assert "another game" not in (scene.toast_text or "")
    key(app, pygame.K_F5)  # the same game again: nothing to say
    assert "another game" not in (scene.toast_text or "")
    scene.session.seed += 1  # (as a new game of the scenario: fresh dice)
    key(app, pygame.K_F5)
    path = savegame.quick_save_path(scene.session)
    assert f"It replaced the quick save of another game of this scenario, kept as {path.name}.bak" in \
        (scene.toast_text or ""), scene.toast_text
    assert path.with_name(path.name + ".bak").exists()
