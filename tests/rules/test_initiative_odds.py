"""The exact chance to win the initiative the initiative dialog shows (`initiative_win_chance`),
checked against the rules' own rolls: every pair of die faces forced, the winner read from the
rolls the rules make."""

from __future__ import annotations

from fractions import Fraction

import pytest

from game.systems.tactical.rules import ChooseInitiative
from game.systems.tactical.rules.queries import initiative_choices, initiative_win_chances

from .ailfix import commander, make_state, of, ok

TWO = [("r1", "rifle_section", "blue", (1, 1)), ("m1", "militia_band", "red", (8, 1))]
COMMANDERS = {"blue": commander(intellect=4, tactics=3, deception=1),
              "red": commander(intellect=3, leadership=3)}  # red's deception 0: a d6


SKILLS = {"blue": {"tactics": 3, "deception": 1}, "red": {"leadership": 3}}


def _die(state, side, option):
    return 10 if SKILLS[side].get(option, 0) > 0 else 6  # skilled d10, unskilled d6 (the rules' check)


def _by_the_rules(state, blue, red) -> float:
    """P(blue wins) from the rules: each face pair forced; a tie rolls again with the same odds."""
    win = tie = Fraction(0)
    for a in range(1, _die(state, "blue", blue) + 1):
        for b in range(1, _die(state, "red", red) + 1):
            st = state.model_copy(update={"forced_rolls": (a, b, a, b)})  # (a tie re-rolls the same faces once)
            s = ok(st, ChooseInitiative(side="blue", option=blue)).state
            out = ok(s, ChooseInitiative(side="red", option=red))
            rolled = [e for e in of(out.events, "initiative_rolled") if e.reroll == 0]
            totals = {e.side: e.total for e in rolled}
            p = Fraction(1, _die(state, "blue", blue) * _die(state, "red", red))
            if totals["blue"] > totals["red"]:
                win += p
            elif totals["blue"] == totals["red"]:
                tie += p
    return float(win / (1 - tie))


@pytest.mark.parametrize("banked", [0, 2])
def test_the_chance_to_win_the_initiative_is_the_rules_own_over_every_choice_of_the_other_side(banked: int) -> None:
    st = make_state(TWO, commanders=COMMANDERS)
    if banked:  # blue's banked Deception Advantage is added to its roll
        sides = dict(st.sides)
        sides["blue"] = sides["blue"].model_copy(update={"advantage": {**sides["blue"].advantage, "deception": banked}})
        st = st.model_copy(update={"sides": sides})
    for blue in ("tactics", "leadership", "deception"):
        chances = initiative_win_chances(st, "blue", blue)
        assert chances is not None and set(chances) == set(initiative_choices(st, "red"))
        for (red, stat), chance in chances.items():
            assert stat is None  # (red's commander has no unit: no Personal roll)
            assert chance == pytest.approx(_by_the_rules(st, blue, red), abs=1e-12), (blue, red)


def test_there_is_no_single_chance_to_win_the_initiative_with_three_sides() -> None:
    units = [*TWO, ("k1", "battlemage_knight", "green", (5, 6))]
    st = make_state(units, sides=("blue", "red", "green"))
    assert initiative_win_chances(st, "blue", "tactics") is None
