"""One AI:L attack, from the Accuracy Challenge to the casualty rolls (design page §5.1-§5.5).

Pure: dice come through a `DieSource` (game.core.roller), every number comes from `RulesData`.
The small helpers below (`accuracy_challenge`, `hit_check`, `damage_needs`, `defence_rolls`, `casualty_parts`,
`casualty_state`, `final_result`) are the rules themselves; `resolve_attack` rolls through them and
`odds.outcome_distribution` enumerates through the very same helpers, so the odds shown before an
attack can never disagree with the attack.

Dice order (fixed, so a seeded game replays bit for bit):
  1. the hit die (d10, or d6 when the attacker has no points in the weapon's skill);
  2. one damage d10 per hit, in order;
  3. for each damage that succeeded, in order: its defence d10s (the combined cumulative roll
     first, then each separate defence in the unit's list order until one succeeds);
  4. one casualty die per strength point lost, in the order the points are lost (the target's
     Advantage, if it spends any, is added to these rolls in that order: `casualty_advantage`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from game.core.board import Board
from game.core.hexgrid import Hex, distance
from game.core.roller import DieSource
from game.systems.tactical.rules.check import CheckResult, Modifier, die_for
from game.systems.tactical.rules.common import hex_name
from game.systems.tactical.rules.los import first_blocker
from game.systems.tactical.rules.models import Defence, RulesData, UnitType, Weapon

Stance = Literal["none", "overwatch", "guard", "defensive"]
Band = Literal["close", "medium", "long", "extreme", "melee"]
DamageEffect = Literal["failed", "negated", "reduced", "full"]
UnitState = Literal["steady", "pinned", "out_of_action", "destroyed", "annihilated"]
Result = Literal["no_hit", "no_effect", "steady", "pinned", "out_of_action", "destroyed", "annihilated"]

BANDS: tuple[Band, Band, Band, Band] = ("close", "medium", "long", "extreme")
# Unit states from best to worst: "the worst result counts" takes the highest index.
STATES: tuple[UnitState, ...] = ("steady", "pinned", "out_of_action", "destroyed", "annihilated")
RESULTS: tuple[Result, ...] = ("no_hit", "no_effect", *STATES)
DAMAGE_DIE = 10
DEFENCE_DIE = 10


class AttackImpossible(ValueError):
    """The attack cannot be made (out of range, no line of sight...); `reason` is for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Combatant:
    """A unit as an attack sees it. `strength` is its current strength; `braced`: did not move this
    turn. `called`: the unit's own name as players read it (GameState.unit_name), set for the
    attacks the game rolls so their dice labels name the unit; empty (the odds, the tools): the
    type's name."""

    unit_id: str
    unit_type: UnitType
    hex: Hex
    strength: int
    stance: Stance = "none"
    braced: bool = False
    called: str = ""

    @property
    def name(self) -> str:
        return self.called or self.unit_type.name


@dataclass(frozen=True)
class AttackSetup:
    """Everything one attack depends on.

    overwatch_shot: a triggered overwatch shot (-2 edge). defensive_action: the target declared the
    called interrupt (+5 AC). advantage: Advantage points spent on the hit roll (+1 each).
    spotted: for an indirect weapon whose firer has no line of sight, a friendly unit sees the target.
    counter: a guard's melee counter-attack (same maths; labels only).
    casualty_advantage: Advantage the TARGET spends on its casualty rolls, declared before rolling:
    its i-th casualty roll of this attack gets +casualty_advantage[i] (nothing past the end of the
    tuple). The engine builds it from the points per roll the defender chose and the points it
    holds, e.g. 1 per roll with 3 points held -> (1, 1, 1).
    """

    attacker: Combatant
    target: Combatant
    weapon: Weapon
    board: Board
    rules: RulesData
    overwatch_shot: bool = False
    defensive_action: bool = False
    advantage: int = 0
    spotted: bool = True
    counter: bool = False
    casualty_advantage: tuple[int, ...] = ()


@dataclass(frozen=True)
class ACBreakdown:
    """The Accuracy Challenge: its named parts, their sum and the range band ('melee' for melee)."""

    parts: tuple[Modifier, ...]
    total: int
    band: Band

    def describe(self) -> str:
        bits = [f"{p.label} {p.value:+d}" if i else f"{p.label} {p.value}" for i, p in enumerate(self.parts)]
        return f"AC {self.total} = " + ", ".join(bits)


