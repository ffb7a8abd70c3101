"""`python -m game bench [--quick] [--json] [--only SECTION...]`: the speed figures of issue 6.

Prints each figure as a ratio of two timings taken in the same run, with the absolute medians,
and whether it meets its target. Exit status 0 when every figure meets its target, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from game.bench.harness import real_display
from game.bench.runner import SECTIONS, report, run_all
from game.core.errors import UserError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "bench", help="measure frame time, reach, odds, saves, start-up and the computer players against their targets",
        description="Run the benchmarks (a few minutes on two cores; --quick: well under a minute "
                    "less the Monte Carlo). Figures are ratios measured in the same run plus medians.")
    p.add_argument("--quick", action="store_true", help="fewer repetitions (rougher figures)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON (progress goes to stderr)")
    p.add_argument("--only", nargs="+", metavar="SECTION", default=None,
                   help=f"run only these sections: {', '.join(SECTIONS)}")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    sections = list(args.only or SECTIONS)
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown:
        raise UserError(f"--only: unknown section {unknown[0]!r}; expected one of: {', '.join(SECTIONS)}")
    if not real_display():  # with a display, windows are real and frames include a real flip
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    progress = sys.stderr if args.json else sys.stdout

    def log(line: str) -> None:
        print(line, file=progress, flush=True)

    t0 = time.perf_counter()
    figures, errors = run_all(sections, quick=args.quick, log=log)
    print(report(figures, errors, as_json=args.json, elapsed=time.perf_counter() - t0))
    return 0 if not errors and all(f.passed for f in figures if f.judged) else 1
