"""The pieces of a mass battle and the rules' numbers (docs/mass-battle.md).

Set-up models (what a battle file describes) are validated by pydantic at the edge
(`game.systems.mass.io.files`); the state models in `game.systems.mass.rules.state` build on them. Every number of the
rules lives in `MassRules`, loaded from assets/rules/mass-battle.yaml.
"""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    StrictBool,
    model_serializer,
    model_validator,
)

Ring = Literal["earth", "water", "fire", "air", "void"]
Armour = Literal["none", "light", "heavy"]
TerrainKind = Literal["accessible", "constricted", "precipitous", "stalemated", "suspended"]
TERRAIN_KINDS: tuple[str, ...] = ("accessible", "constricted", "precipitous", "stalemated", "suspended")
WAYS: tuple[str, ...] = ("heaven", "honor", "glory", "strategy")
ADVANTAGE_KEYS: tuple[str, ...] = ("heaven", "honor", "glory", "strategy", "terrain")

# Each trait belongs to a ring; a trait not given is its ring's rank (the L5R convention).
TRAIT_RING: dict[str, Ring] = {
    "stamina": "earth", "willpower": "earth", "strength": "water", "perception": "water",
    "agility": "fire", "intelligence": "fire", "reflexes": "air", "awareness": "air", "void": "void",
}
SKILLS: tuple[str, ...] = ("battle", "divination", "politics", "oratory", "kenjutsu", "iaijutsu", "spellcraft")


CURRENT_READINGS = 3
# From this reading on a force cedes victory only to an ally and surrenders only to an enemy
# (docs/mass-battle.md section 6); before it, to any other force in the field.
ALLIES_READING = 3


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


def omit_unset(data: Any, defaults: dict[str, Any]) -> Any:
    """`data` (a model dumped) without the fields added after the first saves while they hold their
    defaults, so the data of a battle that uses none of them stays what it was, byte for byte."""
    if isinstance(data, dict):
        for k, v in defaults.items():
            if k in data and data[k] == v:
                del data[k]
    return data


class Rings(_Model):
    earth: int = Field(2, ge=1, le=10)
    water: int = Field(2, ge=1, le=10)
    fire: int = Field(2, ge=1, le=10)
    air: int = Field(2, ge=1, le=10)
    void: int = Field(2, ge=1, le=10)

    def rank(self, ring: str) -> int:
        value: int = getattr(self, ring)
        return value


class Individual(_Model):
    """A character with full statistics (a commander, a duellist, a shugenja, a player)."""

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    rings: Rings = Rings()
    traits: dict[str, int] = Field(default_factory=dict)
    skills: dict[str, int] = Field(default_factory=dict)
    void_points: int | None = Field(None, ge=0)
    status: float = Field(1.0, ge=0)
    armour: Armour = "none"
    carapace: int = Field(0, ge=0)  # battle-waves §7.2: taken off each Wounds roll after armour
    tags: list[str] = Field(default_factory=list)
    wounds: int = Field(0, ge=0)

    @model_serializer(mode="wrap")
    def _data(self, handler: SerializerFunctionWrapHandler) -> Any:
        return omit_unset(handler(self), {"carapace": 0})

    @model_validator(mode="after")
    def _known_names(self) -> "Individual":
        for t, v in self.traits.items():
            if t not in TRAIT_RING:
                raise ValueError(f"unknown trait {t!r}; traits are {', '.join(TRAIT_RING)}")
            if not 1 <= v <= 10:
                raise ValueError(f"trait {t} should be 1..10, got {v}")
        for s, v in self.skills.items():
            if s not in SKILLS:
                raise ValueError(f"unknown skill {s!r}; skills are {', '.join(SKILLS)}")
            if not 0 <= v <= 10:
                raise ValueError(f"skill {s} should be 0..10, got {v}")
        return self

    def trait(self, name: str) -> int:
        if name in Rings.model_fields:
            return self.rings.rank(name)
        return self.traits.get(name, self.rings.rank(TRAIT_RING[name]))

    def skill(self, name: str) -> int:
        return self.skills.get(name, 0)

    @property
    def max_void_points(self) -> int:
        return self.rings.void if self.void_points is None else self.void_points

    @property
    def magic(self) -> bool:
        return "shugenja" in self.tags or "monk" in self.tags


class Division(_Model):
    """Brutes of one armour class: a head count."""

    armour: Armour = "none"
    count: int = Field(ge=0)
    carapace: int = Field(0, ge=0)  # battle-waves §7.2: taken off each of its Wounds rolls

    @model_serializer(mode="wrap")
    def _data(self, handler: SerializerFunctionWrapHandler) -> Any:
        return omit_unset(handler(self), {"carapace": 0})


