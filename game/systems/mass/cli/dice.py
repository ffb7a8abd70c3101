"""`python -m game dice 6k3 --at-least 25`: the exact chance and the distribution of a
roll-and-keep pool (game.core.rollkeep). `--vs 5k3` gives an opposed roll: each side's chance of
winning (ties re-rolled) and of each number of Raises, each roller with its own Raise cap
(`--raise-cap` for the pool, `--vs-raise-cap` for the other; battle-waves §7.6)."""

from __future__ import annotations

import argparse
import re
from typing import Any

from game.core.errors import UserError
from game.core.rollkeep import Pool, at_least, contest_odds, distribution, lost_mass, mean
from game.core.system import counted

MAX_DIGITS = 6  # a pool's numbers: 999999 dice is already far past any roll (the Ten Dice Rule caps it)
_POOL = re.compile(r"^\s*(\d+)\s*k\s*(\d+)\s*([+-]\s*\d+)?\s*$", re.IGNORECASE)


def parse_pool(text: str, *, explode: bool = True) -> Any:
    m = _POOL.match(text)
    if not m:
        raise UserError(f"{text!r} is not a roll-and-keep pool: expected XkY or XkY+Z (e.g. 6k3, 10k10+4)")
    for part, what in ((m.group(1), "dice rolled"), (m.group(2), "dice kept"), (m.group(3), "bonus")):
        if part is not None and len(part.replace(" ", "").lstrip("+-").lstrip("0")) > MAX_DIGITS:
            raise UserError(f"{text[:40] + ('...' if len(text) > 40 else '')!r}: the {what} has more than {MAX_DIGITS} digits; expected a pool "
                            "such as 6k3 or 10k10+4")
    bonus = int(m.group(3).replace(" ", "")) if m.group(3) else 0
    return Pool.of(int(m.group(1)), int(m.group(2)), bonus, explode=explode)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "dice", help="exact odds of a roll-and-keep pool (XkY)",
        description="Exact distribution of an XkY pool: roll X ten-sided dice, keep the Y highest, 10s "
        "explode (not with --unskilled); the Ten Dice Rule applies (12k4 is rolled as 10k5).")
    p.add_argument("pool", help="XkY or XkY+Z, e.g. 6k3, 13k9, 7k6-1")
    p.add_argument("--at-least", type=int, metavar="N", help="print the chance of a total of N or more")
    p.add_argument("--unskilled", action="store_true", help="no explosions (an unskilled roll)")
    p.add_argument("--vs", metavar="POOL", help="an opposing pool: the chance of winning and of each Raise")
    p.add_argument("--raise-cap", type=int, default=10, metavar="N", help="most Raises of the pool (its roller's Void)")
    p.add_argument("--vs-raise-cap", type=int, default=None, metavar="N",
                   help="most Raises of the --vs pool (its roller's Void; default: the same as --raise-cap)")
    p.add_argument("--no-table", action="store_true", help="do not print the distribution")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for cap in (args.raise_cap, args.vs_raise_cap):
        if cap is not None and cap < 0:
            raise UserError(f"a Raise cap is 0 or more, not {cap}")
    pool = parse_pool(args.pool, explode=not args.unskilled)
    dist = distribution(pool)
    conv = pool.conversion()
    print(f"{args.pool.strip()}: rolled as {pool.text()}" + (f" (Ten Dice Rule: {conv})" if conv else ""))
    print(f"  mean {mean(dist):.4f}; truncation leaves out {lost_mass(pool):.1e} of the probability")
    if args.at_least is not None:
        print(f"  P(total >= {args.at_least}) = {at_least(dist, args.at_least):.4f}")
    if args.vs:
        other = parse_pool(args.vs, explode=not args.unskilled)
        caps = [args.raise_cap, args.raise_cap if args.vs_raise_cap is None else args.vs_raise_cap]
        co = contest_odds([dist, distribution(other)], caps)
        print(f"  against {other.text()} (ties re-rolled):")
        for i, (name, cap) in enumerate(((pool.text(), caps[0]), (other.text(), caps[1]))):
            print(f"    {name} wins {co.win[i]:.4f} (at most {counted(cap, 'Raise', 'Raises')})")
            for r, pr in co.raises[i].items():
                print(f"      with {counted(r, 'Raise', 'Raises')}: {pr:.4f}")
    if not args.no_table:
        print("  total  P(=)     P(>=)")
        acc = 1.0
        for v in sorted(dist):
            p = dist[v]
            if acc < 1e-5:
                print(f"  ...    (the rest: {acc:.1e})")
                break
            if p >= 5e-6:
                print(f"  {v:5d}  {p:.5f}  {acc:.5f}")
            acc -= p
    return 0
