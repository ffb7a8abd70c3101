"""What a tactical side may see (`SYSTEM.view(state, side)`): everything on the map, but not the
dice to come (the generator's state, the GM's queued rolls) nor, while the initiative choice is
open, the option another side has already chosen. The GM (side None) sees everything."""

from __future__ import annotations

from game.systems.tactical.rules.commands import ChooseInitiative, EndPhase
from game.systems.tactical.rules.system import SYSTEM
from tests.rules.ailfix import make_state, ok

UNITS = [("r1", "rifle_section", "blue", (1, 1)), ("m1", "militia_band", "red", (4, 1))]


def test_a_sides_view_carries_no_generator_state_and_no_forced_rolls() -> None:
    st = make_state(UNITS, phase="movement", forced=[10, 3], seed=77)
    assert st.rng != 0 and st.forced_rolls == (10, 3)
    for side in ("blue", "red"):
        seen = SYSTEM.view(st, side)
        assert seen.rng == 0 and seen.forced_rolls == ()
        data, shown = SYSTEM.state_to_data(st), SYSTEM.state_to_data(seen)
        assert str(st.rng) not in str(shown)
        # everything else is in plain sight, unchanged
        assert {k: v for k, v in shown.items() if k not in ("rng", "forced_rolls")} == \
               {k: v for k, v in data.items() if k not in ("rng", "forced_rolls")}


def test_the_gm_sees_the_whole_state() -> None:
    st = make_state(UNITS, phase="movement", forced=[4])
    assert SYSTEM.view(st, None) is st


def test_the_view_does_not_change_the_real_state_or_what_apply_does() -> None:
    st = make_state(UNITS, phase="movement", forced=[4])
    SYSTEM.view(st, "blue")
    assert st.forced_rolls == (4,)
    assert ok(st, EndPhase(side="blue")).state == ok(st, EndPhase(side="blue")).state


def test_an_initiative_choice_stays_sealed_from_the_other_side_until_the_rolls() -> None:
    st = make_state(UNITS)  # the round opens on the sealed initiative choice
    assert st.pending is not None and st.pending.kind == "initiative_choice"
    first = st.pending.sides[0]
    other = next(s for s in st.sides if s != first)
    after = ok(st, ChooseInitiative(side=first, option="deception")).state
    assert after.sides[first].initiative_option == "deception"
    assert SYSTEM.view(after, other).sides[first].initiative_option is None   # sealed
    assert SYSTEM.view(after, first).sides[first].initiative_option == "deception"  # its own choice
    assert SYSTEM.view(after, None).sides[first].initiative_option == "deception"   # the GM
    rolled = ok(after, ChooseInitiative(side=other, option="tactics")).state
    assert rolled.pending is None or rolled.pending.kind != "initiative_choice"  # the rolls are made
    assert SYSTEM.view(rolled, other).sides[first].initiative_option == "deception"  # and reveal it
