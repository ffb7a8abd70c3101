"""Commands of the campaign layer (pydantic models with a `kind`). GM commands start `gm_`."""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from game.systems.campaign.rules.gm_lock import Digest, Iterations, Salt
from game.systems.campaign.rules.models import Coord, Manoeuvre, Stratagem


class Cmd(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MoveArmy(Cmd):
    kind: Literal["move_army"] = "move_army"
    army: str
    path: tuple[Coord, ...]  # the hexes entered, in order


class EndTurn(Cmd):
    """The active player is done with this sequential phase (movement, pick-up)."""

    kind: Literal["end_turn"] = "end_turn"


class Declare(Cmd):
    kind: Literal["declare"] = "declare"
    player: str
    hex: Coord
    fight: bool


class Pickup(Cmd):
    kind: Literal["pickup"] = "pickup"
    general: str
    army: str


class WritePost(Cmd):
    kind: Literal["post"] = "post"
    player: str
    battle: str
    text: str
    generals: tuple[str, ...] = ()


class NarrativeDone(Cmd):
    kind: Literal["narrative_done"] = "narrative_done"
    player: str


class GiveOrders(Cmd):
    kind: Literal["orders"] = "orders"
    player: str
    battle: str
    manoeuvre: Manoeuvre
    stratagems: tuple[Stratagem, ...] = ()
    vanguard: str
    withdraw_to: Coord | None = None
    breakthrough_to: Coord | None = None


class GmMoveArmy(Cmd):
    kind: Literal["gm_move_army"] = "gm_move_army"
    army: str
    to: Coord


class GmEditUnit(Cmd):
    kind: Literal["gm_edit_unit"] = "gm_edit_unit"
    unit: str
    armour_damage: int | None = None
    large_damage: int | None = None
    destroyed: bool | None = None


class GmForceRolls(Cmd):
    kind: Literal["gm_force_rolls"] = "gm_force_rolls"
    values: tuple[int, ...]


class GmSetGeneral(Cmd):
    kind: Literal["gm_set_general"] = "gm_set_general"
    general: str
    level: int


class BattleSource(Cmd):
    """Where an externally decided result came from: the battle's save (a path relative to the
    campaign save) and its file checksum, checked by `python -m game scales verify`."""

    scale: Literal["tactical", "mass"]
    save: str
    checksum: str


class GmBattleResult(Cmd):
    """The GM applies a battle's result decided outside the tables (a tactical or mass battle
    fought out, game/bridge/): casualties per unit, the loser's moves, and the battle ends.
    Handled in game/systems/campaign/rules/external.py."""

    kind: Literal["gm_battle_result"] = "gm_battle_result"
    battle: str
    winner: str | None = None
    band: int = Field(0, ge=0, le=4)
    casualties: dict[str, int] = Field(default_factory=dict)  # unit -> casualties
    moves: dict[str, tuple[Coord, ...]] = Field(default_factory=dict)  # army -> the hexes it enters
    note: str = ""
    source: BattleSource | None = None


Scale = Literal["tables", "tactical", "mass"]


class GmBattleChoice(Cmd):
    """How a campaign battle is resolved (docs/scales.md): by the tables, or fought out as a
    tactical or a mass battle. `save`: the battle's save, relative to the campaign save's folder
    (the campaign save refers to it). Handled in game/systems/campaign/rules/external.py."""

    kind: Literal["gm_battle_choice"] = "gm_battle_choice"
    battle: str
    scale: Scale
    save: str = ""
    note: str = ""


class GmBattleAbandon(Cmd):
    """A battle being fought out is abandoned: it goes back to the tables (its sides give orders)."""

    kind: Literal["gm_battle_abandon"] = "gm_battle_abandon"
    battle: str
    note: str = ""


class GmBattleDice(Cmd):
    """Characters other than Generals (operational-rules §7.12): their powers are outside these
    rules, so the GM adds (or, negative, removes) dice for one side of a battle, with the reason.
    It holds for the rest of the battle; `dice: 0` clears it. Shown in the pool, the planner and
    the report."""

    kind: Literal["gm_battle_dice"] = "gm_battle_dice"
    battle: str
    player: str
    dice: int
    reason: str


class GmDiceSeed(Cmd):
    """The week's dice drawn from the GM's committed secret and every order's salt (rules/dice_seed.py,
    docs/campaign.md "The dice"): given before the first order of the week."""

    kind: Literal["gm_dice_seed"] = "gm_dice_seed"
    week: int
    commitment: str
    secret: str
    salts: dict[str, str]


class GmScoutingSeed(Cmd):
    """The week's scouting dice drawn from the GM's second committed secret (rules/dice_seed.py,
    docs/campaign.md "The dice"): given in the week's movement or declare phase, before its
    battles start."""

    kind: Literal["gm_scouting_seed"] = "gm_scouting_seed"
    week: int
    commitment: str
    secret: str


class GmSetLock(Cmd):
    """The GM's passphrase, set once for the whole campaign while no orders are sealed, as its
    salted slow digest (rules/gm_lock.py; never the passphrase itself)."""

    kind: Literal["gm_lock"] = "gm_lock"
    salt: Salt
    iterations: Iterations
    digest: Digest


Command = Annotated[
    MoveArmy | EndTurn | Declare | Pickup | WritePost | NarrativeDone | GiveOrders
    | GmMoveArmy | GmEditUnit | GmForceRolls | GmSetGeneral | GmBattleResult | GmBattleChoice
    | GmBattleAbandon | GmBattleDice | GmDiceSeed | GmSetLock | GmScoutingSeed,
    Field(discriminator="kind"),
]
_ADAPTER: TypeAdapter[Any] = TypeAdapter(Command)
COMMAND_KINDS = ("move_army", "end_turn", "declare", "pickup", "post", "narrative_done", "orders",
                 "gm_move_army", "gm_edit_unit", "gm_force_rolls", "gm_set_general", "gm_battle_result",
                 "gm_battle_choice", "gm_battle_abandon", "gm_battle_dice", "gm_dice_seed", "gm_lock",
                 "gm_scouting_seed")


def parse_command(data: dict[str, Any]) -> Cmd:
    """A command from plain data (a script line, a save's log); raises pydantic.ValidationError."""
    cmd: Cmd = _ADAPTER.validate_python(data)
    return cmd


def is_gm(command: Any) -> bool:
    return str(getattr(command, "kind", "")).startswith("gm_")
