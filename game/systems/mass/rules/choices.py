"""The choices of the decision a mass battle waits for, found directly from the state.

`legal_commands(state)` lists, in the order of `odds.candidates`, exactly the candidates that
`engine.apply` would accept, without applying any of them: each test below is the one the
handler makes (`engine._action`, `engine._targets`, `engine._e_duel`, ...). The older list,
`odds.legal_commands` (every candidate tried through `apply`), stays as the test oracle
(tests/rules/mass/test_choices.py checks both agree on random states).

Also here, for the board and any other client:
* `secret(state)`: whether the decision waiting is sealed (hidden from the other forces until
  every force has made its own) - the appointments of who assesses Heaven and Honor. Everything
  else a force chooses is announced as it is made (docs/mass-battle.md, "Hand-offs").
* `label(state, command)`: what a choice does, in words ("accept the iaijutsu duel", ...).
* `preview(state, command)`: the odds pane of every choice, the sealed appointment included.

One difference from the oracle, by design: a contest that ties a hundred times running (only
possible with GM-forced dice) is refused by `apply` but listed here.
"""

from __future__ import annotations

import bisect
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

from game.core.kernel import Accepted, Outcome, dispatch
from game.core.roller import Roller
from game.core.rollkeep import ContestOdds, Pool, distribution, mean
from game.core.system import counted, possessive
from game.systems.mass.rules import commands as c
from game.systems.mass.rules import engine, odds
from game.systems.mass.rules.pools import (
    Entry,
    can_fight,
    duel_entry,
    honor_eligible,
    plain_entry,
    way_entries,
    wound_rolls,
)
from game.systems.mass.rules.state import ForceState, MassState, Person

_WAYS = ("heaven", "honor", "glory", "strategy")


# --------------------------------------------------------------------------- the legal list

def legal_commands(s: MassState) -> list[BaseModel]:
    """Every command the rules accept now, for the force(s) whose decision it is."""
    out: list[BaseModel] = []
    movers = engine.to_move(s)
    st = s.stage
    if st == "ended" or not movers:
        return out
    if st == "appoint":
        for fid in movers:
            f = s.forces[fid]
            able = [p.id for p in f.people.values() if can_fight(s.rules, p)]
            out += [c.Appoint(force=fid, heaven=h, honor=o) for h in able for o in able]
        return out
    fid = movers[0]
    f = s.forces[fid]
    if st in _WAYS:
        if st == "strategy" or (s.setup.prepared and s.wave == 1):
            out.append(c.RollWay(force=fid, way=st))
    elif st == "initiative":
        out.append(c.RollActionDice(force=fid))
    elif st == "casualties":
        out.append(c.ResolveWave(force=fid))
    elif st == "duel_answer":
        out += [c.AnswerDuel(force=fid, choice=ch) for ch in ("accept", "skirmish", "refuse")]
    elif st == "commander":
        out += [c.NameCommander(force=fid, person=p.id) for p in f.people.values() if can_fight(s.rules, p)]
        out.append(c.NameCommander(force=fid, person=None))
    elif st == "phases":
        out.append(c.Hold(force=fid))
        out += _actions(s, f)
    if st not in ("duel_answer", "commander"):
        others = [o for o in s.in_field() if o.id != fid]
        out += [c.Surrender(force=fid, to=o.id) for o in others if not engine.leave_refusal(s, f, o, cede=False)]
        out += [c.Cede(force=fid, to=o.id) for o in others if not engine.leave_refusal(s, f, o, cede=True)]
    return out


def _targetable(s: MassState, p: Person) -> bool:
    """What `engine._person_in` accepts: able to fight and not on Traversable Ground."""
    return can_fight(s.rules, p) and not p.traversable


