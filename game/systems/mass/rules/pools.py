"""Which dice each roll of the battle uses. One place, shared by the rolls (`engine`) and the odds
(`odds`), so the odds shown before a roll are the odds of the roll that is made."""

from __future__ import annotations

from dataclasses import dataclass

from game.core.rollkeep import Pool, skill_pool
from game.systems.mass.rules.models import MassRules, PoolMod
from game.systems.mass.rules.state import ForceState, MassState, Person


@dataclass(frozen=True)
class Entry:
    """One roller of a contest: force, person, pool, Raise cap, and the modifiers in words."""

    force: str
    person: str
    pool: Pool
    cap: int
    notes: tuple[str, ...] = ()


def level_index(rules: MassRules, person: Person) -> int:
    """Index of the person's wound level; len(levels) means dead."""
    earth = person.stats.rings.earth
    limit = 0
    for i, lvl in enumerate(rules.wound_levels):
        limit += lvl.earth_times * earth
        if person.wounds <= limit:
            return i
    return len(rules.wound_levels)


def level_name(rules: MassRules, person: Person) -> str:
    i = level_index(rules, person)
    return rules.wound_levels[i].name if i < len(rules.wound_levels) else "Dead"


def is_out(rules: MassRules, person: Person) -> bool:
    names = [w.name for w in rules.wound_levels]
    return level_index(rules, person) >= names.index(rules.down_level)


def can_fight(rules: MassRules, person: Person) -> bool:
    return not person.fled and not is_out(rules, person)


def size(rules: MassRules, force: ForceState) -> int:
    people = sum(1 for p in force.people.values() if can_fight(rules, p))
    return people + sum(d.count for d in force.brutes)


def raise_cap(rules: MassRules, person: Person) -> int:
    return person.stats.rings.rank(rules.raise_cap_ring)


def _skill(person: Person, skill: str, trait: str, add_r: int = 0, add_k: int = 0) -> Pool:
    return skill_pool(person.stats.skill(skill), person.stats.trait(trait), add_rolled=add_r, add_kept=add_k)


WAY_ROLL: dict[str, tuple[str, str]] = {
    "heaven": ("divination", "awareness"), "honor": ("politics", "awareness"),
    "glory": ("oratory", "awareness"), "strategy": ("battle", "water")}


def effective_status(s: MassState, f: ForceState) -> float:
    if f.granted_status is not None:
        return f.granted_status
    if f.commander is None:
        return 0.0
    return f.people[f.commander].stats.status


def honor_eligible(s: MassState) -> list[str]:
    field = [f for f in s.in_field() if f.commander is not None]
    out = []
    for f in field:
        others = [effective_status(s, o) for o in field if o.id != f.id]
        if not others or effective_status(s, f) >= max(others):
            out.append(f.id)
    return out


def size_ratio(s: MassState, f: ForceState) -> int:
    """X of the +XkX strength bonus: this force's size over the next largest, rounded down,
    when this force is the largest and X reaches the rules' minimum (else 0)."""
    mine = size(s.rules, f)
    others = [size(s.rules, o) for o in s.in_field() if o.id != f.id]
    if not others:
        return 0
    nxt = max(others)
    if nxt <= 0 or mine <= nxt:
        return 0
    x = mine // nxt
    return x if x >= s.rules.size_ratio_min else 0


def strategy_entry(s: MassState, f: ForceState) -> Entry:
    assert f.commander is not None
    cmd = f.people[f.commander]
    r = k = 0
    notes: list[str] = []
    rules = s.rules

    def add(mod: PoolMod, why: str) -> None:
        nonlocal r, k
        r += mod.rolled
        k += mod.kept
        notes.append(f"{mod.text()} {why}")

    if f.lost_last_battle:
        add(rules.morale_lost_battle, "most of the force lost its previous battle")
    if f.last_wave == "lost":
        add(rules.morale_lost_wave, "lost the previous Wave")
    elif f.last_wave == "won":
        add(rules.morale_won_wave, "won the previous Wave")
    x = size_ratio(s, f)
    if x:
        add(PoolMod(rolled=x, kept=x), f"size {x} to 1 over the next largest force")
    if f.strategy_bonus != [0, 0]:
        add(PoolMod(rolled=f.strategy_bonus[0], kept=f.strategy_bonus[1]), "a spell")
    return Entry(f.id, cmd.id, _skill(cmd, "battle", "water", r, k), raise_cap(rules, cmd), tuple(notes))


