"""Commands: small immutable requests a player (or a script) makes. Ids and hexes only.

`Command` is the discriminated union of the core commands; `parse_command(d)` reads one from a
plain dict and `command.model_dump()` writes it back. The GM's commands (kinds starting with
`gm_`, applied by game/systems/tactical/rules/gm.py) are defined here too, so parsing never depends on
which modules happen to be imported.
"""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
import functools
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from game.core.hexgrid import Hex
from game.systems.tactical.rules.models import SkillName, StatName
from game.systems.tactical.rules.state import (
    AdvantageKind,
    CasualtyAdvantageKind,
    InitiativeOption,
    PersonalStat,
    Stance,
)

DashPay = Literal["adrenaline", "leadership", "pilot"]


class CommandBase(BaseModel):
    # defer_build: each command model's validator is built when first used, not at import (start-up time)
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    kind: str


class ChooseInitiative(CommandBase):
    kind: Literal["choose_initiative"] = "choose_initiative"
    side: str
    option: InitiativeOption
    personal_stat: PersonalStat | None = None  # Personal: which stat (and its skill) to roll


class ChooseTurnPlace(CommandBase):
    """The initiative winner picks its place in the turn order (0 = first)."""

    kind: Literal["choose_turn_place"] = "choose_turn_place"
    side: str
    position: int


class AssignLeadership(CommandBase):
    kind: Literal["assign_leadership"] = "assign_leadership"
    side: str
    unit_id: str
    points: int = Field(ge=1)


class Move(CommandBase):
    """The move action. `path`: the hexes entered, in order (a leading start hex is ignored)."""

    kind: Literal["move"] = "move"
    unit_id: str
    path: tuple[Hex, ...]


class Dash(CommandBase):
    """The second move. `pay` None = the usual way (living: adrenaline, vehicle: pilot check).

    advantage / advantage_kind: Leadership or Personal Advantage spent on a vehicle's pilot check."""

    kind: Literal["dash"] = "dash"
    unit_id: str
    path: tuple[Hex, ...]
    pay: DashPay | None = None
    advantage: int = Field(0, ge=0)
    advantage_kind: AdvantageKind | None = None


class MoveThenDash(CommandBase):
    """The move action then the dash, as one command: `move_path` (the move's hexes entered) then
    `dash_path` (the dash's, from where the move ended). Applied as a Move then a Dash, with the
    same events; all or nothing, except that a dash the move's overwatch stopped (dice were
    rolled) leaves the move made and says why the dash was not (`DashFailed`). `pay`, `advantage`,
    `advantage_kind`: the dash's, as in Dash."""

    kind: Literal["move_then_dash"] = "move_then_dash"
    unit_id: str
    move_path: tuple[Hex, ...]
    dash_path: tuple[Hex, ...]
    pay: DashPay | None = None
    advantage: int = Field(0, ge=0)
    advantage_kind: AdvantageKind | None = None


class Charge(CommandBase):
    """A dash that ends next to `target_id`, then a melee attack with `weapon`.

    advantage / advantage_kind: spent on the melee hit roll. pilot_advantage / pilot_advantage_kind:
    Leadership or Personal Advantage spent on a vehicle's pilot check for the charge."""

    kind: Literal["charge"] = "charge"
    unit_id: str
    path: tuple[Hex, ...]
    target_id: str
    weapon: str
    pay: DashPay | None = None
    advantage: int = Field(0, ge=0)
    advantage_kind: AdvantageKind | None = None
    pilot_advantage: int = Field(0, ge=0)
    pilot_advantage_kind: AdvantageKind | None = None


class SpecialMove(CommandBase):
    kind: Literal["special_move"] = "special_move"
    unit_id: str
    to: Hex


class StuckStep(CommandBase):
    """A unit that terrain stops from entering any neighbour steps one hex anyway."""

    kind: Literal["stuck_step"] = "stuck_step"
    unit_id: str
    to: Hex
    pay: Literal["adrenaline", "attack"]


class Attack(CommandBase):
    kind: Literal["attack"] = "attack"
    attacker_id: str
    target_id: str
    weapon: str
    advantage: int = Field(0, ge=0)
    advantage_kind: AdvantageKind | None = None


class EnterStance(CommandBase):
    """advantage / advantage_kind (overwatch, guard): Advantage for the hit roll of the triggered
    shot, named now and spent when it fires."""

    kind: Literal["enter_stance"] = "enter_stance"
    unit_id: str
    stance: Literal["overwatch", "guard", "defensive"]
    weapon: str | None = None  # overwatch: the ranged weapon held
    advantage: int = Field(0, ge=0)
    advantage_kind: AdvantageKind | None = None


class DefensiveAction(CommandBase):
    """The defender's answer to the defensive-action prompt.

    casualty_advantage / casualty_advantage_kind: for THIS attack only, the Advantage points the
    unit spends on each of its casualty rolls (None: its standing order, SetCasualtyAdvantage)."""

    kind: Literal["defensive_action"] = "defensive_action"
    unit_id: str
    accept: bool
    casualty_advantage: int | None = Field(None, ge=0)
    casualty_advantage_kind: CasualtyAdvantageKind | None = None


