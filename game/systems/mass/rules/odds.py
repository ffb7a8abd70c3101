"""Exact odds before a roll (the chance of winning a Way, of each number of Raises, of a Rallying
Cry; the Wave's Wounds and Brute casualty percentages), and the legal commands.

The pools come from `game.systems.mass.rules.pools`, the same functions the rolls use.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from game.core.rollkeep import Pool, contest_odds, distribution, mean, success_odds
from game.core.system import Accepted
from game.systems.mass.rules import commands as c
from game.systems.mass.rules import engine
from game.systems.mass.rules.pools import (
    Entry,
    can_fight,
    duel_entry,
    plain_entry,
    rally_entry,
    way_entries,
    wound_rolls,
)
from game.systems.mass.rules.state import MassState

Dist = dict[int, float]


@dataclass(frozen=True)
class Odds:
    """What a player sees before a command: sentences, and the numbers behind them."""

    title: str
    lines: tuple[str, ...] = ()
    win: dict[str, float] = field(default_factory=dict)               # roller's force -> P(win)
    raises: dict[str, dict[int, float]] = field(default_factory=dict)  # force -> {raises: P}
    success: float | None = None                                        # against a TN
    wounds: dict[str, Dist] = field(default_factory=dict)               # who -> Wounds total
    percents: dict[str, Dist] = field(default_factory=dict)             # Brutes -> % (capped)
    expected_wounded: dict[str, float] = field(default_factory=dict)


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def contest(s: MassState, entries: list[Entry], title: str) -> Odds:
    if not entries:
        return Odds(title, ("nobody can roll",))
    if len(entries) == 1:
        e = entries[0]
        return Odds(title, (f"{s.says(e.force, 'is')} unopposed",), {e.force: 1.0}, {e.force: {0: 1.0}})
    dists = [distribution(e.pool) for e in entries]
    co = contest_odds(dists, [e.cap for e in entries], s.rules.raise_step)
    lines = []
    for e, w, r in zip(entries, co.win, co.raises, strict=True):
        who = engine._name(s, e.person)
        ra = ", ".join(f"{k}: {_pct(v)}" for k, v in r.items() if v >= 0.0005)
        lines.append(f"{s.forces[e.force].name} ({who}, {e.pool.text()}): {s.agrees(e.force, 'wins')} {_pct(w)}; Raises {ra}")
    return Odds(title, tuple(lines), {e.force: w for e, w in zip(entries, co.win, strict=True)},
                {e.force: r for e, r in zip(entries, co.raises, strict=True)})


def capped(dist: Dist, top: int) -> Dist:
    out: Dist = {}
    for v, p in dist.items():
        out[min(top, v)] = out.get(min(top, v), 0.0) + p
    return out


def wave_wounds(s: MassState) -> Odds:
    lines: list[str] = []
    wounds: dict[str, Dist] = {}
    percents: dict[str, Dist] = {}
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
            d = distribution(wr.pool)
            if wr.carapace:  # §7.2: Carapace N off the total, not below 0
                shifted: dict[int, float] = {}
                for v, p in d.items():
                    shifted[max(0, v - wr.carapace)] = shifted.get(max(0, v - wr.carapace), 0.0) + p
                d = shifted
            armour = f" less Carapace {wr.carapace}" if wr.carapace else ""
            if wr.who.startswith("brutes:"):
                pc = capped(d, s.rules.max_percent)
                percents[key] = pc
                # expected wounded = E[count * pct // 100]
                ew = sum(p * (wr.count * v // 100) for v, p in pc.items())
                expected[key] = ew
                lines.append(f"{f.name}, {wr.label}: {wr.pool.text()}{armour} twice; wounded {mean(pc):.1f}% on average "
                             f"(about {ew:.0f}), of whom {mean(pc):.1f}% die")
            else:
                wounds[key] = d
                lines.append(f"{f.name}, {wr.label}: {wr.pool.text()}{armour} Wounds, {mean(d):.1f} on average")
    return Odds("End of the Wave: casualties", tuple(lines), wounds=wounds, percents=percents,
                expected_wounded=expected)


def preview(s: MassState, command: Any) -> Odds:
    kind = getattr(command, "kind", "")
    if isinstance(command, c.RollWay) and s.stage == command.way:
        return contest(s, way_entries(s, command.way), engine.WAY_TITLE[command.way])
    if isinstance(command, c.ResolveWave):
        return wave_wounds(s)
    if isinstance(command, c.AnswerDuel) and s.duel is not None:
        style = s.duel.style if command.choice == "accept" else "skirmish"
        if command.choice == "refuse":
            return Odds("Refuse the duel", ("refusing counts as fleeing: an Act of Vice",))
        return contest(s, [duel_entry(s, s.duel.challenger, style), duel_entry(s, s.duel.target, style)],
                       f"Duel ({style})")
    if isinstance(command, c.BattleAction):
        return _action_odds(s, command)
    return Odds(str(kind).replace("_", " "))


def _action_odds(s: MassState, cmd: c.BattleAction) -> Odds:
    title = engine.ACTION_TITLE[cmd.action]
    f = s.forces.get(cmd.force)
    if f is None:
        return Odds(title)
    if cmd.action == "duel" and cmd.enemy and s.force_of(cmd.enemy):
        own = cmd.actor if cmd.void else cmd.target
        if own and s.force_of(own):
            style = cmd.option or "skirmish"
            return contest(s, [duel_entry(s, own, style), duel_entry(s, cmd.enemy, style)], f"Duel ({style})")
    if cmd.action == "rallying_cry" and f.commander:
        e, tn = rally_entry(s, f)
        so = success_odds(distribution(e.pool), tn, e.cap, s.rules.raise_step)
        ok = sum(so.values())
        ra = ", ".join(f"{k}: {_pct(v)}" for k, v in so.items() if v >= 0.0005)
        return Odds(title, (f"{e.pool.text()} against TN {tn}: succeeds {_pct(ok)}; Raises {ra}",),
                    success=ok, raises={f.id: so})
    if cmd.action == "contentious_ground" and cmd.target_force in s.forces and f.commander:
        o = s.forces[str(cmd.target_force)]
        if o.commander:
            return contest(s, [plain_entry(s, f, "battle", "water"), plain_entry(s, o, "battle", "water")], title)
    # actions that change the Wave's Wounds: the casualty odds after the action
    after = engine.apply(s, cmd)
    if isinstance(after, Accepted) and after.state.stage == "phases":
        w = wave_wounds(after.state)
        return Odds(title, ("if taken, the Wave's casualties would be:", *w.lines), wounds=w.wounds,
                    percents=w.percents, expected_wounded=w.expected_wounded)
    return Odds(title)


# --------------------------------------------------------------------------- legal commands

def candidates(s: MassState) -> list[BaseModel]:
    out: list[BaseModel] = []
    movers = engine.to_move(s)
    st = s.stage
    if st == "ended" or not movers:
        return out
    if st == "appoint":
        for fid in movers:
            f = s.forces[fid]
            able = [p.id for p in f.people.values() if can_fight(s.rules, p)]
            for h in able:
                for o in able:
                    out.append(c.Appoint(force=fid, heaven=h, honor=o))
        return out
    fid = movers[0]
    f = s.forces[fid]
    if st in ("heaven", "honor", "glory", "strategy"):
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
        out += _action_candidates(s, fid)
    if st not in ("duel_answer", "commander"):
        out += [c.Surrender(force=fid, to=o.id) for o in s.in_field() if o.id != fid]
        out += [c.Cede(force=fid, to=o.id) for o in s.in_field() if o.id != fid]
    return out


def _action_candidates(s: MassState, fid: str) -> list[BaseModel]:
    f = s.forces[fid]
    own = [p.id for p in f.people.values() if can_fight(s.rules, p)]
    others = [o for o in s.in_field() if o.id != fid]
    enemies = [p.id for o in others for p in o.people.values() if can_fight(s.rules, p)]
    out: list[BaseModel] = []
    A = c.BattleAction
    out.append(A(force=fid, action="bonus_effects"))
    out.append(A(force=fid, action="flee"))
    if f.commander:
        out.append(A(force=fid, action="flee", target=f.commander))
    for a in ("rallying_cry", "entrapping_ground", "light_ground"):
        out.append(A(force=fid, action=a))
    for p in own:
        out.append(A(force=fid, action="deadly_ground", target=p))
        out.append(A(force=fid, action="traversable_ground", target=p))
        for opt in ("strategy", "shield"):
            out.append(A(force=fid, action="spell", target=p, option=opt))
        for o in others:
            out.append(A(force=fid, action="spell", target=p, option="wounds", target_force=o.id))
        for e in enemies:
            for style in ("skirmish", "iaijutsu", "taryu"):
                out.append(A(force=fid, action="duel", target=p, enemy=e, option=style))
    for o in others:
        for a in ("contentious_ground", "dispersive_ground", "encircled_ground", "focal_ground", "heavy_ground"):
            out.append(A(force=fid, action=a, target_force=o.id))
    # Void-point actions of this force's individuals (interrupts: any force may use them)
    for p in own:
        for a in ("bonus_effects", "flee", "deadly_ground", "traversable_ground"):
            out.append(A(force=fid, action=a, actor=p, void=True))
        out.append(A(force=fid, action="spell", actor=p, option="shield", void=True))
        for e in enemies:
            out.append(A(force=fid, action="duel", actor=p, enemy=e, option="skirmish", void=True))
    return out


def legal_commands(s: MassState) -> list[BaseModel]:
    """Every candidate the rules accept (tried through `apply`, so the list cannot disagree)."""
    return [cmd for cmd in candidates(s) if isinstance(engine.apply(s, cmd), Accepted)]


def pool_odds(pool: Pool) -> tuple[Dist, float]:
    d = distribution(pool)
    return d, mean(d)
