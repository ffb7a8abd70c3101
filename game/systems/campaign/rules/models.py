"""Data of the Ascension Isle campaign layer: the rules data (every number and table a GM may
edit), the unit catalogue, and the set-up a campaign scenario produces. Pure pydantic: the
loaders in game/systems/campaign/io/files.py read the files and validate them into these models.

Every model refuses unknown keys so a typo in a file is reported, not ignored.
"""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from game.core.palette import palette_colour

Manoeuvre = Literal["withdraw", "defend", "block", "skirmish", "attack", "shock_attack"]
MANOEUVRES: tuple[Manoeuvre, ...] = ("withdraw", "defend", "block", "skirmish", "attack", "shock_attack")
MANOEUVRE_NAMES: dict[str, str] = {
    "withdraw": "Withdraw", "defend": "Defend", "block": "Block", "skirmish": "Skirmish",
    "attack": "Attack", "shock_attack": "Shock Attack",
}
Trait = Literal["scout", "observer", "long_range", "infantry_division"]
Stat = Literal["attack", "defense", "mobility"]
Band = Literal["minor", "major", "crushing", "legendary"]
BANDS: tuple[Band, ...] = ("minor", "major", "crushing", "legendary")
BAND_NAMES = {0: "draw", 1: "minor victory", 2: "major victory", 3: "crushing victory",
              4: "legendary victory"}
WithdrawResult = Literal["arc", "route", "fail"]
Stratagem = Literal[
    "deception", "covering_fire", "last_stand", "continuous_front", "hold_the_line",
    "counter_attack", "harassing_fire", "delay", "encirclement", "ambush", "hammer_and_anvil",
    "raid", "guerrilla", "flanking", "feint", "surprise", "speed", "breakthrough", "flee",
]
STRATAGEMS: tuple[Stratagem, ...] = (
    "deception", "covering_fire", "last_stand", "continuous_front", "hold_the_line",
    "counter_attack", "harassing_fire", "delay", "encirclement", "ambush", "hammer_and_anvil",
    "raid", "guerrilla", "flanking", "feint", "surprise", "speed", "breakthrough", "flee",
)
Small = Annotated[int, Field(ge=0, le=99)]
Cost = Annotated[int, Field(ge=1, le=20)]
Coord = tuple[int, int]  # a hex as the map's (column, row)


CURRENT_READINGS = 3


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --------------------------------------------------------------------------- rules data

class DiceRules(Strict):
    sides: Annotated[int, Field(ge=2, le=100)] = 10
    success_on: Annotated[int, Field(ge=1, le=100)] = 6
    max_pool: Annotated[int, Field(ge=1, le=200)] = 60  # keeps a typo from rolling a million dice

    @model_validator(mode="after")
    def _success_possible(self) -> "DiceRules":
        if self.success_on > self.sides:
            raise ValueError(f"success_on {self.success_on} can never be rolled on a d{self.sides}")
        return self


class TerrainRules(Strict):
    cost: Cost | None  # None: armies cannot enter (sea)
    difficult: bool = False  # counts for Guerrilla
    name: str = ""


class MovementRules(Strict):
    bonus: Small = 1  # movement points = slowest unit's Mobility + bonus
    pickup_range: Small = 2  # a General's pick-up move reaches a friendly army this many hexes away


class BandThresholds(Strict):
    minor: Annotated[int, Field(ge=1)] = 1
    major: Annotated[int, Field(ge=1)] = 3
    crushing: Annotated[int, Field(ge=1)] = 6
    legendary: Annotated[int, Field(ge=1)] = 10
    legendary_general_level: Annotated[int, Field(ge=0, le=3)] = 3

    @model_validator(mode="after")
    def _increasing(self) -> "BandThresholds":
        if not self.minor < self.major < self.crushing < self.legendary:
            raise ValueError("band thresholds must increase: minor < major < crushing < legendary")
        return self


class DrawCell(Strict):
    """One cell of the draw table: what the row's side achieves against the column's."""

    casualties: tuple[Small, Small] | None = None  # inflicted on the other side; None: no result
    withdraw: WithdrawResult | None = None  # only in the Withdraw row

    @model_validator(mode="after")
    def _ordered(self) -> "DrawCell":
        if self.casualties is not None and self.casualties[0] > self.casualties[1]:
            raise ValueError(f"casualty range {self.casualties[0]}-{self.casualties[1]} runs backwards")
        return self


Table = dict[Manoeuvre, dict[Manoeuvre, tuple[Small, Small]]]


class VictoryTable(Strict):
    """One generated table: casualties the winner and the loser inflict (row = own manoeuvre)."""

    winner: Table
    loser: Table


