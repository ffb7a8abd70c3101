"""The soak player's invariants, checked after every command of a random game.

Independent of the engine's own checks where that is cheap (distances, the sight line over the
terrain table, path costs from the terrain table), so that a rule bug cannot hide behind itself.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from game.core.hexgrid import distance, line
from game.replay import Step
from game.systems.tactical.rules import GameState
from game.systems.tactical.rules.events import AttackResolved, OverwatchFired, UnitMoved


def _enter_cost(state: GameState, unit_id: str, h: Any) -> int | None:
    """Independent of movement.enter_cost: the terrain table read directly."""
    board, rules = state.board, state.setup.rules
    if h not in board:
        return None
    if board.is_road(h):
        return rules.road_move_cost
    t = rules.terrain.get(board.terrain_at(h))
    if t is None:
        return None
    if t.impassable and not (t.hover_passable and state.unit_type(unit_id).unit_class == "hover"):
        return None
    return t.move_cost


def _clear_sight(state: GameState, a: Any, b: Any) -> bool:
    hexes = line(a, b)
    for h in hexes[1:-1]:
        name = state.board.terrain.get(h)
        t = state.setup.rules.terrain.get(name) if name is not None else None
        if t is not None and t.blocks_los:
            return False
    return True


def check_step(step: Step) -> None:
    """Every invariant of one accepted command; AssertionError says which and where."""
    before, after, events = step.before, step.after, step.events
    where = f"round {before.round}, {before.phase}, command {step.command!r}"

    live = [u for u in after.units.values() if u.alive]
    crowded = [h for h, n in Counter(u.hex for u in live).items() if n > 1]
    assert not crowded, f"two units in one hex {crowded} after {where}"
    for u in after.units.values():
        assert u.strength >= 0, f"{u.id} strength {u.strength} after {where}"
        assert u.adrenaline >= 0, f"{u.id} adrenaline {u.adrenaline} after {where}"
        assert u.hex in after.board, f"{u.id} off the board at {u.hex} after {where}"
        if before.units.get(u.id) is not None and not before.units[u.id].alive:
            assert not u.alive, f"{u.id} came back from destruction after {where}"
    for side in after.sides.values():
        assert all(v >= 0 for v in side.advantage.values()), f"negative Advantage {side} after {where}"
    assert after.round >= before.round, f"the round went back after {where}"

    # moves: contiguous, costed as the terrain table says, within the allowance. A mover stopped
    # by overwatch on a friend's hex falls back, free, to the last free hex it passed (or its start).
    totals: dict[tuple[str, str], int] = {}
    bonus: dict[tuple[str, str], int] = {}
    passed: dict[str, list[Any]] = {}
    for ev in events:
        if not isinstance(ev, UnitMoved) or ev.mode not in ("move", "dash", "charge"):
            continue
        if ev.stopped:
            assert ev.cost == 0, f"{ev.unit_id} paid {ev.cost} for being stopped in {where}"
            if len(ev.path) > 1:
                assert len(ev.path) == 2 and ev.path[1] in passed.get(ev.unit_id, []), \
                    f"{ev.unit_id} fell back along {ev.path}, not to a hex it passed, in {where}"
                assert ev.path[0] in {o.hex for o in after.units.values() if o.alive and o.id != ev.unit_id}, \
                    f"{ev.unit_id} fell back from {ev.path[0]}, a hex no friend holds, in {where}"
            continue
        passed.setdefault(ev.unit_id, []).extend(ev.path[:-1])
        key = (ev.unit_id, ev.mode)
        cost = 0
        for a, b in zip(ev.path, ev.path[1:], strict=False):
            assert distance(a, b) == 1, f"{ev.unit_id} jumps from {a} to {b} ({ev.mode}) in {where}"
            c = _enter_cost(before, ev.unit_id, b)
            assert c is not None, f"{ev.unit_id} entered impassable {b} in {where}"
            if ev.mode in ("dash", "charge") and not before.board.is_road(b):
                t = before.setup.rules.terrain.get(before.board.terrain_at(b))
                assert t is None or not t.difficult, f"{ev.unit_id} {ev.mode}ed into difficult {b} in {where}"
            cost += c
        assert cost == ev.cost, f"{ev.unit_id} {ev.mode} reported cost {ev.cost}, the path costs {cost} in {where}"
        if ev.road_bonus:
            assert all(before.board.is_road(h) for h in ev.path), \
                f"{ev.unit_id} got the road bonus off the road in {where}"
        totals[key] = totals.get(key, 0) + cost
        bonus[key] = max(bonus.get(key, 0), ev.road_bonus)
    for (uid, mode), cost in totals.items():
        allowance = before.unit_type(uid).move + bonus[(uid, mode)]
        assert cost <= allowance, f"{uid} {mode} cost {cost} beyond its allowance {allowance} in {where}"

    # attacks: in range and in sight (indirect fire excepted)
    shot_at: dict[tuple[str, str], Any] = {}
    for ev in events:
        if isinstance(ev, OverwatchFired):
            shot_at[(ev.watcher_id, ev.target_id)] = ev.at
        if not isinstance(ev, AttackResolved):
            continue
        a = after.units[ev.attacker_id]
        t_hex = shot_at.get((ev.attacker_id, ev.target_id), after.units[ev.target_id].hex) \
            if ev.mode == "overwatch" else after.units[ev.target_id].hex
        weapon = next(w for w in after.unit_type(ev.attacker_id).weapons if w.name == ev.weapon)
        d = distance(a.hex, t_hex)
        if weapon.melee:
            assert d == 1, f"melee {ev.attacker_id} -> {ev.target_id} at {d} hexes in {where}"
        else:
            assert weapon.bands is not None and 1 <= d <= weapon.bands[3], \
                f"{ev.attacker_id} shot {ev.target_id} at {d} hexes, beyond {weapon.bands} in {where}"
            if "indirect" not in weapon.traits:
                assert _clear_sight(after, a.hex, t_hex), \
                    f"{ev.attacker_id} shot {ev.target_id} without line of sight in {where}"
