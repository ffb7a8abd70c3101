"""The benchmark harness itself (no timing asserted): targets are judged the right way round,
the report says which figures missed, and the command line refuses an unknown section cleanly."""

from __future__ import annotations

import json

from game.__main__ import main
from game.bench.harness import Figure
from game.bench.runner import SECTIONS, report, run_all


def test_a_ratio_ceiling_passes_at_or_below_its_target_and_a_floor_at_or_above() -> None:
    assert Figure("f", 2.9, 3.0, "ratio_max").passed and not Figure("f", 3.1, 3.0, "ratio_max").passed
    assert Figure("r", 5.0, 5.0, "ratio_min").passed and not Figure("r", 4.9, 5.0, "ratio_min").passed
    assert Figure("fps", 61.0, 60.0, "min").passed and not Figure("fps", 59.0, 60.0, "min").passed


def test_the_report_marks_missed_figures_and_failed_sections() -> None:
    figs = [Figure("good", 1.0, 3.0, "ratio_max"), Figure("bad", 4.0, 3.0, "ratio_max", note="why")]
    text = report(figs, ["saves: RuntimeError: boom"], as_json=False, elapsed=1.0)
    assert "[ok  ] good" in text and "[MISS] bad" in text and "why" in text
    assert "[FAIL] saves: RuntimeError: boom" in text and "1 of 2 figures on target" in text
    info = report([Figure("context", 1.0, 5.0, "ratio_min", judged=False)], [], as_json=False, elapsed=1.0)
    assert "[info] context" in info and "0 of 0 figures on target" in info
    data = json.loads(report(figs, [], as_json=True, elapsed=1.0))
    assert [f["passed"] for f in data["figures"]] == [True, False] and data["all_passed"] is False


def test_bench_with_an_unknown_section_is_a_one_line_error(capsys: object) -> None:
    assert main(["bench", "--only", "warp"]) == 1
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert err.startswith("error: --only: unknown section 'warp'") and err.count("\n") == 1


def test_the_start_up_floor_flips_a_frame_prints_the_games_mark_and_imports_none_of_the_game() -> None:
    import os
    import subprocess
    import sys

    from game.bench.startup import FLOOR_SCRIPT
    from game.shell.app import FRAMES_DRAWN

    probe = ("import runpy, sys; runpy.run_path(sys.argv[1], run_name='__main__'); "
             "print('game modules:', sorted(m for m in sys.modules if m == 'game' or m.startswith('game.')))")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    out = subprocess.run([sys.executable, "-c", probe, str(FLOOR_SCRIPT)], env=env, capture_output=True,
                         text=True, timeout=120, check=True).stdout.splitlines()
    assert out[0] == f"{FRAMES_DRAWN} 1"  # the line the start-up figure stops its clock at
    assert out[-1] == "game modules: []"


def test_the_ai_section_runs_in_quick_mode_and_reports_every_computer_players_time_against_its_target() -> None:
    assert "ai" in SECTIONS
    figures, errors = run_all(["ai"], quick=True, log=lambda _line: None)
    assert errors == []
    by_name = {f.name: f for f in figures}
    for level in ("hard", "easy"):
        for system in ("tactical", "mass"):
            median = next(f for n, f in by_name.items() if n.startswith(f"{system} AI {level}: one decision, median"))
            worst = next(f for n, f in by_name.items() if n.startswith(f"{system} AI {level}: one decision, worst"))
            assert median.target == 200.0 and worst.target == 2000.0 and median.judged and worst.judged
            assert median.details["decisions"] > 0 and 0 < median.value <= worst.value
    equilibria = [f for n, f in by_name.items() if n.startswith("campaign AI: one battle's equilibrium")]
    assert len(equilibria) == 3 and all(f.target == 50.0 and f.value > 0 for f in equilibria)
    assert sum(f.judged for f in equilibria) == 2  # the medians; the slowest battle is context
    gap = next(f for n, f in by_name.items() if "exploitability" in n)
    assert gap.judged and gap.passed and gap.details["equilibria"] >= 8
    baseline = next(f for n, f in by_name.items() if "planner.cell" in n)
    assert baseline.details["same value"] is True and baseline.value > 0
