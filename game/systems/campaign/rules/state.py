"""The dynamic state of a campaign: one immutable pydantic model (`CampaignState`).

The static set-up (map, rules data, catalogue) rides along but is not serialised: `to_dict()`
gives plain JSON/YAML types and `CampaignState.from_dict(d, setup)` rebuilds it. New states are
made with `model_copy(update=...)`; nothing is mutated in place.
"""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
from dataclasses import replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from game.core.system import agree, says
from game.systems.campaign.rules.gm_lock import GmLock
from game.systems.campaign.rules.models import (
    CURRENT_READINGS,
    CampaignSetup,
    Coord,
    Manoeuvre,
    Stratagem,
    UnitType,
)

Phase = Literal["movement", "declare", "pickup", "narrative", "orders", "ended"]
PHASES: tuple[Phase, ...] = ("movement", "declare", "pickup", "narrative", "orders")
PHASE_NAMES = {"movement": "movement", "declare": "declare combat", "pickup": "Generals' pick-up move",
               "narrative": "narrative posts", "orders": "battle orders (sealed)", "ended": "campaign over"}


class Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class UnitState(Frozen):
    id: str
    type_id: str
    army: str
    armour_damage: int = 0  # casualties on an Armour unit this week (reset at the end of the week)
    large_damage: int = 0  # casualties on a Large unit over its current battle
    destroyed: bool = False


class ArmyState(Frozen):
    id: str
    name: str
    owner: str
    hex: Coord
    route: Coord | None = None  # the hex it came from
    units: tuple[str, ...]
    moved: bool = False  # moved this week
    spent: int = 0  # movement points spent this week (a Breakthrough moves on with the rest, §7.11)
    locked_week: int = 0  # beaten by a Block: may not withdraw in this week
    battle: str | None = None  # the battle it fights in
    held_back: bool = False  # caught in a hex with a battle it is not a side of


class GeneralState(Frozen):
    id: str
    name: str
    owner: str
    level: int
    traits: tuple[str, ...] = ()
    army: str | None
    hex: Coord
    picked_up: bool = False


class Orders(Frozen):
    """One side's sealed orders for one battle this week."""

    manoeuvre: Manoeuvre
    stratagems: tuple[Stratagem, ...] = ()
    vanguard: str
    withdraw_to: Coord | None = None
    breakthrough_to: Coord | None = None


class Post(Frozen):
    battle: str
    player: str
    week: int
    text: str
    generals: tuple[str, ...] = ()


class WeekLog(Frozen):
    """What one week of a battle showed at the reveal (kept for the battle log and reports)."""

    week: int
    orders: dict[str, Orders]
    lines: tuple[str, ...]


class BattleState(Frozen):
    id: str
    hex: Coord
    sides: tuple[str, str]  # the two players fighting
    started_week: int
    scouting: dict[str, int] = Field(default_factory=dict)  # each side's scouting successes
    orders: dict[str, Orders] = Field(default_factory=dict)  # sealed until the reveal
    log: tuple[WeekLog, ...] = ()
    over: bool = False
    ended: str = ""
    # how the GM chose to resolve it (gm_battle_choice; docs/scales.md): by the tables, or fought
    # out as a tactical / mass battle whose save is `battle_save` (relative to the campaign save)
    fought_as: Literal["tables", "tactical", "mass"] = "tables"
    battle_save: str = ""
    # operational-rules §7.1: the week in which its armies may move out (the week after one whose
    # result read as Skirmish for either side); 0: they are held
    loose_week: int = 0
    # §7.12: dice the GM added (negative: removed) for a side, for characters' powers: player ->
    # (dice, reason)
    gm_dice: dict[str, tuple[int, str]] = Field(default_factory=dict)


