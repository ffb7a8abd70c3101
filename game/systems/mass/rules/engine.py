"""Applying commands to a mass battle: the Tao of War, Waves and Phases, Battle Actions,
casualties, commanders, the end and the ledger (docs/mass-battle.md, rule by rule).

`apply(state, command)` copies the state, runs one handler on the copy and returns
Accepted(new state, events) or Rejection(reason); a handler raises Reject before anything is
returned, so a refused command never changes a state.

The flow (one Wave after another):

    appoint (sealed, prepared battles, Wave 1) -> heaven -> honor -> glory -> strategy
    -> initiative (action dice) -> phases 1..10 (Battle Actions; a duel waits for its answer)
    -> casualties -> commander (if one was lost) -> next Wave's strategy, or ended
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from game.core.dice import Rng
from game.core.kernel import Accepted, Outcome, Reject, Txn, dispatch
from game.core.roller import Roller
from game.core.rollkeep import Pool, RolledPool, distribution, percentile, raises_of, roll_pool
from game.core.system import counted, possessive
from game.systems.mass.rules import commands as c
from game.systems.mass.rules.commands import Happened, Rolled
from game.systems.mass.rules.models import (
    ADVANTAGE_KEYS,
    ALLIES_READING,
    Division,
    MassRules,
    MassSetup,
    PoolMod,
)
from game.systems.mass.rules.pools import (
    Entry,
    can_fight,
    duel_entry,
    level_name,
    plain_entry,
    rally_entry,
    size,
    way_entries,
    wound_rolls,
)
from game.systems.mass.rules.state import (
    ForceState,
    LedgerEntry,
    MassState,
    PendingDuel,
    Person,
    Stage,
    WoundMod,
)

WAY_TITLE = {"heaven": "Heaven", "honor": "Honor", "glory": "Glory", "strategy": "Strategy"}
PRE_CASUALTY = ("appoint", "heaven", "honor", "glory", "strategy", "initiative", "phases")
MAX_REROLLS = 100
_NEXT_WAY: dict[str, Stage] = {"heaven": "honor", "honor": "glory", "glory": "strategy"}


# --------------------------------------------------------------------------- set-up

def initial_state(setup: MassSetup, seed: int) -> MassState:
    forces: dict[str, ForceState] = {}
    for fs in setup.forces:
        people = {i.id: Person(stats=i, wounds=i.wounds, void_left=i.max_void_points,
                               tracked=i.id == fs.commander or "pc" in i.tags)
                  for i in fs.individuals}
        head = len(fs.individuals) + sum(d.count for d in fs.brutes)
        last = fs.morale[-1] if fs.morale else None
        lost = last is not None and last.result == "lost" and 2 * last.veterans > head
        forces[fs.id] = ForceState(
            id=fs.id, name=fs.name, commander=fs.commander, led_by=fs.commander, people=people,
            brutes=[Division(armour=d.armour, count=d.count, carapace=d.carapace) for d in fs.brutes],
            leader=fs.leader if fs.leader != fs.commander else "",
            lost_last_battle=lost, granted_status=fs.granted_status,
            morale=[m.model_dump() for m in fs.morale])
    return MassState(setup=setup, rng=Rng.from_seed(seed).state, forces=forces, readings=setup.rules.readings,
                     order=[f.id for f in setup.forces],
                     stage="appoint" if setup.prepared else "strategy")


# --------------------------------------------------------------------------- the context of one command

class MassTxn(Txn[MassState, Any]):
    """The kernel's transaction for a mass battle: handlers change `s`, a private copy of the
    state (so they may change it in place), note what happened and roll pools."""

    @property
    def s(self) -> MassState:
        return self.state

    def note(self, what: str, text: str, force: str | None = None, **data: Any) -> None:
        self.emit(Happened(what=what, text=text, force=force, data=data))

    def roll_pool(self, who: str, force: str, purpose: str, pool: Pool, tn: int | None = None) -> RolledPool:
        """Roll `pool` with the core roller and emit its `Rolled` (dice, kept, total, luck)."""
        r = roll_pool(self.roller, pool, purpose)
        luck = percentile(distribution(pool), r.total) if pool.rolled else 0.5
        self.emit(Rolled(
            who=who, force=force, purpose=purpose, pool=pool.text(), conversion=pool.conversion(),
            explode=pool.explode, chains=r.chains, kept=r.kept_index, total=r.total, dice=r.faces,
            forced=r.forced, luck=round(luck, 6), tn=tn))
        return r

    def finish(self) -> Accepted[MassState, Any]:
        """After every accepted handler: the battle runs on to the next decision; the dice drawn
        are written back into the state (generator and forced values left)."""
        _fall_through(self)
        self.s.rng = self.roller.rng_state
        self.s.forced = list(self.roller.forced_left)
        return self.accepted()


def _copy(state: MassState) -> MassState:
    return state.model_copy(update={
        "forces": {k: v.model_copy(deep=True) for k, v in state.forces.items()},
        "forced": list(state.forced), "order": list(state.order),
        "appointments": {k: dict(v) for k, v in state.appointments.items()},
        "leaders": list(state.leaders), "ledger": list(state.ledger), "facts": list(state.facts),
        "only_strategy": list(state.only_strategy)})


def apply(state: MassState, command: Any) -> Outcome:
    """Apply one command through the core kernel; a refused one returns a Rejection."""

    def begin() -> MassTxn:
        s = _copy(state)
        return MassTxn(s, Roller(s.rng, s.forced))

    return dispatch(_HANDLERS, command, begin=begin, finish=MassTxn.finish, guard=_not_over,
                    unknown=lambda cmd: f"the mass battle has no command {getattr(cmd, 'kind', cmd)!r}")


def _not_over(txn: MassTxn, kind: str) -> None:
    if txn.s.stage == "ended" and not kind.startswith("gm_"):
        raise Reject("the battle is over")


# --------------------------------------------------------------------------- helpers

def _force(s: MassState, fid: str | None, *, field_only: bool = True) -> ForceState:
    if fid is None or fid not in s.forces:
        raise Reject(f"there is no force {fid!r} in this battle")
    f = s.forces[fid]
    if field_only and not f.in_field:
        raise Reject(f"{s.says(f.id, 'is')} no longer on the field ({f.status})")
    return f


def _name(s: MassState, pid: str) -> str:
    f = s.force_of(pid)
    return f.people[pid].name if f else pid


def to_move(s: MassState) -> list[str]:
    if s.stage == "ended":
        return []
    field_ids = [f.id for f in s.in_field()]
    if s.stage == "appoint":
        return [i for i in field_ids if i not in s.appointments]
    if s.stage == "phases":
        actor = phase_actor(s)
        return [actor.id] if actor else []
    if s.stage == "duel_answer":
        return [s.duel.target_force] if s.duel else []
    if s.stage == "commander":
        return [f.id for f in s.in_field() if f.needs_commander][:1]
    return field_ids[:1]


def _must_move(s: MassState, fid: str) -> ForceState:
    f = _force(s, fid)
    if fid not in to_move(s):
        waiting = ", ".join(s.forces[i].name for i in to_move(s)) or "nobody"
        raise Reject(f"it is not {possessive(f.name)} decision now (waiting for {waiting})")
    return f


def _stage(s: MassState, *stages: str) -> None:
    if s.stage not in stages:
        raise Reject(f"that is not done now: the battle is at {s.stage.replace('_', ' ')} "
                     f"(Wave {s.wave}{', Phase ' + str(s.phase) if s.stage == 'phases' else ''})")


def _ledger(ctx: MassTxn, f: ForceState, p: Person, act: str, why: str, times: int = 1) -> None:
    if act == "virtue" and p.traversable:  # §7.4: on Traversable Ground it gains nothing this Wave
        ctx.note("ledger", f"{p.name}: on Traversable Ground, no Glory for {why} this Wave", f.id, person=p.id)
        return
    pts = ctx.s.rules.ledger.virtue if act == "virtue" else -ctx.s.rules.ledger.vice
    entry = LedgerEntry(person=p.id, force=f.id, act="virtue" if act == "virtue" else "vice", why=why,
                        glory=pts * times)
    ctx.s.ledger.append(entry)
    ctx.note("ledger", f"{p.name}: Act of {act.title()} ({why}), Glory {entry.glory:+d}", f.id,
             person=p.id, act=act, glory=entry.glory)


def _lose_commander(ctx: MassTxn, f: ForceState, why: str) -> None:
    if f.commander is None:
        return
    name = f.people[f.commander].name
    for k in f.advantage:
        f.advantage[k] = 0
    f.commander = None
    f.needs_commander = True
    f.dice = []
    f.extra_actions = 0
    its = ctx.s.agrees(f.id, "its")
    ctx.note("commander_lost", f"{ctx.s.says(f.id, 'loses')} {its} commander {name} ({why}) and with them all {its} Advantage",
             f.id)


def _check_commander(ctx: MassTxn, f: ForceState) -> None:
    if f.commander is not None and not can_fight(ctx.s.rules, f.people[f.commander]):
        p = f.people[f.commander]
        _lose_commander(ctx, f, "fled" if p.fled else level_name(ctx.s.rules, p))


def _wound(ctx: MassTxn, f: ForceState, p: Person, amount: int, why: str) -> None:
    before = level_name(ctx.s.rules, p)
    p.wounds += max(0, amount)
    after = level_name(ctx.s.rules, p)
    ctx.note("wounds", f"{p.name} takes {amount} Wounds ({why}): {before} -> {after}", f.id,
             person=p.id, wounds=amount, level=after)
    _check_commander(ctx, f)


def _contest(ctx: MassTxn, entries: list[Entry], purpose: str) -> tuple[Entry, int, list[int]]:
    """Roll every entry; the highest wins, Raises over the runner-up; a tie for the top re-rolls."""
    for _ in range(MAX_REROLLS):
        totals = [ctx.roll_pool(e.person, e.force, purpose, e.pool).total for e in entries]
        if len(entries) == 1:
            return entries[0], 0, totals
        best = max(totals)
        if totals.count(best) == 1:
            i = totals.index(best)
            runner = max(t for j, t in enumerate(totals) if j != i)
            return entries[i], raises_of(best - runner, entries[i].cap, ctx.s.rules.raise_step), totals
        ctx.note("tie", f"{purpose}: a tie at {best}, rolled again")
    raise Reject(f"{purpose}: tied {MAX_REROLLS} times running (forced dice?)")


# --------------------------------------------------------------------------- the Tao of War

def _appoint(ctx: MassTxn, cmd: c.Appoint) -> None:
    s = ctx.s
    _stage(s, "appoint")
    f = _must_move(s, cmd.force)
    for role, pid in (("Heaven", cmd.heaven), ("Honor", cmd.honor)):
        if pid not in f.people or not can_fight(s.rules, f.people[pid]):
            raise Reject(f"{role}: {pid!r} is not an individual of {f.name} able to take part")
    s.appointments[f.id] = {"heaven": cmd.heaven, "honor": cmd.honor}
    ctx.note("appointed", f"{s.says(f.id, 'has')} chosen who assesses Heaven and Honor (sealed)", f.id)
    if not to_move(s):
        s.stage = "heaven"
        for fid, a in s.appointments.items():
            ctx.note("appointments", f"{s.forces[fid].name}: {_name(s, a['heaven'] or '')} reads Heaven, "
                     f"{_name(s, a['honor'] or '')} argues Honor", fid)


def _roll_way(ctx: MassTxn, cmd: c.RollWay) -> None:
    s = ctx.s
    if cmd.way != "strategy" and (not s.setup.prepared or s.wave > 1):
        raise Reject(f"{WAY_TITLE[cmd.way]} is assessed only before the first Wave of a prepared battle; "
                     f"{'this battle erupted mid-scene, so only' if not s.setup.prepared else 'now only'} "
                     f"Strategy is rolled")
    _stage(s, cmd.way)
    _must_move(s, cmd.force)
    way = cmd.way
    entries = way_entries(s, way)
    title = WAY_TITLE[way]
    if way == "honor":
        shut = [f.name for f in s.in_field() if f.id not in {e.force for e in entries}]
        if shut:
            ctx.note("honor_barred", f"Honor: {', '.join(shut)} may not try (their commander's status is "
                     f"below an opposing commander's)")
    if not entries:
        ctx.note("way_none", f"{title}: nobody can roll")
    elif len(entries) == 1:
        e = entries[0]
        s.forces[e.force].advantage[way] = 1
        ctx.note("way_won", f"{title}: {s.says(e.force, 'is')} unopposed and {s.agrees(e.force, 'gains')} 1 Advantage", e.force,
                 way=way, advantage=1, raises=0)
    else:
        for e in entries:
            if e.notes:
                ctx.note("modifiers", f"{title}: {s.says(e.force, 'rolls')} {e.pool.text()} "
                         f"({'; '.join(e.notes)})", e.force)
        win, raises, _ = _contest(ctx, entries, title)
        gain = 1 + raises
        s.forces[win.force].advantage[way] = gain
        ctx.note("way_won", f"{title}: {s.says(win.force, 'wins')} with {counted(raises, 'Raise', 'Raises')}: "
                 f"+{gain} Advantage", win.force, way=way, advantage=gain, raises=raises)
        if way == "strategy":
            _terrain_bonus(ctx, win.force)
    if way == "strategy":
        for f in s.forces.values():
            f.strategy_bonus = [0, 0]
        s.terrain_next = None
        s.stage = "initiative"
    else:
        s.stage = _NEXT_WAY[way]


def _terrain_bonus(ctx: MassTxn, winner: str) -> None:
    s = ctx.s
    ring = s.rules.terrain_ring[s.setup.terrain]
    if ring is None:
        return
    holder = winner
    if s.terrain_next is not None and s.terrain_next in s.forces and s.forces[s.terrain_next].in_field:
        holder = s.terrain_next
    f = s.forces[holder]
    if f.commander is None:
        return
    bonus = f.people[f.commander].stats.rings.rank(ring)
    f.advantage["terrain"] = bonus
    why = "won the Contentious Ground" if holder != winner else "won Strategy"
    ctx.note("terrain", f"{s.setup.terrain.title()} ground: {f.name} ({why}) {s.agrees(f.id, 'gains')} {s.agrees(f.id, 'its')} commander's "
             f"{ring.title()} ({bonus}) as Advantage", holder, advantage=bonus, ring=ring)


# --------------------------------------------------------------------------- action dice and Phases

def _roll_action_dice(ctx: MassTxn, cmd: c.RollActionDice) -> None:
    s = ctx.s
    _stage(s, "initiative")
    _must_move(s, cmd.force)
    for f in s.in_field():
        if f.commander is None:
            continue
        cmdr = f.people[f.commander]
        pool = Pool.of(cmdr.stats.rings.water, cmdr.stats.rings.water, explode=False)
        r = roll_pool(ctx.roller, pool, "action dice")
        f.dice = sorted(sum(ch) for ch in r.chains)
        ctx.events.append(Rolled(who=cmdr.id, force=f.id, purpose="action dice", pool=f"{pool.rolled}d10",
                                 explode=False, chains=r.chains, kept=tuple(range(len(r.chains))),
                                 total=r.total, dice=r.faces, forced=r.forced))
        ctx.note("action_dice", f"{s.says(f.id, 'acts')} in Phases {', '.join(map(str, f.dice))}", f.id, dice=f.dice)
    s.stage = "phases"
    s.phase = 1
    _new_phase(s)


def _new_phase(s: MassState) -> None:
    for f in s.forces.values():
        f.passed = False
        f.actions_this_phase = 0
        f.extra_actions = 0


def can_act(s: MassState, f: ForceState) -> bool:
    return (f.in_field and f.commander is not None and not f.passed
            and (f.extra_actions > 0 or any(d <= s.phase for d in f.dice)))


def phase_actor(s: MassState) -> ForceState | None:
    """Within a Phase the forces take one action at a time, the one with more Advantage first."""
    cands = [f for f in s.in_field() if can_act(s, f)]
    if not cands:
        return None
    return min(cands, key=lambda f: (f.actions_this_phase, -f.total(), s.order.index(f.id)))


def _fall_through(ctx: MassTxn) -> None:
    """Move the flow on when nobody has a decision left at this point."""
    s = ctx.s
    if s.stage in (*PRE_CASUALTY, "duel_answer") and len(s.in_field()) < 2:
        s.duel = None
        ctx.note("field_empty", "fewer than two forces remain on the field: the Wave ends")
        s.stage = "casualties"
        return
    while s.stage == "phases" and phase_actor(s) is None:
        if s.phase >= 10:
            for f in s.forces.values():
                f.dice = []
            s.stage = "casualties"
            ctx.note("phases_done", f"Wave {s.wave}: Phase 10 is over; casualties")
            return
        s.phase += 1
        _new_phase(s)


def _hold(ctx: MassTxn, cmd: c.Hold) -> None:
    s = ctx.s
    _stage(s, "phases")
    f = _must_move(s, cmd.force)
    f.passed = True
    left = [d for d in f.dice if d <= s.phase]
    ctx.note("hold", f"{s.says(f.id, 'holds')} {counted(len(left), 'action die', 'action dice')} past Phase {s.phase}" if left
             else f"{s.says(f.id, 'takes')} no more actions in Phase {s.phase}", f.id)


# --------------------------------------------------------------------------- Battle Actions

def _person_in(s: MassState, f: ForceState, pid: str | None, what: str) -> Person:
    if pid is None or pid not in f.people:
        raise Reject(f"{what}: choose an individual of {f.name}")
    p = f.people[pid]
    if not can_fight(s.rules, p):
        raise Reject(f"{p.name} is out of the battle ({'fled' if p.fled else level_name(s.rules, p)})")
    if p.traversable:
        raise Reject(f"{p.name} is on Traversable Ground and cannot be targeted this Wave")
    return p


def _other_force(s: MassState, f: ForceState, fid: str | None, what: str) -> ForceState:
    if fid is None or fid == f.id:
        raise Reject(f"{what} targets another force")
    return _force(s, fid)


def _action(ctx: MassTxn, cmd: c.BattleAction) -> None:
    s = ctx.s
    _stage(s, "phases")
    if cmd.void:
        f = _force(s, cmd.force)
        actor = _person_in(s, f, cmd.actor, "a Void-point action")
        if cmd.action not in c.VOID_ACTIONS:
            raise Reject(f"{cmd.action.replace('_', ' ')} is not an action an individual takes alone "
                         f"(alone, an individual may only target themselves)")
        if actor.void_used:
            raise Reject(f"{actor.name} has already acted alone this Wave")
        if actor.void_left <= 0:
            raise Reject(f"{actor.name} has no Void points left")
        for given in (cmd.target,):
            if given is not None and given != actor.id:
                raise Reject(f"alone, {actor.name} can only target themselves")
    else:
        f = _must_move(s, cmd.force)
        if f.commander is None:
            raise Reject(f"{s.says(f.id, 'has')} no commander to give orders")
        actor = f.people[f.commander]
    targets, persons = _targets(s, f, actor, cmd)
    if not cmd.void and s.setup.terrain != "accessible":
        again = [t for t in targets if t in f.targeted]
        if again:
            raise Reject(f"{possessive(f.name)} commander has already targeted "
                         f"{', '.join(_target_name(s, t) for t in again)} this Wave (once each, except on "
                         f"Accessible ground)")
    for p in persons:
        if p.deadly:  # targeted again: no longer stranded on Deadly Ground
            p.deadly_relieved = True
    # take the action die (or the Focal Ground extra action) before the effect
    if cmd.void:
        actor.void_used = True
        actor.void_left -= 1
        actor.tracked = True
        ctx.note("void", f"{actor.name} spends a Void point to act alone", f.id, person=actor.id)
    else:
        # (§7.1: a commander ordering any Battle Action uses one, as a Void-point action does)
        f.targeted.extend(t for t in targets if t not in f.targeted)
        f.actions_this_phase += 1
        if f.extra_actions > 0:
            f.extra_actions -= 1
        else:
            usable = [d for d in f.dice if d <= s.phase]
            f.dice.remove(min(usable))
    if actor.deadly and (cmd.void or s.rules.readings >= 2):  # §7.1: using a Battle Action spares it
        actor.deadly_relieved = True
    ctx.note("action", f"Phase {s.phase}: {actor.name} ({f.name}): {_ACTION_TITLE[cmd.action]}"
             + (f" on {', '.join(_target_name(s, t) for t in targets)}" if targets else ""), f.id,
             action=cmd.action, targets=list(targets), void=cmd.void)
    if cmd.action not in ("traversable_ground", "flee"):
        for p in persons:
            p.tracked = True
            pf = s.force_of(p.id)
            assert pf is not None
            _ledger(ctx, pf, p, "virtue", f"targeted by {_ACTION_TITLE[cmd.action]}")
    _EFFECTS[cmd.action](ctx, f, actor, cmd)


def _target_name(s: MassState, t: str) -> str:
    return s.forces[t].name if t in s.forces else _name(s, t)


def _targets(s: MassState, f: ForceState, actor: Person, cmd: c.BattleAction) -> tuple[list[str], list[Person]]:
    """The ids targeted (individuals and forces) and the individuals among them, checked."""
    a = cmd.action
    if a in ("bonus_effects",):
        return [actor.id], [actor]
    if a == "duel":
        own = actor if cmd.void else _person_in(s, f, cmd.target, "Duel")
        if cmd.enemy is None:
            raise Reject("Duel: choose an individual of another force to challenge")
        ef = s.force_of(cmd.enemy)
        if ef is None or ef.id == f.id:
            raise Reject("Duel: the opponent must be an individual of another force")
        if not ef.in_field:
            raise Reject(f"Duel: {s.says(ef.id, 'has')} left the field")
        enemy = _person_in(s, ef, cmd.enemy, "Duel")
        return [own.id, enemy.id], [own, enemy]
    if a == "flee":
        if cmd.void or cmd.target is not None:
            who = actor if cmd.void else _person_in(s, f, cmd.target, "Flee")
            if not cmd.void and who.id != actor.id:
                raise Reject("Flee: a commander orders only themselves or the whole force to flee")
            return [who.id], [who]
        if cmd.target_force not in (None, f.id):
            raise Reject("Flee: only your own force can be ordered to flee")
        return [f.id], []
    if a in ("rallying_cry", "entrapping_ground", "light_ground"):
        return [f.id], []
    if a == "spell":
        caster = actor if cmd.void else _person_in(s, f, cmd.target, "Spell")
        if not caster.stats.magic:
            raise Reject(f"Spell: {caster.name} cannot work magic (a shugenja or monk can)")
        if cmd.option not in ("strategy", "wounds", "shield"):
            raise Reject("Spell: choose its effect: strategy (+1k1 next Strategy roll), wounds (+1k1 Wounds "
                         "to another force) or shield (-1k1 own Wounds)")
        if cmd.option == "wounds":
            _other_force(s, f, cmd.target_force, "a Wounds spell")
        return [caster.id], [caster]
    if a in ("deadly_ground", "traversable_ground"):
        p = actor if cmd.void else _person_in(s, f, cmd.target, _ACTION_TITLE[a])
        return [p.id], [p]
    if a == "contentious_ground":
        if s.setup.terrain == "accessible" or s.rules.terrain_ring[s.setup.terrain] is None:
            raise Reject("Contentious Ground: this ground gives no terrain bonus to take")
        o = _other_force(s, f, cmd.target_force, "Contentious Ground")
        if o.advantage.get("terrain", 0) <= 0:
            raise Reject(f"Contentious Ground: {s.says(o.id, 'does')} not hold the terrain bonus")
        if o.commander is None:
            raise Reject(f"Contentious Ground: {s.says(o.id, 'has')} no commander to oppose the roll")
        return [o.id], []
    if a in ("dispersive_ground", "encircled_ground", "focal_ground"):
        o = _other_force(s, f, cmd.target_force, _ACTION_TITLE[a])
        return [o.id], []
    if a == "heavy_ground":
        o = _other_force(s, f, cmd.target_force, "Heavy Ground")
        return [f.id, o.id], []
    raise Reject(f"unknown Battle Action {a!r}")


def _mod(f: ForceState, mod: PoolMod, why: str) -> None:
    f.wound_mods.append(WoundMod(rolled=mod.rolled, kept=mod.kept, why=why))


def _e_bonus(ctx: MassTxn, f: ForceState, actor: Person, cmd: c.BattleAction) -> None:
    limit = actor.stats.rings.void
    facts = [x.strip() for x in cmd.facts if x.strip()]
    if len(facts) > limit:
        raise Reject(f"Bonus Effects: {actor.name} may establish at most {counted(limit, 'fact', 'facts')} (Void {limit})")
    for x in facts:
        ctx.s.facts.append(f"Wave {ctx.s.wave}, {actor.name}: {x}")
    ctx.note("facts", f"{actor.name} establishes {len(facts)} of {counted(limit, 'fact', 'facts')} for the GM"
             + (": " + "; ".join(facts) if facts else ""), f.id, facts=facts)


def _e_duel(ctx: MassTxn, f: ForceState, actor: Person, cmd: c.BattleAction) -> None:
    s = ctx.s
    own = actor.id if cmd.void else cmd.target
    assert own is not None and cmd.enemy is not None
    style = cmd.option or "skirmish"
    if style not in ("skirmish", "iaijutsu", "taryu"):
        raise Reject("Duel: the style is skirmish, iaijutsu or taryu")
    if style == "taryu" and not (_shugenja(s, own) and _shugenja(s, cmd.enemy)):
        raise Reject("Duel: a taryu-jiai needs two shugenja")
    ef = s.force_of(cmd.enemy)
    assert ef is not None
    s.duel = PendingDuel(force=f.id, challenger=own, target_force=ef.id, target=cmd.enemy,
                         style=style, void=cmd.void)
    s.stage = "duel_answer"
    ctx.note("challenge", f"{_name(s, own)} challenges {_name(s, cmd.enemy)} ({style}); {s.says(ef.id, 'answers')}",
             f.id)


def _shugenja(s: MassState, pid: str) -> bool:
    return "shugenja" in s.person(pid).stats.tags


def _answer_duel(ctx: MassTxn, cmd: c.AnswerDuel) -> None:
    s = ctx.s
    _stage(s, "duel_answer")
    ef = _must_move(s, cmd.force)
    duel = s.duel
    assert duel is not None
    s.duel = None
    s.stage = "phases"
    target = ef.people[duel.target]
    if cmd.choice == "refuse":
        ctx.note("duel_refused", f"{target.name} refuses the duel: that is fleeing", ef.id)
        _flee_person(ctx, ef, target)
        return
    style = duel.style if cmd.choice == "accept" else "skirmish"
    a, b = duel_entry(s, duel.challenger, style), duel_entry(s, duel.target, style)
    win, raises, _ = _contest(ctx, [a, b], f"Duel ({style})")
    loser = b if win is a else a
    lf = s.forces[loser.force]
    lp = lf.people[loser.person]
    w = s.rules.duel_wounds
    pr = s.rules.duel_per_raise
    pool = Pool.of(w.rolled + pr.rolled * raises, w.kept + pr.kept * raises, explode=s.rules.wounds_explode)
    ctx.note("duel_won", f"{_name(s, win.person)} wins the duel with {counted(raises, 'Raise', 'Raises')}", win.force,
             winner=win.person, raises=raises)
    r = ctx.roll_pool(lp.id, lf.id, "duel Wounds", pool)
    _wound(ctx, lf, lp, _less_carapace(ctx, lf, lp.name, r.total, lp.stats.carapace), "duel")


def _less_carapace(ctx: MassTxn, f: ForceState, who: str, total: int, carapace: int) -> int:
    """A Wounds roll's total less Carapace N (battle-waves §7.2), not below 0, noted when it acts."""
    if not carapace:
        return total
    left = max(0, total - carapace)
    ctx.note("carapace", f"{who}: Carapace {carapace} takes {total - left} off the roll of {total}", f.id,
             carapace=carapace, rolled=total, left=left)
    return left