def _actions(s: MassState, f: ForceState) -> list[BaseModel]:
    """The Battle Actions of the force acting in this Phase, in `odds._action_candidates`' order."""
    rules = s.rules
    fid = f.id
    A = c.BattleAction
    out: list[BaseModel] = []
    own = [p for p in f.people.values() if can_fight(rules, p)]
    others = [o for o in s.in_field() if o.id != fid]
    enemies = [p for o in others for p in o.people.values() if can_fight(rules, p)]
    once = s.setup.terrain != "accessible"  # the commander targets each one once per Wave
    done = set(f.targeted)

    def fresh(*targets: str) -> bool:
        return not (once and any(t in done for t in targets))

    cmdr = f.people[f.commander] if f.commander is not None else None
    if cmdr is not None:
        if fresh(cmdr.id):
            out.append(A(force=fid, action="bonus_effects"))
        if fresh(fid):
            out.append(A(force=fid, action="flee"))
        if _targetable(s, cmdr) and fresh(cmdr.id):
            out.append(A(force=fid, action="flee", target=cmdr.id))
        if fresh(fid):
            out += [A(force=fid, action=a) for a in ("rallying_cry", "entrapping_ground", "light_ground")]
        for p in own:
            if not _targetable(s, p) or not fresh(p.id):
                continue
            out.append(A(force=fid, action="deadly_ground", target=p.id))
            out.append(A(force=fid, action="traversable_ground", target=p.id))
            if p.stats.magic:
                out += [A(force=fid, action="spell", target=p.id, option=opt) for opt in ("strategy", "shield")]
                out += [A(force=fid, action="spell", target=p.id, option="wounds", target_force=o.id)
                        for o in others]
            for e in enemies:
                if not _targetable(s, e) or not fresh(e.id):
                    continue
                out += [A(force=fid, action="duel", target=p.id, enemy=e.id, option=style)
                        for style in ("skirmish", "iaijutsu", "taryu")
                        if style != "taryu" or (_shugenja(p) and _shugenja(e))]
        contentious = s.setup.terrain != "accessible" and s.rules.terrain_ring[s.setup.terrain] is not None
        for o in others:
            fresh_o = fresh(o.id)
            if (contentious and fresh_o and o.advantage.get("terrain", 0) > 0 and o.commander is not None):
                out.append(A(force=fid, action="contentious_ground", target_force=o.id))
            if fresh_o:
                out += [A(force=fid, action=a, target_force=o.id)
                        for a in ("dispersive_ground", "encircled_ground", "focal_ground")]
            if fresh(fid, o.id):
                out.append(A(force=fid, action="heavy_ground", target_force=o.id))
    # Void-point actions of the force's individuals (no action die, no once-per-Wave limit)
    for p in own:
        if not _targetable(s, p) or p.void_used or p.void_left <= 0:
            continue
        out += [A(force=fid, action=a, actor=p.id, void=True)
                for a in ("bonus_effects", "flee", "deadly_ground", "traversable_ground")]
        if p.stats.magic:
            out.append(A(force=fid, action="spell", actor=p.id, option="shield", void=True))
        out += [A(force=fid, action="duel", actor=p.id, enemy=e.id, option="skirmish", void=True)
                for e in enemies if _targetable(s, e)]
    return out


def _shugenja(p: Person) -> bool:
    return "shugenja" in p.stats.tags


# --------------------------------------------------------------------------- what is secret

def secret(s: MassState) -> bool:
    """Whether the decision waiting is sealed: made by each force without the others seeing it
    (the appointments; the rules announce them all once every force has chosen)."""
    return s.stage == "appoint"


