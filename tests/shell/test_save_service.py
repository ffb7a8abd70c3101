"""Issue 27 item 6: one save service (game/shell/savegame.py). Saving, autosaving, loading and
verifying go through it; the autosave is encoded and written off the frame loop; every write is
read back before it replaces anything, so a broken save never replaces a good one."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pygame
import pytest

from game import replay as replay_mod
from game.core.errors import GameFileError
from game.io import saves
from game.shell import savegame
from tests.shell.harness import SYSTEMS, TABLE, key, open_game, play_some


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_autosave_at_a_new_round_is_encoded_and_written_by_a_background_thread_in_its_games_slot(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    encoded_in: list[str] = []
    make_save = replay_mod.make_save

    def spy(*args: Any, **kwargs: Any) -> Any:
        encoded_in.append(threading.current_thread().name)
        return make_save(*args, **kwargs)

    monkeypatch.setattr(replay_mod, "make_save", spy)
    session = game.session
    word, n = savegame.clock(session.system, session.state)
    session.autosaved_round = n - 1  # as if the clock had just moved on
    folder = savegame.autosave_if_new_round(session)
    assert folder == savegame.saves_dir() / savegame.AUTOSAVE_DIR
    assert savegame.AUTOSAVES.wait(20.0)
    assert savegame.AUTOSAVES.problems() == []
    assert encoded_in == ["autosave"]  # not the frame loop's thread
    written = sorted(folder.glob(f"{savegame.autosave_stem(session)}-r*.yaml"))
    assert len(written) == 1
    header = saves.read_header(written[0])
    assert header.commands == len(session.history) and f"{word} {n}" in header.title
    report = savegame.verify(TABLE, written[0])  # raises ReplayMismatch when a die or the state differs
    assert report.commands == len(session.history) and report.final_checksum == header.state_checksum


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_autosave_records_who_plays_each_side_as_every_other_save_does(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game against the computer, restored from its autosave, is still against the computer:
    the autosave's header keeps the seats (it once left them out: all Human after a restore)."""
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    session = game.session
    sides = [str(s) for s in session.system.summary(session.state).get("sides", [])]
    session.seats.set(sides[-1], "easy")
    word, n = savegame.clock(session.system, session.state)
    session.autosaved_round = n - 1
    folder = savegame.autosave_if_new_round(session)
    assert folder is not None and savegame.AUTOSAVES.wait(20.0)
    assert savegame.AUTOSAVES.problems() == []
    (path,) = savegame.AUTOSAVES.written[-1:]
    expected = {side: "human" for side in sides} | {sides[-1]: "ai:easy"}
    assert saves.read_header(path).seats == expected
    assert savegame.session_save(session).header.seats == expected


def test_the_autosave_snapshot_is_not_changed_by_play_after_it_started(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("race", tmp_path)
    play_some(game)
    session = game.session
    gate = threading.Event()
    make_save = replay_mod.make_save

    def slow(*args: Any, **kwargs: Any) -> Any:
        gate.wait(10.0)
        return make_save(*args, **kwargs)

    monkeypatch.setattr(replay_mod, "make_save", slow)
    session.autosaved_round = 0
    savegame.autosave_if_new_round(session)
    commands = len(session.history)
    session.undo()  # the game goes on while the autosave is being encoded
    gate.set()
    assert savegame.AUTOSAVES.wait(20.0)
    (path,) = savegame.AUTOSAVES.written[-1:]
    assert saves.read_header(path).commands == commands


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_quick_save_that_comes_out_broken_never_replaces_the_good_one(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    key(game, pygame.K_F5)
    slot = savegame.quick_save_path(game.session)
    good = slot.read_bytes()
    dump = saves.dump_save
    monkeypatch.setattr(saves, "dump_save", lambda data: dump(data)[: len(dump(data)) // 2])  # cut short
    key(game, pygame.K_F5)
    text, problem = game.last()
    assert problem and text.startswith("Not saved: ")
    assert slot.read_bytes() == good
    assert not list(slot.parent.glob("*.tmp*"))  # no half-written file left beside it


def test_an_autosave_that_fails_is_reported_and_writes_nothing(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("race", tmp_path)
    play_some(game)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise GameFileError("<autosave>", "", "the state could not be written")

    monkeypatch.setattr(replay_mod, "make_save", broken)
    game.session.autosaved_round = 0
    savegame.autosave_if_new_round(game.session)
    assert savegame.AUTOSAVES.wait(20.0)
    problems = savegame.AUTOSAVES.problems()
    assert len(problems) == 1 and "could not be written" in problems[0]
    assert not list((savegame.saves_dir() / savegame.AUTOSAVE_DIR).glob("*.yaml"))


def test_loading_goes_through_the_service_and_gives_the_game_back_exactly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("mass", tmp_path)
    play_some(game)
    path = savegame.save_session(game.session, tmp_path / "mid.yaml")
    session = savegame.load_session(TABLE, path)
    assert session is not None
    assert session.state == game.session.state and len(session.history) == len(game.session.history)
    assert session.saved_steps == len(session.history) and session.save_path == path
    assert savegame.load_session(TABLE, game.session.path) is None  # a scenario is not a save  # type: ignore[arg-type]