class StratagemRules(Strict):
    with_: tuple[Manoeuvre, ...] | Literal["any"] = Field(alias="with")
    general_level: Annotated[int, Field(ge=0, le=3)] = 0
    needs: tuple[str, ...] = ()  # extra named requirements checked in code (observer, scout, ...)
    dice: Small = 0  # extra dice where the stratagem gives them
    text: str = ""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class RulesData(Strict):
    dice: DiceRules = DiceRules()
    movement: MovementRules = MovementRules()
    terrain: dict[str, TerrainRules]
    bands: BandThresholds = BandThresholds()
    matchups: dict[Manoeuvre, tuple[Manoeuvre, ...]]  # manoeuvre -> the manoeuvres it beats
    draw_table: dict[Manoeuvre, dict[Manoeuvre, DrawCell]]
    victory: dict[Band, VictoryTable]
    stratagems: dict[Stratagem, StratagemRules]
    continuous_front_divisions: Small = 20
    extra_casualty: Small = 1  # Raid, Encirclement, a winning Skirmish against a Withdraw
    rout_casualties: Small = 1  # each unit of a routed army takes this many more
    # Which readings of the source the rules follow: 1 as first built, 2 with those settled after
    # the first audit (operational-rules §7, issue 33). A game keeps the readings it began with
    # (CampaignState.readings), so its save still verifies; new games get the current ones.
    readings: Annotated[int, Field(ge=1, le=CURRENT_READINGS)] = CURRENT_READINGS

    @model_validator(mode="after")
    def _complete(self) -> "RulesData":
        for row in MANOEUVRES:
            if row not in self.draw_table:
                raise ValueError(f"draw_table has no row for {row}")
            missing = [c for c in MANOEUVRES if c not in self.draw_table[row]]
            if missing:
                raise ValueError(f"draw_table row {row} has no column for {', '.join(missing)}")
        for band in BANDS:
            if band not in self.victory:
                raise ValueError(f"victory tables have no {band} table")
            for part_name in ("winner", "loser"):
                part: Table = getattr(self.victory[band], part_name)
                for row in MANOEUVRES:
                    cols = part.get(row, {})
                    missing = [c for c in MANOEUVRES if c not in cols]
                    if missing:
                        raise ValueError(f"victory.{band}.{part_name} row {row} lacks {', '.join(missing)}")
                    for col, (lo, hi) in cols.items():
                        if lo > hi:
                            raise ValueError(f"victory.{band}.{part_name}.{row}.{col}: range {lo}-{hi} runs backwards")
        missing_s = [s for s in STRATAGEMS if s not in self.stratagems]
        if missing_s:
            raise ValueError(f"stratagems missing: {', '.join(missing_s)}")
        return self


# --------------------------------------------------------------------------- catalogue

class UnitType(Strict):
    name: str
    attack: Small
    defense: Small
    mobility: Small
    line: bool = False
    traits: tuple[Trait, ...] = ()
    armour: Annotated[int, Field(ge=0, le=20)] = 0  # Armour N: N casualties in one week destroy it
    large: Annotated[int, Field(ge=0, le=50)] = 0  # Large N: N casualties over the battle destroy it
    note: str = ""

    @model_validator(mode="after")
    def _one_durability(self) -> "UnitType":
        if self.armour and self.large:
            raise ValueError("a unit is Armour N or Large N, not both")
        return self

    @property
    def durability(self) -> str:
        if self.armour:
            return f"Armour {self.armour}"
        if self.large:
            return f"Large {self.large}"
        return "plain"

    def stat(self, name: Stat) -> int:
        return int(getattr(self, name))


class Power(Strict):
    name: str
    description: str = ""
    units: dict[str, UnitType]


class Catalogue(Strict):
    powers: dict[str, Power]

    def unit_types(self) -> dict[str, UnitType]:
        out: dict[str, UnitType] = {}
        for power in self.powers.values():
            out.update(power.units)
        return out


# --------------------------------------------------------------------------- set-up

@dataclass(frozen=True)
class PlayerSetup:
    id: str
    name: str
    power: str
    colour: str = ""  # "#rrggbb": the power's colour at every scale (game/core/palette.py); "" = the palette's
    plural: bool = False  # the name is grammatically plural ("The Zones have"); one by default ("Jibril has")


@dataclass(frozen=True)
class UnitSetup:
    id: str
    type_id: str


@dataclass(frozen=True)
class ArmySetup:
    id: str
    name: str
    owner: str
    hex: Coord
    units: tuple[UnitSetup, ...]
    route: Coord | None = None
    plural: bool = False  # the name is grammatically plural; one by default ("Lowmarch Rifle Corps has")


@dataclass(frozen=True)
class GeneralSetup:
    id: str
    name: str
    owner: str
    level: int
    army: str
    traits: tuple[Trait, ...] = ()


@dataclass(frozen=True)
class CampaignMap:
    """The island as the rules see it: terrain name per (column, row) and the hex layout."""

    width: int
    height: int
    terrain: Mapping[Coord, str]
    stagger_axis: Literal["x", "y"] = "x"
    stagger_index: Literal["odd", "even"] = "odd"
    names: Mapping[Coord, str] = field(default_factory=dict)  # towns and fortresses by name


@dataclass(frozen=True)
class CampaignSetup:
    name: str
    rules: RulesData
    unit_types: Mapping[str, UnitType]
    map: CampaignMap
    players: tuple[PlayerSetup, ...]
    armies: tuple[ArmySetup, ...]
    generals: tuple[GeneralSetup, ...] = ()
    description: str = ""

    def colour_of(self, player: str) -> str:
        """[decision] The player's colour ("#rrggbb"), the same on the island, in its battles fought
        out at the other scales and on the hand-off screen: its `colour`, else the palette's for its
        place (game/core/palette.py)."""
        for i, p in enumerate(self.players):
            if p.id == player:
                return p.colour or palette_colour(i)
        return palette_colour(len(self.players))


_SMALL_WORDS = frozenset({"the", "and", "of", "a", "an", "to", "in", "on"})


def display_name(name: str) -> str:
    """A stratagem's name for people, as the rules write it: "hold_the_line" -> "Hold the
    Line", "hammer_and_anvil" -> "Hammer and Anvil"."""
    words = name.split("_")
    return " ".join(w if i and w in _SMALL_WORDS else w.capitalize() for i, w in enumerate(words))