def _flee_person(ctx: MassTxn, f: ForceState, p: Person) -> None:
    p.fled = True
    p.fled_wave = ctx.s.wave
    p.tracked = True
    ctx.note("fled", f"{p.name} leaves the battle", f.id, person=p.id)
    _ledger(ctx, f, p, "vice", "fled the battle")
    _check_commander(ctx, f)


def _e_flee(ctx: MassTxn, f: ForceState, actor: Person, cmd: c.BattleAction) -> None:
    if cmd.void or cmd.target is not None:
        _flee_person(ctx, f, actor)
        return
    f.status = "fled"
    f.left_this_wave = True
    f.dice = []
    f.extra_actions = 0
    ctx.note("force_fled", f"{ctx.s.says(f.id, 'flees')} the field ({ctx.s.agrees(f.id, 'it')} still "
             f"{ctx.s.agrees(f.id, 'counts')} this Wave's casualties)", f.id)
    for p in f.people.values():
        if can_fight(ctx.s.rules, p):
            p.tracked = p.tracked or p.id == f.commander
            _ledger(ctx, f, p, "vice", "fled with the force")


def _e_rally(ctx: MassTxn, f: ForceState, actor: Person, cmd: c.BattleAction) -> None:
    s = ctx.s
    entry, tn = rally_entry(s, f)
    r = ctx.roll_pool(entry.person, f.id, "Rallying Cry", entry.pool, tn=tn)
    if r.total >= tn:
        raises = raises_of(r.total - tn, entry.cap, s.rules.raise_step)
        f.rally_next = 1 + raises
        ctx.note("rally", f"Rallying Cry succeeds ({r.total} against {tn}, {counted(raises, 'Raise', 'Raises')}): {s.says(f.id, 'takes')} "
                 f"Glory's Advantage ({1 + raises}) next Wave", f.id, raises=raises, tn=tn)
    else:
        ctx.note("rally", f"Rallying Cry fails ({r.total} against {tn})", f.id, tn=tn)


