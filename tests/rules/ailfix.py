"""A fixture builder for the AI:L engine tests: tiny boards, a few units, a chosen phase.

    st = make_state(units=[("r1", "rifle_section", "blue", (1, 1)), ("m1", "militia_band", "red", (4, 1))],
                    phase="movement", active="blue", forced=[10, 3])

Positions are Tiled (col, row) offsets on the board (default 10 x 8 clear, odd rows shifted);
`at(col, row)` turns one into a Hex. Sides are "blue" (Blue) and "red" (Red).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from game.core.board import Board
from game.core.hexgrid import Hex, Stagger, hex_range
from game.systems.tactical.rules import Accepted, GameState, Rejection, apply, initial_state, parse_command
from game.systems.tactical.rules.models import (
    BattleSetup,
    Catalogue,
    Commander,
    Objective,
    RulesData,
    SideSetup,
    Stats,
    UnitSetup,
    UnitType,
)
from game.systems.tactical.rules.state import TurnSlot

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = Catalogue.model_validate(yaml.safe_load((ROOT / "assets/units/starter.yaml").read_text()))
RULES = RulesData.model_validate(yaml.safe_load((ROOT / "assets/rules/ail-tactical.yaml").read_text()))
BOARD = Board.filled(10, 8)


def at(col: int, row: int, board: Board = BOARD) -> Hex:
    return board.hex_at(col, row)


def commander(intellect: int = 3, unit: str | None = None, **skills: int) -> Commander:
    return Commander(name="Cmdr", stats=Stats(physique=3, senses=3, intellect=intellect, aether=2),
                     skills=skills or {"tactics": 2, "leadership": 2, "deception": 2, "athletics": 1,
                                       "awareness": 1, "aether_channel": 1}, unit=unit)


UnitSpec = tuple[str, str, str, tuple[int, int]] | tuple[str, str, str, tuple[int, int], int]


def make_setup(units: Iterable[UnitSpec], *, board: Board = BOARD, rules: RulesData | None = None,
               rule_changes: Mapping[str, Any] | None = None, commanders: Mapping[str, Commander] | None = None,
               objectives: Iterable[Objective] = (), round_limit: int = 8,
               sides: tuple[str, ...] = ("blue", "red")) -> BattleSetup:
    r = rules or RULES
    if rule_changes:
        r = r.model_copy(update=dict(rule_changes))
    ups = []
    for spec in units:
        uid, type_id, side, (col, row) = spec[:4]
        strength = spec[4] if len(spec) > 4 else None  # type: ignore[misc]
        ups.append(UnitSetup(id=uid, type=type_id, side=side, at=board.hex_at(col, row), strength=strength))
    cmds = commanders or {}
    return BattleSetup(
        name="test", rules=r, catalogue=CATALOGUE,
        sides=tuple(SideSetup(id=s, name=s.capitalize(), colour=(100, 100, 100),
                              commander=cmds.get(s, commander())) for s in sides),
        units=tuple(ups), objectives=tuple(objectives), round_limit=round_limit,
    )


def make_state(units: Iterable[UnitSpec] = (), *, phase: str = "initiative", active: str = "blue",
               forced: Iterable[int] = (), seed: int = 1, board: Board = BOARD,
               **setup_kw: Any) -> GameState:
    """A fresh battle; phase "movement"/"attack" jumps straight into `active`'s turn (it goes first)."""
    setup = make_setup(units, board=board, **setup_kw)
    st = initial_state(setup, board, seed)
    if phase != "initiative":
        others = [s for s in st.sides if s != active]
        order = (TurnSlot(side=active), *(TurnSlot(side=s) for s in others))
        st = st.model_copy(update={"phase": phase, "turn_order": order, "turn_index": 0, "pending": None})
    if forced:
        st = st.model_copy(update={"forced_rolls": tuple(forced)})
    return st


def edit_unit(state: GameState, unit_id: str, **changes: Any) -> GameState:
    units = dict(state.units)
    units[unit_id] = units[unit_id].model_copy(update=changes)
    return state.model_copy(update={"units": units})


def ok(state: GameState, command: Any) -> Accepted:
    """Apply (a command or a dict) and insist it is accepted."""
    cmd = parse_command(command) if isinstance(command, dict) else command
    out = apply(state, cmd)
    assert isinstance(out, Accepted), f"rejected: {getattr(out, 'reason', out)}"
    return out


def no(state: GameState, command: Any) -> str:
    """Apply and insist it is rejected; the reason."""
    cmd = parse_command(command) if isinstance(command, dict) else command
    out = apply(state, cmd)
    assert isinstance(out, Rejection), f"accepted, events: {[e.kind for e in out.events]}"
    return out.reason


def kinds(events: Iterable[Any]) -> list[str]:
    return [e.kind for e in events]


def of(events: Iterable[Any], kind: str) -> list[Any]:
    return [e for e in events if e.kind == kind]


def unit(**kw: Any) -> UnitType:
    """A plain test unit type (rifle-section numbers); keywords override any field."""
    base: dict[str, Any] = dict(
        name="Test Unit", faction="T", unit_class="infantry", living=True, move=4,
        stats=Stats(physique=3, senses=3, intellect=2, aether=1),
        skills={"firearms": 2, "melee": 1}, strength=6, durability=3, morale=0,
    )
    base.update(kw)
    return UnitType(**base)


def open_board(**terrain: str) -> Board:
    """A radius-16 clear board around (0,0); keyword 'q_r' (negatives as m1) sets a hex's terrain."""
    cells = {h: "clear" for h in hex_range(Hex(0, 0), 16)}
    for key, name in terrain.items():
        q, r = (int(p.replace("m", "-")) for p in key.lstrip("x").split("_"))
        cells[Hex(q, r)] = name
    return Board(33, 33, Stagger(), cells)
