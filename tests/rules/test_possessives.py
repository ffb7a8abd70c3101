"""Possessives in the rules' own lines (issue 28 item 8): a name ending in s takes the apostrophe
alone ("The Zones' turn", never "The Zones's turn"), in every system's refusals and event lines;
other names keep "'s". The helper is game.core.system.possessive."""

from __future__ import annotations

import pytest

from game.core.system import possessive
from game.systems.campaign.rules.commands import EndTurn, MoveArmy
from game.systems.mass.rules import commands as mc
from game.systems.tactical.rules import AssignLeadership, Attack, Charge, EndPhase, Move
from game.systems.tactical.rules.describe import describe_event, name_sides
from game.systems.tactical.rules.events import LeadershipAssigned

from .ailfix import at, make_state, no
from .campaign import campfix
from .mass import massfix

TWO = [("r1", "rifle_section", "blue", (1, 1)), ("m1", "militia_band", "red", (8, 1))]


def _tactical_named(state, **names):  # type: ignore[no-untyped-def]
    sides = tuple(s.model_copy(update={"name": names.get(s.id, s.name)}) for s in state.setup.sides)
    return state.model_copy(update={"setup": state.setup.model_copy(update={"sides": sides})})


def test_possessive_of_a_name_ending_in_s_is_the_apostrophe_alone():
    assert possessive("The Zones") == "The Zones'"
    assert possessive("ATLAS") == "ATLAS'"
    assert possessive("Akira") == "Akira's"


def test_tactical_end_phase_refusal_writes_the_zones_turn_not_zones_s():
    st = _tactical_named(make_state(TWO, phase="movement", active="blue"), blue="The Zones", red="Akira")
    reason = no(st, EndPhase(side="red"))
    assert "it is The Zones' turn, not Akira's" in reason
    assert "Zones's" not in reason


def test_tactical_moving_out_of_turn_writes_the_possessive_of_the_side_in_turn():
    st = _tactical_named(make_state(TWO, phase="movement", active="red"), red="The Zones")
    reason = no(st, Move(unit_id="r1", path=(at(2, 1),)))
    assert reason.endswith("it is The Zones' turn")


def test_campaign_moving_in_another_players_movement_writes_both_possessives_right():
    su = campfix.setup([("a", "zones", (2, 2), ["zone_rifle_division"], None), ("b", "akira", (8, 8), ["zone_rifle_division"], None)],
                       players=("zones", "akira"))
    s = campfix.SYSTEM.initial_state(su, 1)
    assert s.player_name("zones") == "Zones"
    reason = campfix.refused(s, MoveArmy(army="b", path=((8, 7),)))
    assert reason == "It is Zones' movement, not Akira's."


def test_campaign_turn_passed_line_writes_the_zones_turn():
    su = campfix.setup([("a", "zones", (2, 2), ["zone_rifle_division"], None), ("b", "akira", (8, 8), ["zone_rifle_division"], None)],
                       players=("akira", "zones"))
    s = campfix.SYSTEM.initial_state(su, 1)
    after, events = campfix.must(s, EndTurn())
    lines = [campfix.SYSTEM.describe_event(s, e) for e in events]
    assert any(line.endswith("Zones' turn") for line in lines), lines
    assert not any("Zones's" in line for line in lines)


def test_mass_refusal_out_of_turn_writes_the_forces_possessive():
    s = massfix.start(massfix.setup(massfix.force("red", name="The Zones"), massfix.force("blue", name="The Crows")))
    other = "blue" if massfix.SYSTEM.to_move(s)[0] == "red" else "red"
    reason = massfix.refused(s, mc.RollWay(force=other, way="strategy"))
    name = "The Zones" if other == "red" else "The Crows"
    assert f"it is not {name}' decision now" in reason
    assert "s's" not in reason


# ---------------------------------------------------------------- the rest of the rules' lines (issue 28 item 8)
# Each line below is checked for a name ending in s ("X'") and for one that does not ("X's").

