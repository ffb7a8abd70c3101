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


class TacticalRules(_Strict):
    units: dict[str, dict[str, tuple[str, ...]]]  # power -> campaign unit type -> tactical types
    maps: dict[str, str]  # campaign terrain -> tactical map file (in maps/)
    commanders: dict[int, CommanderStats]
    colours: tuple[str, ...] = ("#8a5bb8", "#3f6fc6")
    round_limit: Annotated[int, Field(ge=1, le=99)] = 8
    deploy_depth: Annotated[int, Field(ge=1, le=50)] = 6

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
