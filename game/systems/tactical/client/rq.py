"""The rules queries the client asks, in one place (the client holds no rules of its own).

Each helper calls the AI:L rules' public queries and caches the answer by the state's sequence
number, so hovering the mouse does not recompute a reach or an exact distribution every frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import game.systems.tactical.rules as ail
from game.core.hexgrid import Hex


class Queries:
    """Cached rules queries for one session (the cache empties when the state changes)."""

    def __init__(self) -> None:
        self._seq: object = None
        self._cache: dict[tuple[Any, ...], Any] = {}

    def _cached(self, state: Any, key: tuple[Any, ...], fn: Any) -> Any:
        marker = (id(state), state.seq)
        if marker != self._seq:
            self._seq = marker
            self._cache.clear()
        if key not in self._cache:
            self._cache[key] = fn()
        return self._cache[key]

    # ------------------------------------------------------------------ movement
    def move_reach(self, state: Any, unit_id: str) -> Any:
        return self._cached(state, ("move", unit_id), lambda: ail.move_reach(state, unit_id))

    def dash_reach(self, state: Any, unit_id: str) -> Any:
        return self._cached(state, ("dash", unit_id), lambda: ail.dash_reach(state, unit_id))

    def move_costs(self, state: Any, unit_id: str) -> dict[Hex, int]:
        """`reach_cost` of the move reach, made once per state (the panels, the tints and the path
        ask it a dozen times a click); shared: not to be changed."""
        out: dict[Hex, int] = self._cached(state, ("move_costs", unit_id),
                                           lambda: reach_cost(self.move_reach(state, unit_id)))
        return out

    def dash_costs(self, state: Any, unit_id: str) -> dict[Hex, int]:
        """`reach_cost` of the dash reach, made once per state; shared: not to be changed."""
        out: dict[Hex, int] = self._cached(state, ("dash_costs", unit_id),
                                           lambda: reach_cost(self.dash_reach(state, unit_id)))
        return out

    def exposure(self, state: Any, unit_id: str, path: Sequence[Hex], mode: str) -> list[Any]:
        key = ("exposure", unit_id, tuple(path), mode)
        out: list[Any] = self._cached(
            state, key, lambda: list(ail.overwatch_exposure(state, unit_id, list(path), mode)))  # type: ignore[arg-type]
        return out

    # ------------------------------------------------------------------ attacks
    def preview(self, state: Any, attacker_id: str, target_id: str, weapon: str, advantage: int = 0,
                advantage_kind: str | None = None) -> Any:
        """An AttackPreview, or a str saying why this attack cannot be made."""
        key = ("preview", attacker_id, target_id, weapon, advantage, advantage_kind)

        def run() -> Any:
            out = ail.attack_preview(state, attacker_id, target_id, weapon, advantage,
                                     advantage_kind)  # type: ignore[arg-type]
            return out.reason if isinstance(out, ail.Rejection) else out

        return self._cached(state, key, run)

    def targets(self, state: Any, attacker_id: str, weapon: str) -> dict[str, Any]:
        """Enemy unit id -> preview, for every enemy this weapon can attack now."""

        def run() -> dict[str, Any]:
            me = state.units[attacker_id]
            out: dict[str, Any] = {}
            for u in state.live_units():
                if u.side == me.side:
                    continue
                p = self.preview(state, attacker_id, u.id, weapon, 0)
                if not isinstance(p, str):
                    out[u.id] = p
            return out

        out: dict[str, Any] = self._cached(state, ("targets", attacker_id, weapon), run)
        return out

    def danger_zone(self, state: Any, unit_id: str) -> frozenset[Hex]:
        """Where a unit in overwatch would fire (the rules' `danger_zone`); empty when it is
        not in overwatch."""
        out: frozenset[Hex] = self._cached(state, ("danger", unit_id), lambda: ail.danger_zone(state, unit_id))
        return out

    def unit_can_act(self, state: Any, unit_id: str) -> bool:
        """Whether `can_act` of the unit's side lists it, asked of that unit alone."""
        out: bool = self._cached(state, ("unit_can_act", unit_id), lambda: ail.unit_can_act(state, unit_id))
        return out

    def can_act(self, state: Any, side: str | None) -> list[str]:
        if side is None:
            return []
        out: list[str] = self._cached(state, ("can_act", side), lambda: list(ail.units_that_can_act(state, side)))
        return out


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