@dataclass(frozen=True)
class DieRecord:
    """One die as rolled: what it was for, its parts, the target and what it meant.

    total = value + sum(parts); success = total >= target. `outcome` says what it did in words
    ('2 hits', 'miss', 'damage', 'no damage', 'negated', 'reduced', 'failed', or a unit state).
    """

    kind: Literal["hit", "damage", "defence", "casualty"]
    label: str
    sides: int
    value: int
    parts: tuple[Modifier, ...]
    target: int
    success: bool
    outcome: str

    @property
    def total(self) -> int:
        return self.value + sum(p.value for p in self.parts)


@dataclass(frozen=True)
class AttackResult:
    """Everything that happened in one attack.

    damages[i] is what became of damage roll i: 'failed' (the damage die missed), 'negated' (a
    defence stopped it), 'reduced' (a reducing defence succeeded: strength is still lost, its casualty
    rolls get +3) or 'full'. `dice` holds every die in the order it was rolled.
    """

    ac: ACBreakdown
    hit: CheckResult
    hits: int
    damage_rolls: tuple[DieRecord, ...]
    defence_rolls: tuple[DieRecord, ...]
    damages: tuple[DamageEffect, ...]
    strength_before: int
    strength_lost: int
    casualty_rolls: tuple[DieRecord, ...]
    worst: UnitState | None
    result: Result
    dice: tuple[DieRecord, ...]
    casualty_advantage_spent: int = 0  # Advantage points the target used on its casualty rolls

    @property
    def strength_after(self) -> int:
        return self.strength_before - self.strength_lost


# --------------------------------------------------------------------------- accuracy challenge

def _terrain_name(board: Board, h: Hex) -> str | None:
    return board.terrain.get(h)


def accuracy_challenge(setup: AttackSetup) -> ACBreakdown | str:
    """The AC broken into parts, or a sentence saying why this attack cannot be made."""
    att, tgt, weapon, rules = setup.attacker, setup.target, setup.weapon, setup.rules
    acc = rules.accuracy
    d = distance(att.hex, tgt.hex)
    if d == 0:
        return "the target is in the attacker's own hex"
    parts: list[Modifier] = []
    band: Band
    if weapon.melee:
        if d != 1:
            return f"melee needs an adjacent target ({tgt.name} is {d} hexes away)"
        band = "melee"
        parts.append(Modifier("melee", acc.melee_ac))
    else:
        assert weapon.bands is not None  # guaranteed by the Weapon model
        if d > weapon.bands[3]:
            return f"out of range: {d} hexes, extreme is {weapon.bands[3]}"
        index = next(i for i, limit in enumerate(weapon.bands) if d <= limit)
        band = BANDS[index]
        parts.append(Modifier(f"{band} range ({d} hex{'es' if d != 1 else ''})", acc.band_ac[index]))
        blocker = first_blocker(setup.board, rules, att.hex, tgt.hex)
        if "indirect" in weapon.traits:
            if blocker is not None and not setup.spotted:
                parts.append(Modifier("indirect fire, no spotter", acc.indirect_unspotted))
        elif blocker is not None:
            return f"no line of sight: {_terrain_name(setup.board, blocker)} at {hex_name(setup.board, blocker)}"
    size = acc.size.get(tgt.unit_type.size, 0)
    if size:
        parts.append(Modifier(f"{tgt.unit_type.size} target", size))
    if not weapon.melee and "ignores_cover" not in weapon.traits:
        name = _terrain_name(setup.board, tgt.hex)
        terrain = rules.terrain.get(name) if name is not None else None
        if terrain is not None and terrain.cover:
            parts.append(Modifier(f"cover: {name}", terrain.cover))
    if tgt.stance == "defensive":
        parts.append(Modifier("defensive stance", acc.defensive_stance))
    if setup.defensive_action:
        parts.append(Modifier("defensive action", acc.defensive_action))
    return ACBreakdown(tuple(parts), sum(p.value for p in parts), band)


def require_ac(setup: AttackSetup) -> ACBreakdown:
    """accuracy_challenge, raising AttackImpossible(reason) when the attack cannot be made."""
    ac = accuracy_challenge(setup)
    if isinstance(ac, str):
        raise AttackImpossible(ac)
    return ac


