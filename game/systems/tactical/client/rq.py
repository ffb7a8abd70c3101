"""The rules queries the client asks many times a frame, in one place (the client holds no rules
of its own, and keeps no cache of its own either).

Each function calls the tactical rules' public query and keeps the answer in the rules' memo per
state (`queries.memo`: the last few states asked about), so hovering the mouse does not compute a
reach, a path's overwatch or an exact distribution again every frame. `cached(state, key, fn)` is
that memo, for the modes' own derived views. The answers are shared: not to be changed.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import game.systems.tactical.rules as ail
from game.core.hexgrid import Hex


def cached(state: Any, key: Hashable, fn: Callable[[], Any]) -> Any:
    """`fn()` once for this state and key: the rules' memo (`queries.memo`)."""
    return ail.queries.memo(state, ("client", key), fn)


# ------------------------------------------------------------------ movement
def move_reach(state: Any, unit_id: str) -> Any:
    """The rules' move reach, as their memo keeps it (`kept_move_reach`)."""
    return ail.queries.kept_move_reach(state, unit_id)


def dash_reach(state: Any, unit_id: str) -> Any:
    """The rules' dash reach, as their memo keeps it (`kept_dash_reach`)."""
    return ail.queries.kept_dash_reach(state, unit_id)


def move_costs(state: Any, unit_id: str) -> dict[Hex, int]:
    """`reach_cost` of the move reach, made once per state (the panels, the tints and the path
    ask it a dozen times a click)."""
    out: dict[Hex, int] = cached(state, ("move_costs", unit_id), lambda: reach_cost(move_reach(state, unit_id)))
    return out


def dash_costs(state: Any, unit_id: str) -> dict[Hex, int]:
    """`reach_cost` of the dash reach, made once per state."""
    out: dict[Hex, int] = cached(state, ("dash_costs", unit_id), lambda: reach_cost(dash_reach(state, unit_id)))
    return out


def exposure(state: Any, unit_id: str, path: Sequence[Hex], mode: str) -> list[Any]:
    """Where overwatch would fire along a path (the rules' `overwatch_exposure`)."""
    out: list[Any] = cached(state, ("exposure", unit_id, tuple(path), mode),
                            lambda: list(ail.overwatch_exposure(state, unit_id, list(path), mode)))  # type: ignore[arg-type]
    return out


# ------------------------------------------------------------------ attacks
def preview(state: Any, attacker_id: str, target_id: str, weapon: str, advantage: int = 0,
            advantage_kind: str | None = None) -> Any:
    """An AttackPreview, or a str saying why this attack cannot be made."""

    def run() -> Any:
        out = ail.attack_preview(state, attacker_id, target_id, weapon, advantage,
                                 advantage_kind)  # type: ignore[arg-type]
        return out.reason if isinstance(out, ail.Rejection) else out

    return cached(state, ("preview", attacker_id, target_id, weapon, advantage, advantage_kind), run)


def targets(state: Any, attacker_id: str, weapon: str) -> dict[str, Any]:
    """Enemy unit id -> preview, for every enemy this weapon can attack now."""

    def run() -> dict[str, Any]:
        me = state.units[attacker_id]
        out: dict[str, Any] = {}
        for u in state.live_units():
            if u.side == me.side:
                continue
            p = preview(state, attacker_id, u.id, weapon, 0)
            if not isinstance(p, str):
                out[u.id] = p
        return out

    out: dict[str, Any] = cached(state, ("targets", attacker_id, weapon), run)
    return out


def danger_zone(state: Any, unit_id: str) -> frozenset[Hex]:
    """Where a unit in overwatch would fire (the rules' `danger_zone`); empty when it is not in
    overwatch."""
    out: frozenset[Hex] = cached(state, ("danger", unit_id), lambda: ail.danger_zone(state, unit_id))
    return out


def unit_can_act(state: Any, unit_id: str) -> bool:
    """Whether `can_act` of the unit's side lists it, asked of that unit alone."""
    out: bool = cached(state, ("unit_can_act", unit_id), lambda: ail.unit_can_act(state, unit_id))
    return out


def can_act(state: Any, side: str | None) -> list[str]:
    if side is None:
        return []
    out: list[str] = cached(state, ("can_act", side), lambda: list(ail.units_that_can_act(state, side)))
    return out


# ------------------------------------------------------------------ reading a reach
def reach_cost(reach: Any) -> dict[Hex, int]:
    """Cost per reachable hex (the unit's own hex excluded)."""
    cost = getattr(reach, "cost", None)
    if cost is None:
        cost = getattr(reach, "costs", {})
    start = getattr(reach, "start", None)
    return {h: c for h, c in dict(cost).items() if h != start}


def reach_roads(reach: Any) -> frozenset[Hex]:
    """Hexes reachable only thanks to the road bonus."""
    for name in ("road_only", "road_hexes", "road_bonus_hexes", "via_road"):
        v = getattr(reach, name, None)
        if v is not None:
            return frozenset(v)
    return frozenset()


def reach_path(reach: Any, h: Hex) -> list[Hex]:
    """The hexes entered, in order (start hex excluded)."""
    path = list(reach.path_to(h) or [])
    start = getattr(reach, "start", None)
    if path and start is not None and path[0] == start:
        path = path[1:]
    return path