def ends_own_battle(s: MassState, cmd: Any) -> str:
    """What `cmd` does, in words, when it ends the battle for the force that gives it (it leaves
    the field now, or withdraws at the Wave's end); "" when it does not. A client asks a person
    before playing such a command: none of them can be taken back."""
    k = str(getattr(cmd, "kind", ""))
    f = s.forces.get(getattr(cmd, "force", ""))
    if f is None:
        return ""
    if k == "surrender" and cmd.to in s.forces:
        return (f"{s.says(f.id, 'surrenders')} to {s.forces[cmd.to].name}: {s.agrees(f.id, 'its')} battle ends as a "
                f"defeat, an Act of Vice for everyone in {s.agrees(f.id, 'it/them')} (double for the commander).")
    if k == "cede" and cmd.to in s.forces:
        to = s.forces[cmd.to].name
        return (f"{s.says(f.id, 'cedes')} victory to {to} and {s.agrees(f.id, 'leaves')} the field: "
                f"{s.agrees(f.id, 'it')} {s.agrees(f.id, 'shares')} {possessive(to)} victory if {s.says(cmd.to, 'wins')}.")
    if k == "name_commander" and cmd.person is None:
        return (f"Nobody takes command: {s.says(f.id, 'is')} defeated, an Act of Vice for everyone in "
                f"{s.agrees(f.id, 'it/them')}.")
    if isinstance(cmd, c.BattleAction) and not cmd.void:
        if cmd.action == "flee" and cmd.target is None:
            return (f"{s.says(f.id, 'flees')} the field: {s.agrees(f.id, 'its')} battle ends, an Act of Vice for "
                    f"everyone in {s.agrees(f.id, 'it/them')}; {s.agrees(f.id, 'it')} still "
                    f"{s.agrees(f.id, 'takes')} this Wave's casualties.")
        if cmd.action == "entrapping_ground":
            return (f"At the Wave's end {s.says(f.id, 'withdraws')} to open ground: unpursued, "
                    f"{s.agrees(f.id, 'its')} battle ends undecided.")
    return ""


# --------------------------------------------------------------------------- labels

def person_label(p: Person) -> str:
    """A name with its tags, each said once: "Kuni Mai (shugenja)", not "... (shugenja) (shugenja)"."""
    low = p.name.lower()
    tags = [t for t in p.stats.tags if f"({t.lower()})" not in low and t.lower() not in low.split()]
    return p.name + (f" ({', '.join(tags)})" if tags else "")


_STYLE = {"skirmish": "skirmish", "iaijutsu": "iaijutsu duel", "taryu": "taryu-jiai (a duel of shugenja)"}


