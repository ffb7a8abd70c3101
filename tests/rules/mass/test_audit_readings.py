"""The readings settled after the first audit (design page battle-waves-rules.md §7, issue 33):
one test per rule, through `apply`, the Wounds rolls and the odds the board shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.__main__ import main
from game.core.rollkeep import Pool, contest_odds, distribution
from game.core.system import initial_state_for
from game.systems.mass.rules import commands as c
from game.systems.mass.rules.models import CURRENT_READINGS
from game.systems.mass.rules.odds import wave_wounds
from game.systems.mass.rules.pools import wound_rolls
from game.systems.mass.rules.state import MassState
from game.systems.mass.rules.system import SYSTEM
from tests.rules.mass.massfix import force, force_dice, ok, person, refused, setup, start, texts, to_phases

A = c.BattleAction
ROOT = Path(__file__).resolve().parents[3]


def _phases(*forces: dict[str, Any], terrain: str = "accessible") -> MassState:
    s = start(setup(*forces, terrain=terrain))
    s = force_dice(s, 9, 9, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1)  # red wins Strategy
    return to_phases(s, {"red": [1, 1, 1], "blue": [1, 2, 3]})


def _end_phases(s: MassState) -> MassState:
    while s.stage == "phases":
        s, _ = ok(s, c.Hold(force=SYSTEM.to_move(s)[0]))
    return s


def _pools(s: MassState, fid: str) -> dict[str, str | None]:
    return {wr.who: (wr.pool.text() if wr.pool else None) for wr in wound_rolls(s, s.forces[fid])}


# §7.1 ------------------------------------------------------------------------------------------

def test_deadly_ground_is_avoided_by_a_commander_who_orders_any_battle_action() -> None:
    s = _phases(force("red"), force("blue"))
    s, _ = ok(s, A(force="red", action="deadly_ground", target="red-cmd"))
    assert _pools(s, "red")["red-cmd"] == "4k4"  # 2k2 and Deadly Ground's 2k2
    s, _ = ok(s, c.Hold(force="blue"))
    s, _ = ok(s, A(force="red", action="focal_ground", target_force="blue"))  # not aimed at the commander
    assert s.forces["red"].people["red-cmd"].deadly_relieved
    assert _pools(s, "red")["red-cmd"] == "2k2"


def test_deadly_ground_still_wounds_an_individual_who_neither_acts_nor_is_targeted() -> None:
    s = _phases(force("red"), force("blue"))
    s, _ = ok(s, A(force="red", action="deadly_ground", target="red-mage"))
    s, _ = ok(s, c.Hold(force="blue"))
    s, _ = ok(s, A(force="red", action="focal_ground", target_force="blue"))  # the commander acts, not the mage
    assert _pools(s, "red")["red-mage"] == "4k4"


# §7.2 ------------------------------------------------------------------------------------------

def test_carapace_takes_n_off_each_wounds_roll_after_armour_and_shows_in_the_odds() -> None:
    red = force("red", people=[person("red-cmd", carapace=3), person("red-2")],
                brutes=[{"armour": "none", "count": 100, "carapace": 2}])
    s = _end_phases(_phases(red, force("blue")))
    odds = wave_wounds(s)
    cmd_dist = odds.wounds["red:red-cmd"]
    assert min(cmd_dist) == 0 and abs(sum(cmd_dist.values()) - 1) < 1e-9
    assert any("less Carapace 3" in line for line in odds.lines)
    assert any("less Carapace 2" in line for line in odds.lines)
    # brutes: 5+5 = 10% less 2 = 8% wounded; 3+3 = 6% less 2 = 4% of them killed; the commander 5+4 less 3
    s = force_dice(s, 5, 5, 3, 3, 5, 4)
    s, ev = ok(s, c.ResolveWave(force="red"))
    red_state = s.forces["red"]
    assert red_state.brutes_wounded == 8 and red_state.brutes_killed == 0
    assert red_state.people["red-cmd"].wounds == 6
    assert any("Carapace 3 takes 3 off the roll of 9" in t for t in texts(ev))


def test_carapace_never_takes_a_wounds_roll_below_zero() -> None:
    red = force("red", people=[person("red-cmd", carapace=30), person("red-2")], brutes=[])
    s = _end_phases(_phases(red, force("blue")))
    dist = wave_wounds(s).wounds["red:red-cmd"]
    assert min(dist) == 0 and dist[0] > 0.98  # only exploding tens get past 30
    s = force_dice(s, 9, 9)
    s, _ = ok(s, c.ResolveWave(force="red"))
    assert s.forces["red"].people["red-cmd"].wounds == 0


# §7.3 ------------------------------------------------------------------------------------------

def test_the_real_commander_gives_the_orders_while_the_appointed_leader_leads_in_name() -> None:
    red = force("red", people=[person("red-cmd"), person("red-lead"), person("red-mage", tags=["shugenja"])],
                leader="red-lead")
    s = _phases(red, force("blue"))
    f = s.forces["red"]
    assert (f.leader, f.commander) == ("red-lead", "red-cmd")
    s, ev = ok(s, A(force="red", action="focal_ground", target_force="blue"))
    assert any("Red-Cmd (Red)" in t for t in texts(ev))


def test_wresting_command_is_an_act_of_vice_and_makes_the_member_the_real_commander() -> None:
    s = _phases(force("red"), force("blue"))
    assert "already commands" in refused(s, c.WrestCommand(force="red", person="red-cmd"))
    assert "able to take command" in refused(s, c.WrestCommand(force="red", person="nobody"))
    s, ev = ok(s, c.WrestCommand(force="red", person="red-mage"))
    f = s.forces["red"]
    assert f.commander == "red-mage" and f.leader == "red-cmd"  # the old one leads in name only
    vice = [e for e in s.ledger if e.act == "vice"]
    assert vice and vice[-1].person == "red-mage" and "wrested command" in vice[-1].why and vice[-1].glory < 0
    s, ev = ok(s, A(force="red", action="focal_ground", target_force="blue"))
    assert any("Red-Mage (Red)" in t for t in texts(ev))


# §7.4 ------------------------------------------------------------------------------------------

def test_honor_is_a_ledger_column_beside_glory_changed_only_by_a_logged_gm_command() -> None:
    s = _phases(force("red"), force("blue"))
    assert "say why" in refused(s, c.GmHonor(person="red-cmd", points=2, reason=" "))
    s, ev = ok(s, c.GmHonor(person="red-cmd", points=2, reason="kept his word to the envoy"))
    entry = s.ledger[-1]
    assert (entry.act, entry.honor, entry.glory) == ("honor", 2, 0)
    assert "kept his word to the envoy" in texts(ev)[-1]
    assert SYSTEM.state_to_data(s)["ledger"][-1]["honor"] == 2


def test_an_individual_on_traversable_ground_gains_neither_glory_nor_honor_that_wave() -> None:
    s = _phases(force("red"), force("blue"))
    s, _ = ok(s, A(force="red", action="traversable_ground", target="red-mage"))
    assert not s.ledger
    assert "Traversable Ground" in refused(s, c.GmHonor(person="red-mage", points=1, reason="brave"))
    s, _ = ok(s, c.GmHonor(person="red-mage", points=-1, reason="hid from the fight"))
    assert s.ledger[-1].honor == -1


def test_a_battle_using_none_of_these_readings_keeps_its_state_data_as_before() -> None:
    s = _end_phases(_phases(force("red"), force("blue")))
    s, _ = ok(s, c.ResolveWave(force="red"))
    data = SYSTEM.state_to_data(s)
    for f in data["forces"].values():
        assert "leader" not in f
        assert all("carapace" not in d for d in f["brutes"])
        assert all("carapace" not in p["stats"] for p in f["people"].values())
    assert all("honor" not in e for e in data["ledger"])


# §7.5 and §7.6: the command line ---------------------------------------------------------------

_SMALL = """system: mass-battle
name: A scuffle
seed: 3
terrain: constricted
forces:
  - id: red
    name: Red
    commander: red-cmd
    individuals:
      - {id: red-cmd, name: Red Cmd, rings: {earth: 3, water: 3, fire: 3, air: 3, void: 3}, skills: {battle: 3}}
    brutes: [{armour: none, count: 10}]
  - id: blue
    name: Blue
    commander: blue-cmd
    individuals:
      - {id: blue-cmd, name: Blue Cmd, rings: {earth: 3, water: 3, fire: 3, air: 3, void: 3}, skills: {battle: 3}}
    brutes: [{armour: none, count: 10}]