def _e_spell(ctx: MassTxn, f: ForceState, actor: Person, cmd: c.BattleAction) -> None:
    s = ctx.s
    caster = actor.id if cmd.void else cmd.target
    assert caster is not None
    who = _name(s, caster)
    if cmd.option == "strategy":
        m = s.rules.spell_strategy
        f.strategy_bonus = [f.strategy_bonus[0] + m.rolled, f.strategy_bonus[1] + m.kept]
        ctx.note("spell", f"{possessive(who)} spell: {m.text()} to {possessive(f.name)} next Strategy roll", f.id)
    elif cmd.option == "wounds":
        o = s.forces[str(cmd.target_force)]
        # (a WoundMod's `why` is saved state, shown nowhere: it keeps its old wording so that
        # saves made before the possessives were fixed still verify; people read the note below)
        _mod(o, s.rules.spell_wounds, f"{who}'s spell")
        ctx.note("spell", f"{possessive(who)} spell: {s.rules.spell_wounds.text()} Wounds to {o.name} at Wave end", f.id)
    else:
        _mod(f, s.rules.spell_shield, f"{who}'s spell")
        ctx.note("spell", f"{possessive(who)} spell: {s.rules.spell_shield.text()} Wounds to {f.name} at Wave end", f.id)


def _e_contentious(ctx: MassTxn, f: ForceState, actor: Person, cmd: c.BattleAction) -> None:
    s = ctx.s
    o = s.forces[str(cmd.target_force)]
    win, raises, _ = _contest(ctx, [plain_entry(s, f, "battle", "water"), plain_entry(s, o, "battle", "water")],
                              "Contentious Ground")
    s.terrain_next = win.force
    ctx.note("contentious", f"Contentious Ground: {s.says(win.force, 'holds')} the terrain bonus next Wave",
             win.force)