def label(s: MassState, cmd: Any) -> str:
    """What a choice does, in words."""
    k = str(getattr(cmd, "kind", ""))
    f = s.forces.get(getattr(cmd, "force", ""))
    fname = f.name if f else ""
    if k == "answer_duel" and s.duel is not None:
        d = s.duel
        who, foe = engine._name(s, d.target), engine._name(s, d.challenger)
        if cmd.choice == "accept":
            return f"{fname}: accept - {who} fights {foe} as the {_STYLE[d.style]} they asked for"
        if cmd.choice == "skirmish" and d.style == "skirmish":  # (the rules take it: the same fight as accepting)
            return f"{fname}: fight the skirmish - {who} against {foe} (Kenjutsu/Agility; the same as accepting)"
        if cmd.choice == "skirmish":
            return f"{fname}: fight as a skirmish instead - {who} against {foe} (Kenjutsu/Agility)"
        return f"{fname}: refuse - {who} leaves the battle (counts as fleeing, an Act of Vice)"
    if k == "action":
        name = engine.ACTION_TITLE[cmd.action]
        bits = []
        if cmd.action == "duel":
            me = cmd.actor if cmd.void else cmd.target
            bits.append(f"{engine._name(s, me or '')} challenges {engine._name(s, cmd.enemy or '')} "
                        f"({_STYLE.get(cmd.option or 'skirmish', cmd.option)})")
        elif cmd.action == "flee":
            bits.append("the whole force leaves the field" if not (cmd.void or cmd.target)
                        else f"{engine._name(s, cmd.actor or cmd.target or '')} leaves the battle")
        elif cmd.action == "spell":
            caster = engine._name(s, (cmd.actor if cmd.void else cmd.target) or "")
            what = {"strategy": "+1k1 to our next Strategy roll", "shield": "-1k1 to our Wounds this Wave",
                    "wounds": "+1k1 Wounds to " + (s.forces[cmd.target_force].name
                                                   if cmd.target_force in s.forces else "a force")}
            bits.append(f"{caster}: {what.get(cmd.option or '', cmd.option)}")
        else:
            for pid in (cmd.target,):
                if pid and s.force_of(pid):
                    bits.append(engine._name(s, pid))
            if cmd.target_force in s.forces:
                bits.append(s.forces[cmd.target_force].name)
        who = f"{engine._name(s, cmd.actor)} alone (Void point)" if cmd.void and cmd.actor else fname
        return f"{who}: {name}" + (": " + ", ".join(bits) if bits else "")
    if k == "hold":
        return f"{fname}: hold - act no more this Phase (keep the dice for later)"
    if k == "name_commander":
        return f"{fname}: " + (f"{engine._name(s, cmd.person)} takes command" if cmd.person
                               else "nobody takes command (the force is defeated)")
    if k == "surrender":
        return f"{fname}: surrender to {s.forces[cmd.to].name} (ends {s.agrees(cmd.force, 'its')} battle as a defeat)"
    if k == "cede":
        ally = "the ally " if s.setup.allied(cmd.force, cmd.to) else ""
        return f"{fname}: cede victory to {ally}{s.forces[cmd.to].name}"
    if k == "roll_action_dice":
        return f"{fname}: roll the action dice (every commander's Water)"
    if k == "resolve_wave":
        return f"{fname}: count the Wave's casualties"
    if k == "roll_way":
        return f"{fname}: roll {engine.WAY_TITLE[cmd.way]} for every force"
    if k == "appoint":
        return (f"{fname}: {engine._name(s, cmd.heaven)} reads Heaven, "
                f"{engine._name(s, cmd.honor)} argues Honor")
    return f"{fname}: {k.replace('_', ' ')}" if fname else k.replace("_", " ")


# --------------------------------------------------------------------------- odds of every choice

def preview(s: MassState, cmd: Any) -> odds.Odds:
    """The odds pane of a choice: the rules' own (`odds.preview`), plus the sealed appointment's
    and the plain steps' (what happens, in words)."""
    k = str(getattr(cmd, "kind", ""))
    if isinstance(cmd, c.Appoint) and s.stage == "appoint":
        return appointment_odds(s, cmd)
    if isinstance(cmd, c.AnswerDuel) and s.duel is not None:
        title = label(s, cmd).split(": ", 1)[1]
        title = title[:1].upper() + title[1:]
        if cmd.choice == "refuse":
            return odds.Odds(title, ("refusing counts as fleeing: an Act of Vice; no dice are rolled",))
        style = s.duel.style if cmd.choice == "accept" else "skirmish"
        base = contest(s, [duel_entry(s, s.duel.challenger, style), duel_entry(s, s.duel.target, style)],
                       f"Duel ({style})")
        return odds.Odds(title, base.lines, base.win, base.raises)
    if isinstance(cmd, c.RollWay) and s.stage == cmd.way:
        return contest(s, way_entries(s, cmd.way), engine.WAY_TITLE[cmd.way])
    if k == "hold":
        f = s.forces[cmd.force]
        left = [d for d in f.dice if d <= s.phase]
        return odds.Odds("Hold", (f"{s.says(f.id, 'takes')} no more actions in Phase {s.phase}"
                                  + (f"; {s.agrees(f.id, 'its')} {counted(len(left), 'die waits', 'dice wait')} for a later Phase" if left else ""),
                                  "nothing is rolled"))
    if k == "roll_action_dice":
        lines = []
        for f in s.in_field():
            if f.commander is not None:
                w = f.people[f.commander].stats.rings.water
                lines.append(f"{f.name}: {w} action dice ({s.agrees(f.id, 'its')} commander's Water), each a Phase 1-10")
        return odds.Odds("Action dice", tuple(lines))
    if k == "name_commander":
        f = s.forces[cmd.force]
        if cmd.person is None:
            return odds.Odds("Nobody takes command", (f"{s.says(f.id, 'is')} defeated: an Act of Vice for everyone "
                                                      f"in {s.agrees(f.id, 'it/them')}",))
        return odds.Odds("A new commander", (f"{engine._name(s, cmd.person)} leads {f.name} from the next Wave; "
                                             f"{s.agrees(f.id, 'its')} Advantage starts again from a Strategy roll",))
    if k in ("surrender", "cede"):
        f, to = s.forces[cmd.force], s.forces[cmd.to]
        its, it = s.agrees(f.id, "its"), s.agrees(f.id, "it")
        what = (f"{its} battle ends as a defeat: an Act of Vice for everyone in {s.agrees(f.id, 'it/them')}, "
                "double for the commander"
                if k == "surrender" else f"{it} {s.agrees(f.id, 'shares')} {possessive(to.name)} victory if "
                                         f"{s.says(to.id, 'wins')}")
        return odds.Odds(k.title(), (f"{s.says(f.id, 'leaves')} the field; {what}",))
    if isinstance(cmd, c.BattleAction):
        base = _action_contest(s, cmd) or _action_wounds(s, cmd) or odds.preview(s, cmd)
        return odds.Odds(base.title, (EFFECT[cmd.action], *base.lines), base.win, base.raises, base.success,
                         base.wounds, base.percents, base.expected_wounded)
    return odds.preview(s, cmd)


