"""Data models of the AI:L tactical rules: rules data (every number), the unit catalogue,
and the battle set-up a scenario produces. Pure pydantic: no file I/O here; the loaders in
game/io/ read YAML and validate it into these models.

Every model refuses unknown keys so a typo in a file is reported, not ignored.
"""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from game.core.hexgrid import Hex

NonNegative = Annotated[int, Field(ge=0)]  # e.g. a road bonus: a negative one breaks the reach search
# Bounds that keep a roll's margin (and so its number of hits and dice) finite and small: found by
# fuzzing, a skill or edge of a million made one attack roll hundreds of thousands of dice.
SkillLevel = Annotated[int, Field(ge=0, le=10)]
ModifierValue = Annotated[int, Field(ge=-50, le=50)]
Award = Annotated[int, Field(ge=0, le=10)]
MAX_MOVE = 50  # a move of a million made every reach search walk a million cost buckets


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


StatName = Literal["physique", "senses", "intellect", "aether"]
SkillName = Literal[
    "tactics", "leadership", "deception", "athletics", "awareness", "aether_channel",
    "firearms", "gunnery", "melee", "pilot",
]
UnitClass = Literal["infantry", "cavalry", "walker", "wheeled", "tracked", "hover"]
Size = Literal["small", "normal", "large", "huge"]
WeaponTrait = Literal["indirect", "long_range", "armour_piercing", "ignores_cover", "energy"]


# --------------------------------------------------------------------------- rules data

class Terrain(Strict):
    move_cost: int = Field(1, ge=1, description="movement points to enter the hex")
    cover: int = Field(0, ge=0, le=10)
    difficult: bool = False
    blocks_los: bool = False
    impassable: bool = False
    hover_passable: bool = False  # impassable terrain a hover unit may still cross (water)
    # A cover save (design §5.4: "cover save from fortifications"): a cumulative defence roll,
    # negating on this d10 score or more, that a unit in this terrain makes against ranged attacks.
    cover_save: int | None = Field(None, ge=1, le=11)
    colour: tuple[int, int, int] = (120, 160, 90)  # how the tileset generator paints it


class DamageRow(Strict):
    """One row of the firepower-vs-durability table; rows are tried in order."""

    when: Literal["fp_at_least_double", "fp_greater", "fp_equal", "fp_less", "fp_at_most_half"]
    needs: int = Field(ge=1, le=10)


class CasualtyRow(Strict):
    """Casualty roll totals at or above `min_total` give `result` (rows tried top-down)."""

    min_total: int
    result: Literal["steady", "pinned", "out_of_action", "destroyed", "annihilated"]


class CheckRules(Strict):
    skilled_die: int = Field(10, ge=1, le=100, description="sides of the die rolled with the skill")
    unskilled_die: int = Field(6, ge=1, le=100, description="sides of the die rolled without it")
    threshold: int = Field(5, ge=1, description="each full threshold of margin is one more success")


class InitiativeRules(Strict):
    two_sides_winner: Award = 1
    per_full_margin: int = Field(5, ge=1, description="one more Advantage per this much margin")
    multi_winner: Award = 2
    multi_runner_up: Award = 1


class DashRules(Strict):
    adrenaline_cost: int = Field(1, ge=0)
    pilot_ct: int = 10
    leadership_per_adrenaline: int = Field(2, ge=0)


def _size_defaults() -> dict[Size, int]:
    return {"small": 2, "normal": 0, "large": -2, "huge": -5}


def _road_bonus_defaults() -> dict[UnitClass, int]:
    return {"infantry": 1, "walker": 2, "wheeled": 3, "hover": 3, "tracked": 2, "cavalry": 1}


class AccuracyRules(Strict):
    band_ac: tuple[ModifierValue, ModifierValue, ModifierValue, ModifierValue] = (5, 10, 15, 20)
    melee_ac: ModifierValue = 5
    size: dict[Size, ModifierValue] = Field(default_factory=lambda: _size_defaults())
    defensive_stance: ModifierValue = 5
    defensive_action: ModifierValue = 5
    indirect_unspotted: ModifierValue = 5


class EdgeRules(Strict):
    braced: ModifierValue = 2
    overwatch: ModifierValue = -2


