"""Replays: the log folded through `apply` rebuilds the game bit for bit; undo and redo work on
anything (dice included); verification names the first command whose dice or state differ.

`battle()` and `play()` here are reused by the save round-trip tests: a small two-side battle
and a seeded random player that picks among the rules' own legal commands.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from game.core.board import Board
from game.io import saves
from game.replay import (
    Record,
    ReplayMismatch,
    first_difference,
    make_save,
    replay_log,
)
from game.systems.tactical.io.data import load_catalogue
from game.systems.tactical.rules import engine
from game.systems.tactical.rules.gm import EditUnit, SetNextRoll
from game.systems.tactical.rules.models import BattleSetup, Commander, RulesData, SideSetup, Stats, UnitSetup
from game.systems.tactical.rules.queries import legal_commands
from game.systems.tactical.rules.start import initial_state
from game.systems.tactical.rules.state import GameState
from game.systems.tactical.rules.system import SYSTEM

CATALOGUE = load_catalogue()

def _replay_log(save, initial):
    """replay_log for a tactical save, the saved state read back with the battle's set-up."""
    from game.systems.tactical.rules.system import TacticalSetup

    saved = SYSTEM.state_from_data(save.state, TacticalSetup(initial.setup, initial.board))
    return replay_log(save, SYSTEM, initial, saved)



@dataclass
class FakeScenario:
    """What game.systems.tactical.io.scenario.load_scenario returns, built in memory."""

    setup: BattleSetup
    board: Board
    seed: int = 11
    path: Path | None = None
    map: Any = None


def battle(seed: int = 11) -> FakeScenario:
    board = Board.filled(10, 8, "clear", overrides={(4, 3): "woods", (5, 4): "swamp"},
                         roads={(c, 2) for c in range(10)})
    cmd = Commander(name="Cmdr", stats=Stats(physique=3, senses=3, intellect=3, aether=1),
                    skills={"tactics": 2, "leadership": 1})
    at = board.hex_at
    setup = BattleSetup(
        name="Replay test", rules=RulesData(), catalogue=CATALOGUE,
        sides=(SideSetup(id="zone", name="Zone", colour=(200, 60, 60), commander=cmd),
               SideSetup(id="zenith", name="Zenith", colour=(60, 60, 200), commander=cmd)),
        units=(UnitSetup(id="r1", type="rifle_section", side="zone", at=at(1, 1)),
               UnitSetup(id="r2", type="rifle_section", side="zone", at=at(1, 4)),
               UnitSetup(id="c1", type="armoured_car", side="zone", at=at(0, 2)),
               UnitSetup(id="m1", type="militia_band", side="zenith", at=at(6, 2)),
               UnitSetup(id="k1", type="battlemage_knight", side="zenith", at=at(7, 4)),
               UnitSetup(id="m2", type="militia_band", side="zenith", at=at(6, 5))),
        round_limit=4,
    )
    return FakeScenario(setup, board, seed)


def start(sc: FakeScenario) -> GameState:
    return initial_state(sc.setup, sc.board, sc.seed)


def pick(state: GameState, rnd: random.Random) -> Any:
    """A seeded random player that prefers fighting and rarely ends a phase early."""
    options = legal_commands(state)
    attacks = [c for c in options if c.kind in ("attack", "charge")]
    if attacks and rnd.random() < 0.7:
        return rnd.choice(attacks)
    ends = [c for c in options if c.kind == "end_phase"]
    rest = [c for c in options if c.kind != "end_phase"]
    if ends and (not rest or rnd.random() < 0.25):
        return ends[0]
    return rnd.choice(rest or options)


def play(record: Record, n: int, rnd: random.Random, stop: Any = None) -> Record:
    """Apply up to n commands chosen by `pick` (stop early when `stop(state)` is true)."""
    for _ in range(n):
        if record.state.phase == "ended" or (stop is not None and stop(record.state)):
            break
        outcome = record.apply(pick(record.state, rnd))
        assert isinstance(outcome, engine.Accepted), outcome
    return record


def a_save(record: Record, sc: FakeScenario, **kw: Any) -> saves.SaveData:
    return make_save(SYSTEM, record.state, record.steps, scenario_path=__file__, seed=sc.seed,
                     scenario_checksum="test", **kw)


def reparse(save: saves.SaveData) -> saves.SaveData:
    return saves.parse_save(saves.dump_save(save), "game.yaml")


# --------------------------------------------------------------------------- folding


def test_folding_the_log_of_a_played_game_rebuilds_every_state_and_event() -> None:
    sc = battle()
    rec = play(Record(SYSTEM, start(sc)), 120, random.Random(1))
    assert len(rec.steps) > 40 and any(SYSTEM.rolls(s.events) for s in rec.steps)
    again = _replay_log(reparse(a_save(rec, sc)), start(sc))
    assert [s.events for s in again.steps] == [s.events for s in rec.steps]
    assert again.state == rec.state


