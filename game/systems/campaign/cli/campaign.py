"""`python -m game campaign ...`: the campaign GM's play-by-post tools.

    campaign play SCENARIO SCRIPT             apply a command script headless, print every event
    campaign seal DRAFT --out FILE            add a secret salt and the fingerprint to a player's orders
    campaign verify FILE [--fingerprint F]    check an order file's orders + salt against its fingerprint
    campaign import SCENARIO SCRIPT FILE...   check the order files and add them to the script as orders
    campaign report SCENARIO SCRIPT --week N [--format md|bbcode] [--orders FILE...]
    campaign plan SCENARIO SCRIPT --battle B --player P   the 36-cell planner in the current state
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import yaml

from game.core.errors import GameFileError, UserError


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("campaign", help="campaign GM tools: sealed order files, fingerprints, week reports",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="campaign_command", metavar="ACTION")
    pl = sub.add_parser("play", help="apply a command script headless and print every event")
    pl.add_argument("scenario")
    pl.add_argument("script")
    pl.add_argument("--quiet", action="store_true", help="print only refusals and the summary")
    pl.set_defaults(func=_play)
    se = sub.add_parser("seal", help="salt and fingerprint a player's draft orders")
    se.add_argument("draft", help="YAML with campaign, week, player and orders")
    se.add_argument("--out", required=True)
    se.add_argument("--salt", default=None, help="a salt of your own (default: a random one)")
    se.set_defaults(func=_seal)
    ve = sub.add_parser("verify", help="check an order file against its (or a posted) fingerprint")
    ve.add_argument("file")
    ve.add_argument("--fingerprint", default=None, help="the fingerprint the player posted publicly")
    ve.add_argument("--salt", default=None, help="the salt revealed later, if the file had none")
    ve.set_defaults(func=_verify)
    im = sub.add_parser("import", help="check order files and append them to a script as orders commands")
    im.add_argument("scenario")
    im.add_argument("script")
    im.add_argument("files", nargs="+")
    im.add_argument("--out", default=None, help="write the extended script here (default: print the commands)")
    im.set_defaults(func=_import)
    rp = sub.add_parser("report", help="a week's battle report as Markdown or BBCode")
    rp.add_argument("scenario")
    rp.add_argument("script")
    rp.add_argument("--week", type=int, required=True)
    rp.add_argument("--format", choices=("md", "bbcode"), default="md")
    rp.add_argument("--orders", nargs="*", default=[], help="the week's order files (prints their salts)")
    rp.add_argument("--out", default=None)
    rp.set_defaults(func=_report)
    pn = sub.add_parser("plan", help="the battle planner: 6 x 6 manoeuvres, exact chances")
    pn.add_argument("scenario")
    pn.add_argument("script")
    pn.add_argument("--battle", required=True)
    pn.add_argument("--player", required=True)
    pn.set_defaults(func=_plan)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def replay(scenario: str, script: str, out: Any = None) -> tuple[Any, Any, list[Any]]:
    """(loaded, record, refusals): the script applied to the scenario through one Record."""
    from game.core.record import Record
    from game.core.system import Rejection
    from game.systems.campaign.io.files import load_campaign, read_script
    from game.systems.campaign.rules import SYSTEM

    loaded = load_campaign(scenario)
    rec = Record(SYSTEM, SYSTEM.initial_state(loaded.setup, loaded.seed))
    refusals = []
    for i, cmd in enumerate(read_script(script)):
        before = rec.state
        outcome = rec.apply(cmd)
        if isinstance(outcome, Rejection):
            refusals.append((i + 1, cmd, outcome.reason))
            if out is not None:
                print(f"REFUSED command {i + 1} ({SYSTEM.describe_command(before, cmd)}): {outcome.reason}", file=out)
            continue
        if out is not None:
            for e in outcome.events:
                print(f"  {SYSTEM.describe_event(before, e)}", file=out)
    return loaded, rec, refusals


def _play(args: argparse.Namespace) -> int:
    from game.systems.campaign.rules import SYSTEM

    _, rec, refusals = replay(args.scenario, args.script, None if args.quiet else sys.stdout)
    if args.quiet:
        for i, _cmd, why in refusals:
            print(f"REFUSED command {i}: {why}")
    print(f"{len(rec.steps)} commands applied, {len(refusals)} refused; {SYSTEM.summary(rec.state)['phase']}, "
          f"week {rec.state.week}")
    return 1 if refusals else 0


def _seal(args: argparse.Namespace) -> int:
    from game.io.datafiles import read_yaml, validate_model
    from game.systems.campaign.io.files import OrderEntry, make_orders_file, write_orders_file

    doc = read_yaml(args.draft, "draft orders")
    data = doc.data if isinstance(doc.data, dict) else {}
    for key in ("campaign", "week", "player", "orders"):
        if key not in data:
            raise GameFileError(args.draft, key, "required field is missing (campaign, week, player, orders)")
    if not isinstance(data["orders"], list):
        raise GameFileError(args.draft, "orders", "expected a list of orders")
    orders = [validate_model(OrderEntry, o, doc, args.draft, ("orders", i), what="order") for i, o in
              enumerate(data["orders"])]
    f = make_orders_file(str(data["campaign"]), int(data["week"]), str(data["player"]), orders, args.salt)
    write_orders_file(args.out, f)
    print(f"sealed {len(orders)} orders of {f.player} for week {f.week} in {args.out}")
    print(f"post this fingerprint publicly now: {f.fingerprint}")
    print("keep the file (it holds the salt) until the GM reveals the week")
    return 0


def _verify(args: argparse.Namespace) -> int:
    from game.systems.campaign.io.files import check_fingerprint, read_orders_file

    f = read_orders_file(args.file)
    ok = check_fingerprint(f, args.salt, args.fingerprint)
    print(f"{args.file}: {'fingerprint matches' if ok else 'FINGERPRINT DOES NOT MATCH'} "
          f"({f.player}, week {f.week}, {len(f.orders)} orders)")
    return 0 if ok else 1


def _import(args: argparse.Namespace) -> int:
    from game.core.system import Rejection
    from game.systems.campaign.io.files import check_fingerprint, read_orders_file
    from game.systems.campaign.rules import SYSTEM
    from game.systems.campaign.rules.commands import GiveOrders

    _, rec, refusals = replay(args.scenario, args.script)
    if refusals:
        raise UserError(f"the script has {len(refusals)} refused commands; fix it first")
    cmds = []
    for path in args.files:
        f = read_orders_file(path)
        if not check_fingerprint(f):
            raise GameFileError(path, "fingerprint", "the orders and salt do not match the fingerprint")
        if f.week != rec.state.week:
            raise GameFileError(path, "week", f"orders for week {f.week}, but the campaign is in week {rec.state.week}")
        for i, o in enumerate(f.orders):
            cmd = GiveOrders(player=f.player, **o.model_dump())
            outcome = rec.apply(cmd)
            if isinstance(outcome, Rejection):
                raise GameFileError(path, f"orders[{i}]", f"refused by the rules: {outcome.reason}")
            cmds.append(SYSTEM.command_to_data(cmd))
    text = yaml.safe_dump(cmds, sort_keys=False, default_flow_style=None)
    if args.out:
        old = Path(args.script).read_text(encoding="utf-8").rstrip("\n")
        Path(args.out).write_text(old + "\n# imported order files: " + ", ".join(args.files) + "\n" + text,
                                  encoding="utf-8")
        print(f"wrote {args.out} ({len(cmds)} orders added); {SYSTEM.summary(rec.state)['phase']}")
    else:
        print(text, end="")
    return 0


def _report(args: argparse.Namespace) -> int:
    from game.systems.campaign.io.files import canonical_orders, check_fingerprint, read_orders_file
    from game.systems.campaign.rules.report import Seal, week_report

    _, rec, _ = replay(args.scenario, args.script)
    steps = [s for s in rec.steps if s.before.week == args.week]
    if not steps:
        raise UserError(f"the script does not reach week {args.week}")
    seals = {}
    for path in args.orders:
        f = read_orders_file(path)
        if not check_fingerprint(f) or f.salt is None:
            raise GameFileError(path, "fingerprint", "the orders and salt do not match the fingerprint")
        seals[f.player] = Seal(f.player, f.fingerprint, f.salt, canonical_orders(f.orders))
    events = [e for s in steps for e in s.events]
    text = week_report(steps[0].before, events, args.week, args.format, seals)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}")
    else:
        print(text, end="")
    return 0


def _plan(args: argparse.Namespace) -> int:
    from game.systems.campaign.rules import SYSTEM
    from game.systems.campaign.rules.models import MANOEUVRE_NAMES
    from game.systems.campaign.rules.planner import plan

    _, rec, _ = replay(args.scenario, args.script)
    state = SYSTEM.view(rec.state, args.player)
    if args.battle not in state.battles:
        raise UserError(f"no battle {args.battle}; battles: {', '.join(state.battles) or 'none'}")
    p = plan(state, args.battle, args.player)
    print(f"planner for {state.player_name(args.player)} in {args.battle} (win / draw / lose, expected casualties "
          "taken : inflicted)")
    for n in p.notes:
        print(f"  {n}")
    for c in p.cells:
        lose = sum(v for k, v in c.chances.items() if k.startswith("lose"))
        print(f"  {MANOEUVRE_NAMES[c.mine]:>12} vs {MANOEUVRE_NAMES[c.theirs]:<12} {c.my_dice:>2}d vs {c.their_dice:>2}d  "
              f"win {c.win:6.1%}  draw {c.chances['draw']:6.1%}  lose {lose:6.1%}  "
              f"cas {c.casualties_taken:4.2f} : {c.casualties_inflicted:4.2f}")
    return 0
