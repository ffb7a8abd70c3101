"""Events: plain-data facts the rules emit when a command is applied (the client animates them,
the dice log lists them, replays compare them).

Each event has a `kind` and `text(name)`: one line a player reads, where `name(unit_id)` turns an
id into a display name (the identity by default).
"""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
import functools
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from game.core.board import Board
from game.core.hexgrid import Hex
from game.core.system import counted, possessive

Namer = Callable[[str], str]
# Names a hex for the player: the map's "col,row" (see `board_where`). Without a board, events
# fall back to the axial "(q,r)" they store.
HexNamer = Callable[[Hex], str]


def _same(x: str) -> str:
    return x


def _axial(h: Hex) -> str:
    return f"({h[0]},{h[1]})"


def board_where(board: Board) -> HexNamer:
    """A HexNamer giving the map's column,row, as Tiled and the client show it (e.g. '19,11')."""
    def where(h: Hex) -> str:
        col, row = board.offset_of(Hex(*h))
        return f"{col},{row}"
    return where


def event_text(event: "EventBase", name: Namer = _same, where: HexNamer | None = None) -> str:
    """An event's line for the player, with hexes named by `where` (e.g. board_where(board))."""
    if where is not None and isinstance(event, UnitMoved | OverwatchFired):
        return event.text(name, where)
    return event.text(name)


def _signed(v: int) -> str:
    return f"+{v}" if v >= 0 else str(v)


class EventBase(BaseModel):
    # defer_build: each event model's validator is built when first used, not at import (start-up time)
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    kind: str

    def text(self, name: Namer = _same) -> str:  # pragma: no cover - every event overrides it
        return self.model_dump_json()


class PhaseChanged(EventBase):
    kind: Literal["phase_changed"] = "phase_changed"
    round: int
    phase: str
    side: str | None = None
    unit_id: str | None = None  # a Personal slot: only this unit acts

    def text(self, name: Namer = _same) -> str:
        who = f" ({self.side}" + (f": {name(self.unit_id)} alone" if self.unit_id else "") + ")" if self.side else ""
        return f"round {self.round}: {self.phase} phase{who}"


class InitiativeChosen(EventBase):
    kind: Literal["initiative_chosen"] = "initiative_chosen"
    side: str

    def text(self, name: Namer = _same) -> str:
        return f"{self.side} has chosen its initiative option"


class InitiativeRolled(EventBase):
    kind: Literal["initiative_rolled"] = "initiative_rolled"
    side: str
    option: str
    total: int
    reroll: int = 0  # 0 = first roll, n = n-th re-roll of a tie

    def text(self, name: Namer = _same) -> str:
        again = f" (tie re-roll {self.reroll})" if self.reroll else ""
        return f"{self.side} rolls {self.option} initiative: {self.total}{again}"


class InitiativeWon(EventBase):
    kind: Literal["initiative_won"] = "initiative_won"
    side: str
    margin: int
    ranking: list[str]

    def text(self, name: Namer = _same) -> str:
        return f"{self.side} wins initiative by {self.margin} (order of rolls: {', '.join(self.ranking)})"


class TurnOrderSet(EventBase):
    kind: Literal["turn_order_set"] = "turn_order_set"
    order: list[str]  # side ids, or "side:unit_id" for a Personal slot

    def text(self, name: Namer = _same) -> str:
        return "turn order: " + " → ".join(self.order)


class AdvantageGained(EventBase):
    kind: Literal["advantage_gained"] = "advantage_gained"
    side: str
    advantage_kind: str
    points: int
    unit_id: str | None = None

    def text(self, name: Namer = _same) -> str:
        to = f" (to {name(self.unit_id)})" if self.unit_id else ""
        return f"{self.side} gains {self.points} {self.advantage_kind} Advantage{to}"


