"""Saves do their work once: a command's log entry and checksum are made the first time the game
is saved and reused by every later save (an autosave encodes only what was played since), the
text is the same as a save made from scratch, and the autosave is written off the UI thread."""

from __future__ import annotations

import datetime as _dt
import threading
import time
from pathlib import Path

import pytest

from game import paths
from game.io import saves
from game.replay import STEP_LOG, initial_state_of, load_game, make_save
from game.shell import savegame
from game.systems.tactical.bench.randomplay import long_game_policy, play
from game.systems.tactical.io.scenario import load_scenario
from game.systems.tactical.rules.system import SYSTEM
from game.table import TABLE

SCENARIO = paths.data_root() / "maps" / "default.yaml"
NOW = _dt.datetime(2026, 12, 1, 12, 0, 0)


def _played(commands: int = 80):  # type: ignore[no-untyped-def]
    scenario = load_scenario(SCENARIO)
    return scenario, play(initial_state_of(TABLE, scenario), 7, policy=long_game_policy(), max_commands=commands)


def test_a_later_save_encodes_only_the_commands_played_since_and_writes_the_same_text(tmp_path: Path) -> None:
    scenario, game = _played()
    steps = list(game.record.steps)
    assert len(steps) >= 40
    early = steps[:30]
    before = STEP_LOG.made
    make_save(SYSTEM, early[-1].after, early, scenario_path=SCENARIO, seed=scenario.seed, now=NOW)
    assert STEP_LOG.made - before == 30
    before = STEP_LOG.made
    later = make_save(SYSTEM, game.state, steps, scenario_path=SCENARIO, seed=scenario.seed, now=NOW)
    assert STEP_LOG.made - before == len(steps) - 30
    # the text from kept entries is exactly the text made from scratch
    for s in steps:
        STEP_LOG.forget(s)
    fresh = make_save(SYSTEM, game.state, steps, scenario_path=SCENARIO, seed=scenario.seed, now=NOW)
    assert saves.dump_save(later) == saves.dump_save(fresh)
    assert saves.dump_save(later) == saves.dump_save(saves.SaveData(fresh.header, fresh.state, fresh.log,
                                                                   system_title=fresh.system_title))
    path = saves.write_save(tmp_path / "g.yaml", later)
    assert load_game(TABLE, path).state == game.state


def test_an_autosave_is_written_by_a_background_thread_while_the_caller_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scenario, game = _played(30)
    data = make_save(SYSTEM, game.state, game.record.steps, scenario_path=SCENARIO, seed=scenario.seed)
    release = threading.Event()
    threads: list[str] = []

    def slow_encode() -> saves.SaveData:  # the encoding the service runs in its thread
        threads.append(threading.current_thread().name)
        release.wait(10.0)
        return data

    writer = savegame.AutosaveWriter()
    t0 = time.perf_counter()
    writer.submit(tmp_path, slow_encode, "autosave-test")
    assert time.perf_counter() - t0 < 0.5  # the caller (the UI) did not wait for the encoding or the disk
    assert not writer.wait(0.05)  # still encoding: held by the test until released
    release.set()
    assert writer.wait(10.0)
    assert threads == ["autosave"] and threading.current_thread().name != "autosave"
    written = list(tmp_path.glob("autosave-test-*.yaml"))
    assert len(written) == 1 and writer.written == written
    assert saves.read_header(written[0]).commands == len(game.record.steps)


def test_an_autosave_that_cannot_be_written_is_reported_once(tmp_path: Path) -> None:
    scenario, game = _played(10)
    data = make_save(SYSTEM, game.state, game.record.steps, scenario_path=SCENARIO, seed=scenario.seed)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x", encoding="utf-8")
    writer = savegame.AutosaveWriter()
    writer.submit(blocker, lambda: data, "autosave-test")
    assert writer.wait(10.0)
    problems = writer.problems()
    assert len(problems) == 1 and "\n" not in problems[0]
    assert writer.problems() == []