def _e_deadly(ctx: MassTxn, f: ForceState, actor: Person, cmd: c.BattleAction) -> None:
    p = ctx.s.person(actor.id if cmd.void else str(cmd.target))
    p.deadly = True
    p.deadly_relieved = False
    ctx.note("deadly", f"{p.name} stands on Deadly Ground: +2k2 to combat rolls this Wave, and +2k2 Wounds at "
             f"its end unless targeted again or acting", f.id)


def _e_dispersive(ctx: MassTxn, f: ForceState, actor: Person, cmd: c.BattleAction) -> None:
    o = ctx.s.forces[str(cmd.target_force)]
    _mod(o, ctx.s.rules.dispersive_wounds, f"Dispersive Ground by {f.name}")


def _e_encircled(ctx: MassTxn, f: ForceState, actor: Person, cmd: c.BattleAction) -> None:
    o = ctx.s.forces[str(cmd.target_force)]
    lost_o, lost_f = len(o.dice) + o.extra_actions, len(f.dice) + f.extra_actions
    o.dice, o.extra_actions = [], 0
    f.dice, f.extra_actions = [], 0
    ctx.note("encircled", f"{ctx.s.says(o.id, 'loses')} {counted(lost_o, 'action', 'actions')} and {f.name} {lost_f}", f.id)