def _action_contest(s: MassState, cmd: c.BattleAction) -> odds.Odds | None:
    """The odds of a duel or a Contentious Ground roll (as `odds.preview` gives them, faster)."""
    f = s.forces.get(cmd.force)
    if f is None:
        return None
    if cmd.action == "duel" and cmd.enemy and s.force_of(cmd.enemy):
        own = cmd.actor if cmd.void else cmd.target
        if own and s.force_of(own):
            style = cmd.option or "skirmish"
            return contest(s, [duel_entry(s, own, style), duel_entry(s, cmd.enemy, style)], f"Duel ({style})")
    if cmd.action == "contentious_ground" and cmd.target_force in s.forces and f.commander:
        o = s.forces[str(cmd.target_force)]
        if o.commander:
            return contest(s, [plain_entry(s, f, "battle", "water"), plain_entry(s, o, "battle", "water")],
                           engine.ACTION_TITLE[cmd.action])
    return None


def _action_wounds(s: MassState, cmd: c.BattleAction) -> odds.Odds | None:
    """The Wave's casualty odds if the action is taken (as `odds.preview` gives them), from a
    what-if applied to a light copy of the state."""
    if cmd.action in ("rallying_cry", "duel", "contentious_ground"):
        return None
    title = engine.ACTION_TITLE[cmd.action]
    after = what_if(s, cmd)
    if isinstance(after, Accepted) and after.state.stage == "phases":
        w = wave_wounds(after.state)
        return odds.Odds(title, ("if taken, the Wave's casualties would be:", *w.lines), wounds=w.wounds,
                         percents=w.percents, expected_wounded=w.expected_wounded)
    return odds.Odds(title)


_WOUNDS: dict[int, tuple[Any, dict[tuple[Any, ...], odds.Odds]]] = {}


