"""A game played out by computer seats keeps each decision's why (`GameOut.whys`), and the game
`arena --save` writes has the why line of every computer command, worded as the window words it,
with their checksums: `replay --verify` accepts it and a game loaded from it shows them."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game import paths  # noqa: E402
from game.__main__ import main  # noqa: E402
from game.core.ai import Budget, Decision, play_out  # noqa: E402
from game.core.system import RuleSystem  # noqa: E402
from game.io import saves  # noqa: E402
from game.replay import verify_save  # noqa: E402
from game.shell.savegame import load_session  # noqa: E402
from game.table import TABLE  # noqa: E402

ROOT = paths.data_root()
SCENARIO = ROOT / "maps" / "demo-overwatch.yaml"


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


class _Quiet:
    """A player that gives a reason for every other decision only (and blanks for the rest)."""

    level = "quiet"

    def __init__(self, rng: random.Random) -> None:
        self.inner = TABLE.plugin_named("ail-tactical").players["random"](rng)
        self.n = 0

    def decide(self, system: RuleSystem, view: Any, side: str, budget: Budget) -> Decision:
        self.n += 1
        decision = self.inner.decide(system, view, side, budget)
        return Decision(decision.command, decision.why if self.n % 2 else " ")


def test_play_out_keeps_each_decisions_why_by_its_commands_place_and_none_that_is_empty() -> None:
    plugin = TABLE.plugin_named("ail-tactical")
    system = plugin.system
    loaded = plugin.load(SCENARIO)
    initial = system.initial_state(plugin.setup_of(loaded), 4)
    seats = {side: plugin.players["random"](random.Random(side)) for side in ("garrison", "jibril")}
    game = play_out(system, initial, seats, work=200)
    assert sorted(game.whys) == list(range(game.commands)) == list(range(len(game.record.steps)))
    assert all(why.startswith("at random among") for why in game.whys.values())
    quiet = {side: _Quiet(random.Random(side)) for side in ("garrison", "jibril")}
    game = play_out(system, initial, quiet, work=200, max_commands=12)
    assert game.commands == 12 and 0 < len(game.whys) < 12
    assert all(why.strip() for why in game.whys.values())


def test_an_arena_save_has_the_why_line_of_every_computer_command_and_replay_verify_accepts_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "arena.yaml"
    assert main(["arena", str(SCENARIO), "--seat", "garrison=ai:easy", "--games", "1", "--seed", "3",
                 "--work", "300", "--save", str(path), "--quiet"]) == 0
    assert f"saved to {path}" in capsys.readouterr().out
    save = saves.load_save(path)
    assert save.log  # every side is a computer seat (jibril: random), so every command is one's
    names = {"garrison": "Why (Street Garrison, computer easy): ", "jibril": "Why (Jibril Assault Group, computer random): "}
    for entry in save.log:
        assert entry.why is not None and entry.why_checksum is not None
        side = str(entry.command.get("side") or "")
        if side in names:
            assert entry.why.startswith(names[side])
        assert entry.why.startswith(tuple(names.values())) and len(entry.why) > len(names["jibril"])
    assert save.header.why_checksum == saves.whys_checksum(save.log)
    assert verify_save(TABLE, path).commands == len(save.log)
    assert main(["replay", str(path), "--verify"]) == 0
    assert "OK" in capsys.readouterr().out
    # the game loaded from it gives each command its why line back, for its log and replay view
    session = load_session(TABLE, path)
    assert session is not None
    assert session.seats.by_place(session.history) == {i: e.why for i, e in enumerate(save.log)}


def test_an_arena_save_with_sides_swapped_names_each_side_with_its_own_level(tmp_path: Path) -> None:
    path = tmp_path / "arena.yaml"
    assert main(["arena", str(SCENARIO), "--seat", "garrison=ai:easy", "--games", "2", "--seed", "3",
                 "--work", "300", "--save", str(path), "--save-game", "2", "--quiet"]) == 0
    save = saves.load_save(path)
    # game 2: the players swapped sides, so the garrison is played at random and the jibril by easy
    for entry in save.log:
        side = entry.command.get("side")
        if side == "garrison":
            assert entry.why is not None and entry.why.startswith("Why (Street Garrison, computer random): ")
        elif side == "jibril":
            assert entry.why is not None and entry.why.startswith("Why (Jibril Assault Group, computer easy): ")


def test_the_text_replay_prints_each_computer_commands_why_line_under_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "arena.yaml"
    assert main(["arena", str(SCENARIO), "--seat", "garrison=ai:easy", "--games", "1", "--seed", "3",
                 "--work", "300", "--save", str(path), "--quiet"]) == 0
    capsys.readouterr()
    save = saves.load_save(path)
    assert main(["replay", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    for i, entry in enumerate(save.log):
        at = next(k for k, line in enumerate(lines) if line.startswith(f"[{i + 1}] "))
        assert lines[at + 1] == f"      {entry.why}"
