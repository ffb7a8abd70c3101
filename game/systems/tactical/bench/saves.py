"""Saves benchmark: games of 200 and 1,000 rounds saved, loaded and verified, against baselines.

Each game is the default scenario with its round limit raised and its objectives removed (so it
runs the full length), written as a scenario file in a temporary directory and played by the steady
random player of game.systems.tactical.bench.randomplay. Timed, median of several runs with min and max, each
against a baseline timed in the same run, interleaved:

- **autosave** (what the player's game does at each new round): the history is already logged up
  to the last round (game.replay.STEP_LOG); `save_game` encodes the last round's commands, the
  state, and writes the file atomically. Baseline: `yaml.dump` of the same data (header, state
  and log as plain data) with PyYAML's C dumper, to a string.
- **first save** of a history never logged (e.g. the first save after loading a game): [info].
- **load + verify** (`load_game`: parse, re-apply the whole log from the scenario, check every roll
  and checksum and the final state). Baseline: read the same file without checksums and re-apply
  its commands with no roll or checksum checks.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from game import paths
from game.bench.harness import Figure, ms
from game.core.record import Record
from game.io import saves
from game.replay import STEP_LOG, initial_state_of, load_game, make_save, save_game
from game.systems.tactical.bench.randomplay import long_game_policy, play
from game.systems.tactical.io.scenario import load_scenario
from game.systems.tactical.plugin import alone
from game.systems.tactical.rules.system import SYSTEM

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


def _spread(values: list[float]) -> dict[str, float]:
    return {"min": min(values), "max": max(values)}


def run(directory: str | os.PathLike[str], *, quick: bool = False, rounds: int = 0,
        log: Callable[[str], None] = print) -> list[Figure]:
    lengths = (rounds,) if rounds else ((200,) if quick else (200, 1000))
    figures: list[Figure] = []
    for n in lengths:
        figures += _run_one(directory, n, repeats=3 if quick else 5, log=log)
    return figures


def _run_one(directory: str | os.PathLike[str], rounds: int, *, repeats: int,
             log: Callable[[str], None]) -> list[Figure]:
    table = alone()

    scenario_path = long_scenario(directory, rounds)
    scenario = load_scenario(scenario_path)
    t0 = time.perf_counter()
    played = play(initial_state_of(table, scenario), 2024, policy=long_game_policy(), max_commands=200_000)
    t_play = time.perf_counter() - t0
    state = played.state
    steps = list(played.record.steps)
    dice = sum(len(SYSTEM.rolls(s.events)) for s in steps)
    log(f"  saves: played {len(steps)} commands over {state.round} rounds ({dice} dice) in {t_play:.1f} s; "
        f"ended: {state.end_reason}")
    last_round = SYSTEM.summary(steps[-1].before).get("round", 0)
    tail = [s for s in steps if SYSTEM.summary(s.before).get("round", 0) == last_round]
    save_path = Path(directory) / f"long-game-{rounds}.yaml"
    kwargs: dict[str, Any] = {"scenario_path": scenario_path, "seed": scenario.seed}

    # the first save: nothing logged yet
    first_t: list[float] = []
    for _ in range(max(1, repeats // 2)):
        for s in steps:
            STEP_LOG.forget(s)
        t0 = time.perf_counter()
        save_game(save_path, SYSTEM, state, steps, **kwargs)
        first_t.append(time.perf_counter() - t0)

    data = make_save(SYSTEM, state, steps, **kwargs)
    plain = {"header": data.header.model_dump(mode="json"), "state": data.state,
             "log": [e.model_dump(mode="json") for e in data.log]}
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

    auto_t: list[float] = []
    cdump_t: list[float] = []
    load_t: list[float] = []
    plain_t: list[float] = []
    made = 0
    for _ in range(repeats):
        t0 = time.perf_counter()
        yaml.dump(plain, Dumper=dumper, sort_keys=False)
        cdump_t.append(time.perf_counter() - t0)
        for s in tail:  # the round just played is new to the log; everything before it was saved
            STEP_LOG.forget(s)
        before = STEP_LOG.made
        t0 = time.perf_counter()
        save_game(save_path, SYSTEM, state, steps, **kwargs)
        auto_t.append(time.perf_counter() - t0)
        made = STEP_LOG.made - before

        t0 = time.perf_counter()
        loaded = load_game(table, save_path)
        load_t.append(time.perf_counter() - t0)
        if loaded.state != state or len(loaded.record.steps) != len(steps):
            raise AssertionError("the loaded game differs from the saved one")

        t0 = time.perf_counter()
        bare = saves.load_save(save_path, verify_checksums=False)
        record = Record(SYSTEM, initial_state_of(table, load_scenario(scenario_path), bare.header.seed))
        for entry in bare.log:
            record.apply(SYSTEM.parse_command(dict(entry.command)), gm=entry.gm)
        plain_t.append(time.perf_counter() - t0)

    auto, cdump = statistics.median(auto_t), statistics.median(cdump_t)
    load, bare_t = statistics.median(load_t), statistics.median(plain_t)
    size = save_path.stat().st_size / 1024
    c_yaml = dumper is not yaml.SafeDumper
    return [
        Figure(f"saves: {rounds}-round game, autosave / C YAML dump of the same data (median of {repeats})",
               auto / cdump, 2.0, "ratio_max",
               details={"autosave ms": ms(auto), **{k: ms(v) for k, v in _spread(auto_t).items()},
                        "C YAML dump ms": ms(cdump), "entries encoded": made, "commands": len(steps),
                        "dice": dice, "file KB": size},
               note="" if c_yaml else "PyYAML has no C dumper here: the baseline is the pure-Python one"),
        Figure(f"saves: {rounds}-round game, first save (nothing logged yet) / C YAML dump",
               statistics.median(first_t) / cdump, 2.0, "ratio_max", judged=False,
               details={"first save ms": ms(statistics.median(first_t)),
                        **{k: ms(v) for k, v in _spread(first_t).items()}}),
        Figure(f"saves: {rounds}-round game, load + verify / re-apply the log without checks (median of {repeats})",
               load / bare_t, 3.0, "ratio_max",
               details={"load+verify ms": ms(load), **{k: ms(v) for k, v in _spread(load_t).items()},
                        "re-apply ms": ms(bare_t)}),
    ]
