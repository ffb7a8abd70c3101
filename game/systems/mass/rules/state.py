"""The state of a mass battle: a plain pydantic value (copied, never changed in place, by apply)."""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from game.core.system import agree, says
from game.systems.mass.rules.models import (
    ADVANTAGE_KEYS,
    CURRENT_READINGS,
    Division,
    Individual,
    MassRules,
    MassSetup,
    omit_unset,
)

Stage = Literal["appoint", "heaven", "honor", "glory", "strategy", "initiative", "phases",
                "duel_answer", "casualties", "commander", "ended"]
ForceStatus = Literal["field", "fled", "withdrawn", "surrendered", "ceded", "obliterated", "defeated"]
FIELD: ForceStatus = "field"


class _S(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Person(_S):
    """An individual in play: the set-up's statistics and what the battle did to them."""

    stats: Individual
    wounds: int = 0
    void_left: int = 0
    fled: bool = False
    fled_wave: int = 0
    tracked: bool = False
    void_used: bool = False          # spent a Void point to act this Wave
    deadly: bool = False             # on Deadly Ground this Wave
    deadly_relieved: bool = False    # targeted again or acted since
    traversable: bool = False        # on Traversable Ground this Wave

    @property
    def id(self) -> str:
        return self.stats.id

    @property
    def name(self) -> str:
        return self.stats.name


class WoundMod(_S):
    rolled: int
    kept: int
    why: str


class ForceState(_S):
    id: str
    name: str
    commander: str | None
    led_by: str = ""                 # the last commander (for the ledger when the force falls)
    leader: str = ""                 # the appointed leader when not the real commander (§7.3)
    people: dict[str, Person]
    brutes: list[Division]
    brutes_wounded: int = 0
    brutes_killed: int = 0
    lost_last_battle: bool = False
    status: ForceStatus = FIELD
    ceded_to: str | None = None
    left_this_wave: bool = False
    advantage: dict[str, int] = Field(default_factory=lambda: dict.fromkeys(ADVANTAGE_KEYS, 0))
    dice: list[int] = Field(default_factory=list)
    extra_actions: int = 0
    actions_this_phase: int = 0
    passed: bool = False
    targeted: list[str] = Field(default_factory=list)
    wound_mods: list[WoundMod] = Field(default_factory=list)
    strategy_bonus: list[int] = Field(default_factory=lambda: [0, 0])
    rally_next: int | None = None
    last_wave: Literal["won", "lost", "none"] = "none"
    entrapped: bool = False
    needs_commander: bool = False
    granted_status: float | None = None
    morale: list[dict[str, Any]] = Field(default_factory=list)

    @model_serializer(mode="wrap")
    def _data(self, handler: SerializerFunctionWrapHandler) -> Any:
        return omit_unset(handler(self), {"leader": ""})

    @property
    def in_field(self) -> bool:
        return self.status == FIELD

    def total(self) -> int:
        return sum(self.advantage.values())


class LedgerEntry(_S):
    person: str
    force: str
    act: Literal["virtue", "vice", "honor"]  # "honor": a GM's logged change of Honor (§7.4)
    why: str
    glory: int
    honor: int = 0

    @model_serializer(mode="wrap")
    def _data(self, handler: SerializerFunctionWrapHandler) -> Any:
        return omit_unset(handler(self), {"honor": 0})


class PendingDuel(_S):
    force: str
    challenger: str
    target_force: str
    target: str
    style: Literal["skirmish", "iaijutsu", "taryu"]
    void: bool = False


class MassState(_S):
    setup: MassSetup
    rng: int
    forced: list[int] = Field(default_factory=list)
    wave: int = 1
    stage: Stage = "strategy"
    phase: int = 0
    forces: dict[str, ForceState]
    order: list[str]
    appointments: dict[str, dict[str, str | None]] = Field(default_factory=dict)
    duel: PendingDuel | None = None
    terrain_next: str | None = None
    leaders: list[str | None] = Field(default_factory=list)
    ledger: list[LedgerEntry] = Field(default_factory=list)
    facts: list[str] = Field(default_factory=list)
    winner: str | None = None
    end_reason: str = ""
    only_strategy: list[str] = Field(default_factory=list)
    # the readings of the rules this battle follows (MassRules.readings): saves made before the
    # field existed were played under the first ones
    readings: int = Field(1, ge=1, le=CURRENT_READINGS)

    @model_validator(mode="after")
    def _rules_follow_the_readings(self) -> "MassState":
        if self.setup.rules.readings != self.readings:
            self.setup = with_readings(self.setup, self.readings)
        return self

    @property
    def rules(self) -> MassRules:
        return self.setup.rules

    def plural(self, force_id: str) -> bool:
        """Whether the force's name is plural (its set-up's `plural:`), for the verbs after it."""
        return any(f.plural for f in self.setup.forces if f.id == force_id)

    def says(self, force_id: str, verb: str) -> str:
        """The force's name and a verb agreeing with it: "Akira's army has", "The Zones have"
        (`game.core.system.says`)."""
        return says(self.forces[force_id].name, self.plural(force_id), verb)

    def agrees(self, force_id: str, word: str) -> str:
        """A verb or pronoun ("it", "its") further on in a line whose subject is the force."""
        return agree(word, self.plural(force_id))

    def force_of(self, person_id: str) -> ForceState | None:
        for f in self.forces.values():
            if person_id in f.people:
                return f
        return None

    def person(self, person_id: str) -> Person:
        f = self.force_of(person_id)
        if f is None:
            raise KeyError(person_id)
        return f.people[person_id]

    def in_field(self) -> list[ForceState]:
        return [self.forces[i] for i in self.order if self.forces[i].in_field]


def with_readings(setup: MassSetup, readings: int) -> MassSetup:
    """The set-up with its rules following `readings` (a battle keeps the readings it began with)."""
    if setup.rules.readings == readings:
        return setup
    return setup.model_copy(update={"rules": setup.rules.model_copy(update={"readings": readings})})
