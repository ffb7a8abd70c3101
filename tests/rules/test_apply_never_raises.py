"""`apply` answers every command, however wrong, with Accepted or a Rejection: never an exception."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.hexgrid import Hex
from game.systems.tactical.rules import Accepted, Rejection, apply, parse_command

from .ailfix import make_state

UNITS = [("r1", "rifle_section", "blue", (1, 1)), ("c1", "armoured_car", "blue", (2, 4)),
         ("k1", "battlemage_knight", "blue", (1, 5)), ("m1", "militia_band", "red", (4, 1)),
         ("g1", "field_gun", "red", (8, 6)), ("w1", "warjack", "red", (5, 3))]
IDS = st.sampled_from(["r1", "c1", "k1", "m1", "g1", "w1", "nobody", ""])
SIDES = st.sampled_from(["blue", "red", "green"])
HEXES = st.builds(Hex, st.integers(-3, 12), st.integers(-3, 10))
WEAPONS = st.sampled_from(["bolt rifles", "bayonets", "spears", "bows", "field gun", "runeblade", "none"])
KINDS = st.sampled_from(["command", "leadership", "deception", "personal", None])

COMMANDS = st.one_of(
    st.fixed_dictionaries({"kind": st.just("choose_initiative"), "side": SIDES,
                           "option": st.sampled_from(["tactics", "leadership", "deception", "personal"]),
                           "personal_stat": st.sampled_from(["physique", "senses", "aether", None])}),
    st.fixed_dictionaries({"kind": st.just("choose_turn_place"), "side": SIDES, "position": st.integers(-2, 4)}),
    st.fixed_dictionaries({"kind": st.just("assign_leadership"), "side": SIDES, "unit_id": IDS,
                           "points": st.integers(1, 3)}),
    st.fixed_dictionaries({"kind": st.sampled_from(["move", "dash"]), "unit_id": IDS,
                           "path": st.lists(HEXES, max_size=6)}),
    st.fixed_dictionaries({"kind": st.just("charge"), "unit_id": IDS, "path": st.lists(HEXES, max_size=5),
                           "target_id": IDS, "weapon": WEAPONS}),
    st.fixed_dictionaries({"kind": st.just("special_move"), "unit_id": IDS, "to": HEXES}),
    st.fixed_dictionaries({"kind": st.just("stuck_step"), "unit_id": IDS, "to": HEXES,
                           "pay": st.sampled_from(["adrenaline", "attack"])}),
    st.fixed_dictionaries({"kind": st.just("attack"), "attacker_id": IDS, "target_id": IDS, "weapon": WEAPONS,
                           "advantage": st.integers(0, 3), "advantage_kind": KINDS}),
    st.fixed_dictionaries({"kind": st.just("enter_stance"), "unit_id": IDS,
                           "stance": st.sampled_from(["overwatch", "guard", "defensive"]),
                           "weapon": st.one_of(st.none(), WEAPONS)}),
    st.fixed_dictionaries({"kind": st.just("defensive_action"), "unit_id": IDS, "accept": st.booleans()}),
    st.fixed_dictionaries({"kind": st.just("end_phase"), "side": SIDES}),
)
STATES = [make_state(UNITS, phase=p, active=a, seed=1) for p in ("initiative", "movement", "attack")
          for a in ("blue", "red")]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(STATES))), st.lists(COMMANDS, min_size=1, max_size=12))
def test_apply_answers_any_command_sequence_without_raising(start, commands):
    state = STATES[start]
    for d in commands:
        out = apply(state, parse_command(d))
        assert isinstance(out, Accepted | Rejection)
        if isinstance(out, Rejection):
            assert isinstance(out.reason, str) and len(out.reason) > 10, out.reason
        else:
            state = out.state