NAMES = [("The Zones", "The Zones'"), ("Akira", "Akira's")]


def _tactical_units_named(state, **names):  # type: ignore[no-untyped-def]
    units = tuple(u.model_copy(update={"name": names.get(u.id, u.name)}) for u in state.setup.units)
    return state.model_copy(update={"setup": state.setup.model_copy(update={"units": units})})


@pytest.mark.parametrize(("side_name", "owns"), NAMES)
def test_tactical_leadership_for_another_sides_unit_names_the_sides_units_with_its_possessive(side_name, owns):
    st = _tactical_named(make_state(TWO), red=side_name)
    reason = no(st, AssignLeadership(side="red", unit_id="r1", points=1))
    assert f"is not one of {owns} units" in reason
    assert "s's" not in reason


@pytest.mark.parametrize(("side_name", "owns"), NAMES)
def test_tactical_leadership_out_of_the_sides_turn_writes_its_own_turn_with_the_possessive(side_name, owns):
    st = _tactical_named(make_state(TWO, phase="movement", active="blue"), red=side_name)
    reason = no(st, AssignLeadership(side="red", unit_id="m1", points=1))
    assert reason.endswith(f"during {owns} own turn")


UNITS_OF_ONE_SIDE = [("r1", "rifle_section", "blue", (1, 1)), ("r2", "rifle_section", "blue", (2, 1)),
                     ("m1", "militia_band", "red", (8, 1))]


@pytest.mark.parametrize(("unit_name", "owns"), [("The Lancers", "The Lancers'"), ("Akira", "Akira's")])
def test_tactical_attacking_a_unit_of_ones_own_side_writes_the_attackers_possessive(unit_name, owns):
    st = _tactical_units_named(make_state(UNITS_OF_ONE_SIDE, phase="attack", active="blue"), r1=unit_name)
    reason = no(st, Attack(attacker_id="r1", target_id="r2", weapon="rifle"))
    assert reason.endswith(f"is on {owns} own side")


@pytest.mark.parametrize(("unit_name", "owns"), [("The Lancers", "The Lancers'"), ("Akira", "Akira's")])
def test_tactical_charging_a_unit_of_ones_own_side_writes_the_chargers_possessive(unit_name, owns):
    st = _tactical_units_named(make_state(UNITS_OF_ONE_SIDE, phase="movement", active="blue"), r1=unit_name)
    reason = no(st, Charge(unit_id="r1", path=(at(2, 2),), target_id="r2", weapon="bayonet"))
    assert reason.endswith(f"is on {owns} own side")


@pytest.mark.parametrize(("side_name", "owns"), NAMES)
def test_tactical_leadership_line_names_the_side_not_its_id_with_the_possessive(side_name, owns):
    st = _tactical_named(make_state(TWO), blue=side_name)
    line = describe_event(st, LeadershipAssigned(side="blue", unit_id="r1", points=2))
    assert line.startswith(f"{owns} commander hands 2 Leadership points to ")
    assert "blue" not in line and "s's" not in line


def test_side_names_put_into_a_line_turn_an_ids_possessive_into_the_names():
    sides = {"blue": "The Zones", "zenith": "Akira", "orcs": "The Horde"}
    line = name_sides("blue's commander; zenith's; orcs' flag; blue wins", sides, str)
    assert line == "The Zones' commander; Akira's; The Horde's flag; The Zones wins"


def _mass_named(red: str, blue: str, **kw):  # type: ignore[no-untyped-def]
    people = [massfix.person("red-cmd"), massfix.person("red-mage", tags=["shugenja"], name=kw.get("mage", "Kuni"))]
    return massfix.start(massfix.setup(massfix.force("red", people=people, name=red),
                                       massfix.force("blue", name=blue), **kw.get("setup", {})))


