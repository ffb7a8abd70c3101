"""The queries the others build on: the memo of answers per state, the reaches kept in it, the
overwatch a path draws (`overwatch_exposure`), and how a unit may pay for a dash (`dash_refusal`,
`dash_payments`). A module of their own so that both queries.py and move_then_dash.py build on them
(queries.py lists the move-then-dash commands move_then_dash.py finds); queries.py re-exports them.
Pure, as every query."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Literal

from game.core.hexgrid import Hex
from game.systems.tactical.rules.attacks import make_setup, triggered_advantage
from game.systems.tactical.rules.commands import DashPay
from game.systems.tactical.rules.movement import Reach, dash_payment, dash_reach, move_reach
from game.systems.tactical.rules.odds import Odds, outcome_distribution
from game.systems.tactical.rules.overwatch import qualifying_watchers
from game.systems.tactical.rules.state import GameState
from game.systems.tactical.rules.txn import Reject

__all__ = ["DashPayment", "Exposure", "dash_payments", "dash_refusal", "kept_dash_reach", "kept_move_reach",
           "memo", "overwatch_exposure"]


@dataclass(frozen=True)
class Exposure:
    """A hex of a path where a watcher may fire on overwatch."""
    step: int  # 1 = the first hex entered
    hex: Hex
    watcher_id: str
    weapon: str
    odds: Odds


def overwatch_exposure(state: GameState, unit_id: str, path: list[Hex] | tuple[Hex, ...],
                       mode: Literal["move", "dash", "charge", "stuck_step"]) -> list[Exposure]:
    """Where overwatch would fire along `path` (hexes entered; a leading start hex is ignored)."""
    if ("move" if mode == "stuck_step" else mode) not in state.setup.rules.overwatch_triggers:
        return []
    unit = state.units[unit_id]
    steps = [Hex(*h) for h in path]
    if steps and steps[0] == unit.hex:
        steps = steps[1:]
    fired: set[str] = set()
    out: list[Exposure] = []
    for i, h in enumerate(steps):
        for w in qualifying_watchers(state, unit_id, h):
            if w.unit_id in fired:
                continue
            fired.add(w.unit_id)
            setup = make_setup(state, w.unit_id, unit_id, w.weapon, overwatch_shot=True, target_at=h,
                               advantage=triggered_advantage(state, w.unit_id)[0])
            out.append(Exposure(i + 1, h, w.unit_id, w.weapon, outcome_distribution(setup)))
    return out


# The answers asked of the latest states (most recent first): (state, key -> answer). States never
# change in place, so an answer stays true of its state; a client asks the same reach, path and
# odds many times a frame (the hint, the hex box, the preview and the map each ask the hovered
# path), and here they are answered once per state. A pure memo, like the reach search's.
_MEMO: list[tuple[GameState, dict[Hashable, Any]]] = []
_MEMO_SIZE = 6


def memo(state: GameState, key: Hashable, fn: Callable[[], Any]) -> Any:
    """`fn()`, made once for this state and key and kept while the state is one of the last few
    asked about. The answer is shared: not to be changed."""
    i = next((i for i, kept in enumerate(_MEMO) if kept[0] is state), None)
    if i is None:
        _MEMO.insert(0, (state, {}))
        del _MEMO[_MEMO_SIZE:]
    elif i:
        _MEMO.insert(0, _MEMO.pop(i))  # most recent first
    table = _MEMO[0][1]
    if key not in table:
        table[key] = fn()
    return table[key]


def kept_move_reach(state: GameState, unit_id: str) -> Reach:
    """`move_reach`, kept in the memo (shared: not to be changed)."""
    out: Reach = memo(state, ("move_reach", unit_id), lambda: move_reach(state, unit_id))
    return out


def kept_dash_reach(state: GameState, unit_id: str) -> Reach:
    """`dash_reach`, kept in the memo (shared: not to be changed)."""
    out: Reach = memo(state, ("dash_reach", unit_id), lambda: dash_reach(state, unit_id))
    return out


def dash_refusal(state: GameState, unit_id: str, pay: DashPay | None = None) -> str | None:
    """Why the unit could not pay for a dash (or charge) the way `pay` says (None: the default
    payment), or None when it can: the rules' own `dash_payment` check."""
    try:
        dash_payment(state, state.units[unit_id], pay)
    except Reject as exc:
        return exc.reason
    return None


@dataclass(frozen=True)
class DashPayment:
    """One way a unit's kind pays for a dash (or a charge, or the dash of a move then a dash):
    `pay` as the commands take it, `held` the points of it the unit holds (None for a vehicle's
    pilot check), `cost` what one dash takes of them (0 for the pilot check), `refusal` why the
    rules would refuse a dash paid this way now (None: they accept it), `default` whether it is
    the way a dash that names no payment pays (`dash_payment(state, unit, None)`)."""

    pay: DashPay
    held: int | None
    cost: int
    refusal: str | None
    default: bool


def dash_payments(state: GameState, unit_id: str) -> tuple[DashPayment, ...]:
    """The ways the unit's kind may pay for a dash, each with the rules' own verdict now
    (`dash_payment`): a living unit Adrenaline then Leadership points, a vehicle its pilot check.
    Whether the unit may dash at all this turn (moved, dashed, pinned ...) is not looked at."""
    unit = state.units[unit_id]
    rules = state.setup.rules.dash
    try:
        default: DashPay | None = dash_payment(state, unit, None)
    except Reject:
        default = None
    if not state.unit_type(unit_id).living:
        ways: tuple[tuple[DashPay, int | None, int], ...] = (("pilot", None, 0),)
    else:
        ways = (("adrenaline", unit.adrenaline, rules.adrenaline_cost),
                ("leadership", unit.leadership, rules.leadership_per_adrenaline))
    return tuple(DashPayment(pay, held, cost, dash_refusal(state, unit_id, pay), pay == default)
                 for pay, held, cost in ways)