def _e_entrapping(ctx: MassTxn, f: ForceState, actor: Person, cmd: c.BattleAction) -> None:
    f.entrapped = True


def _e_focal(ctx: MassTxn, f: ForceState, actor: Person, cmd: c.BattleAction) -> None:
    o = ctx.s.forces[str(cmd.target_force)]
    o.extra_actions += 1
    o.passed = False
    ctx.note("focal", f"{ctx.s.says(o.id, 'gains')} an extra Battle Action in Phase {ctx.s.phase}", o.id)


def _e_heavy(ctx: MassTxn, f: ForceState, actor: Person, cmd: c.BattleAction) -> None:
    o = ctx.s.forces[str(cmd.target_force)]
    _mod(f, ctx.s.rules.heavy_own, "Heavy Ground (own)")
    _mod(o, ctx.s.rules.heavy_other, f"Heavy Ground by {f.name}")


def _e_light(ctx: MassTxn, f: ForceState, actor: Person, cmd: c.BattleAction) -> None:
    _mod(f, ctx.s.rules.light_own, "Light Ground")


def _e_traversable(ctx: MassTxn, f: ForceState, actor: Person, cmd: c.BattleAction) -> None:
    p = ctx.s.person(actor.id if cmd.void else str(cmd.target))
    p.traversable = True
    p.tracked = True


