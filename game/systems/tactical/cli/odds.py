"""`python -m game odds SCENARIO --attacker ID --target ID [--weapon NAME] [--advantage N] [--json]`

Prints the Accuracy Challenge part by part and the exact outcome distribution of one attack
between two units placed by a scenario, as they stand at the start of the battle (nobody has moved
yet, so the attacker is braced unless --moved is given).
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from typing import Any

from game.core.errors import UserError
from game.core.hexgrid import distance
from game.systems.tactical.io.scenario import load_scenario
from game.systems.tactical.rules.attack import (
    RESULTS,
    AttackSetup,
    Combatant,
    accuracy_challenge,
    damage_needs,
    defence_rolls,
    fp_excess,
    hit_die,
    hit_modifiers,
    hit_stat_and_skill,
    target_defences,
)
from game.systems.tactical.rules.los import has_line_of_sight
from game.systems.tactical.rules.models import BattleSetup, UnitSetup
from game.systems.tactical.rules.odds import Odds, outcome_distribution

BAR_WIDTH = 32
RESULT_WORDS = {
    "no_hit": "no hit", "no_effect": "hit, no effect", "steady": "steady", "pinned": "pinned",
    "out_of_action": "out of action", "destroyed": "destroyed", "annihilated": "annihilated",
}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "odds", help="exact odds of one attack between two units of a scenario",
        description="Print the Accuracy Challenge and the exact probability of every outcome of an attack "
                    "between two units of a scenario, as placed at the start of the battle.")
    p.add_argument("path", metavar="PATH", help="scenario file (.yaml)")
    p.add_argument("--attacker", required=True, metavar="ID", help="id of the attacking unit")
    p.add_argument("--target", required=True, metavar="ID", help="id of the target unit")
    p.add_argument("--weapon", metavar="NAME", help="weapon name (default: the attacker's first usable weapon)")
    p.add_argument("--advantage", type=int, default=0, metavar="N", help="Advantage points spent on the hit roll")
    p.add_argument("--moved", action="store_true", help="the attacker has moved this turn (not braced)")
    p.add_argument("--overwatch", action="store_true", help="an overwatch snap shot (-2)")
    p.add_argument("--defensive-action", action="store_true", help="the target takes a defensive action (+5 AC)")
    p.add_argument("--stance", choices=["none", "overwatch", "guard", "defensive"], default="none",
                   help="the target's stance")
    p.add_argument("--json", action="store_true", help="print JSON for machines")
    p.set_defaults(func=run)


def _unit(setup: BattleSetup, unit_id: str, role: str) -> UnitSetup:
    for u in setup.units:
        if u.id == unit_id:
            return u
    known = ", ".join(u.id for u in setup.units)
    raise UserError(f"no unit with id {unit_id!r} to be the {role}; the scenario has: {known}")


def build_setup(setup: BattleSetup, board: Any, args: argparse.Namespace) -> AttackSetup:
    """The AttackSetup the command line describes, or a UserError saying what is wrong."""
    if args.advantage < 0:
        raise UserError("--advantage must be 0 or more")
    au, tu = _unit(setup, args.attacker, "attacker"), _unit(setup, args.target, "target")
    if au.id == tu.id:
        raise UserError("a unit cannot attack itself")
    at, tt = setup.catalogue.units[au.type], setup.catalogue.units[tu.type]
    if not at.weapons:
        raise UserError(f"{at.name} ({au.id}) has no weapons")
    attacker = Combatant(au.id, at, au.at, at.strength if au.strength is None else au.strength,
                         braced=not args.moved)
    target = Combatant(tu.id, tt, tu.at, tt.strength if tu.strength is None else tu.strength,
                       stance=args.stance)
    spotted = any(u.side == au.side and u.id != au.id
                  and has_line_of_sight(board, setup.rules, u.at, tu.at) for u in setup.units)

    def make(weapon_index: int) -> AttackSetup:
        return AttackSetup(attacker, target, at.weapons[weapon_index], board, setup.rules,
                           overwatch_shot=args.overwatch, defensive_action=args.defensive_action,
                           advantage=args.advantage, spotted=spotted)

    if args.weapon is not None:
        names = [w.name for w in at.weapons]
        matches = [i for i, n in enumerate(names) if n.lower() == args.weapon.lower()]
        if not matches:
            raise UserError(f"{at.name} ({au.id}) has no weapon {args.weapon!r}; it has: {', '.join(names)}")
        chosen = make(matches[0])
    else:
        candidates = [make(i) for i in range(len(at.weapons))]
        chosen = next((c for c in candidates if not isinstance(accuracy_challenge(c), str)), candidates[0])
    reason = accuracy_challenge(chosen)
    if isinstance(reason, str):
        raise UserError(f"{at.name} ({au.id}) cannot attack {tt.name} ({tu.id}) with {chosen.weapon.name}: {reason}")
    return chosen


def _pct(p: Fraction) -> str:
    if 0 < p < Fraction(1, 20000):
        return " <0.01%"  # possible, but would print as 0.00%
    return f"{float(p) * 100:6.2f}%"


def _bar(p: Fraction) -> str:
    n = round(float(p) * BAR_WIDTH)
    return "#" * n if n or p == 0 else "."


def describe(s: AttackSetup, odds: Odds) -> list[str]:
    """The human-readable report: who, the AC, each roll's recipe, the outcome table."""
    a, t, w = s.attacker, s.target, s.weapon
    lines = [f"{a.name} ({a.unit_id}) attacks {t.name} ({t.unit_id}, strength {t.strength}) "
             f"with {w.name}, {distance(a.hex, t.hex)} hex(es)"]
    lines.append(odds.ac.describe())
    stat_name, stat, skill_name, skill = hit_stat_and_skill(a.unit_type, w)
    mods = "".join(f" {m.value:+d} {m.label}" for m in hit_modifiers(s))
    lines.append(f"hit roll: {stat_name} {stat} + {skill_name} {skill} + d{hit_die(s)}{mods}, "
                 f"needs {odds.ac.total}; every 5 over is one more hit")
    needs = damage_needs(w.fp, t.unit_type.durability, s.rules)
    lines.append(f"damage: d10 per hit, FP {w.fp} vs DUR {t.unit_type.durability} needs {needs}+"
                 + (f", each removes {w.damage} strength" if w.damage != 1 else ""))
    rolls = defence_rolls(w, target_defences(s))
    if rolls or odds.notes:
        bits = [f"{r.label} {r.target}+ ({r.effect})" for r in rolls]
        lines.append("defences: " + ("; then ".join(bits) if bits else "none") +
                     "".join(f" [{n}]" for n in odds.notes))
    excess = fp_excess(w, t.unit_type)
    lines.append(f"casualty roll per strength point: d{s.rules.casualty.die} + morale {t.unit_type.morale:+d} "
                 f"+ strength left" + (f" - {excess} (FP over DUR)" if excess else "")
                 + f", +{s.rules.casualty.reduced_bonus} if reduced")
    lines.append("")
    lines.append(f"chance to hit {_pct(odds.hit_chance)}; expected strength lost "
                 f"{float(odds.expected_strength_lost):.3f}")
    lines.append("")
    lines.append(f"{'outcome':<16}{'chance':>8}")
    results = odds.results
    for r in RESULTS:
        lines.append(f"{RESULT_WORDS[r]:<16}{_pct(results[r]):>8}  {_bar(results[r])}")
    lines.append("")
    lines.append(f"{'strength lost':<16}{'chance':>8}")
    for k, p in odds.strength_lost.items():
        lines.append(f"{k:<16}{_pct(p):>8}  {_bar(p)}")
    lines.append("")
    lines.append("strength lost x result (%):")
    present = [r for r in RESULTS if results[r]]
    lines.append(f"{'lost':<6}" + "".join(f"{RESULT_WORDS[r]:>16}" for r in present))
    for k in range(odds.strength + 1):
        cells = [odds.joint.get((k, r), Fraction(0)) for r in present]
        if any(cells):
            lines.append(f"{k:<6}" + "".join(f"{_pct(c).strip():>16}" if c else f"{'-':>16}" for c in cells))
    return lines


def run(args: argparse.Namespace) -> int:
    loaded = load_scenario(args.path)
    s = build_setup(loaded.setup, loaded.board, args)
    odds = outcome_distribution(s)
    if args.json:
        data = {"attacker": s.attacker.unit_id, "target": s.target.unit_id, "weapon": s.weapon.name,
                "advantage": s.advantage, **odds.as_dict()}
        print(json.dumps(data, indent=2))
    else:
        print("\n".join(describe(s, odds)))
    return 0