# --------------------------------------------------------------------------- hit roll

def hit_stat_and_skill(attacker: UnitType, weapon: Weapon) -> tuple[str, int, str, int]:
    """(stat name, stat, skill name, skill) of the hit roll.

    Melee: physique + the weapon's skill. Ranged: senses + the weapon's skill, except spells
    (skill aether_channel), which use aether.
    """
    if weapon.melee:
        stat_name = "physique"
    elif weapon.skill == "aether_channel":
        stat_name = "aether"
    else:
        stat_name = "senses"
    stat = int(getattr(attacker.stats, stat_name))
    return stat_name, stat, weapon.skill, attacker.skills.get(weapon.skill, 0)


def hit_modifiers(setup: AttackSetup) -> tuple[Modifier, ...]:
    """Edges and Advantage on the hit roll: braced +2, overwatch snap shot -2, +1 per Advantage point."""
    edges = setup.rules.edges
    mods: list[Modifier] = []
    if setup.attacker.braced:
        mods.append(Modifier("braced", edges.braced))
    if setup.overwatch_shot:
        mods.append(Modifier("overwatch snap shot", edges.overwatch))
    if setup.advantage:
        mods.append(Modifier(f"Advantage x{setup.advantage}", setup.advantage))
    return tuple(mods)


def hit_die(setup: AttackSetup) -> int:
    """Sides of the hit die (d10, or d6 without the skill)."""
    _, _, _, skill = hit_stat_and_skill(setup.attacker.unit_type, setup.weapon)
    return die_for(skill, setup.rules.check)


def hit_label(setup: AttackSetup) -> str:
    kind = "guard counter" if setup.counter else "overwatch" if setup.overwatch_shot else "hit"
    return f"{kind}: {setup.attacker.name} {setup.weapon.name} vs {setup.target.name}"


def hit_check(setup: AttackSetup, ac: ACBreakdown, die: int) -> CheckResult:
    """The hit roll as a check against the AC, for a given die value."""
    stat_name, stat, skill_name, skill = hit_stat_and_skill(setup.attacker.unit_type, setup.weapon)
    return CheckResult(hit_label(setup), stat_name, stat, skill_name, skill,
                       die_for(skill, setup.rules.check), die, hit_modifiers(setup), ac.total)


def hits_scored(check: CheckResult, rules: RulesData) -> int:
    """0 on a miss; otherwise 1 + one more per full threshold (5) over the AC."""
    return 1 + check.bonuses(rules.check.threshold) if check.success else 0


# --------------------------------------------------------------------------- damage and defences

def damage_needs(fp: int, dur: int, rules: RulesData) -> int:
    """The d10 score a damage roll needs: the first row of the damage table that matches FP vs DUR."""
    for row in rules.damage_table:
        if row.when == "fp_at_least_double":
            match = fp >= 2 * dur
        elif row.when == "fp_greater":
            match = fp > dur
        elif row.when == "fp_equal":
            match = fp == dur
        elif row.when == "fp_less":
            match = fp < dur
        else:  # fp_at_most_half
            match = 2 * fp <= dur
        if match:
            return row.needs
    raise ValueError(f"the damage table has no row for firepower {fp} against durability {dur}")


@dataclass(frozen=True)
class DefenceRoll:
    """One defence d10 the target rolls against each damage: succeeds on `target` or more."""

    label: str
    target: int
    effect: Literal["negate", "reduce"]
    names: tuple[str, ...]


def target_defences(setup: AttackSetup) -> tuple[Defence, ...]:
    """The defences the target rolls: its own, plus the cover save of the terrain it stands in
    (design §5.4: a cumulative cover save from fortifications), which does not count against melee."""
    own = setup.target.unit_type.defences
    if setup.weapon.melee:
        return own
    name = setup.board.terrain.get(setup.target.hex)
    terrain = setup.rules.terrain.get(name) if name is not None else None
    if name is None or terrain is None or terrain.cover_save is None:
        return own
    save = Defence(name=f"cover save ({name.replace('_', ' ')})", kind="cover", target=terrain.cover_save,
                   effect="negate", cumulative=True)
    return (*own, save)


