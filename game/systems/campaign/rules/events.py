"""Events: the facts a command produced, in order. Each carries a `kind`; dice are reported in
`DiceRolled` with their purpose so every die is visible in logs, reports and replays."""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from game.systems.campaign.rules.models import Coord, Manoeuvre, Stratagem


class Ev(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ArmyMoved(Ev):
    kind: Literal["army_moved"] = "army_moved"
    army: str
    path: tuple[Coord, ...]
    cost: int
    stopped_by: str = ""  # why it stopped early (enemy, battle)
    reason: Literal["move", "withdraw", "fall_back", "rout", "breakthrough", "gm", "fought_out"] = "move"


class TurnPassed(Ev):
    kind: Literal["turn_passed"] = "turn_passed"
    phase: str
    player: str | None


class PhaseBegan(Ev):
    kind: Literal["phase_began"] = "phase_began"
    week: int
    phase: str


class Declared(Ev):
    kind: Literal["declared"] = "declared"
    player: str
    hex: Coord
    fight: bool


class BattleStarted(Ev):
    kind: Literal["battle_started"] = "battle_started"
    battle: str
    hex: Coord
    sides: tuple[str, str]


class ArmyJoined(Ev):
    kind: Literal["army_joined"] = "army_joined"
    battle: str
    army: str


class GeneralMoved(Ev):
    kind: Literal["general_moved"] = "general_moved"
    general: str
    army: str | None
    hex: Coord


class Posted(Ev):
    kind: Literal["posted"] = "posted"
    player: str
    battle: str
    generals: tuple[str, ...]


class NarrativeFinished(Ev):
    kind: Literal["narrative_finished"] = "narrative_finished"
    player: str


class OrdersSealed(Ev):
    """Orders went into the envelope: who and for which battle, never what."""

    kind: Literal["orders_sealed"] = "orders_sealed"
    player: str
    battle: str


class OrdersRevealed(Ev):
    kind: Literal["orders_revealed"] = "orders_revealed"
    battle: str
    player: str
    manoeuvre: Manoeuvre
    stratagems: tuple[Stratagem, ...]
    vanguard: str
    plays_as: Manoeuvre  # after Counter Attack / Feint / Flee
    dropped: tuple[str, ...] = ()  # stratagems that lapsed at the reveal, each with its sentence


class DiceRolled(Ev):
    kind: Literal["dice_rolled"] = "dice_rolled"
    battle: str
    player: str | None
    purpose: str
    dice: tuple[int, ...]
    successes: int = 0
    forced: int = 0  # how many of them a GM forced


class PoolBuilt(Ev):
    kind: Literal["pool_built"] = "pool_built"
    battle: str
    player: str
    stat: str
    parts: tuple[tuple[str, int], ...]  # (what, dice) e.g. ("vanguard X attack 5", 5)
    reinforcement_total: int
    dice: int


class ResultRead(Ev):
    kind: Literal["result_read"] = "result_read"
    battle: str
    week: int
    successes: dict[str, int]
    margin: int
    band: int  # 0 draw .. 4 legendary
    winner: str | None
    shift: int  # the matchup shift applied (+1, 0, -1)
    rows: tuple[str, ...]  # the table rows read, for people


class CasualtiesPlaced(Ev):
    kind: Literal["casualties_placed"] = "casualties_placed"
    battle: str
    player: str  # the side that takes them
    count: int  # from the tables, after mitigation (rout extras are separate)
    rolled: int
    mitigated: int
    extra: int
    placed: tuple[tuple[str, int], ...]  # (unit, casualties)
    destroyed: tuple[str, ...]


class Routed(Ev):
    kind: Literal["routed"] = "routed"
    battle: str
    player: str
    destroyed: tuple[str, ...]


class ArmyLocked(Ev):
    kind: Literal["army_locked"] = "army_locked"
    army: str
    week: int


class ArmyDestroyed(Ev):
    kind: Literal["army_destroyed"] = "army_destroyed"
    army: str


class ArmyLeft(Ev):
    """An army moved out of a battle it was not held in (operational-rules §7.1: after a week
    read as Skirmish); the battle is over for it."""

    kind: Literal["army_left"] = "army_left"
    battle: str
    army: str


class BattleEnded(Ev):
    kind: Literal["battle_ended"] = "battle_ended"
    battle: str
    how: str


class WeekEnded(Ev):
    kind: Literal["week_ended"] = "week_ended"
    week: int


class GmDid(Ev):
    kind: Literal["gm_did"] = "gm_did"
    what: str


class BattleChosen(Ev):
    """The GM chose how a battle is resolved (gm_battle_choice)."""

    kind: Literal["battle_chosen"] = "battle_chosen"
    battle: str
    scale: Literal["tables", "tactical", "mass"]
    save: str = ""
    note: str = ""


class BattleAbandoned(Ev):
    """A battle being fought out was abandoned; the tables resolve it (gm_battle_abandon)."""

    kind: Literal["battle_abandoned"] = "battle_abandoned"
    battle: str
    scale: Literal["tactical", "mass"]
    save: str = ""
    note: str = ""


Event = Annotated[
    ArmyMoved | TurnPassed | PhaseBegan | Declared | BattleStarted | ArmyJoined | GeneralMoved | Posted
    | NarrativeFinished | OrdersSealed | OrdersRevealed | DiceRolled | PoolBuilt | ResultRead
    | CasualtiesPlaced | Routed | ArmyLocked | ArmyDestroyed | BattleEnded | WeekEnded | GmDid | BattleChosen
    | BattleAbandoned | ArmyLeft,
    Field(discriminator="kind"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(Event)


def parse_event(data: dict[str, Any]) -> Ev:
    ev: Ev = _ADAPTER.validate_python(data)
    return ev
