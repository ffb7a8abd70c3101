"""GM commands: each is an ordinary rules command (pure, logged, undoable), ignores turn order,
keeps the state coherent, and says in one sentence what it changed."""

from __future__ import annotations

from typing import Any

import pytest

from game.core.board import Board
from game.core.hexgrid import Hex
from game.systems.tactical.io.data import load_catalogue
from game.systems.tactical.rules import engine
from game.systems.tactical.rules.commands import parse_command
from game.systems.tactical.rules.gm import (
    EditUnit,
    GiveAdvantage,
    GmAction,
    MoveUnitGM,
    PlaceUnit,
    RemoveUnit,
    SetNextRoll,
    is_gm_command,
)
from game.systems.tactical.rules.models import (
    BattleSetup,
    Commander,
    RulesData,
    SideSetup,
    Stats,
    UnitSetup,
)
from game.systems.tactical.rules.state import DeclaredAttack, GameState, Pending, SideState, UnitState

CATALOGUE = load_catalogue()
BOARD = Board.filled(8, 8, "clear", overrides={(5, 5): "water"})


def _setup() -> BattleSetup:
    cmd = Commander(name="C", stats=Stats(physique=3, senses=3, intellect=3, aether=1))
    return BattleSetup(
        name="GM test", rules=RulesData(), catalogue=CATALOGUE,
        sides=(SideSetup(id="zone", name="Zone", colour=(200, 60, 60), commander=cmd),
               SideSetup(id="zenith", name="Zenith", colour=(60, 60, 200), commander=cmd)),
        units=(UnitSetup(id="r1", type="rifle_section", side="zone", at=BOARD.hex_at(1, 1)),
               UnitSetup(id="m1", type="militia_band", side="zenith", at=BOARD.hex_at(4, 4))),
    )


def make_state(**changes: Any) -> GameState:
    setup = _setup()
    units = {}
    for u in setup.units:
        t = CATALOGUE.units[u.type]
        units[u.id] = UnitState(id=u.id, type_id=u.type, side=u.side, hex=u.at, strength=t.strength,
                                adrenaline=t.stats.physique)
    state = GameState(units=units, sides={s.id: SideState(id=s.id) for s in setup.sides}, phase="movement",
                      setup=setup, board=BOARD)
    return state.model_copy(update=changes) if changes else state


def ok(state: GameState, command: Any) -> tuple[GameState, tuple[Any, ...]]:
    outcome = engine.apply(state, command)
    assert isinstance(outcome, engine.Accepted), getattr(outcome, "reason", outcome)
    return outcome.state, outcome.events


def refused(state: GameState, command: Any) -> str:
    outcome = engine.apply(state, command)
    assert isinstance(outcome, engine.Rejection), "expected a rejection"
    return outcome.reason


def gm_text(events: tuple[Any, ...]) -> str:
    texts = [e.text() for e in events if isinstance(e, GmAction)]
    assert len(texts) == 1
    return texts[0]


def test_gm_commands_are_parsed_from_plain_dicts_like_any_command() -> None:
    cmd = parse_command({"kind": "gm_move_unit", "unit_id": "r1", "to": [2, 3]})
    assert cmd == MoveUnitGM(unit_id="r1", to=Hex(2, 3))
    assert is_gm_command(cmd) and not is_gm_command(parse_command({"kind": "end_phase", "side": "zone"}))
    with pytest.raises(ValueError, match="bad gm_set_next_roll"):
        parse_command({"kind": "gm_set_next_roll", "values": ["six"]})


def test_place_unit_puts_a_full_strength_unit_on_a_free_hex_and_says_so() -> None:
    at = BOARD.hex_at(6, 1)
    state, events = ok(make_state(), PlaceUnit(unit_id="w1", type_id="warjack", side="zenith", at=at))
    unit = state.units["w1"]
    assert (unit.hex, unit.side, unit.strength, unit.adrenaline) == (at, "zenith", 4, 0)  # a vehicle: none
    assert "places" in gm_text(events) and "Warjack" in gm_text(events)


def test_place_unit_refuses_taken_hexes_unknown_types_sides_and_duplicate_ids() -> None:
    s = make_state()
    assert "taken by" in refused(s, PlaceUnit(unit_id="x", type_id="warjack", side="zone", at=BOARD.hex_at(1, 1)))
    assert "unknown unit type" in refused(s, PlaceUnit(unit_id="x", type_id="dragon", side="zone", at=Hex(3, 0)))
    assert "unknown side" in refused(s, PlaceUnit(unit_id="x", type_id="warjack", side="elves", at=Hex(3, 0)))
    assert "already exists" in refused(s, PlaceUnit(unit_id="r1", type_id="warjack", side="zone", at=Hex(3, 0)))
    assert "not on the map" in refused(s, PlaceUnit(unit_id="x", type_id="warjack", side="zone", at=Hex(90, 90)))


def test_gm_move_goes_anywhere_free_even_out_of_turn_and_into_water() -> None:
    water = BOARD.hex_at(5, 5)
    state, events = ok(make_state(phase="attack"), MoveUnitGM(unit_id="m1", to=water))
    assert state.units["m1"].hex == water
    assert not state.units["m1"].moved  # a GM move is not a move action
    assert "moves" in gm_text(events)


