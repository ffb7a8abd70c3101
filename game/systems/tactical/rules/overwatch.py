"""Triggered interrupts (design page §6): overwatch shots and guard counters.

Overwatch: a unit in overwatch holds one ranged attack with the weapon it named until the start
of its side's next turn. After EVERY step of an enemy's dash or charge (and of an ordinary move
when the rules add "move" to `overwatch_triggers`), every watcher whose weapon reaches the hex
just entered, with its own line of sight, fires: nearest first (ties: unit id order [decision]).
A shot is a snap shot (-2). Each watcher fires once and then leaves overwatch. If the mover ends
up pinned, out of action or destroyed, its move stops on that hex and no later watcher fires.

Guard: a guarding unit makes one melee counter-attack against the first unit that charges it,
resolved before the charger's attack, then leaves guard. A guard with no melee weapon, or one out
of action, does not counter.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.core.hexgrid import Hex, distance
from game.systems.tactical.rules.attack import accuracy_challenge
from game.systems.tactical.rules.attacks import make_setup, resolve, spend_advantage, triggered_advantage
from game.systems.tactical.rules.events import GuardCounter, OverwatchFired, StanceChanged
from game.systems.tactical.rules.los import has_line_of_sight
from game.systems.tactical.rules.state import GameState
from game.systems.tactical.rules.txn import Reject, Txn


@dataclass(frozen=True)
class Watcher:
    """A unit that can fire on overwatch at a mover: its weapon and distance."""
    unit_id: str
    weapon: str
    distance: int


def qualifying_watchers(state: GameState, mover_id: str, at: Hex) -> list[Watcher]:
    """Enemy watchers that would fire at `mover_id` entering `at`, in firing order."""
    mover = state.units[mover_id]
    out: list[Watcher] = []
    for u in state.units.values():
        if not u.alive or u.side == mover.side or u.stance != "overwatch" or u.stance_weapon is None:
            continue
        if u.out_of_action:
            continue
        if not has_line_of_sight(state.board, state.setup.rules, u.hex, at):
            continue
        try:
            setup = make_setup(state, u.id, mover_id, u.stance_weapon, overwatch_shot=True, target_at=at)
        except Reject:  # the held weapon is gone (a GM edited the unit): it cannot fire
            continue
        if isinstance(accuracy_challenge(setup), str):
            continue
        out.append(Watcher(u.id, u.stance_weapon, distance(u.hex, at)))
    out.sort(key=lambda w: (w.distance, w.unit_id))
    return out


def fire_at(txn: Txn, mover_id: str, at: Hex, step: int, watchers: list[Watcher]) -> bool:
    """The watchers fire in order. True when the mover is stopped (pinned, out of action, destroyed)."""
    for w in watchers:
        watcher = txn.unit(w.unit_id)
        if not watcher.alive or watcher.stance != "overwatch":
            continue
        points, kind = triggered_advantage(txn.state, w.unit_id)
        txn.change_unit(w.unit_id, stance="none", stance_weapon=None, stance_advantage=0, stance_advantage_kind=None)
        txn.emit(OverwatchFired(watcher_id=w.unit_id, target_id=mover_id, weapon=w.weapon, at=at, step=step))
        txn.emit(StanceChanged(unit_id=w.unit_id, stance="none", reason="overwatch fired"))
        spend_advantage(txn, w.unit_id, points, kind, f"its overwatch shot ({w.weapon})")
        setup = make_setup(txn.state, w.unit_id, mover_id, w.weapon, overwatch_shot=True, advantage=points)
        result = resolve(txn, setup, "overwatch")
        if result.result in ("pinned", "out_of_action", "destroyed", "annihilated"):
            return True
    return False


def guard_weapon_of(state: GameState, guard_id: str) -> str | None:
    """The melee weapon a guarding unit counters with (the one it named, else its first)."""
    g = state.units[guard_id]
    melee = [w.name for w in state.unit_type(guard_id).weapons if w.melee]
    return g.stance_weapon if g.stance_weapon in melee else (melee[0] if melee else None)


def guard_counter(txn: Txn, guard_id: str, charger_id: str) -> bool:
    """The charged unit, if on guard, strikes first. True when a counter was made."""
    g = txn.unit(guard_id)
    if not g.alive or g.stance != "guard" or g.out_of_action:
        return False
    weapon = guard_weapon_of(txn.state, guard_id)
    if weapon is None:
        return False
    points, kind = triggered_advantage(txn.state, guard_id)
    txn.change_unit(guard_id, stance="none", stance_weapon=None, stance_advantage=0, stance_advantage_kind=None)
    txn.emit(GuardCounter(guard_id=guard_id, charger_id=charger_id, weapon=weapon))
    txn.emit(StanceChanged(unit_id=guard_id, stance="none", reason="guard counter made"))
    setup = make_setup(txn.state, guard_id, charger_id, weapon, counter=True, advantage=points)
    if isinstance(accuracy_challenge(setup), str):
        return False
    spend_advantage(txn, guard_id, points, kind, f"its guard counter ({weapon})")
    resolve(txn, setup, "guard_counter")
    return True


def resolve_guard_counter(txn: Txn, guard_id: str, charger_id: str) -> bool:
    """A guarding target strikes the charger first. False when the charger can no longer attack."""
    guard_counter(txn, guard_id, charger_id)
    c = txn.unit(charger_id)
    return c.alive and not c.out_of_action
