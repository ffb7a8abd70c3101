"""Saves benchmark: a 200-round game saved, loaded and its replay verified.

The game is the default scenario with its round limit raised to 200 and its objectives removed
(so the battle runs the full 200 rounds), written as a scenario file in a temporary directory and
played by the steady random player of game.bench.randomplay. The timed part is what a player
waits for: `save_game` (atomic write), then `load_game` (parse, re-apply the whole log from the
scenario, check every roll and checksum), then `verify_save` as `python -m game replay --verify`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import yaml

from game import paths
from game.bench.harness import Figure, ms
from game.bench.randomplay import long_game_policy, play

ROOT = paths.data_root()
DEFAULT_SCENARIO = ROOT / "maps" / "default.yaml"


def long_scenario(directory: str | os.PathLike[str], rounds: int = 200) -> Path:
    """The default scenario, `rounds` rounds long and without objectives, as a file in `directory`."""
    data = yaml.safe_load(DEFAULT_SCENARIO.read_text(encoding="utf-8"))
    data["round_limit"] = rounds
    data["objectives"] = []
    data["map"] = str((DEFAULT_SCENARIO.parent / data["map"]).resolve())
    data["name"] = f"{data.get('name', 'battle')} ({rounds} rounds)"
    out = Path(directory) / f"long-{rounds}.yaml"
    out.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return out


def run(directory: str | os.PathLike[str], *, quick: bool = False, rounds: int = 200,
        log: Callable[[str], None] = print) -> list[Figure]:
    from game.io.scenario import load_scenario
    from game.replay import initial_state_of, load_game, save_game, verify_save
    from game.rules.ail.system import SYSTEM

    scenario_path = long_scenario(directory, rounds)
    scenario = load_scenario(scenario_path)
    t0 = time.perf_counter()
    played = play(initial_state_of(scenario), 2024, policy=long_game_policy(), max_commands=100_000)
    t_play = time.perf_counter() - t0
    state = played.state
    steps = played.record.steps
    dice = sum(len(SYSTEM.rolls(s.events)) for s in steps)
    log(f"  saves: played {len(steps)} commands over {state.round} rounds ({dice} dice) in {t_play:.1f} s; "
        f"ended: {state.end_reason}")
    save_path = Path(directory) / "long-game.yaml"
    best = None
    repeats = 1 if quick else 3
    for _ in range(repeats):
        t0 = time.perf_counter()
        save_game(save_path, SYSTEM, state, steps, scenario_path=scenario_path, seed=scenario.seed)
        t1 = time.perf_counter()
        loaded = load_game(save_path)
        t2 = time.perf_counter()
        report = verify_save(save_path)
        t3 = time.perf_counter()
        if loaded.state != state or report.commands != len(steps):
            raise AssertionError("the loaded game differs from the saved one")
        times = (t1 - t0, t2 - t1, t3 - t2)
        if best is None or sum(times) < sum(best):
            best = times
    assert best is not None
    size = save_path.stat().st_size
    total = best[0] + best[1]
    return [
        Figure(f"saves: {state.round}-round game, save + load with full replay check", total, 1.0, "max", unit=" s",
               details={"save ms": ms(best[0]), "load+verify ms": ms(best[1]),
                        "replay --verify ms": ms(best[2]), "commands": len(steps), "dice": dice,
                        "file KB": size / 1024, "C YAML": _has_c_yaml()}),
    ]


def _has_c_yaml() -> bool:
    return hasattr(yaml, "CSafeLoader") and hasattr(yaml, "CSafeDumper")