class SetCasualtyAdvantage(CommandBase):
    """A standing order: when `unit_id` is attacked, it spends `points` Advantage of `advantage_kind`
    on each of its casualty rolls, while it has them (0 = spend none). Given in the Initiative
    phase or during the unit's side's own turn."""

    kind: Literal["set_casualty_advantage"] = "set_casualty_advantage"
    unit_id: str
    points: int = Field(ge=0)
    advantage_kind: CasualtyAdvantageKind | None = None


class EndPhase(CommandBase):
    kind: Literal["end_phase"] = "end_phase"
    side: str


# --------------------------------------------------------------------------- GM commands
# (applied by game/systems/tactical/rules/gm.py; ordinary rules commands whose kind starts with gm_)

MarkerEdit = Literal["none", "next_turn", "this_turn"]


class PlaceUnit(CommandBase):
    kind: Literal["gm_place_unit"] = "gm_place_unit"
    unit_id: str = Field(min_length=1)
    type_id: str
    side: str
    at: Hex
    strength: int | None = Field(None, ge=1)


class MoveUnitGM(CommandBase):
    kind: Literal["gm_move_unit"] = "gm_move_unit"
    unit_id: str
    to: Hex


class RemoveUnit(CommandBase):
    kind: Literal["gm_remove_unit"] = "gm_remove_unit"
    unit_id: str


class EditUnit(CommandBase):
    """Change any of these on one unit; a field left out (None) is left as it is."""

    kind: Literal["gm_edit_unit"] = "gm_edit_unit"
    unit_id: str
    strength: int | None = Field(None, ge=0)
    adrenaline: int | None = Field(None, ge=0)
    stance: Stance | None = None
    stance_weapon: str | None = None
    pinned: MarkerEdit | None = None
    out_of_action: MarkerEdit | None = None
    destroyed: bool | None = None
    stats: dict[StatName, int] | None = None
    skills: dict[SkillName, int] | None = None
    move: int | None = Field(None, ge=0)
    durability: int | None = Field(None, ge=0)
    morale: int | None = None


MAX_GM_ADVANTAGE = 20


class GiveAdvantage(CommandBase):
    """Add (points > 0) or take (points < 0) Advantage; Leadership may be given to one unit."""

    kind: Literal["gm_give_advantage"] = "gm_give_advantage"
    side: str
    advantage_kind: AdvantageKind
    points: int
    unit_id: str | None = None


class SetNextRoll(CommandBase):
    """Queue die results: the next dice rolled take these values, in order, whatever the die."""

    kind: Literal["gm_set_next_roll"] = "gm_set_next_roll"
    values: tuple[int, ...] = ()
    replace: bool = False  # True: drop any values already queued (no values + replace: clear)


GM_PREFIX = "gm_"
GM_COMMANDS: tuple[type[CommandBase], ...] = (PlaceUnit, MoveUnitGM, RemoveUnit, EditUnit, GiveAdvantage,
                                             SetNextRoll)


def is_gm_command(command: object) -> bool:
    return str(getattr(command, "kind", "")).startswith(GM_PREFIX)



Command = Annotated[
    ChooseInitiative | ChooseTurnPlace | AssignLeadership | Move | Dash | MoveThenDash | Charge | SpecialMove
    | StuckStep | Attack | EnterStance | DefensiveAction | SetCasualtyAdvantage | EndPhase,
    Field(discriminator="kind"),
]

@functools.cache
def _adapter() -> TypeAdapter[Any]:
    """The validator of any command, built on first use (not at import: start-up time)."""
    return TypeAdapter(Command)

_CORE_KINDS = {
    "choose_initiative", "choose_turn_place", "assign_leadership", "move", "dash", "move_then_dash", "charge",
    "special_move", "stuck_step", "attack", "enter_stance", "defensive_action", "set_casualty_advantage",
    "end_phase",
}
_EXTRA: dict[str, type[BaseModel]] = {str(m.model_fields["kind"].default): m for m in GM_COMMANDS}


def command_kinds() -> list[str]:
    return sorted(_CORE_KINDS | set(_EXTRA))


def parse_command(d: dict[str, Any]) -> BaseModel:
    """A command from a plain dict. Raises ValueError with a readable message on bad input."""
    if not isinstance(d, dict):
        raise ValueError(f"a command must be a mapping with a 'kind', got {type(d).__name__}")
    kind = d.get("kind")
    if not isinstance(kind, str) or (kind not in _CORE_KINDS and kind not in _EXTRA):
        raise ValueError(f"unknown command kind {kind!r}; expected one of: {', '.join(command_kinds())}")
    try:
        if kind in _EXTRA:
            return _EXTRA[kind].model_validate(d)
        result: BaseModel = _adapter().validate_python(d)
        return result
    except ValidationError as exc:
        parts = []
        for err in exc.errors():
            loc = ".".join(str(x) for x in err["loc"] if x != kind)
            parts.append(f"{loc or 'command'}: {err['msg']}")
        raise ValueError(f"bad {kind} command: " + "; ".join(parts)) from None