def test_gm_commands_work_while_a_defensive_action_is_awaited() -> None:
    pending = Pending(kind="defensive_action", sides=("zenith",), unit_id="m1",
                      attack=DeclaredAttack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))
    state, _ = ok(make_state(pending=pending), GiveAdvantage(side="zone", advantage_kind="command", points=2))
    assert state.sides["zone"].advantage["command"] == 2
    assert "decision the game is waiting for" in refused(state, RemoveUnit(unit_id="m1"))


def test_remove_unit_takes_it_off_the_map_entirely() -> None:
    state, events = ok(make_state(), RemoveUnit(unit_id="r1"))
    assert "r1" not in state.units and "removes r1" in gm_text(events)
    assert "no unit" in refused(state, RemoveUnit(unit_id="r1"))


def test_edit_unit_changes_strength_adrenaline_stance_and_markers_at_once() -> None:
    state, events = ok(make_state(), EditUnit(unit_id="r1", strength=2, adrenaline=0, stance="overwatch",
                                              pinned="next_turn", out_of_action="this_turn"))
    u = state.units["r1"]
    assert (u.strength, u.adrenaline, u.stance, u.stance_weapon) == (2, 0, "overwatch", "bolt rifles")
    assert (u.pinned, u.out_of_action) == ("next_turn", "this_turn")
    text = gm_text(events)
    assert "strength 6→2" in text and "adrenaline 3→0" in text and "stance none→overwatch" in text
    state, _ = ok(state, EditUnit(unit_id="r1", pinned="none", stance="none"))
    assert state.units["r1"].pinned is None and state.units["r1"].stance_weapon is None


def test_edit_strength_to_zero_destroys_and_bringing_back_restores_a_point() -> None:
    state, _ = ok(make_state(), EditUnit(unit_id="m1", strength=0))
    assert state.units["m1"].destroyed
    state, events = ok(state, EditUnit(unit_id="m1", destroyed=False))
    assert not state.units["m1"].destroyed and state.units["m1"].strength == 1
    assert "back in play" in gm_text(events)


def test_edit_refuses_overwatch_for_a_unit_without_a_ranged_weapon_and_empty_edits() -> None:
    s = make_state()
    assert "nothing to change" in refused(s, EditUnit(unit_id="r1"))
    assert "no ranged weapon 'sword'" in refused(s, EditUnit(unit_id="r1", stance="overwatch", stance_weapon="sword"))


def test_edit_stats_gives_that_unit_alone_new_numbers_the_rules_then_use() -> None:
    state = make_state()
    state = state.model_copy(update={"units": {**state.units, "r2": state.units["r1"].model_copy(
        update={"id": "r2", "hex": BOARD.hex_at(2, 1)})}})
    state, events = ok(state, EditUnit(unit_id="r1", stats={"senses": 6}, skills={"firearms": 5},
                                       move=7, morale=2))
    t = state.unit_type("r1")
    assert (t.stats.senses, t.skills["firearms"], t.move, t.morale) == (6, 5, 7, 2)
    assert state.unit_type("r2").stats.senses == 3  # the other rifle section is untouched
    assert "senses 3→6" in gm_text(events)
    again = GameState.from_dict(state.to_dict(), state.setup, state.board)
    assert again == state and again.unit_type("r1").move == 7


def test_give_and_take_advantage_on_sides_and_leadership_on_units() -> None:
    state, events = ok(make_state(), GiveAdvantage(side="zone", advantage_kind="deception", points=3))
    assert state.sides["zone"].advantage["deception"] == 3 and "gives 3 deception" in gm_text(events)
    state, events = ok(state, GiveAdvantage(side="zone", advantage_kind="deception", points=-2))
    assert state.sides["zone"].advantage["deception"] == 1 and "takes 2" in gm_text(events)
    assert "holds only 1" in refused(state, GiveAdvantage(side="zone", advantage_kind="deception", points=-5))
    state, _ = ok(state, GiveAdvantage(side="zone", advantage_kind="leadership", points=2, unit_id="r1"))
    assert state.units["r1"].leadership == 2
    assert "only Leadership" in refused(state, GiveAdvantage(side="zone", advantage_kind="command", points=1,
                                                             unit_id="r1"))
    assert "not on side" in refused(state, GiveAdvantage(side="zone", advantage_kind="leadership", points=1,
                                                         unit_id="m1"))


def test_set_next_roll_queues_values_that_the_next_dice_take() -> None:
    state, events = ok(make_state(), SetNextRoll(values=(9, 1)))
    assert state.forced_rolls == (9, 1) and "sets the next rolls to 9, 1" in gm_text(events)
    state, _ = ok(state, SetNextRoll(values=(4,)))
    assert state.forced_rolls == (9, 1, 4)
    state, _ = ok(state, SetNextRoll(values=(2,), replace=True))
    assert state.forced_rolls == (2,)
    assert "1 or more" in refused(state, SetNextRoll(values=(0,)))
    assert "at least one" in refused(state, SetNextRoll(values=()))
    state, events = ok(state, SetNextRoll(values=(), replace=True))
    assert state.forced_rolls == () and "clears" in gm_text(events)


def test_gm_commands_are_pure_the_old_state_is_unchanged() -> None:
    before = make_state()
    snapshot = before.to_dict()
    ok(before, PlaceUnit(unit_id="w1", type_id="warjack", side="zenith", at=Hex(3, 0)))
    ok(before, EditUnit(unit_id="r1", strength=1))
    ok(before, SetNextRoll(values=(5,)))
    assert before.to_dict() == snapshot