class MoraleEntry(_Model):
    """A past battle: how it went and how many of this force fought in it."""

    battle: str = ""
    result: Literal["won", "lost", "undecided"]
    veterans: int = Field(ge=0)


class ForceSetup(_Model):
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    commander: str = Field(min_length=1)
    # battle-waves §7.3: the appointed leader, when it is not the real commander (who rolls
    # Strategy and gives the Battle Actions); "" = the commander leads in name too
    leader: str = ""
    individuals: list[Individual] = Field(min_length=1)
    brutes: list[Division] = Field(default_factory=list)
    morale: list[MoraleEntry] = Field(default_factory=list)
    granted_status: float | None = Field(None, ge=0)
    colour: str = Field("", pattern=r"^(#[0-9a-fA-F]{6})?$")  # "#rrggbb"; "" = the palette's for its place
    # the ids of the forces this one is allied with; every alliance is listed by both forces
    # (`alliance_problems`). A force cedes victory only to an ally, surrenders only to an enemy.
    allies: list[str] = Field(default_factory=list)
    # the name takes a plural verb ("The Zones have"); one by default ("Akira's army has")
    plural: StrictBool = False

    @model_serializer(mode="wrap")
    def _data(self, handler: SerializerFunctionWrapHandler) -> Any:
        return omit_unset(handler(self), {"allies": [], "plural": False})

    @model_validator(mode="after")
    def _commander_present(self) -> "ForceSetup":
        ids = [i.id for i in self.individuals]
        if len(set(ids)) != len(ids):
            raise ValueError("two individuals share an id")
        if self.commander not in ids:
            raise ValueError(f"commander {self.commander!r} is not one of the force's individuals ({', '.join(ids)})")
        if self.leader and self.leader not in ids:
            raise ValueError(f"leader {self.leader!r} is not one of the force's individuals ({', '.join(ids)})")
        armours = [d.armour for d in self.brutes]
        if len(set(armours)) != len(armours):
            raise ValueError("one Brute division per armour class (merge the head counts)")
        return self


# --------------------------------------------------------------------------- the numbers

class PoolMod(_Model):
    """A change to a pool: +rolled k +kept (negative for a penalty)."""

    rolled: int = 0
    kept: int = 0

    def text(self) -> str:
        sign = "-" if self.rolled < 0 or (self.rolled == 0 and self.kept < 0) else "+"
        return f"{sign}{abs(self.rolled)}k{abs(self.kept)}"


class WoundLevel(_Model):
    name: str
    earth_times: int = Field(ge=1)


class Ledger(_Model):
    virtue: int = Field(1, ge=0)
    vice: int = Field(1, ge=0)
    commander_times: int = Field(2, ge=1)


def _default_armour() -> dict[Armour, PoolMod]:
    return {"none": PoolMod(), "light": PoolMod(rolled=-1, kept=-1), "heavy": PoolMod(rolled=-2, kept=-2)}