def wave_wounds(s: MassState) -> odds.Odds:
    """`odds.wave_wounds(s)`, remembered per battle set-up for the parts of the state it reads
    (many actions leave the Wave's Wounds as they were: their previews share one answer)."""
    key = (s.wave, tuple(
        (f.id, f.name, f.in_field, f.left_this_wave, tuple((d.armour, d.count) for d in f.brutes),
         tuple((m.rolled, m.kept) for m in f.wound_mods),
         tuple((p.id, p.name, p.tracked, p.wounds, p.fled, p.fled_wave, p.traversable, p.deadly, p.deadly_relieved)
               for p in f.people.values()))
        for f in (s.forces[i] for i in s.order)))
    held = _WOUNDS.get(id(s.setup))
    if held is None or held[0] is not s.setup:
        if len(_WOUNDS) > 8:
            _WOUNDS.clear()
        held = _WOUNDS[id(s.setup)] = (s.setup, {})
    table = held[1]
    if key not in table:
        if len(table) > 512:
            table.clear()
        table[key] = _wave_wounds(s)
    return table[key]


def _wave_wounds(s: MassState) -> odds.Odds:
    """`odds.wave_wounds`, the same sentences and numbers, each roll's figures remembered."""
    lines: list[str] = []
    wounds: dict[str, odds.Dist] = {}
    percents: dict[str, odds.Dist] = {}
    expected: dict[str, float] = {}
    for fid in s.order:
        f = s.forces[fid]
        if not (f.in_field or f.left_this_wave):
            continue
        for wr in wound_rolls(s, f):
            key = f"{fid}:{wr.who}"
            if wr.pool is None:
                lines.append(f"{f.name}, {wr.label}: no Wounds (pool at or below 0k0)")
                continue
            if wr.who.startswith("brutes:"):
                pc, avg, ew = _brute_figures(wr.pool, s.rules.max_percent, wr.count)
                percents[key] = pc
                expected[key] = ew
                lines.append(f"{f.name}, {wr.label}: {wr.pool.text()} twice; wounded {avg:.1f}% on average "
                             f"(about {ew:.0f}), of whom {avg:.1f}% die")
            else:
                d = distribution(wr.pool)
                wounds[key] = d
                lines.append(f"{f.name}, {wr.label}: {wr.pool.text()} Wounds, {mean(d):.1f} on average")
    return odds.Odds("End of the Wave: casualties", tuple(lines), wounds=wounds, percents=percents,
                     expected_wounded=expected)


