"""GM interventions at random moments of random games never break the engine: every command is
either applied or refused with a reason (no exception), and the whole log, GM actions included,
replays to the same state."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from game.io import saves
from game.replay import Record, initial_state_of, make_save, replay_log
from game.systems.tactical.io.scenario import load_scenario
from game.systems.tactical.rules.gm import (
    EditUnit,
    GiveAdvantage,
    MoveUnitGM,
    PlaceUnit,
    RemoveUnit,
    SetNextRoll,
)
from game.systems.tactical.rules.state import ADVANTAGE_KINDS
from game.systems.tactical.rules.system import SYSTEM
from game.table import TABLE
from tests.test_replay import pick

ROOT = Path(__file__).resolve().parents[2]

def _replay_log(save, initial):
    """replay_log for a tactical save, the saved state read back with the battle's set-up."""
    from game.systems.tactical.rules.system import TacticalSetup

    saved = SYSTEM.state_from_data(save.state, TacticalSetup(initial.setup, initial.board))
    return replay_log(save, SYSTEM, initial, saved)



def _gm_command(state: Any, rnd: random.Random, hexes: list[Any], types: list[str], i: int) -> Any:
    units = sorted(state.units)
    sides = sorted(state.sides)
    choice = rnd.randrange(6)
    if choice == 0 and units:
        return RemoveUnit(unit_id=rnd.choice(units))
    if choice == 1:
        return PlaceUnit(unit_id=f"gm{i}", type_id=rnd.choice(types), side=rnd.choice(sides), at=rnd.choice(hexes))
    if choice == 2 and units:
        return EditUnit(unit_id=rnd.choice(units), strength=rnd.randint(0, 4),
                        pinned=rnd.choice(["none", "next_turn", "this_turn"]),
                        out_of_action=rnd.choice(["none", "next_turn", "this_turn", None]),
                        stance=rnd.choice(["none", "guard", "defensive", "overwatch"]),
                        stats={"senses": rnd.randint(0, 10)} if rnd.random() < 0.3 else None)
    if choice == 3 and units:
        return MoveUnitGM(unit_id=rnd.choice(units), to=rnd.choice(hexes))
    if choice == 4:
        return GiveAdvantage(side=rnd.choice(sides), advantage_kind=rnd.choice(ADVANTAGE_KINDS),
                             points=rnd.choice([-2, -1, 1, 2]))
    return SetNextRoll(values=tuple(rnd.randint(1, 10) for _ in range(rnd.randint(1, 3))))


def _fuzz(scenario_file: str, games: int, length: int) -> None:
    sc = load_scenario(ROOT / "maps" / scenario_file)
    hexes = sorted(sc.board.terrain)
    types = sorted(sc.setup.catalogue.units)
    gm_applied = 0  # over all the games: a game the random player ends early may see none accepted
    for seed in range(games):
        rnd = random.Random(seed)
        rec = Record(SYSTEM, initial_state_of(TABLE, sc, seed))
        for i in range(length):
            if rec.state.phase == "ended":
                break
            if rnd.random() < 0.2:
                outcome = rec.apply(_gm_command(rec.state, rnd, hexes, types, i))
                gm_applied += outcome.accepted
            else:
                assert rec.apply(pick(rec.state, rnd)).accepted
        save = saves.parse_save(saves.dump_save(make_save(SYSTEM, rec.state, rec.steps, scenario_path=sc.path,
                                                          seed=seed, scenario_checksum="x")))
        assert _replay_log(save, initial_state_of(TABLE, sc, seed)).state == rec.state
    assert gm_applied >= games  # the fuzz did intervene: on average at least once a game


def test_random_gm_interventions_never_break_a_game_or_its_replay() -> None:
    _fuzz("demo-overwatch.yaml", games=20, length=150)


@pytest.mark.slow
def test_random_gm_interventions_on_the_default_battle_long_run() -> None:
    _fuzz("default.yaml", games=40, length=300)