def _mass_phases(s, red, blue):  # type: ignore[no-untyped-def]
    s = massfix.force_dice(s, 9, 9, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1)  # red wins Strategy
    return massfix.to_phases(s, {"red": red, "blue": blue})


@pytest.mark.parametrize(("force_name", "owns"), NAMES)
def test_mass_gm_advantage_line_writes_the_forces_possessive(force_name, owns):
    s = _mass_named(force_name, "Blue")
    _s, events = massfix.ok(s, mc.GmSetAdvantage(force="red", way="heaven", value=4))
    assert f"GM: {owns} heaven Advantage is now 4" in massfix.texts(events)


@pytest.mark.parametrize(("force_name", "owns"), NAMES)
def test_mass_commander_targeting_again_is_refused_with_the_forces_possessive(force_name, owns):
    s = _mass_phases(_mass_named(force_name, "Blue"), [1, 1, 1], [1, 2, 3])
    s, _ = massfix.ok(s, mc.BattleAction(force="red", action="dispersive_ground", target_force="blue"))
    s, _ = massfix.ok(s, mc.Hold(force="blue"))
    reason = massfix.refused(s, mc.BattleAction(force="red", action="focal_ground", target_force="blue"))
    assert reason.startswith(f"{owns} commander has already targeted ")


@pytest.mark.parametrize(("force_name", "owns"), NAMES)
@pytest.mark.parametrize(("mage", "mages"), [("Kuni Tobias", "Kuni Tobias'"), ("Kuni Taro", "Kuni Taro's")])
def test_mass_spell_lines_write_the_casters_and_the_forces_possessives(force_name, owns, mage, mages):
    s = _mass_phases(_mass_named(force_name, "Blue", mage=mage), [1, 2, 3], [1, 2, 3])
    _s, events = massfix.ok(s, mc.BattleAction(force="red", action="spell", target="red-mage", option="strategy"))
    assert any(t.startswith(f"{mages} spell: ") and t.endswith(f" to {owns} next Strategy roll")
               for t in massfix.texts(events)), massfix.texts(events)
    for option, extra in (("wounds", {"target_force": "blue"}), ("shield", {})):
        _s, events = massfix.ok(s, mc.BattleAction(force="red", action="spell", target="red-mage", option=option,
                                                   **extra))
        assert any(t.startswith(f"{mages} spell: ") for t in massfix.texts(events)), massfix.texts(events)
        assert not any("s's" in t for t in massfix.texts(events))


@pytest.mark.parametrize(("force_name", "owns"), NAMES)
def test_mass_rallying_cry_taking_glory_next_wave_writes_the_forces_possessive(force_name, owns):
    s = _mass_phases(_mass_named("Red", force_name), [1, 9, 9], [2, 9, 9])
    s.forces["red"].advantage["glory"] = 0
    s, _ = massfix.ok(s, mc.Hold(force="red"))
    s, _ = massfix.ok(s, mc.Hold(force="red"))
    s = massfix.force_dice(s, 10, 10, 5, 9, 9, 1, 1)  # blue's cry succeeds (as in test_waves)
    s, _ = massfix.ok(s, mc.BattleAction(force="blue", action="rallying_cry"))
    while s.stage == "phases":
        s, _ = massfix.ok(s, mc.Hold(force=massfix.SYSTEM.to_move(s)[0]))
    s = massfix.force_dice(s, *([1] * 40))
    s, events = massfix.ok(s, mc.ResolveWave(force="red"))
    assert f"{owns} Rallying Cry takes Glory's Advantage (2)" in massfix.texts(events), massfix.texts(events)


@pytest.mark.parametrize(("force_name", "owns"), NAMES)
def test_mass_cede_preview_writes_the_receiving_forces_possessive(force_name, owns):
    s = _mass_named("Red", force_name)
    lines = massfix.SYSTEM.preview(s, mc.Cede(force="red", to="blue")).lines
    assert any(f"it shares {owns} victory if {force_name} wins" in x for x in lines), lines