class AdvantageSpent(EventBase):
    kind: Literal["advantage_spent"] = "advantage_spent"
    side: str
    advantage_kind: str
    points: int
    unit_id: str | None = None
    on: str = ""

    def text(self, name: Namer = _same) -> str:
        by = f" by {name(self.unit_id)}" if self.unit_id else ""
        return f"{self.side} spends {self.points} {self.advantage_kind} Advantage{by} on {self.on}"


class AdvantageExpired(EventBase):
    kind: Literal["advantage_expired"] = "advantage_expired"
    side: str
    advantage_kind: str
    points: int
    unit_id: str | None = None

    def text(self, name: Namer = _same) -> str:
        of = f" held by {name(self.unit_id)}" if self.unit_id else ""
        return f"{self.side}: {self.points} unspent {self.advantage_kind} Advantage{of} expires"


class CasualtyAdvantageSet(EventBase):
    """A unit's standing order for Advantage on its own casualty rolls."""

    kind: Literal["casualty_advantage_set"] = "casualty_advantage_set"
    unit_id: str
    points: int
    advantage_kind: str | None = None

    def text(self, name: Namer = _same) -> str:
        if not self.points or not self.advantage_kind:
            return f"{name(self.unit_id)} will spend no Advantage on its casualty rolls"
        return (f"{name(self.unit_id)} will spend {self.points} {self.advantage_kind} Advantage on each of its "
                "casualty rolls, while it has them")


class LeadershipAssigned(EventBase):
    kind: Literal["leadership_assigned"] = "leadership_assigned"
    side: str
    unit_id: str
    points: int

    def text(self, name: Namer = _same) -> str:
        # the side by id, as in every side event's line; `describe_event` (and the client's log)
        # puts the side's name in its place, possessive and all ("The Zones' commander")
        return f"{possessive(self.side)} commander hands {counted(self.points, 'Leadership point', 'Leadership points')} to {name(self.unit_id)}"


class RollMade(EventBase):
    """One die, with every part of the roll it belongs to."""

    kind: Literal["roll_made"] = "roll_made"
    label: str
    unit_id: str | None = None
    stat_name: str = ""
    stat: int = 0
    skill_name: str = ""
    skill: int = 0
    die_sides: int
    die: int
    forced: bool = False  # the value came from the GM's forced-roll queue
    modifiers: list[tuple[str, int]] = Field(default_factory=list)
    target: int | None = None
    total: int
    margin: int | None = None
    success: bool | None = None

    def text(self, name: Namer = _same) -> str:
        parts = []
        if self.stat_name:
            parts.append(f"{self.stat_name} {self.stat}")
        if self.skill_name:
            parts.append(f"{self.skill_name} {self.skill}")
        parts.append(f"d{self.die_sides}={self.die}" + (" (forced)" if self.forced else ""))
        parts += [f"{label} {_signed(v)}" for label, v in self.modifiers]
        who = f"{name(self.unit_id)}: " if self.unit_id else ""
        line = f"{who}{self.label}: " + " + ".join(parts) + f" = {self.total}"
        if self.target is not None:
            verdict = "" if self.success is None else (" success" if self.success else " failure")
            line += f" vs {self.target}{verdict}"
            if self.margin is not None:
                line += f" (margin {_signed(self.margin)})"
        return line


class UnitMoved(EventBase):
    kind: Literal["unit_moved"] = "unit_moved"
    unit_id: str
    path: list[Hex]  # start hex first
    mode: Literal["move", "dash", "charge", "special_move", "stuck_step"]
    cost: int = 0
    road_bonus: int = 0
    stopped: bool = False  # the move was cut short (overwatch)

    def text(self, name: Namer = _same, where: HexNamer = _axial) -> str:
        route = " → ".join(where(h) for h in self.path)
        extra = f", road bonus +{self.road_bonus}" if self.road_bonus else ""
        stop = " and is stopped there" if self.stopped else ""
        hexes = "hex" if len(self.path) == 1 else "hexes"
        verb = {"move": "moves", "dash": "dashes", "charge": "charges", "special_move": "uses its special move",
                "stuck_step": "steps out"}[self.mode]
        return (f"{name(self.unit_id)} {verb}: {hexes} {route} "
                f"(cost {self.cost}{extra}){stop}")


