"""Commands (what a commander, a script or the GM asks for) and events (what happened).

Both are small pydantic models with a `kind`; `parse_command` / `parse_event` read them back from
plain data (saves, command scripts).
"""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from game.core.system import Reject

ACTIONS: tuple[str, ...] = (
    "bonus_effects", "duel", "flee", "rallying_cry", "spell", "contentious_ground", "deadly_ground",
    "dispersive_ground", "encircled_ground", "entrapping_ground", "focal_ground", "heavy_ground",
    "light_ground", "traversable_ground")
ActionName = Literal[
    "bonus_effects", "duel", "flee", "rallying_cry", "spell", "contentious_ground", "deadly_ground",
    "dispersive_ground", "encircled_ground", "entrapping_ground", "focal_ground", "heavy_ground",
    "light_ground", "traversable_ground"]
# Battle Actions an individual may take on their own with a Void point: those whose target is
# "yourself" or "an individual in your force" (which then means themselves).
VOID_ACTIONS: frozenset[str] = frozenset({"bonus_effects", "duel", "flee", "spell", "deadly_ground",
                                          "traversable_ground"})


class _C(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Appoint(_C):
    """Sealed: who rolls for Heaven (Divination) and Honor (Politics) for this force."""

    kind: Literal["appoint"] = "appoint"
    force: str
    heaven: str
    honor: str


class RollWay(_C):
    kind: Literal["roll_way"] = "roll_way"
    force: str
    way: Literal["heaven", "honor", "glory", "strategy"]


class RollActionDice(_C):
    kind: Literal["roll_action_dice"] = "roll_action_dice"
    force: str


class BattleAction(_C):
    """One Battle Action. `actor`: the individual acting on their own with a Void point (`void`),
    else the commander. `target`: an individual; `target_force`: a force; `option`: a duel's
    style or a spell's effect; `enemy`: a duel's opponent; `facts`: Bonus Effects."""

    kind: Literal["action"] = "action"
    force: str
    action: ActionName
    actor: str | None = None
    target: str | None = None
    target_force: str | None = None
    enemy: str | None = None
    option: str | None = None
    facts: tuple[str, ...] = ()
    void: bool = False


class Hold(_C):
    """Act no more this Phase: the force's dice are held for a later Phase."""

    kind: Literal["hold"] = "hold"
    force: str


class AnswerDuel(_C):
    kind: Literal["answer_duel"] = "answer_duel"
    force: str
    choice: Literal["accept", "skirmish", "refuse"]


class ResolveWave(_C):
    kind: Literal["resolve_wave"] = "resolve_wave"
    force: str


class NameCommander(_C):
    """A new commander for a force that lost its own, or None: nobody takes charge."""

    kind: Literal["name_commander"] = "name_commander"
    force: str
    person: str | None = None


class Surrender(_C):
    kind: Literal["surrender"] = "surrender"
    force: str
    to: str


class Cede(_C):
    kind: Literal["cede"] = "cede"
    force: str
    to: str


class WrestCommand(_C):
    """A member of the force takes command from its appointed leader (battle-waves §7.3): an Act
    of Vice; from then on they are the real commander."""

    kind: Literal["wrest_command"] = "wrest_command"
    force: str
    person: str


class GmHonor(_C):
    """The GM changes an individual's Honor in the ledger (battle-waves §7.4); the reason is
    required and logged. Honor changes only this way."""

    kind: Literal["gm_honor"] = "gm_honor"
    person: str
    points: int
    reason: str


class GmForceRolls(_C):
    kind: Literal["gm_force_rolls"] = "gm_force_rolls"
    values: tuple[int, ...]


class GmSetPerson(_C):
    kind: Literal["gm_set_person"] = "gm_set_person"
    person: str
    wounds: int | None = Field(None, ge=0)
    void_left: int | None = Field(None, ge=0)
    status: float | None = Field(None, ge=0)


class GmSetBrutes(_C):
    kind: Literal["gm_set_brutes"] = "gm_set_brutes"
    force: str
    armour: Literal["none", "light", "heavy"]
    count: int = Field(ge=0)


class GmSetAdvantage(_C):
    kind: Literal["gm_set_advantage"] = "gm_set_advantage"
    force: str
    way: Literal["heaven", "honor", "glory", "strategy", "terrain"]
    value: int = Field(ge=0)


Command = Annotated[
    Appoint | RollWay | RollActionDice | BattleAction | Hold | AnswerDuel | ResolveWave | NameCommander
    | Surrender | Cede | WrestCommand | GmForceRolls | GmSetPerson | GmSetBrutes | GmSetAdvantage | GmHonor,
    Field(discriminator="kind")]
_COMMANDS: TypeAdapter[Any] = TypeAdapter(Command)


def parse_command(data: dict[str, Any]) -> Any:
    try:
        return _COMMANDS.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise Reject(f"not a mass-battle command ({where}: {first['msg']})") from None


# --------------------------------------------------------------------------- events

class Rolled(_C):
    """A roll and everything about it: pool, Ten Dice conversion, chains, kept dice, luck."""

    kind: Literal["rolled"] = "rolled"
    who: str
    force: str
    purpose: str
    pool: str
    conversion: str = ""
    explode: bool = True
    chains: tuple[tuple[int, ...], ...]
    kept: tuple[int, ...]
    total: int
    dice: tuple[int, ...]
    forced: bool = False
    luck: float = 0.5
    tn: int | None = None


class Happened(_C):
    """Any other fact: `what` is a short kind (way_won, action, casualties, ledger, ...), `text`
    the sentence for the log, `data` the numbers."""

    kind: Literal["happened"] = "happened"
    what: str
    text: str
    force: str | None = None
    data: dict[str, Any] = Field(default_factory=dict)


Event = Annotated[Rolled | Happened, Field(discriminator="kind")]
_EVENTS: TypeAdapter[Any] = TypeAdapter(Event)


def parse_event(data: dict[str, Any]) -> Any:
    return _EVENTS.validate_python(data)