def way_entries(s: MassState, way: str) -> list[Entry]:
    out: list[Entry] = []
    if way == "strategy":
        return [strategy_entry(s, f) for f in s.in_field() if f.commander is not None]
    skill, trait = WAY_ROLL[way]
    eligible = honor_eligible(s) if way == "honor" else None
    for f in s.in_field():
        if f.commander is None or (eligible is not None and f.id not in eligible):
            continue
        if way == "glory":
            who = f.commander
        else:
            who = s.appointments.get(f.id, {}).get(way) or f.commander
        if who not in f.people or not can_fight(s.rules, f.people[who]):
            who = f.commander
        p = f.people[who]
        out.append(Entry(f.id, p.id, _skill(p, skill, trait), raise_cap(s.rules, p)))
    return out


DUEL_ROLL: dict[str, tuple[str, str]] = {
    "skirmish": ("kenjutsu", "agility"), "iaijutsu": ("iaijutsu", "reflexes"), "taryu": ("spellcraft", "void")}


def duel_entry(s: MassState, person_id: str, style: str) -> Entry:
    f = s.force_of(person_id)
    assert f is not None
    p = f.people[person_id]
    skill, trait = DUEL_ROLL[style]
    r = k = 0
    notes = []
    if p.deadly:
        r, k = s.rules.deadly_combat.rolled, s.rules.deadly_combat.kept
        notes.append(f"{s.rules.deadly_combat.text()} Deadly Ground")
    return Entry(f.id, p.id, _skill(p, skill, trait, r, k), raise_cap(s.rules, p), tuple(notes))


def rally_entry(s: MassState, f: ForceState) -> tuple[Entry, int]:
    assert f.commander is not None
    p = f.people[f.commander]
    others = [o.total() for o in s.in_field() if o.id != f.id]
    tn = s.rules.rally_tn_per_advantage * (max(others) if others else 0)
    return Entry(f.id, p.id, _skill(p, "oratory", "awareness"), raise_cap(s.rules, p)), tn


def plain_entry(s: MassState, f: ForceState, skill: str, trait: str) -> Entry:
    assert f.commander is not None
    p = f.people[f.commander]
    return Entry(f.id, p.id, _skill(p, skill, trait), raise_cap(s.rules, p))


def pool_from(mods: list[tuple[int, int]], explode: bool) -> Pool | None:
    r = sum(m[0] for m in mods)
    k = sum(m[1] for m in mods)
    if r <= 0 or k <= 0:
        return None
    return Pool.of(r, k, explode=explode)


@dataclass(frozen=True)
class WoundRoll:
    """One end-of-Wave Wounds roll: for a person, or twice for a Brute division."""

    force: str
    who: str            # person id, or "brutes:<armour>"
    label: str
    pool: Pool | None   # None: the pool is at or below 0k0, no Wounds
    count: int = 0      # head count for Brutes
    carapace: int = 0   # taken off the roll's total, not below 0 (§7.2)


def wound_rolls(s: MassState, f: ForceState) -> list[WoundRoll]:
    rules = s.rules
    base = (rules.wounds_pool.rolled, rules.wounds_pool.kept)
    force_mods = [(m.rolled, m.kept) for m in f.wound_mods]
    out: list[WoundRoll] = []
    for d in f.brutes:
        if d.count <= 0:
            continue
        a = rules.armour[d.armour]
        pool = pool_from([base, (a.rolled, a.kept), *force_mods], rules.wounds_explode)
        out.append(WoundRoll(f.id, f"brutes:{d.armour}", f"{d.count} Brutes ({d.armour} armour)", pool, d.count,
                             d.carapace))
    for p in f.people.values():
        # individuals who fled in an earlier Wave are gone; those who fled this Wave still bleed
        if not p.tracked or is_out(rules, p) or (p.fled and p.fled_wave != s.wave):
            continue
        if p.traversable:
            t = rules.traversable_pool
            pool = pool_from([(t.rolled, t.kept)], rules.wounds_explode)
        else:
            a = rules.armour[p.stats.armour]
            mods = [base, (a.rolled, a.kept), *force_mods]
            if p.deadly and not p.deadly_relieved:
                mods.append((rules.deadly_wounds.rolled, rules.deadly_wounds.kept))
            pool = pool_from(mods, rules.wounds_explode)
        out.append(WoundRoll(f.id, p.id, p.name, pool, carapace=p.stats.carapace))
    return out

