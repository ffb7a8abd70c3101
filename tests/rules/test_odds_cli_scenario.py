"""`python -m game odds` on the shipped default scenario, through the real scenario loader."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from game.__main__ import main
from game.systems.tactical.io.scenario import load_scenario

DEFAULT = Path(__file__).resolve().parents[2] / "maps" / "default.yaml"


def test_odds_runs_for_every_enemy_of_the_longest_ranged_unit(capsys: pytest.CaptureFixture[str]) -> None:
    setup = load_scenario(DEFAULT).setup

    def reach(unit_type: str) -> int:
        return max((w.bands[3] for w in setup.catalogue.units[unit_type].weapons if w.bands), default=1)

    first = max(setup.units, key=lambda u: reach(u.type))
    enemies = [u for u in setup.units if u.side != first.side]
    assert enemies
    answered = 0
    for enemy in enemies:
        code = main(["odds", str(DEFAULT), "--attacker", first.id, "--target", enemy.id, "--json"])
        out, err = capsys.readouterr()
        if code == 0:
            data = json.loads(out)
            assert data["attacker"] == first.id and data["target"] == enemy.id
            assert sum(Fraction(v) for v in data["results_exact"].values()) == 1
            answered += 1
        else:
            # an impossible attack is one plain line saying why, never a traceback
            assert code == 1 and out == ""
            assert err.startswith("error: ") and "cannot attack" in err and err.count("\n") == 1
    assert answered, "the longest-ranged unit of the default scenario should reach some enemy"


def test_odds_text_report_on_the_default_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    setup = load_scenario(DEFAULT).setup
    a = setup.units[0]
    b = next(u for u in setup.units if u.side != a.side)
    code = main(["odds", str(DEFAULT), "--attacker", a.id, "--target", b.id])
    out, err = capsys.readouterr()
    assert code in (0, 1)
    if code == 0:
        assert out.splitlines()[1].startswith("AC ") and "no hit" in out
    else:
        assert "cannot attack" in err


def test_odds_on_a_missing_scenario_file_is_one_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["odds", "no/such/scenario.yaml", "--attacker", "a", "--target", "b"])
    _, err = capsys.readouterr()
    assert code == 1 and err.startswith("error: ") and err.count("\n") == 1
