"""Rules data refused at load when it could fail at play time (design page: every number lives in a
rules file a scenario may override)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from game.core.errors import GameFileError
from game.systems.tactical.io.scenario import load_scenario
from game.systems.tactical.rules.attack import damage_needs
from game.systems.tactical.rules.models import RulesData

ROOT = Path(__file__).resolve().parents[2]


def test_a_damage_table_without_a_row_for_equal_firepower_is_refused_at_load_with_the_missing_case():
    rows = [{"when": "fp_greater", "needs": 4}, {"when": "fp_less", "needs": 8}]
    with pytest.raises(ValidationError) as exc:
        RulesData.model_validate({"damage_table": rows})
    message = str(exc.value)
    assert "FP 4 vs DUR 4" in message and "when: fp_equal" in message and "fp_less)" not in message


def test_a_complete_custom_damage_table_gives_a_number_for_every_firepower_and_durability():
    rules = RulesData.model_validate({"damage_table": [{"when": "fp_less", "needs": 9}, {"when": "fp_equal", "needs": 5},
                                                       {"when": "fp_greater", "needs": 3}]})
    assert {damage_needs(fp, dur, rules) for fp in range(0, 15) for dur in range(0, 15)} == {3, 5, 9}


def test_a_scenario_whose_damage_table_override_misses_a_case_is_refused_naming_the_scenario_field(tmp_path: Path):
    scenario = (ROOT / "maps/default.yaml").read_text(encoding="utf-8")
    scenario = scenario.replace("map: riverford.tmx", f"map: {ROOT / 'maps/riverford.tmx'}\nrules:\n"
                                "  damage_table:\n    - {when: fp_greater, needs: 4}\n")
    path = tmp_path / "bad.yaml"
    path.write_text(scenario, encoding="utf-8")
    with pytest.raises(GameFileError) as exc:
        load_scenario(path)
    text = str(exc.value)
    assert "bad.yaml" in text and "damage_table" in text and "fp_equal" in text and "fp_less" in text