@lru_cache(maxsize=1024)
def _brute_figures(pool: Pool, top: int, count: int) -> tuple[odds.Dist, float, float]:
    pc = odds.capped(distribution(pool), top)
    return pc, mean(pc), sum(p * (count * v // 100) for v, p in pc.items())


def what_if(s: MassState, cmd: Any) -> Outcome:
    """`engine.apply(s, cmd)` on a lighter copy of the state: every container a handler may change
    is copied, the individuals' statistics (never changed in place) are shared. For previews only:
    the outcome is the same as apply's (tests/rules/mass/test_choices.py) and `s` is left as it was."""

    def begin() -> engine.MassTxn:
        c2 = light_copy(s)
        return engine.MassTxn(c2, Roller(c2.rng, c2.forced))

    return dispatch(engine._HANDLERS, cmd, begin=begin, finish=engine.MassTxn.finish, guard=engine._not_over)


def light_copy(s: MassState) -> MassState:
    forces = {k: f.model_copy(update={
        "people": {pid: p.model_copy() for pid, p in f.people.items()},
        "brutes": [d.model_copy() for d in f.brutes], "advantage": dict(f.advantage), "dice": list(f.dice),
        "targeted": list(f.targeted), "wound_mods": list(f.wound_mods), "strategy_bonus": list(f.strategy_bonus),
        "morale": [dict(m) for m in f.morale]}) for k, f in s.forces.items()}
    return s.model_copy(update={
        "forces": forces, "forced": list(s.forced), "order": list(s.order),
        "appointments": {k: dict(v) for k, v in s.appointments.items()}, "leaders": list(s.leaders),
        "ledger": list(s.ledger), "facts": list(s.facts), "only_strategy": list(s.only_strategy)})


def contest(s: MassState, entries: list[Entry], title: str) -> odds.Odds:
    """`odds.contest`, the same sentences and numbers, with `fast_contest_odds`."""
    if len(entries) < 2:
        return odds.contest(s, entries, title)
    co = fast_contest_odds(tuple(e.pool for e in entries), tuple(e.cap for e in entries), s.rules.raise_step)
    lines = []
    for e, w, r in zip(entries, co.win, co.raises, strict=True):
        ra = ", ".join(f"{k}: {100 * v:.1f}%" for k, v in r.items() if v >= 0.0005)
        lines.append(f"{s.forces[e.force].name} ({engine._name(s, e.person)}, {e.pool.text()}): "
                     f"{s.agrees(e.force, 'wins')} {100 * w:.1f}%; Raises {ra}")
    return odds.Odds(title, tuple(lines), {e.force: w for e, w in zip(entries, co.win, strict=True)},
                     {e.force: r for e, r in zip(entries, co.raises, strict=True)})


@lru_cache(maxsize=2048)
def fast_contest_odds(pools: tuple[Pool, ...], caps: tuple[int, ...], step: int) -> ContestOdds:
    """`rollkeep.contest_odds` of these pools in O(totals x Raise cap) per roller instead of
    O(totals squared): the chance of each margin band comes from the cumulative distribution of
    the best of the others. Equal to it within rounding (tests/rules/mass/test_choices.py)."""
    dists = [distribution(p) for p in pools]
    n = len(dists)
    wins: list[float] = []
    raises: list[dict[int, float]] = []
    for i in range(n):
        best = _best_of([d for j, d in enumerate(dists) if j != i])
        lo, hi = min(best), max(best)
        cdf = [0.0] * (hi - lo + 2)  # cdf[k] = P(best <= lo + k - 1)
        for k in range(lo, hi + 1):
            cdf[k - lo + 1] = cdf[k - lo] + best.get(k, 0.0)

        def below(y: int, lo: int = lo, hi: int = hi, cdf: list[float] = cdf) -> float:  # P(best <= y)
            return 0.0 if y < lo else cdf[min(y, hi) - lo + 1]

        by_raise: dict[int, float] = {}
        total = 0.0
        cap = caps[i]
        for x, px in dists[i].items():
            if x <= lo:
                continue
            for r in range(cap + 1):
                top = x - 1 if r == 0 else x - step * r           # margins of r Raises: y <= top
                bottom = -10**9 if r == cap else x - step * (r + 1)  # ... and y > bottom
                if top < lo:
                    break
                q = below(top) - below(bottom)
                if q > 0.0:
                    by_raise[r] = by_raise.get(r, 0.0) + px * q
                    total += px * q
        wins.append(total)
        raises.append(by_raise)
    return ContestOdds.of_unique_wins(wins, raises)


# What each Battle Action does, in one line (the rules are engine's; docs/mass-battle.md section 4)
EFFECT: dict[str, str] = {
    "bonus_effects": "establishes up to Void facts about the battle, for the GM",
    "duel": "the two fight at once if the other force accepts; the loser takes 2k2 Wounds +1k1 per Raise",
    "flee": "leaves the battle: an Act of Vice; this Wave's Wounds are still taken",
    "rallying_cry": "an Oratory/Awareness roll against 5 x the best other Advantage: Glory's Advantage next Wave",
    "spell": "the magic user works one effect: next Strategy roll, another force's Wounds, or our own",
    "contentious_ground": "opposed Battle/Water: the winner holds the terrain bonus next Wave",
    "deadly_ground": "+2k2 on combat rolls this Wave; +2k2 Wounds at its end unless targeted again or acting",
    "dispersive_ground": "+1k1 Wounds to that force at the Wave's end",
    "encircled_ground": "that force loses its remaining action dice, and so does ours",
    "entrapping_ground": "at the Wave's end our force withdraws to open ground: its battle ends undecided",
    "focal_ground": "that force gains an extra Battle Action this Phase",
    "heavy_ground": "+1k1 Wounds to us and +2k2 to that force at the Wave's end",
    "light_ground": "-1k1 Wounds to our force at the Wave's end",
    "traversable_ground": "only 1k1 Wounds at the Wave's end; cannot be targeted; no Honor or Glory this Wave"}


def appointment_odds(s: MassState, cmd: c.Appoint) -> odds.Odds:
    """The sealed appointment: the pools of the two chosen, and the chance of winning Heaven and
    Honor against each choice the other forces could make (theirs is sealed, so a range)."""
    f = s.forces[cmd.force]
    others = [o for o in s.in_field() if o.id != f.id and o.commander is not None]
    lines: list[str] = []
    for way, pid in (("heaven", cmd.heaven), ("honor", cmd.honor)):
        title = engine.WAY_TITLE[way]
        mine = _entries(s, {f.id: pid}, way)
        entry = next((e for e in mine if e.force == f.id), None)
        if entry is None:
            lines.append(f"{title}: {s.says(f.id, 'may')} not roll ({s.agrees(f.id, 'its')} commander's status is "
                         "below another's)"
                         if way == "honor" else f"{title}: {f.name} cannot roll")
            continue
        d = distribution(entry.pool)
        head = f"{title}: {engine._name(s, pid)} rolls {entry.pool.text()} (average {mean(d):.1f})"
        rivals = [o for o in others if way != "honor" or o.id in honor_eligible(s)]
        if not rivals:
            lines.append(head + "; unopposed: wins 1 Advantage")
            continue
        chances = []
        for o in rivals:
            for p in o.people.values():
                if can_fight(s.rules, p):
                    es = _entries(s, {f.id: pid, o.id: p.id}, way)
                    theirs = next(e for e in es if e.force == o.id)
                    chances.append(_beats(entry.pool, theirs.pool))
        lo, hi = min(chances), max(chances)
        rng = f"{100 * lo:.1f}%" if abs(hi - lo) < 0.0005 else f"{100 * lo:.1f}% to {100 * hi:.1f}%"
        lines.append(f"{head}; wins {rng} against the others' possible choices (theirs are sealed)")
    return odds.Odds("Sealed appointment (Heaven and Honor)", tuple(lines))


def _best_of(dists: list[dict[int, float]]) -> dict[int, float]:
    """The distribution of the highest of independent totals."""
    if len(dists) == 1:
        return dists[0]
    values = sorted({v for d in dists for v in d})
    acc = [0.0] * len(dists)
    out: dict[int, float] = {}
    prev = 0.0
    for v in values:
        prod = 1.0
        for k, d in enumerate(dists):
            acc[k] += d.get(v, 0.0)
            prod *= acc[k]
        out[v] = prod - prev
        prev = prod
    return out


@lru_cache(maxsize=4096)
def _beats(mine: Pool, theirs: Pool) -> float:
    """P(a roll of `mine` beats one of `theirs`), ties re-rolled (so conditioned on no tie)."""
    a, b = distribution(mine), distribution(theirs)
    below = 0.0
    win = tie = 0.0
    cum: dict[int, float] = {}
    for v in sorted(b):
        cum[v] = below
        below += b[v]
    keys = sorted(b)
    for v, p in a.items():
        i = bisect.bisect_left(keys, v)
        under = cum[keys[i]] if i < len(keys) else below
        win += p * under
        tie += p * b.get(v, 0.0)
    return win / (1.0 - tie) if tie < 1.0 else 0.5


def _entries(s: MassState, chosen: dict[str, str], way: str) -> list[Any]:
    """`way_entries` as if these forces had appointed these individuals for `way`."""
    appts = {fid: {**s.appointments.get(fid, {}), way: pid} for fid, pid in chosen.items()}
    return way_entries(s.model_copy(update={"appointments": appts}), way)
