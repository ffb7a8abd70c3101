"""Issue 28 items 4 and 8: saves per game (the quick save and autosave slots are per rule system and
scenario), and the save's title, the load menu and the window's title name the system and its own
clock (round, week, Wave; the race's lap). Confirmations are shown as confirmations, not in the
refusals' colour. For every system and the race."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.io import saves
from game.shell import actions, savegame
from game.shell.contracts import live_game
from game.shell.scenes.load_menu import LoadMenuScene, details, row_text
from game.shell.toolkit.richtext import plain
from tests.shell.harness import CLOCKS, SYSTEMS, ctrl, key, open_game, play_some, to_map


@pytest.mark.parametrize("system", SYSTEMS)
def test_f5_saves_to_this_games_own_slot_and_f9_loads_it_back(system: str, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    key(game, pygame.K_F5)
    slot = savegame.quick_save_path(game.session)
    stem = game.session.path.stem  # type: ignore[union-attr]
    assert slot.name == f"quicksave-{game.session.system.name}-{stem}.yaml"
    header = saves.read_header(slot)
    assert header.system == game.session.system.name and header.commands == len(game.session.history)
    text, problem = game.last()
    assert text.startswith("Saved to ") and not problem  # a confirmation, in the normal colour
    told: list[tuple[str, bool]] = []
    tell = actions.tell
    monkeypatch.setattr(actions, "tell", lambda scene, text, seconds=3.0, *, problem=False: (
        told.append((text, problem)), tell(scene, text, seconds, problem=problem)))
    key(game, pygame.K_F9)
    loaded = live_game(game.app)
    assert loaded is not None and loaded is not game.scene  # the quick save, loaded over the game
    assert len(loaded.session.history) == header.commands
    assert told[-1] == (f"Loaded {slot}", False)


def test_quick_saves_of_different_systems_never_replace_each_other(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    slots = []
    for system in SYSTEMS:
        game = open_game(system, tmp_path)
        to_map(game)
        play_some(game)
        key(game, pygame.K_F5)
        slots.append((savegame.quick_save_path(game.session), game.session.system.name))
    assert len({path for path, _ in slots}) == len(SYSTEMS)
    for path, name in slots:
        assert saves.read_header(path).system == name  # each still holds its own game


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_window_title_and_the_save_title_name_the_system_and_its_clock(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    to_map(game)
    word, n = savegame.clock(game.session.system, game.session.state)
    assert word == CLOCKS[system]
    caption = pygame.display.get_caption()[0]
    assert game.session.system.title in caption and f"{word.capitalize()} {n}" in caption
    assert "Tactics" not in caption or system == "tactical"
    play_some(game)
    key(game, pygame.K_F5)
    title = saves.read_header(savegame.quick_save_path(game.session)).title
    assert game.session.system.title in title and f"{word} " in title and "quick save" in title


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_load_menu_counts_each_save_in_its_systems_clock(system: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    key(game, pygame.K_F5)
    ctrl(game, pygame.K_o)
    menu = game.app.scenes.top
    assert isinstance(menu, LoadMenuScene)
    listing = menu.listings[0]
    word = CLOCKS[system]
    assert f"· {word} {listing.header.round}," in row_text(listing, menu.folder, word)  # type: ignore[union-attr]
    shown_details = plain(details(listing, (game.session.system.title, word)))
    assert f"{word.capitalize()} {listing.header.round} ·" in shown_details  # type: ignore[union-attr]
    assert f"Rule system: {game.session.system.title}" in shown_details
    shown = menu._system(listing)
    assert shown == (game.session.system.title, word)


@pytest.mark.parametrize("system", SYSTEMS)
def test_ctrl_s_names_the_new_file_after_the_games_clock(system: str, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    ctrl(game, pygame.K_s)
    text, problem = game.last()
    assert text.startswith("Saved to ") and not problem
    word, n = savegame.clock(game.session.system, game.session.state)
    marker = f"-r{n:02d}-" if word == "round" else f"-{word}{n:02d}-"
    written = [p for p in savegame.saves_dir().glob("*.yaml") if marker in p.name]
    assert len(written) == 1 and saves.read_header(written[0]).commands == len(game.session.history)


def test_a_name_ending_in_s_takes_the_apostrophe_alone() -> None:
    from game.core.system import possessive

    assert possessive("The Zones") == "The Zones'" and possessive("Akira") == "Akira's"
    assert possessive("Hida Jo's army") == "Hida Jo's army's"


def test_the_window_title_follows_the_clock_as_the_game_goes_on(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("race", tmp_path)
    session = game.session
    assert "Lap 1" in pygame.display.get_caption()[0]
    while savegame.clock(session.system, session.state)[1] == 1:
        side = session.system.to_move(session.state)[0]
        assert session.apply(session.system.parse_command({"kind": "run", "side": side}))[0]
    game.app.step([])
    assert "Lap 2" in pygame.display.get_caption()[0]