def _usable(weapon: Weapon, d: Defence) -> tuple[bool, str]:
    if "armour_piercing" in weapon.traits and d.kind == "armour":
        return False, f"{d.name} ignored (armour piercing)"
    if "ignores_cover" in weapon.traits and d.kind == "cover":
        return False, f"{d.name} ignored (ignores cover)"
    return True, ""


def _effect(weapon: Weapon, d: Defence) -> Literal["negate", "reduce"]:
    if "energy" in weapon.traits and d.kind == "shield" and d.effect == "negate":
        return "reduce"
    return d.effect


def defence_notes(weapon: Weapon, defences: tuple[Defence, ...]) -> tuple[str, ...]:
    """Why some of the target's defences do not count, or count less, against this weapon."""
    notes: list[str] = []
    for d in defences:
        ok, why = _usable(weapon, d)
        if not ok:
            notes.append(why)
        elif _effect(weapon, d) != d.effect:
            notes.append(f"{d.name} only reduces (energy weapon)")
    return tuple(notes)


def defence_rolls(weapon: Weapon, defences: tuple[Defence, ...]) -> tuple[DefenceRoll, ...]:
    """The defence rolls the target makes against each damage from `weapon`, in order.

    Weapon traits first switch defences off (armour_piercing: armour; ignores_cover: cover) or turn
    a shield's negate into reduce (energy). The cumulative defences left merge into ONE roll, made
    first: the best (lowest) target, 1 lower for each other cumulative defence; it negates if any of
    them negates. The separate defences follow in the unit's list order, until one succeeds.
    """
    usable = [d for d in defences if _usable(weapon, d)[0]]
    cumulative = [d for d in usable if d.cumulative]
    rolls: list[DefenceRoll] = []
    if cumulative:
        best = min(d.target for d in cumulative)
        effects = {_effect(weapon, d) for d in cumulative}
        names = tuple(d.name for d in cumulative)
        rolls.append(DefenceRoll(" + ".join(names), best - (len(cumulative) - 1),
                                 "negate" if "negate" in effects else "reduce", names))
    for d in usable:
        if not d.cumulative:
            rolls.append(DefenceRoll(d.name, d.target, _effect(weapon, d), (d.name,)))
    return tuple(rolls)


# --------------------------------------------------------------------------- casualties

def fp_excess(weapon: Weapon, target: UnitType) -> int:
    return max(0, weapon.fp - target.durability)


def casualty_parts(target: UnitType, strength_left: int, excess: int, reduced: bool,
                   rules: RulesData, advantage: int = 0) -> tuple[Modifier, ...]:
    """What is added to the casualty die: morale, strength left after the point, -(FP - DUR),
    +3 if reduced, +1 per Advantage point the target spends on this roll."""
    parts = [Modifier("morale", target.morale), Modifier("strength left", strength_left)]
    if excess:
        parts.append(Modifier("firepower over durability", -excess))
    if reduced:
        parts.append(Modifier("damage reduced", rules.casualty.reduced_bonus))
    if advantage:
        parts.append(Modifier(f"Advantage x{advantage}", advantage))
    return tuple(parts)


def casualty_advantage_on(setup: AttackSetup, roll_index: int) -> int:
    """Advantage the target spends on its casualty roll number `roll_index` (0 = the first) of this attack."""
    adv = setup.casualty_advantage
    return adv[roll_index] if 0 <= roll_index < len(adv) else 0


def casualty_state(total: int, rules: RulesData) -> UnitState:
    """The first row of the casualty table whose minimum the total reaches (annihilated below all)."""
    for row in rules.casualty.table:
        if total >= row.min_total:
            return row.result
    return "annihilated"


def casualty_steady_target(rules: RulesData) -> int:
    """The total a casualty roll needs to leave the unit steady (shown as the roll's target)."""
    steady = [row.min_total for row in rules.casualty.table if row.result == "steady"]
    return min(steady) if steady else max(row.min_total for row in rules.casualty.table)


def final_result(hit: bool, strength_lost: int, strength_after: int, worst: UnitState | None) -> Result:
    """What the attack did to the target.

    no_hit: the hit roll failed. no_effect: it hit, but every damage failed or was negated.
    Otherwise the worst casualty roll, except that a unit left at 0 strength is destroyed
    (annihilated if one of its casualty rolls said so).
    """
    if not hit:
        return "no_hit"
    if strength_lost == 0 or worst is None:
        return "no_effect"
    if strength_after <= 0:
        return "annihilated" if worst == "annihilated" else "destroyed"
    return worst