class CampaignState(Frozen):
    setup: Any = Field(exclude=True, repr=False)  # CampaignSetup (static; never serialised)
    week: int = 1
    phase: Phase = "movement"
    turn: int = 0  # index into the player order in the sequential phases
    armies: dict[str, ArmyState]
    units: dict[str, UnitState]
    generals: dict[str, GeneralState] = Field(default_factory=dict)
    battles: dict[str, BattleState] = Field(default_factory=dict)
    declarations: dict[str, dict[str, bool | None]] = Field(default_factory=dict)  # "c,r" -> player -> fight?
    narrative_done: tuple[str, ...] = ()
    posts: tuple[Post, ...] = ()
    next_battle: int = 1
    rng: int = 0
    forced: tuple[int, ...] = ()
    # the readings of the rules this game follows (RulesData.readings): saves made before the
    # field existed were played under the first ones
    readings: int = 1
    # the GM's passphrase as a salted slow digest (rules/gm_lock.py), once the GM has set it;
    # written only then: saves made before it existed, or without one, are unchanged
    gm_lock: GmLock | None = None
    # the week's scouting secret (gm_scouting_seed, rules/dice_seed.py) once the GM has given it;
    # cleared at the week's end and written only while set: other saves are unchanged
    scouting_secret: str | None = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CampaignState):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return id(self)

    # ------------------------------------------------------------------ static lookups
    @property
    def cs(self) -> CampaignSetup:
        s: CampaignSetup = self.setup
        return s

    @property
    def players(self) -> list[str]:
        return [p.id for p in self.cs.players]

    def player_name(self, pid: str) -> str:
        for p in self.cs.players:
            if p.id == pid:
                return p.name
        return pid

    def player_plural(self, pid: str) -> bool:
        """Whether the player's name is plural (the scenario's `plural:`), for the verbs after it."""
        return any(p.plural for p in self.cs.players if p.id == pid)

    def player_says(self, pid: str, verb: str) -> str:
        """The player's name and a verb agreeing with it: "Jibril has", "The Zones have"
        (`game.core.system.says`); "its" and "it" agree the same way."""
        return says(self.player_name(pid), self.player_plural(pid), verb)

    def player_agrees(self, pid: str, word: str) -> str:
        """A verb or pronoun ("it", "its") further on in a line whose subject is the player."""
        return agree(word, self.player_plural(pid))

    def unit_type(self, uid: str) -> UnitType:
        return self.cs.unit_types[self.units[uid].type_id]

    def unit_name(self, uid: str) -> str:
        return f"{self.unit_type(uid).name} ({uid})"

    def army_name(self, aid: str) -> str:
        a = self.armies.get(aid)
        return a.name if a else aid

    def army_plural(self, aid: str) -> bool:
        """Whether the army's name is plural (its scenario's `plural:`; one by default)."""
        return any(a.plural for a in self.cs.armies if a.id == aid)

    def army_says(self, aid: str, verb: str) -> str:
        """The army's name and a verb agreeing with it: "Lowmarch Rifle Corps has"."""
        return says(self.army_name(aid), self.army_plural(aid), verb)

    def army_agrees(self, aid: str, word: str) -> str:
        """A verb or pronoun ("it", "its") further on in a line whose subject is the army."""
        return agree(word, self.army_plural(aid))

    def alive_units(self, aid: str) -> list[str]:
        return [u for u in self.armies[aid].units if not self.units[u].destroyed]

    def armies_at(self, c: Coord) -> list[ArmyState]:
        return [a for a in self.armies.values() if a.hex == c]

    def battle_at(self, c: Coord) -> BattleState | None:
        for b in self.battles.values():
            if not b.over and b.hex == c:
                return b
        return None

    def forces(self, battle: BattleState, player: str) -> list[ArmyState]:
        return [a for a in self.armies.values() if a.battle == battle.id and a.owner == player]

    def force_units(self, battle: BattleState, player: str) -> list[str]:
        return [u for a in self.forces(battle, player) for u in self.alive_units(a.id)]

    def generals_of_army(self, aid: str) -> list[GeneralState]:
        return [g for g in self.generals.values() if g.army == aid]

    def fighting_generals(self, battle: BattleState, player: str) -> list[GeneralState]:
        """Generals present in the battle's forces and named in their owner's post this week."""
        named = {g for p in self.posts if p.battle == battle.id and p.player == player and p.week == self.week
                 for g in p.generals}
        armies = {a.id for a in self.forces(battle, player)}
        return [g for g in self.generals.values()
                if g.owner == player and g.army in armies and g.id in named]

    def general_level(self, battle: BattleState, player: str) -> int:
        return max((g.level for g in self.fighting_generals(battle, player)), default=0)

    def open_games(self) -> list[BattleState]:
        return [b for b in self.battles.values() if not b.over]

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = self.model_dump(mode="json", exclude={"setup"})
        for b in out.get("battles", {}).values():  # saves made before the choice existed stay unchanged
            if b.get("fought_as") == "tables" and not b.get("battle_save"):
                b.pop("fought_as", None)
                b.pop("battle_save", None)
            if not b.get("loose_week"):  # (and before these readings, issue 33)
                b.pop("loose_week", None)
            if not b.get("gm_dice"):
                b.pop("gm_dice", None)
        for a in out.get("armies", {}).values():
            if not a.get("spent"):
                a.pop("spent", None)
        if out.get("gm_lock") is None:
            out.pop("gm_lock", None)
        if out.get("scouting_secret") is None:
            out.pop("scouting_secret", None)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], setup: CampaignSetup) -> "CampaignState":
        readings = data.get("readings", 1)
        return cls.model_validate({**data, "setup": with_readings(setup, readings) if isinstance(readings, int)
                                   else setup})


def with_readings(setup: CampaignSetup, readings: int) -> CampaignSetup:
    """The set-up with its rules following `readings` (a game keeps the readings it began with)."""
    if setup.rules.readings == readings or not 1 <= readings <= CURRENT_READINGS:
        return setup
    return replace(setup, rules=setup.rules.model_copy(update={"readings": readings}))


def hex_key(c: Coord) -> str:
    return f"{c[0]},{c[1]}"


def key_hex(k: str) -> Coord:
    a, b = k.split(",")
    return int(a), int(b)