class MassRules(_Model):
    """Every number of the mass-battle rules (assets/rules/mass-battle.yaml)."""

    threshold: int = Field(50, ge=1)
    # Which readings of the source the rules follow: 1 as first built, 2 with those settled after
    # the first audit (battle-waves §7, issue 33). A battle keeps the readings it began with
    # (MassState.readings), so its save still verifies; new battles get the current ones.
    readings: int = Field(CURRENT_READINGS, ge=1, le=CURRENT_READINGS)
    raise_step: int = Field(5, ge=1)
    raise_cap_ring: Ring = "void"
    wounds_pool: PoolMod = PoolMod(rolled=2, kept=2)
    wounds_explode: bool = True
    armour: dict[Armour, PoolMod] = Field(default_factory=_default_armour)
    wound_levels: list[WoundLevel] = Field(min_length=2)
    down_level: str = "Down"
    terrain_ring: dict[TerrainKind, Ring | None]
    map_terrain: dict[str, str] = Field(default_factory=dict)
    morale_lost_battle: PoolMod = PoolMod(rolled=-1)
    morale_lost_wave: PoolMod = PoolMod(rolled=-1)
    morale_won_wave: PoolMod = PoolMod(rolled=1)
    size_ratio_min: int = Field(2, ge=2)
    duel_wounds: PoolMod = PoolMod(rolled=2, kept=2)
    duel_per_raise: PoolMod = PoolMod(rolled=1, kept=1)
    rally_tn_per_advantage: int = Field(5, ge=0)
    spell_strategy: PoolMod = PoolMod(rolled=1, kept=1)
    spell_wounds: PoolMod = PoolMod(rolled=1, kept=1)
    spell_shield: PoolMod = PoolMod(rolled=-1, kept=-1)
    deadly_combat: PoolMod = PoolMod(rolled=2, kept=2)
    deadly_wounds: PoolMod = PoolMod(rolled=2, kept=2)
    dispersive_wounds: PoolMod = PoolMod(rolled=1, kept=1)
    heavy_own: PoolMod = PoolMod(rolled=1, kept=1)
    heavy_other: PoolMod = PoolMod(rolled=2, kept=2)
    light_own: PoolMod = PoolMod(rolled=-1, kept=-1)
    traversable_pool: PoolMod = PoolMod(rolled=1, kept=1)
    waves_in_a_row: int = Field(3, ge=1)
    max_percent: int = Field(100, ge=1, le=100)
    ledger: Ledger = Ledger()

    @model_validator(mode="after")
    def _checks(self) -> "MassRules":
        missing = [k for k in TERRAIN_KINDS if k not in self.terrain_ring]
        if missing:
            raise ValueError(f"terrain_ring needs every terrain kind; missing {', '.join(missing)}")
        names = [w.name for w in self.wound_levels]
        if self.down_level not in names:
            raise ValueError(f"down_level {self.down_level!r} is not a wound level ({', '.join(names)})")
        for name, kind in self.map_terrain.items():
            if kind not in TERRAIN_KINDS and kind != "expansive":
                raise ValueError(f"map terrain {name!r} maps to {kind!r}; expected one of "
                                 f"{', '.join(TERRAIN_KINDS)} (or expansive, which refuses a battle)")
        return self


class MassSetup(_Model):
    """What a battle starts from."""

    name: str = "Battle"
    description: str = ""
    terrain: TerrainKind
    terrain_note: str = ""
    prepared: bool = True
    forces: list[ForceSetup] = Field(min_length=2)
    rules: MassRules

    @model_validator(mode="after")
    def _unique(self) -> "MassSetup":
        ids = [f.id for f in self.forces]
        if len(set(ids)) != len(ids):
            raise ValueError("two forces share an id")
        people = [i.id for f in self.forces for i in f.individuals]
        if len(set(people)) != len(people):
            raise ValueError("an individual id is used in two forces (ids must be unique in the battle)")
        for i, j, problem in alliance_problems(self.forces)[:1]:
            raise ValueError(f"forces[{i}].allies[{j}]: {problem}")
        return self

    def allied(self, a: str, b: str) -> bool:
        """Whether the forces `a` and `b` are allies (the battle file says so; never a force with itself)."""
        return a != b and any(f.id == a and b in f.allies for f in self.forces)


def alliance_problems(forces: list[ForceSetup]) -> list[tuple[int, int, str]]:
    """What is wrong with the forces' `allies` lists: (force index, list index, what was expected),
    in file order. An ally is another force of the battle, named once, and every alliance is
    mutual: a force listed as an ally lists the first one among its own allies [decision]."""
    ids = [f.id for f in forces]
    out: list[tuple[int, int, str]] = []
    for i, f in enumerate(forces):
        for j, a in enumerate(f.allies):
            if a == f.id:
                out.append((i, j, f"force {f.id!r} lists itself as an ally; expected the id of another force"))
            elif a not in ids:
                out.append((i, j, f"no force {a!r} in this battle; expected one of "
                                  f"{', '.join(x for x in ids if x != f.id)}"))
            elif a in f.allies[:j]:
                out.append((i, j, f"{a!r} is listed twice among the allies of force {f.id!r}; expected each ally once"))
            elif f.id not in forces[ids.index(a)].allies:
                out.append((i, j, f"force {a!r} does not list {f.id!r} among its allies; an alliance is "
                                  f"mutual: expected allies: [{f.id}] (or more) in force {a!r} too"))
    return out


def combatants(setup: MassSetup) -> int:
    return sum(len(f.individuals) + sum(d.count for d in f.brutes) for f in setup.forces)


def qualifies(setup: MassSetup) -> tuple[bool, str]:
    """Whether the clash is big enough for these rules, with a note for people."""
    n = combatants(setup)
    need = setup.rules.threshold
    if n >= need:
        return True, f"{n} combatants: a battle (the mass rules start at {need})."
    return False, (f"only {n} combatants: below the {need} where the mass rules start; a skirmish "
                   f"between individuals suits this clash better (the battle can still be played).")
