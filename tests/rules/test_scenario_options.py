"""The scenario option `ask_defensive_action` is the rules' `defensive_action_prompt` (design page
§5.6: a setting can make the answer always "no"), so `run`, saves and the client all obey it."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.core.errors import GameFileError
from game.systems.tactical.io.scenario import LoadedScenario, load_scenario
from game.systems.tactical.rules import Attack

from .ailfix import make_state, ok

ROOT = Path(__file__).resolve().parents[2]
PAIR = [("r1", "rifle_section", "blue", (1, 1)), ("m1", "militia_band", "red", (4, 1))]


def scenario(tmp_path: Path, options: str, rules: str = "") -> LoadedScenario:
    text = (ROOT / "maps/default.yaml").read_text(encoding="utf-8")
    assert "options:\n  ask_defensive_action: true\n" in text
    text = text.replace("options:\n  ask_defensive_action: true\n", options)
    text = text.replace("map: riverford.tmx", f"map: {ROOT / 'maps/riverford.tmx'}" + rules)
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    return load_scenario(path)


def test_ask_defensive_action_false_sets_the_rules_to_never_ask_and_the_engine_never_asks(tmp_path: Path):
    sc = scenario(tmp_path, "options:\n  ask_defensive_action: false\n")
    assert sc.setup.rules.defensive_action_prompt == "never"
    assert sc.options.ask_defensive_action is False
    out = ok(make_state(PAIR, phase="attack", rules=sc.setup.rules, forced=[1]),
             Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))
    assert out.state.pending is None and "defensive_action_offered" not in [e.kind for e in out.events]


def test_ask_defensive_action_true_or_left_out_asks_the_defender(tmp_path: Path):
    assert scenario(tmp_path, "options:\n  ask_defensive_action: true\n").setup.rules.defensive_action_prompt == "ask"
    left_out = scenario(tmp_path, "")
    assert left_out.setup.rules.defensive_action_prompt == "ask" and left_out.options.ask_defensive_action is True
    out = ok(make_state(PAIR, phase="attack", rules=left_out.setup.rules),
             Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))
    assert out.state.pending is not None and out.state.pending.kind == "defensive_action"


def test_a_rules_override_alone_sets_the_option_the_client_reads(tmp_path: Path):
    sc = scenario(tmp_path, "", rules="\nrules:\n  defensive_action_prompt: never")
    assert sc.setup.rules.defensive_action_prompt == "never" and sc.options.ask_defensive_action is False


def test_an_option_contradicting_the_rules_override_is_refused_naming_both(tmp_path: Path):
    with pytest.raises(GameFileError) as exc:
        scenario(tmp_path, "options:\n  ask_defensive_action: true\n", rules="\nrules:\n  defensive_action_prompt: never")
    text = str(exc.value)
    assert "scenario.yaml" in text and "options.ask_defensive_action" in text and "defensive_action_prompt" in text
