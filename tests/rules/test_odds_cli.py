"""`python -m game odds`: the AC breakdown and the exact distribution of one scenario attack."""

from __future__ import annotations

import json
import types
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from game.__main__ import main
from game.core.board import Board
from game.core.hexgrid import Hex, Stagger, hex_range
from game.systems.tactical.cli import odds as odds_command
from game.systems.tactical.rules.models import (
    BattleSetup,
    Catalogue,
    Commander,
    RulesData,
    SideSetup,
    Stats,
    UnitSetup,
)

ROOT = Path(__file__).resolve().parents[2]


def _load(path: str) -> Any:
    with open(ROOT / path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


CATALOGUE = Catalogue.model_validate(_load("assets/units/starter.yaml"))
RULES = RulesData.model_validate(_load("assets/rules/ail-tactical.yaml"))
CMD = Commander(name="C", stats=Stats(physique=2, senses=2, intellect=2, aether=2))


def battle() -> tuple[BattleSetup, Board]:
    cells = {h: "clear" for h in hex_range(Hex(0, 0), 16)}
    cells[Hex(0, 3)] = "woods"   # blocks (0,0) -> (0,6)
    cells[Hex(3, 0)] = "woods"   # the warjack stands in woods
    setup = BattleSetup(
        name="odds test", rules=RULES, catalogue=CATALOGUE,
        sides=(SideSetup(id="zone", name="Zone", colour=(1, 2, 3), commander=CMD),
               SideSetup(id="jibril", name="Jibril", colour=(4, 5, 6), commander=CMD)),
        units=(UnitSetup(id="rif", type="rifle_section", side="zone", at=Hex(0, 0)),
               UnitSetup(id="gun", type="field_gun", side="zone", at=Hex(-1, 0)),
               UnitSetup(id="jck", type="warjack", side="jibril", at=Hex(3, 0), strength=3),
               UnitSetup(id="arm", type="armoured_infantry", side="jibril", at=Hex(0, 6)),
               UnitSetup(id="far", type="hover_skiff", side="jibril", at=Hex(0, -16))),
    )
    return setup, Board(33, 33, Stagger(), cells)


@pytest.fixture(autouse=True)
def fake_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stand in for the scenario loader where the odds command uses it: these tests are about the
    odds command (patched on the command's module, so nothing is left behind for other tests)."""
    setup, board = battle()
    monkeypatch.setattr(odds_command, "load_scenario", lambda path: types.SimpleNamespace(
        setup=setup, board=board, map=None, seed=1, path=path))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["odds", "battle.yaml", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_prints_the_ac_parts_and_every_outcome(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--attacker", "rif", "--target", "jck")
    assert code == 0
    assert "Rifle Section (rif) attacks Warjack (jck, strength 3) with bolt rifles, 3 hex(es)" in out
    assert "AC 10 = medium range (3 hexes) 10, large target -2, cover: woods +2" in out
    assert "+2 braced" in out
    for word in ("no hit", "hit, no effect", "steady", "pinned", "out of action", "destroyed", "annihilated"):
        assert word in out
    assert "defences: armour 5+ (negate)" in out


def test_odds_json_is_exact_and_sums_to_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--attacker", "rif", "--target", "jck", "--json", "--advantage", "2")
    assert code == 0
    data = json.loads(out)
    assert (data["attacker"], data["target"], data["weapon"], data["advantage"]) == ("rif", "jck", "bolt rifles", 2)
    assert data["exact"] is True and data["strength"] == 3
    assert sum(Fraction(v) for v in data["results_exact"].values()) == 1


def test_advantage_and_moving_change_the_hit_chance(capsys: pytest.CaptureFixture[str]) -> None:
    def hit(*extra: str) -> float:
        _, out, _ = run(capsys, "--attacker", "rif", "--target", "jck", "--json", *extra)
        return float(json.loads(out)["hit_chance"])

    assert hit("--advantage", "1") == pytest.approx(hit() + 0.1)
    assert hit("--moved") == pytest.approx(hit() - 0.2)


def test_weapon_can_be_chosen_by_name_and_a_wrong_name_lists_the_weapons(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--attacker", "rif", "--target", "jck", "--weapon", "BOLT RIFLES", "--json")
    assert code == 0 and json.loads(out)["weapon"] == "bolt rifles"
    code, _, err = run(capsys, "--attacker", "rif", "--target", "jck", "--weapon", "lasers")
    assert code == 1
    assert err.strip() == "error: Rifle Section (rif) has no weapon 'lasers'; it has: bolt rifles, bayonets"


def test_an_impossible_attack_is_one_error_line_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--attacker", "rif", "--target", "arm")
    assert code == 1
    assert err.strip() == ("error: Rifle Section (rif) cannot attack Armoured Infantry (arm) with bolt rifles: "
                           "no line of sight: woods at hex 1,3")  # axial (0,3) on the map
    code, _, err = run(capsys, "--attacker", "rif", "--target", "far")
    assert err.strip() == ("error: Rifle Section (rif) cannot attack Hover Skiff (far) with bolt rifles: "
                           "out of range: 16 hexes, extreme is 14")


def test_an_unknown_unit_id_lists_the_scenario_units(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--attacker", "nobody", "--target", "jck")
    assert code == 1
    assert err.strip() == "error: no unit with id 'nobody' to be the attacker; the scenario has: rif, gun, jck, arm, far"


def test_indirect_fire_without_a_spotter_shows_the_penalty(capsys: pytest.CaptureFixture[str]) -> None:
    # the gun at (-1,0) cannot see (0,6) and neither can the rifles at (0,0): +5
    code, out, _ = run(capsys, "--attacker", "gun", "--target", "arm")
    assert code == 0
    assert "indirect fire, no spotter +5" in out