class AdrenalineSpent(EventBase):
    kind: Literal["adrenaline_spent"] = "adrenaline_spent"
    unit_id: str
    points: int
    left: int

    def text(self, name: Namer = _same) -> str:
        return f"{name(self.unit_id)} spends {self.points} Adrenaline ({self.left} left)"


class DashFailed(EventBase):
    kind: Literal["dash_failed"] = "dash_failed"
    unit_id: str
    reason: str

    def text(self, name: Namer = _same) -> str:
        return f"{name(self.unit_id)} does not dash: {self.reason}"


class AttackGivenUp(EventBase):
    kind: Literal["attack_given_up"] = "attack_given_up"
    unit_id: str
    reason: str

    def text(self, name: Namer = _same) -> str:
        return f"{name(self.unit_id)} gives up its attack: {self.reason}"


class AttackDeclared(EventBase):
    kind: Literal["attack_declared"] = "attack_declared"
    attacker_id: str
    target_id: str
    weapon: str
    ac: int
    ac_parts: list[tuple[str, int]]

    def text(self, name: Namer = _same) -> str:
        parts = ", ".join(f"{label} {v}" for label, v in self.ac_parts)
        return f"{name(self.attacker_id)} attacks {name(self.target_id)} with {self.weapon}: AC {self.ac} ({parts})"


class OverwatchFired(EventBase):
    kind: Literal["overwatch_fired"] = "overwatch_fired"
    watcher_id: str
    target_id: str
    weapon: str
    at: Hex
    step: int

    def text(self, name: Namer = _same, where: HexNamer = _axial) -> str:
        return (f"{name(self.watcher_id)} fires overwatch ({self.weapon}) at {name(self.target_id)} "
                f"entering hex {where(self.at)} (step {self.step})")


class GuardCounter(EventBase):
    kind: Literal["guard_counter"] = "guard_counter"
    guard_id: str
    charger_id: str
    weapon: str

    def text(self, name: Namer = _same) -> str:
        return f"{name(self.guard_id)} on guard strikes first at {name(self.charger_id)} with {self.weapon}"


class AttackResolved(EventBase):
    kind: Literal["attack_resolved"] = "attack_resolved"
    attacker_id: str
    target_id: str
    weapon: str
    hits: int
    damages: list[str]
    strength_lost: int
    result: str
    mode: Literal["attack", "overwatch", "guard_counter", "charge"] = "attack"

    def text(self, name: Namer = _same) -> str:
        if self.result == "no_hit":
            return f"{name(self.attacker_id)} misses {name(self.target_id)}"
        return (f"{name(self.attacker_id)} → {name(self.target_id)}: {counted(self.hits, 'hit', 'hits')}, "
                f"damage {self.damages or '-'}, strength lost {self.strength_lost}, result {self.result}")


class StrengthLost(EventBase):
    kind: Literal["strength_lost"] = "strength_lost"
    unit_id: str
    points: int
    left: int

    def text(self, name: Namer = _same) -> str:
        return f"{name(self.unit_id)} loses {self.points} strength ({self.left} left)"


class MarkerAdded(EventBase):
    kind: Literal["marker_added"] = "marker_added"
    unit_id: str
    marker: Literal["pinned", "out_of_action"]
    casualty_total: int | None = None  # the total of the casualty roll that put it there

    def text(self, name: Namer = _same) -> str:
        why = f" by its casualty roll (total {self.casualty_total})" if self.casualty_total is not None else ""
        return f"{name(self.unit_id)} is {self.marker.replace('_', ' ')}{why}"


class MarkerRemoved(EventBase):
    kind: Literal["marker_removed"] = "marker_removed"
    unit_id: str
    marker: Literal["pinned", "out_of_action"]

    def text(self, name: Namer = _same) -> str:
        return f"{name(self.unit_id)} is no longer {self.marker.replace('_', ' ')}"