def test_undo_then_redo_of_a_command_that_rolled_dice_rolls_the_same_dice() -> None:
    sc = battle()
    rec = play(Record(SYSTEM, start(sc)), 200, random.Random(2), stop=lambda s: False)
    with_dice = max(i for i, s in enumerate(rec.steps) if SYSTEM.rolls(s.events))
    while len(rec.steps) > with_dice + 1:
        rec.undo(gm=True)
    original = rec.steps[-1]
    undone = rec.undo(gm=True)
    assert undone is original and rec.state == original.before and rec.can_redo
    outcome = rec.redo()
    assert isinstance(outcome, engine.Accepted)
    assert rec.steps[-1].events == original.events and rec.state == original.after


def test_a_new_command_after_undo_clears_the_redo_stack() -> None:
    sc = battle()
    rec = play(Record(SYSTEM, start(sc)), 3, random.Random(3))
    rec.undo(gm=True)
    assert rec.can_redo
    rec.apply(SetNextRoll(values=(6,)))
    assert not rec.can_redo and rec.redo() is None


def test_gm_actions_replay_and_forced_rolls_take_effect_on_the_next_die() -> None:
    sc = battle()
    rec = Record(SYSTEM, start(sc))
    rec.apply(SetNextRoll(values=(1, 1)))
    rec.apply(EditUnit(unit_id="m1", strength=3))
    play(rec, 8, random.Random(4))
    first_rolls = next(SYSTEM.rolls(s.events) for s in rec.steps if SYSTEM.rolls(s.events))
    assert first_rolls[:2] == (1, 1)
    save = reparse(a_save(rec, sc, gm_mode=True))
    assert [e.gm for e in save.log[:2]] == [True, True] and not any(e.gm for e in save.log[2:])
    assert _replay_log(save, start(sc)).state == rec.state


def test_round_starts_index_the_first_command_of_each_round() -> None:
    sc = battle()
    rec = play(Record(SYSTEM, start(sc)), 400, random.Random(5))
    starts = rec.round_starts()
    assert starts[1] == 0 and len(starts) >= 2
    for rnd_no, index in starts.items():
        assert rec.state_at(index).round == rnd_no


# --------------------------------------------------------------------------- verification


def test_verification_catches_a_tampered_roll_and_names_the_command() -> None:
    sc = battle()
    rec = play(Record(SYSTEM, start(sc)), 60, random.Random(6))
    save = a_save(rec, sc)
    i = next(i for i, e in enumerate(save.log) if e.rolls)
    bad_rolls = tuple((r % 6) + 1 if k == 0 else r for k, r in enumerate(save.log[i].rolls))
    assert bad_rolls != save.log[i].rolls
    log = list(save.log)
    log[i] = log[i].model_copy(update={"rolls": bad_rolls})
    tampered = reparse(saves.SaveData(save.header, save.state, tuple(log)))
    with pytest.raises(ReplayMismatch) as info:
        _replay_log(tampered, start(sc))
    assert info.value.index == i
    msg = str(info.value)
    assert f"command {i + 1} of {len(log)}" in msg and "recorded rolls" in msg and f"log[{i}].rolls" in msg


def test_verification_catches_a_command_edited_into_another() -> None:
    sc = battle()
    rec = play(Record(SYSTEM, start(sc)), 30, random.Random(7))
    save = a_save(rec, sc)
    i = next(i for i, e in enumerate(save.log) if e.command["kind"] == "move")
    log = list(save.log)
    log[i] = log[i].model_copy(update={"command": {**log[i].command, "unit_id": "nobody"}})
    with pytest.raises(ReplayMismatch, match=f"command {i + 1} .* refused when replayed"):
        _replay_log(reparse(saves.SaveData(save.header, save.state, tuple(log))), start(sc))


def test_verification_catches_a_final_state_the_log_does_not_lead_to() -> None:
    sc = battle()
    rec = play(Record(SYSTEM, start(sc)), 20, random.Random(8))
    save = a_save(rec, sc)
    state = dict(save.state)
    state["units"] = {**state["units"], "r1": {**state["units"]["r1"], "strength": 1}}
    check = saves.state_checksum(state)
    log = list(save.log)
    log[-1] = log[-1].model_copy(update={"after": check})
    header = save.header.model_copy(update={"state_checksum": check})
    with pytest.raises(ReplayMismatch, match=r"leaves state|units\.r1\.strength"):
        _replay_log(reparse(saves.SaveData(header, state, tuple(log))), start(sc))


def test_first_difference_names_the_path() -> None:
    assert first_difference({"a": {"b": [1, 2]}}, {"a": {"b": [1, 3]}}) == ("a.b[1]", 2, 3)
    assert first_difference({"a": 1}, {"a": 1, "c": 2}) == ("c", "<missing>", 2)
    assert first_difference([1], [1]) is None
