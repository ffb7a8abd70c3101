"""The reach the client shows is exactly what `apply` accepts (generated boards and units)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.board import Board
from game.systems.tactical.rules import Accepted, Dash, Move, apply, dash_reach, move_reach
from game.systems.tactical.rules.movement import check_path
from game.systems.tactical.rules.txn import Reject

from .ailfix import make_state

TERRAIN = ["clear", "clear", "clear", "woods", "rough", "swamp", "water", "building", "rubble", "dense_woods"]
TYPES = ["rifle_section", "battlemage_knight", "armoured_car", "hover_skiff", "warjack"]


@st.composite
def battles(draw):
    w, h = 8, 7
    cells = draw(st.lists(st.sampled_from(TERRAIN), min_size=w * h, max_size=w * h))
    roads = draw(st.sets(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)), max_size=14))
    overrides = {(i % w, i // w): t for i, t in enumerate(cells)}
    board = Board.filled(w, h, overrides=overrides, roads=roads)
    spots = draw(st.lists(st.tuples(st.integers(0, w - 1), st.integers(0, h - 1)), min_size=3, max_size=6,
                          unique=True))
    kinds = draw(st.lists(st.sampled_from(TYPES), min_size=len(spots), max_size=len(spots)))
    sides = draw(st.lists(st.sampled_from(["blue", "red"]), min_size=len(spots), max_size=len(spots)))
    units = [(f"u{i}", k, "blue" if i == 0 else s, spot) for i, (k, s, spot) in enumerate(zip(kinds, sides, spots, strict=True))]
    return board, units


@settings(max_examples=40, deadline=None)
@given(battles())
def test_every_hex_in_the_reach_is_accepted_at_its_cost_and_nothing_cheaper_is_refused(battle):
    board, units = battle
    state = make_state(units, board=board, phase="movement")
    u = state.units["u0"]
    for fn, cmd in ((move_reach, Move), (dash_reach, Dash)):
        reach = fn(state, "u0")
        if cmd is Dash and not state.unit_type("u0").living:
            continue  # a vehicle's dash rolls a pilot check; the path rules are the same
        for h, cost in reach.costs.items():
            path = tuple(reach.path_to(h))
            info = check_path(state, u, path, "move" if cmd is Move else "dash")
            assert info.cost == cost
            out = apply(state, cmd(unit_id="u0", path=path))
            assert isinstance(out, Accepted), out
            assert out.state.units["u0"].hex == h or out.state.units["u0"].pinned
        # a neighbouring hex outside the reach is refused
        for n in board.terrain:
            if n in reach.costs or n == u.hex or abs(n.q - u.hex.q) + abs(n.r - u.hex.r) > 2:
                continue
            if max(abs(n.q - u.hex.q), abs(n.r - u.hex.r), abs(n.s - u.hex.s)) != 1:
                continue
            try:
                check_path(state, u, (n,), "move" if cmd is Move else "dash")
            except Reject:
                continue
            raise AssertionError(f"{n} is enterable but missing from the reach")
