"""A campaign scenario with very many units (issue 34): casualty placement is n log n, so a
scenario of tens of thousands of units plays its battles in about a second, not minutes (it was
quadratic: 20,000 units took 10 s, 10^6 units timed out)."""

from __future__ import annotations

import time

from tests.hostile.campaignfix import SCRIPT, scenario_copy
from tests.hostile.hostile import cli


def test_forty_thousand_units_play_the_teaching_weeks_quickly(tmp_path, capsys):
    big = "      - {type: zone_rifle_division, count: 200}\n" * 200  # 40,000 rifle divisions
    sc = scenario_copy(tmp_path, ("      - {type: zone_rifle_division, count: 10}\n", big))
    t0 = time.monotonic()
    code, out, err, _ = cli(capsys, "campaign", "report", str(sc), str(SCRIPT), "--week", "2")
    took = time.monotonic() - t0
    assert code == 0, err
    assert "casualties" in out
    assert took < 8.0, took  # quadratic placement took over 40 s here