_ACTION_TITLE = {
    "bonus_effects": "Bonus Effects", "duel": "Duel", "flee": "Flee", "rallying_cry": "Rallying Cry",
    "spell": "Spell", "contentious_ground": "Contentious Ground", "deadly_ground": "Deadly Ground",
    "dispersive_ground": "Dispersive Ground", "encircled_ground": "Encircled Ground",
    "entrapping_ground": "Entrapping Ground", "focal_ground": "Focal Ground", "heavy_ground": "Heavy Ground",
    "light_ground": "Light Ground", "traversable_ground": "Traversable Ground"}
ACTION_TITLE = _ACTION_TITLE

_EFFECTS: dict[str, Callable[[MassTxn, ForceState, Person, c.BattleAction], None]] = {
    "bonus_effects": _e_bonus, "duel": _e_duel, "flee": _e_flee, "rallying_cry": _e_rally, "spell": _e_spell,
    "contentious_ground": _e_contentious, "deadly_ground": _e_deadly, "dispersive_ground": _e_dispersive,
    "encircled_ground": _e_encircled, "entrapping_ground": _e_entrapping, "focal_ground": _e_focal,
    "heavy_ground": _e_heavy, "light_ground": _e_light, "traversable_ground": _e_traversable}


# --------------------------------------------------------------------------- casualties and the end

def _resolve_wave(ctx: MassTxn, cmd: c.ResolveWave) -> None:
    s = ctx.s
    _stage(s, "casualties")
    _must_move(s, cmd.force)
    rules = s.rules
    for f in [s.forces[i] for i in s.order]:
        if not (f.in_field or f.left_this_wave):
            continue
        for wr in wound_rolls(s, f):
            if wr.pool is None:
                ctx.note("casualties", f"{f.name}: {wr.label}: the Wounds pool is at or below 0k0, no Wounds",
                         f.id, who=wr.who)
                continue
            if wr.who.startswith("brutes:"):
                armour = wr.who.split(":", 1)[1]
                div = next(d for d in f.brutes if d.armour == armour)
                r1 = ctx.roll_pool(wr.who, f.id, f"{wr.label}: % wounded", wr.pool)
                r2 = ctx.roll_pool(wr.who, f.id, f"{wr.label}: % of the wounded killed", wr.pool)
                pw = min(rules.max_percent, _less_carapace(ctx, f, wr.label, r1.total, wr.carapace))
                pk = min(rules.max_percent, _less_carapace(ctx, f, wr.label, r2.total, wr.carapace))
                wounded = div.count * pw // 100
                killed = wounded * pk // 100
                div.count -= wounded
                f.brutes_wounded += wounded
                f.brutes_killed += killed
                ctx.note("casualties", f"{f.name}: {wr.label}: {pw}% wounded ({wounded}), {pk}% of them killed "
                         f"({killed}); {div.count} fight on", f.id, who=wr.who, percent_wounded=pw,
                         percent_killed=pk, wounded=wounded, killed=killed, left=div.count)
            else:
                p = f.people[wr.who]
                r = ctx.roll_pool(p.id, f.id, "Wounds", wr.pool)
                _wound(ctx, f, p, _less_carapace(ctx, f, p.name, r.total, wr.carapace), f"Wave {s.wave}")
    for f in s.in_field():
        if f.entrapped:
            f.status = "withdrawn"
            ctx.note("withdrawn", f"{s.says(f.id, 'breaks')} ranks and {s.agrees(f.id, 're-forms')} on open ground: unpursued, "
                     f"{s.agrees(f.id, 'its')} battle "
                     f"ends neither won nor lost", f.id)
    for f in s.in_field():
        if size(rules, f) == 0:
            f.status = "obliterated"
            ctx.note("obliterated", f"{s.says(f.id, 'is')} obliterated", f.id)
            _defeat_ledger(ctx, f, "the force was obliterated")
    for f in s.in_field():
        if f.needs_commander and not [p for p in f.people.values() if can_fight(rules, p)]:
            f.status = "defeated"
            ctx.note("defeated", f"{s.says(f.id, 'has')} nobody left to take command: defeated", f.id)
    if any(f.needs_commander for f in s.in_field()):
        s.stage = "commander"
    else:
        _finish_wave(ctx)


def _defeat_ledger(ctx: MassTxn, f: ForceState, why: str) -> None:
    cmdr = f.commander or f.led_by
    for p in f.people.values():
        if p.fled:
            continue
        _ledger(ctx, f, p, "vice", why, ctx.s.rules.ledger.commander_times if p.id == cmdr else 1)


def _name_commander(ctx: MassTxn, cmd: c.NameCommander) -> None:
    s = ctx.s
    _stage(s, "commander")
    f = _must_move(s, cmd.force)
    if cmd.person is None:
        f.status = "defeated"
        f.needs_commander = False
        ctx.note("defeated", f"nobody takes command of {f.name}: the force is defeated", f.id)
        _defeat_ledger(ctx, f, "the force was left without a commander")
    else:
        p = f.people.get(cmd.person)
        if p is None or not can_fight(s.rules, p):
            raise Reject(f"{cmd.person!r} is not an individual of {f.name} able to take command")
        f.commander = p.id
        f.led_by = p.id
        f.needs_commander = False
        p.tracked = True
        s.only_strategy.append(f.id)
        ctx.note("new_commander", f"{p.name} takes command of {f.name} ({s.agrees(f.id, 'its')} Advantage starts again from a "
                 f"Battle roll)", f.id, person=p.id)
    if not any(x.needs_commander for x in s.in_field()):
        _finish_wave(ctx)


def _finish_wave(ctx: MassTxn) -> None:
    s = ctx.s
    field = s.in_field()
    totals = sorted((f.total() for f in field), reverse=True)
    leader = None
    if field and (len(totals) == 1 or totals[0] > totals[1]):
        leader = max(field, key=lambda f: f.total()).id
    s.leaders.append(leader)
    for f in field:
        f.last_wave = "none" if leader is None else ("won" if f.id == leader else "lost")
    ctx.note("wave_end", f"Wave {s.wave} ends: " + ("; ".join(f"{f.name} {f.total()}" for f in field) or "nobody")
             + (f"; most Advantage: {s.forces[leader].name}" if leader else "; no single leader"),
             leader=leader)
    n = s.rules.waves_in_a_row
    if not field:
        _end(ctx, None, "no force is left on the field")
    elif len(field) == 1:
        one = field[0].id  # ("it": a force's name is one unless its set-up says plural; saves made before
        # `plural` existed hold no plural force, so their saved reasons read as they did)
        _end(ctx, one, f"{s.agrees(one, 'it')} {s.agrees(one, 'is')} the last force on the field")
    elif leader is not None and len(s.leaders) >= n and all(x == leader for x in s.leaders[-n:]):
        _end(ctx, leader, f"{s.agrees(leader, 'it')} held the most Advantage for {n} Waves in a row")
    else:
        _next_wave(ctx)


