"""The translation rules (assets/rules/scales.yaml) as pydantic models. Unknown keys are refused."""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Armour = Literal["none", "light", "heavy"]
LoserMove = Literal["stay", "fall_back", "rout"]
BAND_ORDER: tuple[str, ...] = ("minor", "major", "crushing", "legendary")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CommanderStats(_Strict):
    stats: dict[str, int]
    skills: dict[str, int] = Field(default_factory=dict)


class GroundTerrain(_Strict):
    """One campaign terrain at the tactical scale (docs/scales.md "The ground")."""

    mix: dict[str, Annotated[int, Field(ge=0, le=1000)]]  # tactical terrain -> weight of its patches
    road: bool = False  # a road runs through it to each neighbour that carries one too
    river: bool = False  # a river runs through it (towards its river neighbours)
    core: str = ""  # tactical terrain of the settlement in the middle (town: building)

    @model_validator(mode="after")
    def _check(self) -> "GroundTerrain":
        if not any(self.mix.values()):
            raise ValueError("mix needs at least one terrain with a weight above 0")
        return self


class GroundRules(_Strict):
    width: Annotated[int, Field(ge=8, le=120)] = 30
    height: Annotated[int, Field(ge=8, le=120)] = 22
    patch: Annotated[int, Field(ge=1, le=200)] = 5  # cells per terrain patch, on average
    edge: Annotated[float, Field(ge=0, le=0.9)] = 0.3  # outer share of the map painted from the neighbour
    core_radius: Annotated[int, Field(ge=0, le=20)] = 3
    ford_every: Annotated[int, Field(ge=0, le=100)] = 7  # one river cell in so many is a ford (0: none)
    ford: str = "swamp"  # the ford's tactical terrain
    terrain: dict[str, GroundTerrain]  # campaign terrain -> its tactical ground


class TacticalRules(_Strict):
    units: dict[str, dict[str, tuple[str, ...]]]  # power -> campaign unit type -> tactical types
    ground: GroundRules
    commanders: dict[int, CommanderStats]
    colours: tuple[str, ...] = ("#8a5bb8", "#3f6fc6")
    round_limit: Annotated[int, Field(ge=1, le=99)] = 8

    @model_validator(mode="after")
    def _check(self) -> "TacticalRules":
        for power, table in self.units.items():
            for t, fielded in table.items():
                if not fielded:
                    raise ValueError(f"tactical.units.{power}.{t} fields no tactical unit")
        if 0 not in self.commanders:
            raise ValueError("tactical.commanders needs level 0 (the officer of a side without a General)")
        if len(self.colours) < 2:
            raise ValueError("tactical.colours needs at least two colours")
        return self

    def commander(self, level: int) -> CommanderStats:
        return self.commanders[max(k for k in self.commanders if k <= max(level, 0))]


class Kind(_Strict):
    heads: Annotated[int, Field(ge=1, le=1_000_000)]
    armour: Armour = "none"


class GeneralStats(_Strict):
    rings: dict[str, int]
    battle: Annotated[int, Field(ge=0, le=10)] = 2
    status: Annotated[float, Field(ge=0)] = 2


class MassBridgeRules(_Strict):
    unit_kinds: dict[str, str]  # campaign unit type -> kind
    kinds: dict[str, Kind]
    terrain: dict[str, str]  # campaign terrain -> tactical terrain name (read by mass map_terrain)
    generals: dict[int, GeneralStats]

    @model_validator(mode="after")
    def _check(self) -> "MassBridgeRules":
        for t, k in self.unit_kinds.items():
            if k not in self.kinds:
                raise ValueError(f"mass.unit_kinds.{t} is {k!r}, which is not one of mass.kinds "
                                 f"({', '.join(sorted(self.kinds))})")
        if 0 not in self.generals:
            raise ValueError("mass.generals needs level 0")
        return self

    def general(self, level: int) -> GeneralStats:
        return self.generals[max(k for k in self.generals if k <= max(level, 0))]


class BackRules(_Strict):
    round_up: Annotated[float, Field(ge=0, le=1)] = 0.5
    bands: dict[str, Annotated[int, Field(ge=0, le=100)]]
    moves: dict[str, LoserMove]

    @model_validator(mode="after")
    def _check(self) -> "BackRules":
        for part in ("bands", "moves"):
            missing = [b for b in BAND_ORDER if b not in getattr(self, part)]
            if missing:
                raise ValueError(f"back.{part} needs every band; missing {', '.join(missing)}")
        values = [self.bands[b] for b in BAND_ORDER]
        if values != sorted(values) or len(set(values)) != len(values):
            raise ValueError("back.bands must increase: minor < major < crushing < legendary")
        return self


class ScalesRules(_Strict):
    system: Literal["scales"] = "scales"
    tactical: TacticalRules
    mass: MassBridgeRules
    back: BackRules
