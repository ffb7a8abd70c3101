"""Every player-facing text of the rules names hexes by the map's column,row ("hex 5,3"), as the
scenario files, Tiled and the client do, never by the engine's axial (q,r)."""

from __future__ import annotations

from game.core.board import Board
from game.systems.tactical.rules import Attack, Dash, Move, describe_objectives
from game.systems.tactical.rules.events import board_where, event_text
from game.systems.tactical.rules.gm import MoveUnitGM, PlaceUnit
from game.systems.tactical.rules.models import Objective

from .ailfix import at, edit_unit, make_state, no, of, ok

# On this map odd rows are shifted: axial and column,row differ from row 2 on (at(5, 3) is axial (4, 3)).
SWAMP = Board.filled(10, 8, overrides={(5, 3): "swamp", (4, 5): "woods"})


def test_movement_rejections_name_hexes_by_column_and_row():
    st = make_state([("r1", "rifle_section", "blue", (4, 3)), ("m1", "militia_band", "red", (2, 3))],
                    board=SWAMP, phase="movement")
    assert at(5, 3, SWAMP) != (5, 3)
    assert "difficult terrain: hex 5,3 is swamp" in no(st, Dash(unit_id="r1", path=(at(5, 3, SWAMP),)))
    assert "hex 7,3 is not next to hex 4,3" in no(st, Move(unit_id="r1", path=(at(7, 3, SWAMP),)))
    assert "cannot move through hex 2,3: enemy" in no(st, Move(unit_id="r1", path=(at(3, 3, SWAMP), at(2, 3, SWAMP))))


def test_line_of_sight_rejections_name_the_blocking_hex_by_column_and_row():
    st = make_state([("r1", "rifle_section", "blue", (4, 4)), ("m1", "militia_band", "red", (4, 7))],
                    board=SWAMP, phase="attack")
    reason = no(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))
    assert reason.endswith("no line of sight: woods at hex 4,5")


def test_move_and_overwatch_events_name_hexes_by_column_and_row_given_the_board():
    st = make_state([("r1", "rifle_section", "blue", (1, 3)), ("w1", "rifle_section", "red", (6, 3))],
                    phase="movement", forced=[1])
    st = edit_unit(st, "w1", stance="overwatch", stance_weapon="bolt rifles", acted_round=1)
    out = ok(st, Dash(unit_id="r1", path=(at(2, 3),)))
    where = board_where(st.board)
    moved = of(out.events, "unit_moved")[0]
    assert event_text(moved, st.unit_name, where) == "Rifle Section 1 dashes: hexes 1,3 → 2,3 (cost 1)"
    fired = of(out.events, "overwatch_fired")[0]
    assert "entering hex 2,3" in event_text(fired, st.unit_name, where)


def test_gm_texts_and_objectives_name_hexes_by_column_and_row():
    st = make_state([("r1", "rifle_section", "blue", (1, 3))], phase="movement",
                    objectives=[Objective(kind="hold", side="blue", hexes=(at(4, 3), at(5, 5)), round=3)])
    placed = ok(st, PlaceUnit(unit_id="x", type_id="warjack", side="red", at=at(3, 3)))
    assert "on hex 3,3" in event_text(placed.events[0])
    moved = ok(placed.state, MoveUnitGM(unit_id="x", to=at(6, 5)))
    assert "from hex 3,3 to hex 6,5" in event_text(moved.events[0])
    assert "hex 6,5 is taken by" in no(moved.state, PlaceUnit(unit_id="y", type_id="warjack", side="red", at=at(6, 5)))
    assert describe_objectives(st) == ["Blue: hold hexes 4,3 and 5,5 at the end of round 3"]
