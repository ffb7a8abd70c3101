"""The reach search keeps memos between calls (per board: flat index lists; per side: scratch
marks with enemy-held hexes closed; per kind of movement: neighbour rows). Whatever order states,
sides, boards and kinds of movement come in, every reach must equal a fresh networkx Dijkstra
on the same costs, and every path must cost what the reach says."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.board import Board
from game.core.hexgrid import Hex
from game.systems.tactical.bench.reach import nx_graphs, nx_reach
from game.systems.tactical.rules import GameState, dash_reach, move_reach
from game.systems.tactical.rules.movement import enter_cost

from .ailfix import RULES, at, make_state

W, H = 9, 7
CELLS = [(c, r) for r in range(H) for c in range(W)]
TERRAIN = sorted(RULES.terrain)
TYPES = ["rifle_section", "militia_band", "hover_skiff", "battlemage_knight"]


def check_against_networkx(state: GameState) -> None:
    for uid in sorted(state.units):
        for mode, fn in (("move", move_reach), ("dash", dash_reach)):
            reach = fn(state, uid)
            expected = nx_reach(state, uid, mode, nx_graphs(state, uid, mode))  # type: ignore[arg-type]
            assert dict(reach.costs) == expected, f"{uid} {mode}"
            unit = state.units[uid]
            for h, cost in reach.costs.items():
                path = reach.path_to(h)
                assert path[-1] == h and sum(enter_cost(state, unit, p) or 0 for p in path) == cost
                if h in reach.road_only:
                    assert all(state.board.is_road(p) for p in (unit.hex, *path))


def moved(state: GameState, uid: str, to: Hex) -> GameState:
    units = dict(state.units)
    units[uid] = units[uid].model_copy(update={"hex": to})
    return state.model_copy(update={"units": units})


def drawn_battle(data: st.DataObject, *, roads: int = 25, units: tuple[int, int] = (3, 8),
                 any_sides: bool = False) -> tuple[Board, GameState]:
    """A random W x H board (terrain, roads) with units of random types on it: the sides
    alternate, or are drawn too (`any_sides`: friends may stand in each other's way)."""
    overrides = {cell: data.draw(st.sampled_from(TERRAIN + ["clear"] * 6)) for cell in CELLS}
    road_cells = set(data.draw(st.lists(st.sampled_from(CELLS), max_size=roads)))
    board = Board.filled(W, H, overrides=overrides, roads=road_cells)
    spots = data.draw(st.lists(st.sampled_from(CELLS), min_size=units[0], max_size=units[1], unique=True))
    specs = [(f"u{i}", data.draw(st.sampled_from(TYPES)),
              ("blue", "red")[data.draw(st.integers(0, 1)) if any_sides else i % 2], cell)
             for i, cell in enumerate(spots)]
    return board, make_state(specs, board=board)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_reach_stays_exact_as_units_move_between_searches_on_the_same_board(data: st.DataObject) -> None:
    board, state = drawn_battle(data)
    check_against_networkx(state)
    for _ in range(data.draw(st.integers(1, 4))):
        taken = {u.hex for u in state.units.values()}
        free = [board.hex_at(c, r) for c, r in CELLS if board.hex_at(c, r) not in taken]
        uid = data.draw(st.sampled_from(sorted(state.units)))
        state = moved(state, uid, data.draw(st.sampled_from(free)))
        check_against_networkx(state)


def test_an_enemy_that_leaves_a_hex_opens_it_and_one_that_arrives_closes_it():
    board = Board.filled(10, 8)
    st0 = make_state([("r1", "rifle_section", "blue", (1, 1)), ("m1", "militia_band", "red", (3, 1))], board=board)
    assert at(3, 1) not in move_reach(st0, "r1")
    st1 = moved(st0, "m1", at(8, 6))
    assert at(3, 1) in move_reach(st1, "r1") and at(8, 6) not in move_reach(st1, "r1")
    st2 = moved(st1, "m1", at(2, 1))
    reach = move_reach(st2, "r1")
    assert at(2, 1) not in reach and at(3, 1) in reach
    assert at(2, 1) not in reach.path_to(at(3, 1))
    assert at(3, 1) not in move_reach(st0, "r1")  # an older state still answers for itself


def test_many_boards_in_turn_do_not_mix_up_their_memos():
    boards = [Board.filled(10, 8, overrides={(c, 1): "woods" for c in range(k)}) for k in range(12)]
    states = [make_state([("r1", "rifle_section", "blue", (0, 1)), ("m1", "militia_band", "red", (9, 7))], board=b)
              for b in boards]
    for state in states + states[::-1]:
        check_against_networkx(state)


def test_a_unit_whose_hex_an_enemy_shares_still_gets_its_reach_and_the_hex_stays_closed():
    corridor = Board.filled(10, 8, "water", overrides={(c, 4): "clear" for c in range(10)})
    st0 = make_state([("r1", "rifle_section", "blue", (8, 4)), ("m1", "militia_band", "red", (4, 4)),
                      ("r2", "rifle_section", "blue", (2, 4))], board=corridor)
    broken = moved(st0, "r1", at(4, 4))  # never in play; the search must still be sound
    for _ in range(2):
        assert move_reach(broken, "r1").costs[at(5, 4)] == 1
        assert sorted(move_reach(broken, "r2").costs) == [at(0, 4), at(1, 4), at(3, 4)]
