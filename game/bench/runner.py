"""Run every benchmark section and report: one line per figure, or JSON."""

from __future__ import annotations

import json
import platform
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import Any

import yaml

from game.bench import idle, startup
from game.bench.harness import Figure
from game.systems.campaign.bench import campaign, equilibrium
from game.systems.mass.bench import ai as mass_ai
from game.systems.mass.bench import mass
from game.systems.tactical.bench import ai as tactical_ai
from game.systems.tactical.bench import bigmap, frame, maps, odds, reach, saves

SECTIONS = ("idle", "maps", "frame", "reach", "odds", "saves", "startup", "mass", "campaign", "ai")


def run_all(sections: Sequence[str] = SECTIONS, *, quick: bool = False,
            log: Callable[[str], None] = print) -> tuple[list[Figure], list[str]]:
    """(figures, errors). A section that crashes is reported as an error line, the rest still run."""
    figures: list[Figure] = []
    errors: list[str] = []
    with tempfile.TemporaryDirectory(prefix="ail-bench-") as tmp:
        battle = None
        crowded = None
        rules = catalogue = None

        def need_battle() -> Any:
            nonlocal battle
            if battle is None:
                t0 = time.perf_counter()
                battle = bigmap.big_battle(tmp)
                log(f"  made the 100x100 benchmark map with {len(battle.setup.units)} units "
                    f"in {time.perf_counter() - t0:.2f} s")
            return battle

        def need_crowded() -> Any:
            nonlocal crowded
            if crowded is None:
                t0 = time.perf_counter()
                crowded = bigmap.big_battle(tmp, units=1000)
                log(f"  made the 100x100 benchmark map with {len(crowded.setup.units)} units "
                    f"in {time.perf_counter() - t0:.2f} s")
            return crowded

        for name in sections:
            log(f"{name}...")
            t0 = time.perf_counter()
            try:
                if name == "idle":
                    figures += idle.run(quick=quick, log=log)
                elif name == "maps":
                    figures += maps.run(quick=quick, log=log)
                elif name == "frame":
                    figures += frame.run(need_battle(), quick=quick, log=log)
                elif name == "reach":
                    figures += reach.run(need_battle(), quick=quick, log=log, more=(need_crowded(),))
                elif name == "odds":
                    if rules is None:
                        rules, catalogue = bigmap.load_rules_and_catalogue()
                    assert catalogue is not None
                    figures += odds.run(rules, catalogue, quick=quick, log=log)
                elif name == "saves":
                    figures += saves.run(tmp, quick=quick, log=log)
                elif name == "startup":
                    figures += startup.run(quick=quick, log=log)
                elif name == "mass":
                    figures += mass.run(quick=quick, log=log)
                elif name == "ai":  # the computer players: decision times, the campaign equilibrium
                    figures += tactical_ai.run(quick=quick, log=log)
                    figures += equilibrium.run(quick=quick, log=log)
                    figures += mass_ai.run(quick=quick, log=log)
                elif name == "campaign":
                    figures += campaign.run(quick=quick, log=log)
                else:
                    raise ValueError(f"unknown section {name!r}")
            except ModuleNotFoundError as exc:  # networkx is a benchmark-only dependency (the test extra)
                errors.append(f"{name}: needs the Python module {exc.name!r}: pip install -e '.[test]'")
            except Exception as exc:  # a broken section must not hide the others' figures
                errors.append(f"{name}: {type(exc).__name__}: {exc}")
                log("".join(traceback.format_exception(exc)).rstrip())
            log(f"  ({name} took {time.perf_counter() - t0:.1f} s)")
    return figures, errors


def environment() -> dict[str, Any]:
    try:
        pygame_ce = metadata.version("pygame-ce")  # read from the installed package, not by importing pygame
    except metadata.PackageNotFoundError:
        pygame_ce = "not installed"
    return {"python": sys.version.split()[0], "platform": platform.platform(), "machine": platform.machine(),
            "pygame-ce": pygame_ce, "pyyaml C": hasattr(yaml, "CSafeLoader")}


def report(figures: list[Figure], errors: list[str], *, as_json: bool, elapsed: float) -> str:
    if as_json:
        return json.dumps({"environment": environment(), "elapsed_s": round(elapsed, 1),
                           "figures": [f.as_dict() for f in figures], "errors": errors,
                           "all_passed": not errors and all(f.passed for f in figures if f.judged)}, indent=2)
    lines = ["", "Benchmark figures (ratios measured in the same run; medians in brackets):"]
    lines += [f.line() for f in figures]
    lines += [f"[FAIL] {e}" for e in errors]
    judged = [f for f in figures if f.judged]
    missed = sum(1 for f in judged if not f.passed)
    lines.append(f"{len(judged) - missed} of {len(judged)} figures on target"
                 + (f"; {missed} missed" if missed else "") + (f"; {len(errors)} sections failed" if errors else "")
                 + f" ({elapsed:.0f} s)")
    return "\n".join(lines)