class UnitDestroyed(EventBase):
    """A unit leaves the map. `cause` says why, so the line never reads as a contradiction after
    "loses N strength (M left)": "casualty_roll" (its worst casualty roll, of `casualty_total`,
    destroyed or annihilated it with `strength_left` still standing), "no_strength" (its last
    strength point went; annihilated too when a casualty roll said so), or "" (older saves)."""

    kind: Literal["unit_destroyed"] = "unit_destroyed"
    unit_id: str
    annihilated: bool = False
    cause: Literal["casualty_roll", "no_strength", ""] = ""
    casualty_total: int | None = None
    strength_left: int | None = None

    def text(self, name: Namer = _same) -> str:
        what = "annihilated" if self.annihilated else "destroyed"
        line = f"{name(self.unit_id)} is {what}"
        roll = f"its casualty roll (total {self.casualty_total})" if self.casualty_total is not None else \
            "its casualty roll"
        if self.cause == "casualty_roll":
            left = f", though {self.strength_left} strength was left" if self.strength_left else ""
            return f"{line} by {roll}{left}"
        if self.cause == "no_strength":
            if self.annihilated:
                return f"{line}: no strength left, and {roll} said annihilated"
            return f"{line}: no strength left"
        return line


class StanceChanged(EventBase):
    kind: Literal["stance_changed"] = "stance_changed"
    unit_id: str
    stance: str
    weapon: str | None = None
    reason: str = ""

    def text(self, name: Namer = _same) -> str:
        w = f" with {self.weapon}" if self.weapon else ""
        why = f" ({self.reason})" if self.reason else ""
        return f"{name(self.unit_id)} stance: {self.stance}{w}{why}"


class DefensiveActionOffered(EventBase):
    kind: Literal["defensive_action_offered"] = "defensive_action_offered"
    side: str
    unit_id: str
    attacker_id: str

    def text(self, name: Namer = _same) -> str:
        return (f"{self.side}: {name(self.unit_id)} is about to be attacked by {name(self.attacker_id)}; "
                "take a defensive action (+5 AC, costs its attack)?")


class DefensiveActionTaken(EventBase):
    kind: Literal["defensive_action_taken"] = "defensive_action_taken"
    unit_id: str
    accepted: bool
    costs: Literal["this_turn", "next_turn", "none"] = "none"

    def text(self, name: Namer = _same) -> str:
        if not self.accepted:
            return f"{name(self.unit_id)} takes no defensive action"
        when = "its attack this round" if self.costs == "this_turn" else "its next attack"
        return f"{name(self.unit_id)} takes a defensive action (costs {when})"


class RoundEnded(EventBase):
    kind: Literal["round_ended"] = "round_ended"
    round: int

    def text(self, name: Namer = _same) -> str:
        return f"round {self.round} ends"


class BattleEnded(EventBase):
    kind: Literal["battle_ended"] = "battle_ended"
    winner: str | None
    reason: str

    def text(self, name: Namer = _same) -> str:
        return f"battle over: {self.winner + ' wins' if self.winner else 'draw'} ({self.reason})"


Event = Annotated[
    PhaseChanged | InitiativeChosen | InitiativeRolled | InitiativeWon | TurnOrderSet | AdvantageGained
    | AdvantageSpent | AdvantageExpired | CasualtyAdvantageSet | LeadershipAssigned | RollMade | UnitMoved | AdrenalineSpent
    | DashFailed | AttackGivenUp | AttackDeclared | OverwatchFired | GuardCounter | AttackResolved
    | StrengthLost | MarkerAdded | MarkerRemoved | UnitDestroyed | StanceChanged | DefensiveActionOffered
    | DefensiveActionTaken | RoundEnded | BattleEnded,
    Field(discriminator="kind"),
]

@functools.cache
def _adapter() -> TypeAdapter[Any]:
    """The validator of any event, built on first use (not at import: start-up time)."""
    return TypeAdapter(Event)



def parse_event(d: dict[str, Any]) -> EventBase:
    result: EventBase = _adapter().validate_python(d)
    return result