def _end(ctx: MassTxn, winner: str | None, why: str) -> None:
    s = ctx.s
    s.stage = "ended"
    s.winner = winner
    s.end_reason = why
    s.duel = None
    if winner is None:
        ctx.note("battle_end", f"The battle ends without a victor: {why}")
        return
    w = s.forces[winner]
    ctx.note("battle_end", f"{s.says(winner, 'wins')} the battle: {why}", winner, winner=winner)
    sharing = [w] + [f for f in s.forces.values() if f.status == "ceded" and f.ceded_to == winner]
    for f in sharing:
        for p in f.people.values():
            if not p.fled and level_name(s.rules, p) != "Dead":
                _ledger(ctx, f, p, "virtue", "in the victorious army",
                        s.rules.ledger.commander_times if p.id == f.commander else 1)


def _next_wave(ctx: MassTxn) -> None:
    s = ctx.s
    s.wave += 1
    s.phase = 0
    for f in s.forces.values():
        f.left_this_wave = False
        f.targeted = []
        f.wound_mods = []
        f.dice = []
        f.extra_actions = 0
        f.entrapped = False
        f.advantage["strategy"] = 0
        f.advantage["terrain"] = 0
        for p in f.people.values():
            p.void_used = p.deadly = p.deadly_relieved = p.traversable = False
    for f in s.in_field():
        if f.rally_next is not None:
            for o in s.forces.values():
                o.advantage["glory"] = 0
            f.advantage["glory"] = f.rally_next
            ctx.note("glory", f"{possessive(f.name)} Rallying Cry takes Glory's Advantage ({f.rally_next})", f.id)
    for f in s.forces.values():
        f.rally_next = None
    s.only_strategy = []
    s.stage = "strategy"
    ctx.note("wave_start", f"Wave {s.wave} begins: Strategy is rolled again")


def _leave(ctx: MassTxn, cmd: c.Surrender | c.Cede) -> None:
    s = ctx.s
    if s.stage in ("duel_answer", "commander"):
        raise Reject("answer the decision the battle is waiting for first")
    f = _force(s, cmd.force)
    to = _force(s, cmd.to)
    if to.id == f.id:
        raise Reject("a force cannot surrender or cede to itself")
    why = leave_refusal(s, f, to, cede=isinstance(cmd, c.Cede))
    if why:
        raise Reject(why)
    if isinstance(cmd, c.Surrender):
        f.status = "surrendered"
        ctx.note("surrendered", f"{s.says(f.id, 'surrenders')} to {to.name}", f.id, to=to.id)
        _defeat_ledger(ctx, f, "surrendered")
    else:
        f.status = "ceded"
        f.ceded_to = to.id
        s.facts.append(f"{f.name} ceded victory to {to.name}")
        ally = f"{s.agrees(f.id, 'its')} ally " if s.setup.allied(f.id, to.id) else ""
        ctx.note("ceded", f"{s.says(f.id, 'cedes')} victory to {ally}{to.name}", f.id, to=to.id)
    f.dice = []
    f.extra_actions = 0


def leave_refusal(s: MassState, f: ForceState, to: ForceState, *, cede: bool) -> str:
    """Why `f` may not cede victory (`cede`) or surrender to `to`, another force in the field; ""
    when it may. A force cedes only to an ally and surrenders only to an enemy (the source: "to an
    ally", "to the enemy"); the battle file names the allies. A battle begun before this reading
    (MassState.readings) lets a force do either toward any other force, as it did then."""
    if s.rules.readings < ALLIES_READING:
        return ""
    allied = s.setup.allied(f.id, to.id)
    if cede and not allied:
        return (f"{s.says(to.id, 'is')} not an ally of {f.name}: a force cedes victory only to an ally "
                "(the battle file's allies); to an enemy it may surrender")
    if not cede and allied:
        return (f"{s.says(to.id, 'is')} an ally of {f.name}: a force surrenders only to an enemy; "
                "to an ally it may cede victory")
    return ""


# --------------------------------------------------------------------------- GM

# What the GM may set (docs/mass-battle.md, GM mode): each value in the range the rules give it, or
# the value it has now (a number the battle reached by itself is never refused when left as it is).
RING_MAX = 10            # a ring's highest rank (models.Rings): the Raise cap, a terrain bonus
WAY_ADVANTAGE_MAX = 1 + RING_MAX  # a Way won: 1, +1 per Raise (at most the roller's Void ring)
STATUS_MAX = 10.0        # [L5R] Status in the Celestial Order runs 0 to 10
MAX_BRUTES = 100_000     # [decision] one division: ten times the source's largest army (10,000)
MAX_HONOR_CHANGE = 10    # [decision] one change of Honor: an Honor Rank's whole span [L5R 0 to 10]
MAX_FORCED = 500         # die faces queued by one command (as the campaign's rules and the shell's box)
MAX_REASON = 200         # [decision] characters of the reason for a change of Honor (a line of the ledger)


def _num(v: float) -> str:
    """A number as typed: 7, 2.5, 100000, 99999999 (never 1e+08)."""
    return str(v) if isinstance(v, int) else str(int(v)) if v.is_integer() else f"{v:g}"


def _out_of(label: str, value: float, low: float, high: float, now: float | None, why: str = "") -> str | None:
    """Why `value` is refused for the field `label` (its range said), or None: in range, or unchanged."""
    if low <= value <= high or (now is not None and value == now):
        return None
    return f"{label}: {_num(low)} to {_num(high)}{why}, not {_num(value)}"


def dead_at(rules: MassRules, person: Person) -> int:
    """The Wounds at which `person` is dead: one past the whole wound track (Earth x each level)."""
    track: int = sum(lvl.earth_times for lvl in rules.wound_levels) * person.stats.rings.earth
    return track + 1


