"""Line of sight (design page §5.1): terrain with blocks_los strictly between the two hexes blocks."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.board import Board
from game.core.hexgrid import Hex, Stagger, hex_range, line
from game.systems.tactical.rules.los import first_blocker, has_line_of_sight, sight_line
from game.systems.tactical.rules.models import RulesData

RULES = RulesData()
ORIGIN = Hex(0, 0)


def board(**terrain_at: str) -> Board:
    """A radius-6 clear board; keyword 'q_r' (e.g. x2_0 for Hex(2,0), negatives as m1) sets terrain."""
    cells = {h: "clear" for h in hex_range(ORIGIN, 6)}
    for key, name in terrain_at.items():
        q, r = (int(p.replace("m", "-")) for p in key.lstrip("x").split("_"))
        cells[Hex(q, r)] = name
    return Board(13, 13, Stagger(), cells)


def test_clear_ground_gives_line_of_sight() -> None:
    assert has_line_of_sight(board(), RULES, Hex(-4, 0), Hex(4, 0))


def test_blocking_terrain_between_the_hexes_blocks_and_is_named() -> None:
    b = board(x1_0="woods")
    assert not has_line_of_sight(b, RULES, Hex(-2, 0), Hex(3, 0))
    assert first_blocker(b, RULES, Hex(-2, 0), Hex(3, 0)) == Hex(1, 0)


def test_terrain_that_does_not_block_los_leaves_the_line_clear() -> None:
    b = board(x1_0="rough", x2_0="swamp", x0_0="fortification")
    assert has_line_of_sight(b, RULES, Hex(-2, 0), Hex(4, 0))


def test_blocking_terrain_in_the_shooter_or_target_hex_does_not_block() -> None:
    b = board(x0_0="woods", x3_0="building")
    assert has_line_of_sight(b, RULES, Hex(0, 0), Hex(3, 0))
    assert has_line_of_sight(b, RULES, Hex(3, 0), Hex(0, 0))


def test_adjacent_hexes_always_see_each_other() -> None:
    b = board(x0_0="cliff", x1_0="cliff")
    assert has_line_of_sight(b, RULES, Hex(0, 0), Hex(1, 0))


def test_sight_line_lists_every_hex_of_the_line_and_marks_only_blockers_between() -> None:
    b = board(x0_0="woods", x2_0="hill", x4_0="woods")
    got = sight_line(b, RULES, Hex(0, 0), Hex(4, 0))
    assert [h for h, _ in got] == line(Hex(0, 0), Hex(4, 0))
    assert [blocked for _, blocked in got] == [False, False, True, False, False]


def test_hexes_off_the_board_do_not_block() -> None:
    b = Board(3, 1, Stagger(), {Hex(0, 0): "clear", Hex(2, 0): "clear"})  # (1,0) missing
    assert has_line_of_sight(b, RULES, Hex(0, 0), Hex(2, 0))


def test_a_scenario_rules_override_making_terrain_block_los_is_used() -> None:
    terrain = dict(RULES.terrain)
    terrain["rough"] = terrain["rough"].model_copy(update={"blocks_los": True})
    rules = RULES.model_copy(update={"terrain": terrain})
    b = board(x1_0="rough")
    assert has_line_of_sight(b, RULES, Hex(0, 0), Hex(3, 0))
    assert not has_line_of_sight(b, rules, Hex(0, 0), Hex(3, 0))


hexes = st.sampled_from(hex_range(ORIGIN, 6))


@settings(max_examples=200, deadline=None)
@given(a=hexes, b=hexes, woods=st.sets(hexes, max_size=25))
def test_line_of_sight_is_the_same_both_ways(a: Hex, b: Hex, woods: set[Hex]) -> None:
    cells = {h: ("woods" if h in woods else "clear") for h in hex_range(ORIGIN, 6)}
    bd = Board(13, 13, Stagger(), cells)
    assert has_line_of_sight(bd, RULES, a, b) == has_line_of_sight(bd, RULES, b, a)
    between = line(a, b)[1:-1]
    assert has_line_of_sight(bd, RULES, a, b) == (not any(h in woods for h in between))