"""


def test_validate_and_run_print_the_fewer_than_fifty_note(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    battle = tmp_path / "small.yaml"
    battle.write_text(_SMALL, encoding="utf-8")
    script = tmp_path / "small-commands.yaml"
    script.write_text("system: mass-battle\nbattle: small.yaml\ncommands: []\n", encoding="utf-8")
    assert main(["validate", str(battle)]) == 0
    assert "only 22 combatants: below the 50" in capsys.readouterr().out
    assert main(["run", str(battle), "--commands", str(script)]) == 0
    assert "-- note: only 22 combatants: below the 50" in capsys.readouterr().out
    assert main(["validate", str(ROOT / "maps" / "mass" / "borderland-valley.yaml")]) == 0
    assert "note" not in capsys.readouterr().out  # 15,000 strong: nothing to say


def test_dice_vs_gives_each_roller_its_own_raise_cap_and_prints_both_sides(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dice", "6k3", "--vs", "5k3", "--raise-cap", "2", "--vs-raise-cap", "1", "--no-table"]) == 0
    out = capsys.readouterr().out
    want = contest_odds([distribution(Pool.of(6, 3)), distribution(Pool.of(5, 3))], [2, 1])
    assert f"6k3 wins {want.win[0]:.4f} (at most 2 Raises)" in out
    assert f"5k3 wins {want.win[1]:.4f} (at most 1 Raise)" in out
    assert "with 2 Raises" in out.split("5k3 wins")[0] and "with 2 Raises" not in out.split("5k3 wins")[1]
    assert main(["dice", "6k3", "--vs", "5k3", "--vs-raise-cap", "-1"]) == 1
    assert "a Raise cap is 0 or more" in capsys.readouterr().err


# a battle keeps the readings it began with -------------------------------------------------------

def test_a_battle_saved_before_these_readings_replays_under_the_first_ones() -> None:
    s = _phases(force("red"), force("blue"))
    assert s.readings == CURRENT_READINGS and s.rules.readings == CURRENT_READINGS
    old_data = SYSTEM.state_to_data(s)
    del old_data["readings"]  # what a save made before the field existed holds
    old = SYSTEM.state_from_data(old_data, s.setup)
    assert old.readings == 1 and old.rules.readings == 1
    assert initial_state_for(SYSTEM, s.setup, 7, old).rules.readings == 1
    # under the first reading a commander's order does not spare it Deadly Ground (§7.1 not yet)
    old, _ = ok(old, A(force="red", action="deadly_ground", target="red-cmd"))
    old, _ = ok(old, c.Hold(force="blue"))
    old, _ = ok(old, A(force="red", action="focal_ground", target_force="blue"))
    assert _pools(old, "red")["red-cmd"] == "4k4"
