"""Soak: whole games of random legal commands on every shipped scenario, to their end.

After every command the invariants of tests/soak/soaklib.py hold; every command the rules list
as legal is accepted; and each game, saved, loaded and replayed, gives the same events and the
same final state. The full run (>= 500 games) is slow-marked; a few games run in the default suite.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest

from game.bench.randomplay import play, uniform_by_kind
from game.io.scenario import load_scenario
from game.replay import initial_state_of, load_game, save_game
from tests.fuzz.fuzzlib import shipped_scenarios
from tests.soak.soaklib import aggressive, check_step

SCENARIOS = shipped_scenarios()
WORK = Path(tempfile.mkdtemp(prefix="ail-soak-"))
FULL_GAMES = int(os.environ.get("AIL_SOAK_GAMES", "500"))


def soak_game(scenario_path: Path, n: int) -> dict[str, object]:
    scenario = load_scenario(scenario_path)
    seed = scenario.seed + 7919 * n
    policy = aggressive if n % 2 else uniform_by_kind
    played = play(initial_state_of(scenario, seed), 1000 + n, policy=policy, max_commands=20_000,
                  after_each=check_step)
    assert played.ended, f"{scenario_path.name} game {n} did not end in {played.commands} commands"
    steps = played.record.steps
    save_path = WORK / f"{scenario_path.stem}-{n}.yaml"
    save_game(save_path, played.state, steps, scenario_path=scenario_path, seed=seed)
    loaded = load_game(save_path)  # re-applies the whole log, checking every roll and checksum
    assert loaded.state == played.state
    assert [s.command for s in loaded.record.steps] == [s.command for s in steps]
    assert [s.events for s in loaded.record.steps] == [s.events for s in steps]
    save_path.unlink()
    return {"commands": played.commands, "rounds": played.state.round, "winner": played.state.winner,
            "reason": played.state.end_reason, "dice": sum(len(s.rolls) for s in steps)}


def test_the_soak_covers_every_shipped_scenario() -> None:
    assert len(SCENARIOS) >= 2


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.stem)
def test_random_legal_games_keep_the_invariants_and_replay_exactly(scenario: Path) -> None:
    for n in range(2):
        soak_game(scenario, n)


@pytest.mark.slow
def test_hundreds_of_random_legal_games_keep_the_invariants_and_replay_exactly() -> None:
    t0 = time.perf_counter()
    results = [soak_game(SCENARIOS[i % len(SCENARIOS)], 10 + i) for i in range(FULL_GAMES)]
    elapsed = time.perf_counter() - t0
    commands = sum(int(r["commands"]) for r in results)  # type: ignore[call-overload]
    dice = sum(int(r["dice"]) for r in results)  # type: ignore[call-overload]
    ends: dict[str, int] = {}
    for r in results:
        key = f"{'draw' if r['winner'] is None else 'won'}: {str(r['reason'])[:60]}"
        ends[key] = ends.get(key, 0) + 1
    longest = max(int(r["commands"]) for r in results)  # type: ignore[call-overload]
    print(f"\nsoak: {len(results)} games on {len(SCENARIOS)} scenarios ({', '.join(p.stem for p in SCENARIOS)}), "
          f"{commands} commands (longest game {longest}), {dice} dice, {elapsed:.0f} s")
    for key, n in sorted(ends.items(), key=lambda kv: -kv[1]):
        print(f"  {n:4d} x {key}")
    assert len(results) >= FULL_GAMES