class CasualtyRules(Strict):
    die: int = Field(10, ge=1, le=100, description="sides of the casualty die")
    reduced_bonus: int = 3
    table: tuple[CasualtyRow, ...] = (
        CasualtyRow(min_total=8, result="steady"),
        CasualtyRow(min_total=6, result="pinned"),
        CasualtyRow(min_total=4, result="out_of_action"),
        CasualtyRow(min_total=2, result="destroyed"),
        CasualtyRow(min_total=-1000, result="annihilated"),
    )


def _default_terrain() -> dict[str, Terrain]:
    return {
        "clear": Terrain(move_cost=1, colour=(142, 176, 96)),
        "road": Terrain(move_cost=1, colour=(176, 160, 120)),
        "woods": Terrain(move_cost=2, cover=2, blocks_los=True, colour=(60, 120, 60)),
        "dense_woods": Terrain(move_cost=3, cover=3, blocks_los=True, difficult=True, colour=(36, 88, 44)),
        "rough": Terrain(move_cost=2, cover=1, colour=(150, 134, 100)),
        "swamp": Terrain(move_cost=3, difficult=True, colour=(90, 120, 100)),
        "water": Terrain(move_cost=1, impassable=True, hover_passable=True, colour=(60, 110, 190)),
        "building": Terrain(move_cost=2, cover=4, blocks_los=True, colour=(150, 120, 110)),
        "rubble": Terrain(move_cost=2, cover=3, difficult=True, colour=(130, 120, 115)),
        "hill": Terrain(move_cost=2, cover=1, blocks_los=True, colour=(170, 150, 90)),
        "fortification": Terrain(move_cost=2, cover=6, cover_save=9, colour=(120, 115, 100)),
        "bunker": Terrain(move_cost=3, cover=10, cover_save=8, blocks_los=True, colour=(95, 95, 95)),
        "cliff": Terrain(move_cost=1, impassable=True, blocks_los=True, colour=(90, 80, 70)),
    }


class RulesData(Strict):
    """Every number of the AI:L tactical rules (design page sections in comments)."""

    check: CheckRules = CheckRules()                                     # §1
    initiative: InitiativeRules = InitiativeRules()                      # §3
    terrain: dict[str, Terrain] = Field(default_factory=_default_terrain)  # §4.1
    road_move_cost: int = Field(1, ge=1)                                 # §4.2
    road_bonus: dict[UnitClass, NonNegative] = Field(default_factory=lambda: _road_bonus_defaults())
    dash: DashRules = DashRules()                                        # §4.3
    accuracy: AccuracyRules = AccuracyRules()                            # §5.1
    edges: EdgeRules = EdgeRules()                                       # §5.2
    damage_table: tuple[DamageRow, ...] = (                              # §5.3
        DamageRow(when="fp_at_least_double", needs=2),
        DamageRow(when="fp_greater", needs=4),
        DamageRow(when="fp_equal", needs=6),
        DamageRow(when="fp_at_most_half", needs=10),
        DamageRow(when="fp_less", needs=8),
    )
    casualty: CasualtyRules = CasualtyRules()                            # §5.5
    overwatch_triggers: tuple[Literal["move", "dash", "charge"], ...] = ("dash", "charge")  # §6
    # §5.6: "ask" = the defender is asked before each attack it may answer with a defensive
    # action; "never" = never ask (always "no"), for quick games and scripted runs.
    defensive_action_prompt: Literal["ask", "never"] = "ask"

    @field_validator("damage_table")
    @classmethod
    def _damage_table_covers_every_case(cls, rows: tuple[DamageRow, ...]) -> tuple[DamageRow, ...]:
        """Every firepower/durability pair must find a row: rows are tried in order, and only
        fp_greater, fp_equal and fp_less between them cover every case (fp_at_least_double and
        fp_at_most_half are refinements of fp_greater and fp_less)."""
        have = {r.when for r in rows}
        missing = [(when, example) for when, example in (
            ("fp_greater", "firepower above durability, e.g. FP 5 vs DUR 4"),
            ("fp_equal", "firepower equal to durability, e.g. FP 4 vs DUR 4"),
            ("fp_less", "firepower below durability, e.g. FP 3 vs DUR 4"),
        ) if when not in have]
        if missing:
            cases = "; ".join(f"no row for {example} (add a row with when: {when})" for when, example in missing)
            raise ValueError(f"the damage table must give a number for every firepower against durability: {cases}")
        return rows


