"""The exact chance of a vehicle's pilot check to dash the map shows (`pilot_check_chance`),
against the rules' own roll with every face of the die forced."""

from __future__ import annotations

from fractions import Fraction

import pytest

from game.systems.tactical.rules import Dash
from game.systems.tactical.rules.queries import pilot_check_chance

from .ailfix import at, kinds, make_state, ok


@pytest.mark.parametrize("vehicle", ["armoured_car", "hover_skiff", "field_gun"])
def test_the_pilot_check_chance_is_the_share_of_die_faces_on_which_the_rules_let_the_dash_through(
        vehicle: str) -> None:
    st = make_state([("c1", vehicle, "blue", (1, 1))], phase="movement")
    passed, faces = Fraction(0), 0
    for face in range(1, 11):  # a d10 (a d6 for an unskilled pilot: faces 7-10 are refused, not counted)
        try:
            out = ok(st.model_copy(update={"forced_rolls": (face,)}), Dash(unit_id="c1", path=(at(2, 1),)))
        except AssertionError:
            break
        faces += 1
        passed += "dash_failed" not in kinds(out.events)
    assert faces in (6, 10)
    assert pilot_check_chance(st, "c1") == pytest.approx(float(passed / faces), abs=1e-12)


def test_a_living_unit_has_no_pilot_check() -> None:
    st = make_state([("r1", "rifle_section", "blue", (1, 1))], phase="movement")
    assert pilot_check_chance(st, "r1") is None
