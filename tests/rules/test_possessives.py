"""Possessives in the rules' own lines (issue 28 item 8): a name ending in s takes the apostrophe
alone ("The Zones' turn", never "The Zones's turn"), in every system's refusals and event lines;
other names keep "'s". The helper is game.core.system.possessive."""

from __future__ import annotations

from game.core.system import possessive
from game.systems.campaign.rules.commands import EndTurn, MoveArmy
from game.systems.mass.rules import commands as mc
from game.systems.tactical.rules import EndPhase, Move

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