# --------------------------------------------------------------------------- unit catalogue

class Stats(Strict):
    physique: int = Field(ge=0, le=10)
    senses: int = Field(ge=0, le=10)
    intellect: int = Field(ge=0, le=10)
    aether: int = Field(ge=0, le=10)


class Weapon(Strict):
    name: str
    fp: int = Field(ge=0, le=100, description="firepower")
    melee: bool = False
    skill: Literal["firearms", "gunnery", "melee", "aether_channel"] = "firearms"
    bands: tuple[int, int, int, int] | None = None  # close/medium/long/extreme limits in hexes
    traits: tuple[WeaponTrait, ...] = ()
    damage: int = Field(1, ge=1, le=20, description="strength removed per damage not negated")

    @model_validator(mode="after")
    def _bands_match_kind(self) -> "Weapon":
        if self.melee and self.bands is not None:
            raise ValueError(f"melee weapon {self.name!r} must not have range bands")
        if not self.melee and self.bands is None:
            raise ValueError(f"ranged weapon {self.name!r} needs four range bands [close, medium, long, extreme]")
        if self.bands is not None and list(self.bands) != sorted(self.bands):
            raise ValueError(f"weapon {self.name!r}: range bands must increase, got {list(self.bands)}")
        return self


class Defence(Strict):
    name: str
    kind: Literal["armour", "cover", "shield", "ward", "other"] = "armour"
    target: int = Field(ge=1, le=11, description="1d10 needs this or more")
    effect: Literal["negate", "reduce"] = "negate"
    cumulative: bool = False


class SpecialMove(Strict):
    name: str = "teleport"
    range: int = Field(ge=1)
    needs_los: bool = True


class UnitType(Strict):
    name: str
    faction: str
    unit_class: UnitClass
    living: bool
    move: int = Field(ge=0, le=MAX_MOVE)
    stats: Stats
    skills: dict[SkillName, SkillLevel] = Field(default_factory=dict)
    strength: int = Field(ge=1, le=100)
    durability: int = Field(ge=0, le=100)
    morale: int = 0
    size: Size = "normal"
    defences: tuple[Defence, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    special_move: SpecialMove | None = None
    label: str = Field("", description="short counter label, e.g. 'RIF'")

    @model_validator(mode="after")
    def _unique_weapon_names(self) -> "UnitType":
        names = [w.name for w in self.weapons]
        if len(names) != len(set(names)):
            raise ValueError(f"unit {self.name!r} has two weapons with the same name")
        return self


class Catalogue(Strict):
    """Unit types by id (the key scenario files use)."""

    units: dict[str, UnitType]


# --------------------------------------------------------------------------- battle set-up

class Commander(Strict):
    name: str
    stats: Stats
    skills: dict[SkillName, SkillLevel] = Field(default_factory=dict)
    unit: str | None = Field(None, description="id of the unit the commander rides with (Personal initiative)")


class SideSetup(Strict):
    id: str
    name: str
    colour: tuple[int, int, int]
    commander: Commander


class UnitSetup(Strict):
    id: str
    type: str  # key into the catalogue
    side: str
    at: Hex
    strength: int | None = None  # defaults to the type's full strength
    name: str | None = None


class Objective(Strict):
    kind: Literal["destroy_all", "hold", "survive"]
    side: str  # the side that wins by meeting it
    hexes: tuple[Hex, ...] = ()  # for "hold"
    round: int | None = None  # "hold": at the end of this round; "survive": through this round
    description: str = ""


class BattleSetup(BaseModel):
    """Everything `initial_state` needs; built by the scenario loader or by tests."""

    model_config = ConfigDict(extra="forbid", frozen=True, arbitrary_types_allowed=True)

    name: str
    rules: RulesData
    catalogue: Catalogue
    sides: tuple[SideSetup, ...]
    units: tuple[UnitSetup, ...]
    objectives: tuple[Objective, ...] = ()
    round_limit: int = 8