def gm_range_problem(s: MassState, cmd: Any) -> str | None:
    """Why a GM command sets a value outside what the rules allow, naming the field and its range
    (the same words in the window's GM dialogs and in a command script), or None."""
    k = str(getattr(cmd, "kind", ""))
    if k == "gm_force_rolls":
        if not cmd.values:
            return "Forced dice: give at least one die face (1 to 10)"
        if len(cmd.values) > MAX_FORCED:
            return f"Forced dice: 1 to {MAX_FORCED} faces at a time, not {len(cmd.values)}"
        bad = [v for v in cmd.values if not 1 <= v <= 10]
        return f"Forced dice: d10 faces 1 to 10, not {', '.join(map(str, bad))}" if bad else None
    if k == "gm_set_person":
        f = s.force_of(cmd.person)
        if f is None:
            return None  # (the handler names the unknown individual)
        p = f.people[cmd.person]
        dead = dead_at(s.rules, p)
        checks = ((cmd.wounds, "Wounds taken", 0, dead, p.wounds,
                   f" for {p.name} (Earth {p.stats.rings.earth}: {dead - 1} fill the wound track, {dead} is dead)"),
                  (cmd.void_left, "Void points left", 0, p.stats.max_void_points, p.void_left,
                   f" for {p.name} (their Void points)"),
                  (cmd.status, "Status", 0, STATUS_MAX, p.stats.status, " (the Celestial Order)"))
        for value, label, low, high, now, why in checks:
            if value is not None:
                problem = _out_of(label, value, low, high, now, why)
                if problem:
                    return problem
        return None
    if k == "gm_set_brutes":
        force = s.forces.get(cmd.force)
        count = next((d.count for d in force.brutes if d.armour == cmd.armour), None) if force else None
        return _out_of(f"Brutes in {cmd.armour} armour", cmd.count, 0, MAX_BRUTES, count, " in one division")
    if k == "gm_set_advantage":
        force = s.forces.get(cmd.force)
        held = force.advantage.get(cmd.way, 0) if force else None
        if cmd.way == "terrain":
            return _out_of("Terrain Advantage", cmd.value, 0, RING_MAX, held, " (a ring's rank)")
        return _out_of(f"{WAY_TITLE[cmd.way]} Advantage", cmd.value, 0, WAY_ADVANTAGE_MAX, held,
                       " (1 for the Way, +1 per Raise)")
    if k == "gm_honor" and not -MAX_HONOR_CHANGE <= cmd.points <= MAX_HONOR_CHANGE:
        return f"Honor change: -{MAX_HONOR_CHANGE} to +{MAX_HONOR_CHANGE} at a time, not {cmd.points:+d}"
    if k == "gm_honor" and len(cmd.reason.strip()) > MAX_REASON:
        return f"Why: at most {MAX_REASON} characters (a line of the ledger), not {len(cmd.reason.strip())}"
    return None


def _gm_in_range(cmd: Any, s: MassState) -> None:
    problem = gm_range_problem(s, cmd)
    if problem:
        raise Reject(problem)


def _gm_force(ctx: MassTxn, cmd: c.GmForceRolls) -> None:
    _gm_in_range(cmd, ctx.s)
    ctx.roller.set_forced([*ctx.roller.forced_left, *cmd.values])
    ctx.note("gm", f"GM: the next {'die' if len(cmd.values) == 1 else f'{len(cmd.values)} dice'} will show {', '.join(map(str, cmd.values))}")


def _gm_person(ctx: MassTxn, cmd: c.GmSetPerson) -> None:
    s = ctx.s
    f = s.force_of(cmd.person)
    if f is None:
        raise Reject(f"no individual {cmd.person!r}")
    _gm_in_range(cmd, s)
    p = f.people[cmd.person]
    if cmd.wounds is not None:
        p.wounds = cmd.wounds
    if cmd.void_left is not None:
        p.void_left = cmd.void_left
    if cmd.status is not None:
        p.stats = p.stats.model_copy(update={"status": cmd.status})
    ctx.note("gm", f"GM: {p.name} now {level_name(s.rules, p)}, {counted(p.void_left, 'Void point', 'Void points')}, status "
             f"{p.stats.status:g}", f.id)
    if f.in_field:
        _check_commander(ctx, f)


def _gm_brutes(ctx: MassTxn, cmd: c.GmSetBrutes) -> None:
    f = _force(ctx.s, cmd.force, field_only=False)
    _gm_in_range(cmd, ctx.s)
    for d in f.brutes:
        if d.armour == cmd.armour:
            d.count = cmd.count
            break
    else:
        f.brutes.append(Division(armour=cmd.armour, count=cmd.count))
    ctx.note("gm", f"GM: {ctx.s.says(f.id, 'has')} {cmd.count} Brutes in {cmd.armour} armour", f.id)


def _wrest(ctx: MassTxn, cmd: c.WrestCommand) -> None:
    """battle-waves §7.3: a member takes command from the appointed leader (an Act of Vice)."""
    s = ctx.s
    if s.stage in ("commander", "duel_answer"):
        raise Reject("command cannot change hands now: "
                     + ("name a new commander instead" if s.stage == "commander" else "a duel waits for its answer"))
    f = _force(s, cmd.force)
    p = f.people.get(cmd.person)
    if p is None or not can_fight(s.rules, p):
        raise Reject(f"{cmd.person!r} is not an individual of {f.name} able to take command")
    if p.id == f.commander:
        raise Reject(f"{p.name} already commands {f.name}")
    leader = f.leader or f.commander
    was = f.people[leader].name if leader and leader in f.people else "nobody"
    if not f.leader:  # the one who commanded stays the appointed leader, in name only
        f.leader = f.commander or ""
    f.commander = p.id
    f.led_by = p.id
    p.tracked = True
    ctx.note("wrest_command", f"{p.name} wrests command of {f.name} from {was}: from now on the real "
             f"commander", f.id, person=p.id, leader=f.leader)
    _ledger(ctx, f, p, "vice", f"wrested command from {was}")


def _gm_honor(ctx: MassTxn, cmd: c.GmHonor) -> None:
    """battle-waves §7.4: Honor beside Glory, changed only by the GM, with the reason logged."""
    s = ctx.s
    f = s.force_of(cmd.person)
    if f is None:
        raise Reject(f"no individual {cmd.person!r}")
    p = f.people[cmd.person]
    why = cmd.reason.strip()
    if not why:
        raise Reject("say why the Honor changes (the reason is logged in the ledger)")
    if cmd.points == 0:
        raise Reject("an Honor change of 0 changes nothing")
    _gm_in_range(cmd, s)
    if cmd.points > 0 and p.traversable:
        raise Reject(f"{p.name} is on Traversable Ground: no Honor is gained this Wave")
    s.ledger.append(LedgerEntry(person=p.id, force=f.id, act="honor", why=why, glory=0, honor=cmd.points))
    ctx.note("ledger", f"{p.name}: Honor {cmd.points:+d} (GM: {why})", f.id, person=p.id, honor=cmd.points)


def _gm_advantage(ctx: MassTxn, cmd: c.GmSetAdvantage) -> None:
    f = _force(ctx.s, cmd.force, field_only=False)
    _gm_in_range(cmd, ctx.s)
    f.advantage[cmd.way] = cmd.value
    ctx.note("gm", f"GM: {possessive(f.name)} {cmd.way} Advantage is now {cmd.value}", f.id)


_HANDLERS: dict[str, Callable[[MassTxn, Any], None]] = {
    "appoint": _appoint, "roll_way": _roll_way, "roll_action_dice": _roll_action_dice, "action": _action,
    "hold": _hold, "answer_duel": _answer_duel, "resolve_wave": _resolve_wave,
    "name_commander": _name_commander, "surrender": _leave, "cede": _leave,
    "gm_force_rolls": _gm_force, "gm_set_person": _gm_person, "gm_set_brutes": _gm_brutes,
    "gm_set_advantage": _gm_advantage, "wrest_command": _wrest, "gm_honor": _gm_honor}

assert set(ADVANTAGE_KEYS) >= {"heaven", "honor", "glory", "strategy"}