def worse(a: UnitState | None, b: UnitState) -> UnitState:
    return b if a is None or STATES.index(b) > STATES.index(a) else a


# --------------------------------------------------------------------------- resolution

def resolve_attack(setup: AttackSetup, roller: DieSource, ac: ACBreakdown | None = None) -> AttackResult:
    """Roll one attack (see the module docstring for the dice order). Raises AttackImpossible.

    `ac` may pass in `accuracy_challenge(setup)` already computed (Monte Carlo runs do).
    """
    rules, weapon, tgt = setup.rules, setup.weapon, setup.target
    if ac is None:
        ac = require_ac(setup)
    dice: list[DieRecord] = []

    # 1. hit
    sides = hit_die(setup)
    label = hit_label(setup)
    check = hit_check(setup, ac, roller(sides, label))
    hits = hits_scored(check, rules)
    hit_parts = (Modifier(check.stat_name, check.stat), Modifier(check.skill_name, check.skill),
                 *check.modifiers)
    dice.append(DieRecord("hit", label, sides, check.die, hit_parts, ac.total, check.success,
                          f"{hits} hit{'s' if hits != 1 else ''}" if hits else "miss"))

    # 2. damage
    needs = damage_needs(weapon.fp, tgt.unit_type.durability, rules)
    damage_rolls: list[DieRecord] = []
    for i in range(hits):
        lab = f"damage {i + 1}/{hits}: FP {weapon.fp} vs DUR {tgt.unit_type.durability}"
        v = roller(DAMAGE_DIE, lab)
        damage_rolls.append(DieRecord("damage", lab, DAMAGE_DIE, v, (), needs, v >= needs,
                                      "damage" if v >= needs else "no damage"))
    dice.extend(damage_rolls)

    # 3. defences
    plan = defence_rolls(weapon, target_defences(setup))
    damages: list[DamageEffect] = []
    defence_records: list[DieRecord] = []
    for i, dmg in enumerate(damage_rolls):
        if not dmg.success:
            damages.append("failed")
            continue
        effect: DamageEffect = "full"
        for roll in plan:
            lab = f"defence vs damage {i + 1}: {roll.label}"
            v = roller(DEFENCE_DIE, lab)
            ok = v >= roll.target
            outcome = ("negated" if roll.effect == "negate" else "reduced") if ok else "failed"
            defence_records.append(DieRecord("defence", lab, DEFENCE_DIE, v, (), roll.target, ok, outcome))
            if ok:
                effect = "negated" if roll.effect == "negate" else "reduced"
                break
        damages.append(effect)
    dice.extend(defence_records)

    # 4. strength and casualties
    strength = tgt.strength
    excess = fp_excess(weapon, tgt.unit_type)
    steady_at = casualty_steady_target(rules)
    casualty_records: list[DieRecord] = []
    worst: UnitState | None = None
    cas_die = rules.casualty.die
    spent = 0
    for i, eff in enumerate(damages):
        if eff not in ("reduced", "full"):
            continue
        for _ in range(min(weapon.damage, strength)):
            adv = casualty_advantage_on(setup, len(casualty_records))
            spent += adv
            strength -= 1
            parts = casualty_parts(tgt.unit_type, strength, excess, eff == "reduced", rules, adv)
            lab = f"casualty: {tgt.name} down to strength {strength} (damage {i + 1})"
            v = roller(cas_die, lab)
            state = casualty_state(v + sum(p.value for p in parts), rules)
            worst = worse(worst, state)
            casualty_records.append(DieRecord("casualty", lab, cas_die, v, parts, steady_at,
                                              v + sum(p.value for p in parts) >= steady_at, state))
    dice.extend(casualty_records)
    lost = tgt.strength - strength
    return AttackResult(
        ac=ac, hit=check, hits=hits, damage_rolls=tuple(damage_rolls),
        defence_rolls=tuple(defence_records), damages=tuple(damages), strength_before=tgt.strength,
        strength_lost=lost, casualty_rolls=tuple(casualty_records), worst=worst,
        result=final_result(check.success, lost, strength, worst), dice=tuple(dice),
        casualty_advantage_spent=spent,
    )
