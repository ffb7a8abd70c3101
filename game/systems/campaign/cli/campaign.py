"""`python -m game campaign ...`: the campaign GM's and players' play-by-post tools (docs/campaign.md).

    campaign play SCENARIO SCRIPT             apply a command script headless, print every event
    campaign brief SCENARIO GAME --player P   a player's view of the week: armies, units, battles,
                                              eligible stratagems and a draft to fill in: the orders,
                                              or the phase's turn file (moves, pick-ups,
                                              declarations, story posts; never sealed)
    campaign seal DRAFT --out FILE [--scenario S --game G]
                                              check a draft (against the player's view when the
                                              game is given), add a secret salt and the fingerprint
    campaign verify FILE [--fingerprint F]    check an order file against its (or a posted) fingerprint
    campaign import SCENARIO GAME FILE... [--fingerprint P=F...]
                                              a verdict per order file (against the posted
                                              fingerprints when given); the good ones become orders;
                                              turn files are checked against the player's view and
                                              the rules and put in the rules' order (any refused:
                                              nothing is written)
    campaign report SCENARIO GAME --week N [--format md|bbcode] [--orders FILE...] [--picture PNG]
    campaign status SCENARIO GAME             which battles are open and whose orders are in
    campaign commit SCENARIO GAME --out SECRET   fresh secrets for the week's dice and scouting dice;
                                              post both commitments before any move of the week
    campaign import SCENARIO GAME --scouting SECRET --out GAME2
                                              the week's scouting dice drawn from the scouting secret
                                              (gm_scouting_seed put before the week's first declaration)
    campaign import ... --secret SECRET       the week's dice drawn from the secret and every salt
    campaign verify-dice SCENARIO GAME --week N [--commitment C] [--scouting-commitment C]
                         [--orders FILE...] [--fingerprint P=F...]
                                              exit 0: the dice check out; 1: a problem; 2: a commitment,
                                              a player's salt or the scouting dice not checked
    campaign plan SCENARIO GAME --battle B --player P   the 36-cell planner in the current state

GAME is a command script or a campaign save (the window's saves included). A script with a command
the rules refuse is refused by report, verify-dice, import, commit and seal --game (status, brief and
plan show it without that command, after a warning). No command writes over an existing order file,
draft, report or GM secret.
"""

from __future__ import annotations

import argparse
import os
import secrets as _secrets
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from game.core.dice import Rng
from game.core.errors import GameFileError, UserError
from game.core.record import Record
from game.core.system import Rejection, counted
from game.io.datafiles import format_loc, read_yaml, validate_model
from game.io.outpaths import check_destination, write_output
from game.io.safe_read import MAX_LARGE_FILE_BYTES, read_text
from game.io.saves import BACKUP_SUFFIX
from game.io.sniff import sniff_kind
from game.replay import load_game
from game.systems.campaign.cli.trust import (
    SECRET_KIND,
    TURN_KIND,
    earlier_seed,
    insert_command,
    new_file,
    read_order_file,
    refuse_precious,
    refuse_refusals,
    script_line,
    used_scouting,
    warn_refusals,
    what_found,
    where_in,
)
from game.systems.campaign.cli.turns import (
    LISTS,
    Refusals,
    check_layout,
    command_lines,
    import_turns,
    print_refusals,
    sort_file,
    turn_draft,
    with_commands,
)
from game.systems.campaign.io.files import (
    OrderEntry,
    canonical_orders,
    check_fingerprint,
    fingerprint,
    load_campaign,
    make_orders_file,
    parse_fingerprint,
    read_script,
    remember_salt,
    salt_problem,
    salt_used,
    write_orders_file,
)
from game.systems.campaign.rules import SYSTEM, hexes
from game.systems.campaign.rules.battle import scouting_dice, side_facts
from game.systems.campaign.rules.combat import orders_refusal
from game.systems.campaign.rules.commands import GiveOrders, GmDiceSeed, GmScoutingSeed, parse_command
from game.systems.campaign.rules.describe import event_text
from game.systems.campaign.rules.dice_seed import commitment_of, ordering_players, scouting_seed, week_seed
from game.systems.campaign.rules.engine import held_in_battle, movement_points
from game.systems.campaign.rules.equilibrium import BAND_WORTH, equilibrium
from game.systems.campaign.rules.models import MANOEUVRE_NAMES, MANOEUVRES, STRATAGEMS
from game.systems.campaign.rules.planner import plan
from game.systems.campaign.rules.queries import orders_options, sealed_by, waiting_for
from game.systems.campaign.rules.report import Seal, escape, week_report
from game.systems.campaign.rules.state import PHASE_NAMES


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("campaign", help="campaign play-by-post tools: briefs, sealed orders, reports",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="campaign_command", metavar="ACTION")
    pl = sub.add_parser("play", help="apply a command script headless and print every event")
    pl.add_argument("scenario")
    pl.add_argument("script")
    pl.add_argument("--quiet", action="store_true", help="print only refusals and the summary")
    pl.set_defaults(func=_play)
    br = sub.add_parser("brief", help="a player's view of the week and a draft to fill in (orders, or the phase's turn file)")
    br.add_argument("scenario")
    br.add_argument("script", metavar="GAME", help="a command script or a campaign save")
    br.add_argument("--player", required=True)
    br.add_argument("--draft", default=None, metavar="FILE", help="also write the draft here (a new file)")
    br.set_defaults(func=_brief)
    se = sub.add_parser("seal", help="check, salt and fingerprint a player's draft orders")
    se.add_argument("draft", help="YAML with campaign, week, player and orders")
    se.add_argument("--out", required=True)
    se.add_argument("--salt", default=None,
                    help="a salt of your own: at least 32 random characters, never used before "
                         "(default: a fresh random one)")
    se.add_argument("--scenario", default=None, help="the campaign scenario (with --game: check the draft)")
    se.add_argument("--game", default=None, help="the command script or save of the campaign so far")
    se.set_defaults(func=_seal)
    ve = sub.add_parser("verify", help="check an order file against its (or a posted) fingerprint")
    ve.add_argument("file")
    ve.add_argument("--fingerprint", default=None,
                    help="the fingerprint the player posted publicly (with or without 'sha256:')")
    ve.add_argument("--salt", default=None, help="the salt revealed later, if the file had none")
    ve.set_defaults(func=_verify)
    im = sub.add_parser("import", help="check order files and turn files and append them to a script")
    im.add_argument("scenario")
    im.add_argument("script")
    im.add_argument("files", nargs="*")
    im.add_argument("--out", default=None, help="write the extended script here (default: print the commands)")
    im.add_argument("--secret", default=None, metavar="SECRET_FILE",
                    help="draw the week's dice from this secret (campaign commit) and every file's salt")
    im.add_argument("--fingerprint", nargs="*", default=[], metavar="PLAYER=FINGERPRINT",
                    help="the fingerprints the players posted: a file whose fingerprint is not its player's posted "
                         "one is refused (sealed again after the post)")
    im.add_argument("--scouting", default=None, metavar="SECRET_FILE",
                    help="draw the week's scouting dice from this file's scouting secret (campaign commit): "
                         "gm_scouting_seed goes before the week's first declaration")
    im.set_defaults(func=_import)
    cm = sub.add_parser("commit", help="fresh secrets for the week's dice and scouting dice, and the commitments "
                                       "to post")
    cm.add_argument("scenario")
    cm.add_argument("script", metavar="GAME")
    cm.add_argument("--out", required=True, metavar="SECRET_FILE")
    cm.set_defaults(func=_commit)
    vd = sub.add_parser("verify-dice", help="check that a week's dice came from the committed secret and the salts")
    vd.add_argument("scenario")
    vd.add_argument("script", metavar="GAME")
    vd.add_argument("--week", type=int, required=True)
    vd.add_argument("--commitment", default=None, help="the commitment the GM posted before the orders")
    vd.add_argument("--scouting-commitment", default=None,
                    help="the scouting commitment the GM posted before the week's first move")
    vd.add_argument("--orders", nargs="*", default=[], help="the week's order files")
    vd.add_argument("--fingerprint", nargs="*", default=[], metavar="PLAYER=FINGERPRINT",
                    help="the fingerprints the players posted")
    vd.set_defaults(func=_verify_dice)
    rp = sub.add_parser("report", help="a week's battle report as Markdown or phpBB BBCode")
    rp.add_argument("scenario")
    rp.add_argument("script", metavar="GAME", help="a command script or a campaign save")
    rp.add_argument("--week", type=int, required=True)
    rp.add_argument("--format", choices=("md", "bbcode"), default="md")
    rp.add_argument("--orders", nargs="*", default=[], help="the week's order files (prints their salts)")
    rp.add_argument("--picture", default=None, help="the map picture's file name, mentioned in the report")
    rp.add_argument("--out", default=None)
    rp.set_defaults(func=_report)
    st = sub.add_parser("status", help="which battles are open and whose orders are in (a post to pin)")
    st.add_argument("scenario")
    st.add_argument("script", metavar="GAME", help="a command script or a campaign save")
    st.add_argument("--format", choices=("md", "bbcode"), default="md")
    st.set_defaults(func=_status)
    pn = sub.add_parser("plan", help="the battle planner: 6 x 6 manoeuvres, exact chances")
    pn.add_argument("scenario")
    pn.add_argument("script", metavar="GAME")
    pn.add_argument("--battle", required=True)
    pn.add_argument("--player", required=True)
    pn.set_defaults(func=_plan)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def replay(scenario: str, script: str, out: Any = None) -> tuple[Any, Any, list[Any]]:
    """(loaded, record, refusals): the script applied to the scenario through one Record."""
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


@dataclass
class Game:
    """A campaign so far, from a command script or a save: the scenario and the record of it."""

    loaded: Any
    record: Any
    refusals: list[Any]
    from_save: bool


def load_game_or_script(table: Any, scenario: str, game: str, *, strict: bool = True) -> Game:
    """The campaign in `game`: a save (made in the window or by `run`; verified by replaying it)
    or a command script applied to `scenario`. A save of another campaign or system is refused.
    A script with a command the rules refuse is refused (`strict`, the trust commands) or shown
    without it after a warning naming its line and the rules' reason."""
    if sniff_kind(game) == "save":
        g = load_game(table, game)
        if g.header.system != "campaign":
            raise GameFileError(game, "header", f"a {g.header.system} save, not a campaign save")
        loaded = load_campaign(scenario)
        if g.scenario.name != loaded.name:
            raise GameFileError(game, "header", f"a save of the campaign {g.scenario.name!r}, not of "
                                                f"{loaded.name!r} ({scenario})")
        return Game(g.scenario, g.record, [], True)
    loaded, rec, refusals = replay(scenario, game)
    if strict:
        refuse_refusals(game, refusals)
    else:
        warn_refusals(game, refusals)
    return Game(loaded, rec, refusals, False)


def _play(args: argparse.Namespace) -> int:
    _, rec, refusals = replay(args.scenario, args.script, None if args.quiet else sys.stdout)
    if args.quiet:
        for i, _cmd, why in refusals:
            print(f"REFUSED command {i}: {why}")
    print(f"{counted(len(rec.steps), 'command', 'commands')} applied, {len(refusals)} refused; {SYSTEM.summary(rec.state)['phase']}, "
          f"week {rec.state.week}")
    return 1 if refusals else 0


# --------------------------------------------------------------------------- drafts and seals


def _read_draft(path: str) -> tuple[dict[str, Any], list[Any]]:
    doc = read_yaml(path, "YAML draft of orders")
    data = doc.data if isinstance(doc.data, dict) else {}
    if not isinstance(doc.data, dict):
        raise GameFileError(path, "", "expected a draft: a mapping with campaign, week, player and orders; "
                                      f"{what_found(doc.data)}")
    if data.get("kind") == SECRET_KIND:
        raise GameFileError(path, "kind", "a GM's dice secret file (campaign commit), not a draft of orders; keep it "
                                          "private until the week's report")
    if data.get("kind") == TURN_KIND:
        raise GameFileError(path, where_in(path, "kind"), f"a player's turn file for the "
                            f"{str(data.get('phase'))[:20]} phase, not a draft of orders: it is not sealed (only "
                            "battle orders are); send it to the GM as it is, whose campaign import checks it")
    for key in ("campaign", "week", "player", "orders"):
        if key not in data:
            raise GameFileError(path, key, "required field is missing (campaign, week, player, orders)")
    if not isinstance(data["week"], int) or isinstance(data["week"], bool) or not 1 <= data["week"] <= 100_000:
        raise GameFileError(path, "week", f"expected a week number, not {str(data['week'])[:40]!r}")
    for key in ("campaign", "player"):
        if not isinstance(data[key], (str, int)) or isinstance(data[key], bool):
            raise GameFileError(path, key, f"expected a name; {what_found(data[key])}")
        if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in str(data[key])):
            raise GameFileError(path, key, "a control character in a name; expected printable text")
    if not isinstance(data["orders"], list):
        raise GameFileError(path, "orders", f"expected a list of orders; {what_found(data['orders'])}")
    for i, o in enumerate(data["orders"]):
        _check_draft_shapes(path, doc, i, o)
    orders = [validate_model(OrderEntry, o, doc, path, ("orders", i), what="order") for i, o in
              enumerate(data["orders"])]
    return data, orders


def _check_draft_shapes(path: str, doc: Any, i: int, order: Any) -> None:
    """A hand-edited draft's lists and hexes, said in a player's words (the model's own message
    would be "input should be a valid tuple")."""
    if not isinstance(order, dict):
        return
    if "rearguard" in order:
        line = doc.line_of(("orders", i, "rearguard"))
        where = format_loc(("orders", i, "rearguard"))
        raise GameFileError(path, f"line {line}: {where}" if line else where,
                            "a Withdraw's rearguard is written as its vanguard: vanguard: UNIT")
    shapes = (("stratagems", "a list in brackets, e.g. stratagems: [flee], or [] for none", None),
              ("withdraw_to", "a hex as [column, row], e.g. withdraw_to: [20, 27]", 2),
              ("breakthrough_to", "a hex as [column, row], e.g. breakthrough_to: [28, 10]", 2))
    for key, want, size in shapes:
        if key not in order:
            continue
        v = order[key]
        if v is None and key != "stratagems":
            continue
        if not isinstance(v, list) or (size is not None and len(v) != size):
            line = doc.line_of(("orders", i, key))
            where = format_loc(("orders", i, key))
            raise GameFileError(path, f"line {line}: {where}" if line else where,
                                f"expected {want}; {what_found(v)}")


def check_orders(game: Game, campaign: str, week: int, player: str, orders: list[Any], path: str) -> None:
    """The draft or order file against the player's view of the campaign now: its campaign, week
    and player, and each order as the rules would take it (battle, side, manoeuvre, vanguard,
    stratagems, hexes). GameFileError naming the field and the reason."""
    state = game.record.state
    if campaign != game.loaded.name:
        raise GameFileError(path, where_in(path, "campaign"), f"orders for the campaign {campaign!r}, but this is "
                                              f"{game.loaded.name!r}")
    if week != state.week:
        raise GameFileError(path, where_in(path, "week"), f"orders for week {week}, but the campaign is in week "
                                                          f"{state.week}")
    if player not in state.players:
        raise GameFileError(path, where_in(path, "player"), f"no player {player!r}; players are "
                                                            f"{', '.join(state.players)} (spelt exactly)")
    if state.phase != "orders":
        wanted = " (it waits for the players' turn files: campaign brief --draft writes them)" \
            if state.phase in LISTS else ""
        raise GameFileError(path, where_in(path, "orders"), f"the campaign is in the "
                            f"{PHASE_NAMES.get(state.phase, state.phase)} phase of week {state.week}; orders are "
                            f"given in the battle orders phase{wanted}")
    seen: set[str] = set()
    view = SYSTEM.view(state, player)
    for i, o in enumerate(orders):
        if o.battle in seen:
            raise GameFileError(path, where_in(path, "orders", i, "battle"), f"a second order for battle {o.battle}; "
                                                                             "one order per battle")
        seen.add(o.battle)
        outcome = SYSTEM.apply(view, GiveOrders(player=player, **o.model_dump()))
        if isinstance(outcome, Rejection):
            extra = _your_battles(state, player, o.battle)
            why = outcome.reason.rstrip(".") + extra if extra else outcome.reason
            raise GameFileError(path, where_in(path, "orders", i), f"refused by the rules: {why}")
        view = SYSTEM.view(outcome.state, player)
    missing = [b.id for b in state.open_games() if player in b.sides and b.fought_as == "tables"
               and player not in b.orders and b.id not in seen]
    if missing:
        raise GameFileError(path, where_in(path, "orders"), f"no order for battle {', '.join(missing)}; every "
                                                            f"battle of {state.player_name(player)} needs one")


def _your_battles(state: Any, player: str, battle: str) -> str:
    """For a refused order naming a battle that is not the player's: which battles are."""
    b = state.battles.get(battle)
    if b is not None and not b.over and player in b.sides:
        return ""
    mine = [x.id for x in state.open_games() if player in x.sides and x.fought_as == "tables"]
    return (f" (the battles of {state.player_name(player)} this week: {', '.join(mine)})" if mine else
            f" ({state.player_says(player, 'has')} no battle on the tables this week)")


def _seal(args: argparse.Namespace) -> int:
    inputs = tuple(x for x in (args.draft, args.scenario, args.game) if x)
    new_file(args.out, "order file", "an order file holds the salt behind a fingerprint that may be posted "
             "already", inputs=inputs)
    data, orders = _read_draft(args.draft)
    if (args.scenario is None) != (args.game is None):
        raise UserError("give both --scenario and --game to check the draft against the campaign")
    if args.scenario is not None:
        game = load_game_or_script(args.table, args.scenario, args.game)
        check_orders(game, str(data["campaign"]), int(data["week"]), str(data["player"]), orders, args.draft)
    if not orders:
        raise GameFileError(args.draft, where_in(args.draft, "orders"),
                            f"no orders to seal: {data['player']} gives orders only in a battle of theirs fought "
                            "on the tables; without one there is nothing to seal (and no salt the week's dice need)")
    if args.salt is not None:
        why = salt_problem(args.salt)
        if why is None and salt_used(args.salt):
            why = "this salt was used before (a revealed salt is public: anyone could recover the orders)"
        if why:
            raise UserError(f"--salt: {why}; leave --salt out for a fresh random one")
    f = make_orders_file(str(data["campaign"]), int(data["week"]), str(data["player"]), orders, args.salt)
    write_orders_file(args.out, f, inputs=inputs)
    remember_salt(f.salt or "")
    checked = " (checked against the campaign)" if args.scenario else " (not checked against the campaign: " \
        "give --scenario and --game)"
    print(f"sealed {counted(len(orders), 'order', 'orders')} of {f.player} for week {f.week} in {args.out}{checked}")
    print(f"post this fingerprint publicly now: {f.fingerprint}")
    print(f"send {args.out} to the GM privately once every player's fingerprint of the week is posted, and keep a "
          "copy: it holds the salt, which the report reveals")
    return 0


def changed_after_sealing(path: str, f: Any) -> GameFileError:
    """The refusal of an order file whose fields no longer give its fingerprint line."""
    if f.salt is None:
        return GameFileError(path, where_in(path, "salt"), "no salt (a public copy): the orders cannot be checked "
                                                           "against the fingerprint; give the file campaign seal wrote")
    got = fingerprint(f.orders, f.salt, week=f.week, player=f.player, campaign=f.campaign, kind=f.kind)
    return GameFileError(path, where_in(path, "fingerprint"),
                         f"the orders and salt do not match the fingerprint: they give {got}, the file says "
                         f"{f.fingerprint} (changed after sealing); only the file as sealed is taken")


def _verify(args: argparse.Namespace) -> int:
    if args.fingerprint is not None:
        try:
            parse_fingerprint(args.fingerprint)
        except ValueError as exc:
            raise UserError(f"--fingerprint: {exc}") from None
    f = read_order_file(args.file)
    if f.salt is None and args.salt is None:
        raise UserError(f"{args.file}: the file has no salt (a public copy); give the revealed one with --salt")
    ok = check_fingerprint(f, args.salt, args.fingerprint)
    about = f"({f.campaign}, {f.player}, week {f.week}, {counted(len(f.orders), 'order', 'orders')})"
    if ok:
        print(f"{args.file}: fingerprint matches {about}")
        return 0
    got = fingerprint(f.orders, args.salt if args.salt is not None else f.salt or "", week=f.week, player=f.player,
                      campaign=f.campaign, kind=f.kind)
    if args.fingerprint is not None:
        posted = parse_fingerprint(args.fingerprint)
        why = (f"its orders and salt give {got}, not the posted {posted}"
               + (" (the file's own fingerprint line matches them: sealed again after the post?)"
                  if got == f.fingerprint else
                  "; the file's fingerprint line is the posted one, so a field was changed after sealing"
                  if f.fingerprint == posted else f"; the file's fingerprint line says {f.fingerprint}"))
    else:
        why = (f"its orders and salt give {got}, but its fingerprint line says {f.fingerprint}: a field was "
               "changed after sealing")
    print(f"{args.file}: FINGERPRINT DOES NOT MATCH {about}: {why}")
    return 1


def _import(args: argparse.Namespace) -> int:
    inputs = (args.scenario, args.script, *args.files, args.secret, args.scouting)
    if not args.files and args.scouting is None:
        raise UserError("name the order files or turn files to import (or give --scouting SECRET_FILE for the week's scouting seed)")
    if args.scouting is not None and args.out is None:
        raise UserError("--scouting puts the scouting seed inside the script: give --out for the new script")
    if args.out is not None:
        check_destination(args.out, "script", inputs=inputs)
        refuse_precious(args.out, "script")
    game = load_game_or_script(args.table, args.scenario, args.script)
    if game.from_save:
        raise UserError(f"{args.script}: a save; import adds orders to a command script: keep the campaign in a "
                        "command script (python -m game run SCENARIO --commands SCRIPT --out SAVE makes a save of "
                        "it), or give the orders in the window")
    old = read_text(args.script, "command script", limit=MAX_LARGE_FILE_BYTES).rstrip("\n")
    rerolled: list[str] = []  # the battles whose scouting dice the seed changed (said once written)
    if args.scouting is not None:
        old, game, rerolled = _add_scouting(args, game, old)
    if args.out is not None:
        check_layout(args.script, old)  # a script import cannot add '- ' lines to: refused before the files
    rec = game.record
    week = rec.state.week
    kinds = {p: sort_file(p) for p in args.files}  # a file neither a turn file nor an order file: its refusal
    unread = [err for p, (kind, err) in kinds.items() if err is not None and kind != "order"]
    if unread:
        print_refusals(unread)
        raise UserError(f"nothing imported: {counted(len(unread), 'file is', 'files are')} neither a turn file nor "
                        f"an order file that can be read (said above; the turn files are taken all together or not at all); "
                        f"{args.script} is unchanged")
    turn_paths = [p for p in args.files if kinds[p][0] == "turn"]
    order_paths = [p for p in args.files if p not in turn_paths]
    turn_text, turn_cmds = _import_turn_files(args, game, turn_paths)
    posted = _posted_fingerprints(args.fingerprint, rec.state.players)
    secret = read_secret_file(args.secret, game) if args.secret is not None else None
    already = sorted({p for ps in sealed_by(rec.state).values() for p in ps}, key=rec.state.player_name)
    if secret is not None and already:
        raise UserError(f"{args.script}: orders of week {rec.state.week} are already in it (of "
                        f"{', '.join(rec.state.player_name(p) for p in already)}, imported without --secret), and the "
                        "week's dice seed goes before its first order: import every order file of the week with "
                        "--secret into the script as it was before them; nothing imported")
    # first every file on its own against the campaign as it stands, then the good ones together
    checked: list[tuple[str, Any]] = []
    bad = 0
    players: set[str] = set()
    for path in order_paths:
        try:
            broken = kinds[path][1]
            if broken is not None:
                raise broken  # not valid YAML, but meant as an order file
            f = read_order_file(path)
            if not check_fingerprint(f):
                raise changed_after_sealing(path, f)
            if posted and f.player not in posted:
                raise GameFileError(path, where_in(path, "player"), f"no posted fingerprint of {f.player} given: add "
                                                                    f"--fingerprint {f.player}=POSTED")
            if posted and posted[f.player] != f.fingerprint:
                raise GameFileError(path, where_in(path, "fingerprint"),
                                    f"{f.fingerprint} is not the fingerprint {f.player} posted, {posted[f.player]}: "
                                    "not the orders sealed then (sealed again after the post?)")
            check_orders(game, f.campaign, f.week, f.player, f.orders, path)
            first = next((p for p, g in checked if g.player == f.player), None)
            if first is not None:
                again = "the same file given twice" if os.path.abspath(first) == os.path.abspath(path) else \
                    f"a second order file of {f.player} (the first, {first}, is taken; one file a player a week)"
                raise GameFileError(path, where_in(path, "player"), again)
        except GameFileError as exc:
            bad += 1
            print(f"REFUSED {exc.line()}", file=sys.stderr)
            continue
        players.add(f.player)
        checked.append((path, f))
    cmds: list[Any] = []
    if secret is not None:
        want = ordering_players(rec.state)
        if bad or players != want:
            missing = sorted(want - players)
            extra = sorted(players - want)
            raise UserError("the week's dice need the salt of every player giving orders, and only theirs "
                            f"({', '.join(sorted(want)) or 'nobody'})"
                            + (f"; missing: {', '.join(missing)}" if missing else "")
                            + (f"; not giving orders this week (no battle on the tables): {', '.join(extra)}: "
                               "leave their files out" if extra else "")
                            + (f"; {counted(bad, 'file', 'files')} refused" if bad else "") + "; nothing imported")
        seed = GmDiceSeed(week=rec.state.week, commitment=secret["commitment"], secret=secret["secret"],
                          salts={f.player: f.salt or "" for _p, f in checked})
        outcome = rec.apply(seed)
        if isinstance(outcome, Rejection):
            raise UserError(f"the dice seed was refused: {outcome.reason}; nothing imported")
        cmds.append(SYSTEM.command_to_data(seed))
        print(f"ok the week's dice: drawn from the secret of {args.secret} and "
              f"{counted(len(checked), 'salt', 'salts')}",
              file=sys.stderr)
    good: list[str] = []
    for path, f in checked:
        mark = len(rec.steps)
        mine = []
        try:
            for i, o in enumerate(f.orders):
                cmd = GiveOrders(player=f.player, **o.model_dump())
                outcome = rec.apply(cmd)
                if isinstance(outcome, Rejection):
                    rec.truncate(mark)
                    raise GameFileError(path, where_in(path, "orders", i), f"refused by the rules: {outcome.reason}")
                mine.append(SYSTEM.command_to_data(cmd))
        except GameFileError as exc:
            if secret is not None:
                raise UserError(f"{exc.line()}; nothing imported") from None
            bad += 1
            print(f"REFUSED {exc.line()}", file=sys.stderr)
            continue
        cmds += mine
        good.append(path)
        print(f"ok {path}: {f.player}, {counted(len(f.orders), 'order', 'orders')}", file=sys.stderr)
    text = yaml.safe_dump(cmds, sort_keys=False, default_flow_style=None, allow_unicode=True) if cmds else ""
    if args.out is not None and order_paths and not good and not turn_cmds:
        # nothing to add: a new script would be the old one again (or, with --scouting, only half of
        # what was asked), and a GM could take it for the week's orders
        seeded = " (the scouting seed is not written either: run import --scouting alone for it)" \
            if args.scouting is not None else ""
        print(f"nothing written to {args.out}: every order file was refused ({bad} of {len(order_paths)}){seeded}; "
              f"{args.script} is unchanged", file=sys.stderr)
        return 1
    if args.out is not None:
        names = ", ".join(Path(x).name.replace("\n", " ") for x in good) or "none"
        tail = turn_text + (f"\n# imported order files: {names}\n" + text if order_paths else "") or "\n"
        replaced = os.path.isfile(args.out)
        written = write_output(args.out, with_commands(args.script, old, tail), "script", inputs=inputs)
        if written.failed:
            raise UserError(f"{written.failed}; the script was kept in {written.path}")
        n_orders = sum(len(f.orders) for p, f in checked if p in good)
        added = ", ".join(
            ([f"{counted(len(turn_cmds), 'command', 'commands')} from {counted(len(turn_paths), 'turn file', 'turn files')}"
              " added"] if turn_paths else [])
            + ([f"{counted(n_orders, 'order', 'orders')} from {counted(len(good), 'file', 'files')} added, "
                f"{counted(bad, 'file', 'files')} refused"] if order_paths else [])
            + (["the week's scouting seed added"] if args.scouting is not None else []))
        kept = f"; the file it replaced is kept as {args.out}{BACKUP_SUFFIX}" if replaced else ""
        print(f"wrote {args.out} ({added}{kept}); {SYSTEM.summary(rec.state)['phase']}")
        if rec.state.week != week and not any(s.command.kind == "gm_dice_seed" for s in rec.steps
                                              if s.before.week == week):
            print(f"note: week {week} is resolved with no dice seed (no --secret): its dice came from the campaign's "
                  "generator, which anyone holding the script could foresee; verify-dice reports them as the GM's "
                  "word", file=sys.stderr)
        if rerolled:
            print(f"note: the scouting dice of {', '.join(rerolled)} are no longer those rolled without the seed: "
                  f"post them before any order is sealed (campaign status {args.scenario} {args.out} prints them "
                  "with the scouting commitment)", file=sys.stderr)
    else:
        print(command_lines(turn_cmds) + text, end="")
    return 1 if bad else 0


def _import_turn_files(args: argparse.Namespace, game: Game, paths: list[str]) -> tuple[str, list[Any]]:
    """The players' turn files (moves, pick-ups, declarations, story posts: turns.py) applied to
    the game's record in the rules' order: (the script's new lines, the commands). Any refused
    file: every refusal printed and nothing imported (a later player's moves were checked after
    the earlier ones)."""
    if not paths:
        return "", []
    try:
        done = import_turns(game.record, game.loaded.name, paths)
    except Refusals as exc:
        print_refusals(exc.errors)
        raise UserError(f"nothing imported: {counted(len(exc.errors), 'turn file', 'turn files')} refused (the turn "
                        f"files are taken all together or not at all); {args.script} is unchanged") from None
    for line in done.lines:
        print(line, file=sys.stderr)
    names = ", ".join(Path(x).name.replace("\n", " ") for x in done.files)
    return f"\n# imported turn files: {names}\n" + command_lines(done.commands), done.commands


def _posted_fingerprints(items: list[str], players: Any, who: str = "") -> dict[str, str]:
    """The --fingerprint PLAYER=FINGERPRINT posts (import, verify-dice), by player (each named
    exactly, once). `who`: which players may be named, for the refusal (default: the players)."""
    posts: dict[str, str] = {}
    for item in items:
        player, sep, fp = item.partition("=")
        if not sep:
            raise UserError(f"--fingerprint {item[:80]}: expected PLAYER=FINGERPRINT")
        if player not in players:
            raise UserError(f"--fingerprint {item[:80]}: no player {player[:40]!r}"
                            f"{who or '; players are ' + ', '.join(players)} (spelt exactly)")
        if player in posts:
            raise UserError(f"--fingerprint {item[:80]}: a second fingerprint of {player}")
        try:
            posts[player] = parse_fingerprint(fp)
        except ValueError as exc:
            raise UserError(f"--fingerprint {item[:80]}: {exc}") from None
    return posts


# --------------------------------------------------------------------------- the dice commitment


def _add_scouting(args: argparse.Namespace, game: Game, text: str) -> tuple[str, Game, list[str]]:
    """The script's text and game with the week's `gm_scouting_seed` (from --scouting's secret
    file) before the week's first declaration, or at the end while the week has none yet; and
    the battles already begun, whose scouting dice the seed changes."""
    rec = game.record
    week = rec.state.week
    sc = read_secret_file(args.scouting, game, scouting=True)
    steps = list(rec.steps)
    used = used_scouting(steps, sc["commitment"], sc["secret"])
    if used is not None:
        raise GameFileError(args.scouting, "scouting_commitment", f"already used for {used}, so public: anyone could "
                                                                  "foresee the scouting dice; run campaign commit for "
                                                                  "fresh secrets and post their commitments before any "
                                                                  "move of a week")
    mine = [i for i, s in enumerate(steps) if s.before.week == week]
    if any(steps[i].command.kind in ("orders", "gm_dice_seed") for i in mine):
        raise UserError(f"{args.script}: orders of week {week} are already in, given on the scouting dice the "
                        "script rolled: too late for the week's scouting seed; nothing written")
    at = next((i for i in mine if steps[i].command.kind == "declare"), len(steps))
    if at == len(steps) and rec.state.phase not in ("movement", "declare"):
        raise UserError(f"{args.script}: week {week} is past its declarations ({PHASE_NAMES.get(rec.state.phase, rec.state.phase)} "
                        "now) and none was asked for (no new meeting of two players' armies), so no battle began and no scouting die "
                        f"was rolled this week: no scouting seed is needed; keep {args.scouting} secret for the "
                        "week's dice (import --secret); nothing written")
    seed = GmScoutingSeed(week=week, commitment=sc["commitment"], secret=sc["secret"])
    commands = [s.command for s in steps]
    commands.insert(at, seed)
    new = Record(SYSTEM, rec.initial)
    for n, cmd in enumerate(commands, start=1):
        outcome = new.apply(cmd)
        if isinstance(outcome, Rejection):
            what = "the scouting seed is refused" if cmd is seed else \
                f"with the scouting seed before command {at + 1}, command {n} ({cmd.kind}) is refused"
            raise UserError(f"{what}: {outcome.reason.rstrip('.')}; nothing written")
    line = yaml.safe_dump(SYSTEM.command_to_data(seed), sort_keys=False, default_flow_style=True,
                          width=10_000).strip()
    out = insert_command(args.script, text, at, line)
    try:
        data = yaml.safe_load(out)
        data = data.get("commands") if isinstance(data, dict) else data
        same = isinstance(data, list) and [parse_command(d) for d in data] == commands
    except (yaml.YAMLError, ValueError, TypeError):
        same = False
    if not same:
        raise UserError(f"{args.script}: the scouting seed could not be put in its place; add this line before "
                        f"command {at + 1} by hand: - {line}")
    started = sorted({e.battle for s in steps[at:] for e in s.events if e.kind == "battle_started"})
    where = (f"before command {at + 1} (line {script_line(args.script, at)}), the first declaration of week {week}"
             if at < len(steps) else f"at the end, in the {new.state.phase} phase of week {week}")
    print(f"ok the week's scouting dice: drawn from the scouting secret of {args.scouting} ({where})",
          file=sys.stderr)
    return out, Game(game.loaded, new, [], False), started


def read_secret_file(path: str, game: Game, *, scouting: bool = False) -> dict[str, Any]:
    """The GM's secret file (`campaign commit`) for this campaign's current week, its commitment
    (or, `scouting`, its scouting commitment) checked. GameFileError naming the field otherwise."""
    doc = read_yaml(path, "GM's dice secret file (YAML)")
    d = doc.data if isinstance(doc.data, dict) else {}
    if not isinstance(doc.data, dict):
        raise GameFileError(path, "", f"expected the mapping campaign commit writes (kind: {SECRET_KIND}, campaign, "
                                      f"week, secret, commitment...); {what_found(doc.data)}")
    if d.get("kind") != SECRET_KIND:
        raise GameFileError(path, "kind", f"expected kind: {SECRET_KIND} (a file made by campaign commit)")
    for key in ("campaign", "week", "secret", "commitment"):
        if key not in d:
            raise GameFileError(path, key, "required field is missing")
    if d["campaign"] != game.loaded.name:
        raise GameFileError(path, "campaign", f"the secret of {str(d['campaign'])[:80]!r}, not {game.loaded.name!r}")
    if d["week"] != game.record.state.week:
        raise GameFileError(path, "week", f"the secret of week {d['week']}, but the campaign is in week "
                                          f"{game.record.state.week}")
    if scouting:
        if "scouting_secret" not in d or "scouting_commitment" not in d:
            raise GameFileError(path, "scouting_secret", "an older secret file with no scouting secret (campaign "
                                                         "commit writes one since); run campaign commit for a new "
                                                         "file and post both its commitments before any move of a "
                                                         "week")
        sec, com = d["scouting_secret"], d["scouting_commitment"]
        if not isinstance(sec, str) or not sec or commitment_of(sec) != com:
            raise GameFileError(path, "scouting_secret", "the scouting secret does not match its commitment")
        if sec == d["secret"]:
            raise GameFileError(path, "scouting_secret", "the scouting secret is the dice secret: they must differ")
        return {"secret": sec, "commitment": com}
    if not isinstance(d["secret"], str) or commitment_of(d["secret"]) != d["commitment"]:
        raise GameFileError(path, "secret", "the secret does not match its commitment")
    used = earlier_seed(game.record.steps, d["commitment"], d["secret"], game.record.state.week)
    if used is not None:
        raise GameFileError(path, "commitment", f"this secret already drew the dice of week {used} and its "
                                                "report made it public: anyone could foresee this week's dice; "
                                                "run campaign commit for a fresh secret and post its commitment "
                                                "before any order is sealed")
    return {"secret": d["secret"], "commitment": d["commitment"]}


def _commit(args: argparse.Namespace) -> int:
    check_destination(args.out, "dice secret", inputs=(args.scenario, args.script))
    new_file(args.out, "dice secret", "its commitments may be posted already, and a secret replaced after its "
             "commitment is posted is a re-rolled week", inputs=(args.scenario, args.script))
    game = load_game_or_script(args.table, args.scenario, args.script)
    state = game.record.state
    if state.phase not in ("narrative", "orders", "declare", "pickup", "movement"):
        raise UserError(f"the campaign is {state.phase}; no week to commit to")
    secret = _secrets.token_hex(32)
    scouting = _secrets.token_hex(32)
    data = {"kind": SECRET_KIND, "campaign": game.loaded.name, "week": state.week, "secret": secret,
            "commitment": commitment_of(secret), "scouting_secret": scouting,
            "scouting_commitment": commitment_of(scouting)}
    written = write_output(args.out, "# Keep this file secret until the week's report; post only the two "
                           "commitments.\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                           "dice secret", inputs=(args.scenario, args.script), backup=False)
    if written.failed:
        raise UserError(f"{written.failed}; the secret was kept in {written.path}")
    print(f"fresh secrets for week {state.week} of {game.loaded.name} are in {args.out} (keep it private)")
    print(f"post this commitment publicly before any order: {data['commitment']}")
    print(f"post this scouting commitment with it, before any move of the week: {data['scouting_commitment']}")
    week_steps = [s for s in game.record.steps if s.before.week == state.week]
    if any(s.command.kind == "gm_dice_seed" for s in week_steps):
        print(f"note: week {state.week}'s dice are already seeded: this secret cannot draw them (the week's "
              "commitment is the one posted before)")
    elif any(sealed_by(state).values()):
        print(f"note: orders of week {state.week} are already in {args.script}: the dice seed goes before the "
              "week's first order, so this secret cannot draw this week's dice")
    if any(e.kind == "battle_started" for s in week_steps for e in s.events) or \
            any(s.command.kind == "gm_scouting_seed" for s in week_steps):
        print(f"note: week {state.week}'s battles have started (or its scouting dice are seeded): its scouting "
              "secret is of no use (the scouting dice are rolled)")
    elif any(s.command.kind == "move_army" for s in week_steps):
        print(f"note: moves of week {state.week} are already made: a scouting commitment posted now comes after "
              "them, so the players cannot tell it was not chosen for them (post it before the first move)")
    return 0


def _verify_dice(args: argparse.Namespace) -> int:
    """Exit 0: every check done and passed; 1: a problem; 2: nothing wrong found, but something
    (the commitment, a player's salt) was not checked, so the dice are not shown to check out."""
    game = load_game_or_script(args.table, args.scenario, args.script)
    name = game.loaded.name
    all_steps = list(game.record.steps)
    first = next((i for i, s in enumerate(all_steps) if s.before.week == args.week), None)
    steps = [s for s in all_steps if s.before.week == args.week]
    if first is None:
        raise UserError(no_week(args.script, game.record.state, args.week))
    problems: list[str] = []
    lines: list[str] = []
    unchecked: list[str] = []
    seeds = [i for i, s in enumerate(steps) if s.command.kind == "gm_dice_seed"]
    if len(seeds) != 1:
        # (the scouting seed is checked all the same: a game refereed in the window seeds the
        # scouting dice there, and the week's dice by the command line or not at all)
        problems.append(f"week {args.week} has {len(seeds)} dice seeds (gm_dice_seed); its dice are "
                        + ("the GM's word, not drawn from a commitment" if not seeds else "not from one commitment"))
    else:
        _check_dice_seed(args, name, all_steps, first, steps, seeds[0], lines, problems, unchecked)
    _check_scouting(args, name, all_steps, first, len(steps), lines, problems, unchecked)
    for ln in lines:
        print(ln)
    for p in problems:
        print(f"PROBLEM: {p}")
    if problems:
        print(f"-- week {args.week}: {counted(len(problems), 'problem', 'problems')}")
        return 1
    if unchecked:
        for u in unchecked:
            print(f"NOT CHECKED: {u}")
        print(f"-- week {args.week}: NOT CHECKED ({len(unchecked)} left unchecked): nothing wrong found, but the "
              "dice are vouched for only with the posted commitments, every player's salt and the scouting seed "
              "checked")
        return 2
    print(f"-- week {args.week}: the dice check out")
    return 0


def _check_dice_seed(args: argparse.Namespace, name: str, all_steps: list[Any], first: int, steps: list[Any],
                     at: int, lines: list[str], problems: list[str], unchecked: list[str]) -> None:
    """verify-dice's part for the week's dice seed (`gm_dice_seed`, command `at` of the week's
    `steps`): the secret against the posted commitment, each salt against its player's order file
    or posted fingerprint, the GM's commands around it, and the generator it gives."""
    cmd = steps[at].command
    posted = None
    if args.commitment is not None:
        try:
            posted = parse_fingerprint(args.commitment)
        except ValueError as exc:
            raise UserError(f"--commitment: {str(exc).replace('fingerprint', 'commitment')}") from None
    week_players = sorted(cmd.salts)
    files, posts = _dice_witnesses(args, name, week_players)
    if commitment_of(cmd.secret) != cmd.commitment:
        problems.append("the revealed secret does not match the commitment in the seed")
    used = earlier_seed(all_steps[:first], cmd.commitment, cmd.secret, args.week)
    if used is not None:
        problems.append(f"the seed's commitment {cmd.commitment} already drew the dice of week {used}, whose report "
                        "revealed its secret: anyone, the GM first, could foresee this week's dice before the orders")
    if posted is None:
        lines.append(f"commitment {cmd.commitment}: compare it with the one the GM posted before the orders")
        unchecked.append("the commitment: give --commitment with the one the GM posted before the orders")
    elif posted != cmd.commitment:
        problems.append(f"the seed's commitment {cmd.commitment} is not the posted {posted}: another secret "
                        "was used (a re-rolled week)")
    else:
        lines.append(f"the revealed secret matches the posted commitment {posted}")
    for player, salt in sorted(cmd.salts.items()):
        played = week_orders(steps, player)
        fp = fingerprint(played, salt, week=args.week, player=player, campaign=name)
        if player not in files and player not in posts:
            lines.append(f"{player}: the seed's salt and the orders played give {fp}: compare it with the "
                         "one posted")
            unchecked.append(f"the salt of {player}: give its order file with --orders, or --fingerprint "
                             f"{player}=POSTED")
        if player in files:
            path, f = files[player]
            if f.salt is None:  # a public copy: its fingerprint, as if posted
                if f.fingerprint != fp:
                    problems.append(f"{player}: the orders played with the seed's salt give {fp}, not the "
                                    f"fingerprint {f.fingerprint} in {path}")
                else:
                    lines.append(f"{player}: the seed's salt and the orders played give the fingerprint in {path}")
            elif f.salt != salt or f.fingerprint != fp:
                problems.append(f"{player}: the salt in the seed is not the one sealed in {path} (or the orders "
                                "played are not the file's)")
            else:
                lines.append(f"{player}: the salt in the seed is the one sealed in {path}")
        if player in posts:
            if posts[player] != fp:
                problems.append(f"{player}: the orders played with the seed's salt give {fp}, not the posted "
                                f"{posts[player]}")
            else:
                lines.append(f"{player}: the seed's salt and the orders played give the posted fingerprint")
    for n, s in enumerate(all_steps[first:first + at], start=first + 1):
        if s.command.kind.startswith("gm_") and s.command.kind != "gm_lock" and s.before.phase == "orders":
            lines.append(f"command {n}: a {s.command.kind} in the orders phase before the seed "
                         f"({SYSTEM.describe_command(s.before, s.command)}): it can change this week's results; "
                         "check it was posted before the orders were sealed (once the files came in, the GM "
                         "knew every salt and the secret)")
    for n, s in enumerate(all_steps[first + at + 1:first + len(steps)], start=first + at + 2):
        kind = s.command.kind
        source = getattr(s.command, "source", None)
        if kind == "gm_lock":
            lines.append(f"command {n}: gm_lock after the seed (the GM's passphrase: no die or result)")
        elif kind == "gm_battle_result" and source is not None and \
                getattr(s.before.battles.get(s.command.battle), "fought_as", "") == source.scale:
            # a battle fought out at another scale: its result is its own save's, which `replay
            # --verify` checks (docs/scales.md), not this week's dice (a choice to fight it out made
            # after the seed is a gm_battle_choice after it: a problem of its own)
            lines.append(f"command {n}: the result of battle {s.command.battle}, fought out at the {source.scale} "
                         f"scale (its save {source.save}): not drawn from this week's dice; `python -m game "
                         "replay --verify` checks it against that save")
        elif kind.startswith("gm_"):
            why = ("dice not drawn from it" if kind in ("gm_force_rolls", "gm_dice_seed") else
                   "the GM knew the secret and every salt by then, so could choose it knowing every die")
            problems.append(f"a {kind} after the seed (command {n}: {SYSTEM.describe_command(s.before, s.command)}): "
                            f"{why}")
    want = Rng.from_seed(week_seed(name, args.week, cmd.secret, cmd.salts)).state
    if steps[at].after.rng != want:
        problems.append("the generator after the seed is not the one the secret and salts give")
    else:
        lines.append(f"every die of week {args.week} after the seed follows from the secret and the "
                     f"{counted(len(cmd.salts), 'salt', 'salts')} (replayed)")


def _check_scouting(args: argparse.Namespace, name: str, all_steps: list[Any], first: int, count: int,
                    lines: list[str], problems: list[str], unchecked: list[str]) -> None:
    """verify-dice's part for the week's scouting dice (docs/campaign.md, "The dice"): the
    scouting seed against the posted scouting commitment, never used before, no GM command
    between the week's first command and its battles' start but the seed, and every scouting
    die replayed from the seed, each battle's hex and armies."""
    week = args.week
    steps = all_steps[first:first + count]
    posted = None
    if args.scouting_commitment is not None:
        try:
            posted = parse_fingerprint(args.scouting_commitment)
        except ValueError as exc:
            raise UserError(f"--scouting-commitment: {str(exc).replace('fingerprint', 'commitment')}") from None
    starts = [i for i, s in enumerate(steps) if any(e.kind == "battle_started" for e in s.events)]
    seeds = [i for i, s in enumerate(steps) if s.command.kind == "gm_scouting_seed"]
    if not seeds:
        if starts:
            battles = sorted({e.battle for i in starts for e in steps[i].events if e.kind == "battle_started"})
            unchecked.append(f"the scouting dice of {', '.join(battles)}: the week's battles started with no scouting "
                             "seed (gm_scouting_seed), so they came from the campaign's generator, which the GM chose "
                             "(week 1) or anyone could replay from the last week's revealed dice"
                             + (f"; the posted scouting commitment {posted} was never used" if posted else ""))
        else:
            lines.append(f"no battle started in week {week}: no scouting dice")
        return
    at = seeds[0]
    cmd = steps[at].command
    if len(seeds) > 1:
        problems.append(f"week {week} has {len(seeds)} scouting seeds (gm_scouting_seed)")
    if commitment_of(cmd.secret) != cmd.commitment:
        problems.append("the revealed scouting secret does not match the scouting commitment in its seed")
    used = used_scouting(all_steps[:first + at], cmd.commitment, cmd.secret)
    if used is not None:
        problems.append(f"the scouting commitment {cmd.commitment} (or its secret) was already used for {used}, "
                        "which made it public: anyone could foresee this week's scouting dice")
    if posted is None:
        lines.append(f"scouting commitment {cmd.commitment}: compare it with the one the GM posted before the "
                     "week's first move")
        unchecked.append("the scouting commitment: give --scouting-commitment with the one the GM posted before "
                         "the week's first move")
    elif posted != cmd.commitment:
        problems.append(f"the scouting seed's commitment {cmd.commitment} is not the posted {posted}: another "
                        "scouting secret was used")
    else:
        lines.append(f"the revealed scouting secret matches the posted scouting commitment {posted}")
    end = starts[-1] if starts else at
    for n, s in enumerate(steps[:end + 1], start=first + 1):
        kind = s.command.kind
        source = getattr(s.command, "source", None)
        if kind == "gm_battle_result" and source is not None and \
                getattr(s.before.battles.get(s.command.battle), "fought_as", "") == source.scale:
            continue  # an earlier battle fought out at another scale: its result is its save's
        if kind.startswith("gm_") and kind not in ("gm_lock", "gm_scouting_seed", "gm_force_rolls"):
            problems.append(f"a {kind} before the week's battles started (command {n}: "
                            f"{SYSTEM.describe_command(s.before, s.command)}): the GM knew the scouting secret, so "
                            "could choose it knowing the scouting dice it gives")
    rolls = 0
    bad = []
    for i in starts:
        s = steps[i]
        if s.after.rng != s.before.rng:
            bad.append(f"command {first + i + 1} drew from the campaign's generator")
        for b in (e for e in s.events if e.kind == "battle_started"):
            battle = s.after.battles[b.battle]
            armies = {a.id: a.hex for a in s.after.armies.values() if a.battle == b.battle}
            rng = Rng.from_seed(scouting_seed(name, week, cmd.secret, b.hex, armies))
            rolled = {e.player: e for e in s.events if e.kind == "dice_rolled" and e.battle == b.battle
                      and e.purpose.startswith("scouting roll")}
            for p in battle.sides:
                n_dice = scouting_dice(s.after, battle, p, s.after.armies)
                want = []
                for _ in range(n_dice):
                    v, rng = rng.roll(s.after.cs.rules.dice.sides)
                    want.append(v)
                got = rolled.get(p)
                if tuple(want) != (tuple(got.dice) if got else ()) or (got is not None and got.forced):
                    bad.append(f"{b.battle}, {p}: rolled {list(got.dice) if got else []}, the seed gives {want}")
                rolls += 1 if n_dice else 0
    if bad:
        problems.append("scouting dice that do not follow from the scouting seed: " + "; ".join(bad))
    elif starts:
        lines.append(f"every scouting die of week {week} follows from the scouting secret and each battle's hex and "
                     f"armies ({counted(rolls, 'scouting roll', 'scouting rolls')} replayed)")
    else:
        lines.append(f"the scouting seed is in, but no battle started in week {week}")


def _dice_witnesses(args: argparse.Namespace, name: str, players: list[str]) -> tuple[dict[str, Any], dict[str, str]]:
    """verify-dice's --orders files and --fingerprint posts, by player: each for this campaign,
    this week and one of the week's ordering players (named exactly), one of each per player."""
    files: dict[str, Any] = {}
    listed = ", ".join(players) or "none"
    for path in args.orders:
        f = read_order_file(path)
        if f.salt is not None and not check_fingerprint(f):
            raise changed_after_sealing(path, f)
        if f.campaign != name:
            raise GameFileError(path, "campaign", f"orders for the campaign {f.campaign!r}, not {name!r}")
        if f.week != args.week:
            raise GameFileError(path, "week", f"orders for week {f.week}, not week {args.week}: give week "
                                              f"{args.week}'s order files")
        if f.player not in players:
            raise GameFileError(path, "player", f"{f.player!r} gives no orders in week {args.week}; the players "
                                                f"of the week are {listed}")
        if f.player in files:
            raise GameFileError(path, "player", f"a second order file of {f.player} (the first: {files[f.player][0]})")
        files[f.player] = (path, f)
    posts = _posted_fingerprints(args.fingerprint, players,
                                 f" gives orders in week {args.week}; the players of the week are {listed}")
    return files, posts


# --------------------------------------------------------------------------- reports and posts


def no_week(script: str, state: Any, week: int) -> str:
    """Why a week asked for has nothing in the game to report or check."""
    if week == state.week:
        return (f"{script}: week {week} has begun but nothing happened in it yet ({PHASE_NAMES.get(state.phase, state.phase)}); "
                f"its report and dice come once its orders are in")
    return f"{script} does not reach week {week} (it is in week {state.week})" if week > state.week else \
        f"{script}: no week {week} (weeks start at 1)"


def week_orders(steps: list[Any], player: str) -> list[dict[str, Any]]:
    """The orders `player` gave in these steps, as order-file entries."""
    keys = ("battle", "manoeuvre", "stratagems", "vanguard", "withdraw_to", "breakthrough_to")
    out = []
    for s in steps:
        c = s.command
        if getattr(c, "kind", "") == "orders" and c.player == player:
            d = c.model_dump(mode="json")
            out.append({k: d[k] for k in keys})
    return out


def _report(args: argparse.Namespace) -> int:
    inputs = (args.scenario, args.script, *args.orders)
    if args.out is not None:
        new_file(args.out, "report", "a report goes only to a new file", inputs=inputs)
    game = load_game_or_script(args.table, args.scenario, args.script)
    rec = game.record
    steps = [s for s in rec.steps if s.before.week == args.week]
    if not steps:
        raise UserError(no_week(args.script, game.record.state, args.week))
    if rec.state.week == args.week and rec.state.phase in ("movement", "declare"):
        # the week's scouting secret may be in the script already, and the declarations are
        # sealed answers until all are in: a report now would give both away
        raise UserError(f"{args.script}: week {args.week} is in its {PHASE_NAMES[rec.state.phase]} phase: a report "
                        "now would show the scouting secret and the declarations made so far before every "
                        f"declaration is in; post campaign status {args.scenario} {args.script} instead (it shows "
                        "neither)")
    seeds = [s.command for s in steps if s.command.kind == "gm_dice_seed"]
    seals = {}
    for path in args.orders:
        f = read_order_file(path)
        if f.salt is None or not check_fingerprint(f):
            raise changed_after_sealing(path, f)
        if f.campaign != game.loaded.name:
            raise GameFileError(path, "campaign", f"orders for the campaign {f.campaign!r}, not {game.loaded.name!r}")
        if f.week != args.week:
            raise GameFileError(path, "week", f"orders for week {f.week}, not week {args.week}")
        if f.player in seals:
            raise GameFileError(path, "player", f"a second order file of {f.player}")
        played = week_orders(steps, f.player)
        if canonical_orders(f.orders) != canonical_orders([OrderEntry(**o) for o in played]):
            raise GameFileError(path, "orders", f"not the orders {f.player} played in week {args.week} "
                                                f"({counted(len(played), 'order', 'orders')} in {args.script})")
        for seed in seeds:
            used = seed.salts.get(f.player)
            if used != f.salt:
                raise GameFileError(path, "salt", f"{f.player} sealed the salt {f.salt}, but the week's dice seed "
                                                  f"(gm_dice_seed in {args.script}) uses "
                                                  + (f"the salt {used}" if used else "no salt of theirs")
                                                  + ": the week's dice were not drawn from the sealed salt")
        seals[f.player] = Seal(f.player, f.fingerprint, f.salt, canonical_orders(f.orders))
    events = [e for s in steps for e in s.events]
    text = week_report(steps[0].before, events, args.week, args.format, seals, after=steps[-1].after,
                       picture=Path(args.picture).name if args.picture else "")
    if rec.state.week == args.week and rec.state.phase != "ended":
        # the week is not over: say so in the post itself, so no reader takes it for the week's report
        state = rec.state
        waiting = ", ".join(state.player_name(p) for p in sorted(waiting_for(state), key=state.player_name))
        note = (f"Week {args.week} is not over ({PHASE_NAMES.get(state.phase, state.phase)}"
                + (f", waiting for {waiting}" if waiting else "") + "): this is the week so far; no sealed order is "
                "shown before every order of the week is in")
        head, _sep, body = text.partition("\n")
        text = f"{head}\n\n{escape(note, args.format) if args.format == 'md' else '[i]' + escape(note, args.format) + '[/i]'}\n{body}"
        print(f"note: {note}", file=sys.stderr)
    if args.out is not None:
        written = write_output(args.out, text, "report", inputs=inputs, backup=False)
        if written.failed:
            raise UserError(f"{written.failed}; the report was kept in {written.path}")
        print(f"wrote {args.out}")
        if args.picture and game.from_save:
            print(f"the map picture beside it: python -m game render {args.script} --out {args.picture}")
    else:
        print(text, end="")
    return 0


def _status(args: argparse.Namespace) -> int:
    game = load_game_or_script(args.table, args.scenario, args.script, strict=False)
    state = game.record.state

    def e(t: str) -> str:
        return escape(t, args.format)

    md = args.format == "md"
    head = f"{game.loaded.name}: week {state.week}, {PHASE_NAMES.get(state.phase, state.phase)}"
    lines = [f"## {e(head)}" if md else f"[size=150][b]{e(head)}[/b][/size]", ""]
    sealed = sealed_by(state)
    opened = state.open_games()
    if not md:
        lines.append("[list]")
    for b in opened:
        if b.fought_as != "tables":
            row = f"{b.id} at {b.hex[0]},{b.hex[1]}: fought out as a {b.fought_as} battle"
        elif state.phase != "orders":
            row = (f"{b.id} at {b.hex[0]},{b.hex[1]}: {state.player_name(b.sides[0])} against "
                   f"{state.player_name(b.sides[1])}")
        else:
            who = [f"{state.player_name(p)}: {'orders in' if p in sealed.get(b.id, []) else 'waiting'}"
                   for p in b.sides]
            row = f"{b.id} at {b.hex[0]},{b.hex[1]}: " + "; ".join(who)
        lines.append(("- " if md else "[*]") + e(row))
    if state.phase == "declare":
        # every contested hex and its players, never who has answered: with one "fight" enough, a hex
        # still waiting on its second player would tell that the first declined
        for k, answers in state.declarations.items():
            lines.append(("- " if md else "[*]") + e(f"{k}: armies of " + " and ".join(state.player_name(p) for p in
                                                                                      answers)
                                                      + " meet: each declares to the GM privately, fight or not"))
    if not opened and state.phase != "declare":
        lines.append(("- " if md else "[*]") + "no battle is open")
    if not md:
        lines.append("[/list]")
    # who still owes orders or a story post: the rules' own query, the one that ends the phase
    waiting = waiting_for(state)
    if state.phase == "orders":
        lines += ["", e("Orders still to come from: " + (", ".join(state.player_name(p) for p in
                                                                    sorted(waiting, key=state.player_name)) or
                                                          "nobody; the GM can resolve the week"))]
    elif state.phase == "narrative":
        lines += ["", e("Story posts still to come from: " + (", ".join(state.player_name(p) for p in waiting) or
                                                               "nobody"))]
    elif state.phase in ("movement", "pickup"):
        what = "Moves" if state.phase == "movement" else "Generals' pick-up moves"
        lines += ["", e(f"{what} in player order; now: " + (", ".join(state.player_name(p) for p in waiting) or
                                                           "nobody"))]
    head = f"Scouting dice of week {state.week}"
    lines += ["", f"### {e(head)}" if md else f"[b]{e(head)}[/b]", ""]
    if not md:
        lines.append("[list]")
    lines += [("- " if md else "[*]") + e(t) for t in scouting_lines(game.record.steps, state)]
    if not md:
        lines.append("[/list]")
    print("\n".join(lines))
    return 0


def scouting_lines(steps: list[Any], state: Any) -> list[str]:
    """The week's scouting dice for the status post: the scouting seed's commitment (never its
    secret: a seed given in the movement phase is still secret) or that there is none, then each
    scouting roll of the battles begun this week in the rules' words, as `report` prints them."""
    week = [s for s in steps if s.before.week == state.week]
    seed = next((s.command for s in week if s.command.kind == "gm_scouting_seed"), None)
    rolls = [event_text(s.before, ev) for s in week for ev in s.events
             if ev.kind == "dice_rolled" and getattr(ev, "battle", None) and ev.purpose.startswith("scouting")]
    started = any(ev.kind == "battle_started" for s in week for ev in s.events)
    if seed is not None:
        out = [f"drawn from the GM's scouting secret, commitment {seed.commitment} (compare it with the one posted "
               "before the week's first move; verify-dice checks every die once the week is reported)"]
    elif started:
        out = ["no scouting seed this week: the scouting dice came from the campaign's generator (verify-dice: NOT "
               "CHECKED)"]
    elif state.phase not in ("movement", "declare"):
        return [f"no battle began in week {state.week}: no scouting dice were rolled, and no scouting seed is needed"]
    else:
        out = ["no scouting seed yet (the GM's campaign import --scouting puts it before the week's first "
               "declaration)"]
    if rolls:
        out += rolls
    elif not started:
        out.append("no battle has begun this week: each battle's scouting dice are rolled as it begins (once "
                   "the week's declarations are in)")
    return out


def _unit_line(state: Any, u: str) -> str:
    """One unit of a brief: id, type, the three stats, line, traits and durability (the damage
    it carries, when any)."""
    t = state.unit_type(u)
    us = state.units[u]
    extra = ["line"] if t.line else []
    extra += [tr.replace("_", " ") for tr in t.traits]
    if t.armour:
        extra.append(f"Armour {t.armour}" + (f" ({counted(us.armour_damage, 'casualty', 'casualties')} this week)"
                                             if us.armour_damage else ""))
    if t.large:
        extra.append(f"Large {t.large}" + (f" ({counted(us.large_damage, 'casualty', 'casualties')} in this battle)"
                                           if us.large_damage else ""))
    return f"{u}: {t.name}, attack {t.attack}, defense {t.defense}, mobility {t.mobility}" + \
        "".join(f", {x}" for x in extra)


def _brief(args: argparse.Namespace) -> int:
    if args.draft is not None:
        new_file(args.draft, "draft", "it may hold orders already edited", inputs=(args.scenario, args.script))
    game = load_game_or_script(args.table, args.scenario, args.script, strict=False)
    full = game.record.state
    if args.player not in full.players:
        raise UserError(f"no player {args.player!r}; players are {', '.join(full.players)}")
    state = SYSTEM.view(full, args.player)  # only what this player may see
    me = args.player
    waiting = waiting_for(state)
    print(f"# {game.loaded.name}: week {state.week} brief for {state.player_name(me)}")
    if state.phase == "declare":
        # where the player's armies meet another's, never whether anyone still waits on them (a
        # hex with one "fight" in asks nobody else: that would tell how the other side declared)
        meet = [k for k, answers in state.declarations.items() if me in answers]
        print(f"phase: {PHASE_NAMES['declare']}" + (f"; send the GM fight or not for {', '.join(meet)}" if meet else
                                                    "; none of your armies meets an enemy"))
    else:
        print(f"phase: {PHASE_NAMES.get(state.phase, state.phase)}" + (" (waiting for you)" if me in waiting else ""))
    print("\n## Your armies")
    mine_armies = [a for a in state.armies.values() if a.owner == me]
    for a in mine_armies:
        notes = [f"in battle {a.battle}"] if a.battle else []
        if a.locked_week >= state.week:
            notes.append("pinned by a Block: no withdrawal this week")
        if state.phase == "movement":
            points = counted(movement_points(state, a), "movement point", "movement points")
            notes.append("moved this week" if a.moved else "held in its battle: cannot move"
                         if held_in_battle(state, a) else points)
        print(f"- {a.name} ({a.id}) at {a.hex[0]},{a.hex[1]}" + "".join(f", {n}" for n in notes))
        for u in state.alive_units(a.id):
            print(f"  - {_unit_line(state, u)}")
    if not mine_armies:
        print("- none")
    others = [a for a in state.armies.values() if a.owner != me]
    if others:
        print("\n## Other armies on the map")
        for a in others:
            print(f"- {a.name} ({a.id}) of {state.player_name(a.owner)} at {a.hex[0]},{a.hex[1]}: "
                  f"{counted(len(state.alive_units(a.id)), 'unit', 'units')}"
                  + (f", in battle {a.battle}" if a.battle else ""))
    print("\n## Your Generals")
    gens = [g for g in state.generals.values() if g.owner == me]
    for g in gens:
        where = (f"with {state.army_name(g.army)} at {g.hex[0]},{g.hex[1]}" if g.army in state.armies
                 else f"without an army at {g.hex[0]},{g.hex[1]}")
        traits = "".join(f", {t.replace('_', ' ')}" for t in g.traits)
        print(f"- {g.name} ({g.id}), level {g.level}{traits}, {where}")
    if not gens:
        print("- none")
    mine = [b for b in state.open_games() if me in b.sides]
    print("\n## Your battles")
    draft: list[dict[str, Any]] = []
    options = {(o.battle, o.manoeuvre, o.vanguard, o.stratagems): o for o in orders_options(state) if o.player == me}
    for b in mine:
        enemy = next(p for p in b.sides if p != me)
        print(f"- {b.id} at {b.hex[0]},{b.hex[1]} against {state.player_name(enemy)}"
              + (f" (fought out as a {b.fought_as} battle: no orders)" if b.fought_as != "tables" else "")
              + (" (your orders are in)" if me in b.orders else ""))
        _brief_battle(state, b, me, enemy)
        if b.fought_as != "tables" or me in b.orders:
            continue
        first = next((o for k, o in options.items() if k[0] == b.id and not o.stratagems), None)
        if first is not None:
            draft.append({"battle": b.id, "manoeuvre": first.manoeuvre, "stratagems": [],
                          "vanguard": first.vanguard})
    if not mine:
        print("- none")
    if state.phase in LISTS:
        return _brief_turn(args, game, state, me)
    print("\n## Draft orders\n")
    if not draft:
        why = ("orders are given in the battle orders phase, once the week's battles have begun: run brief "
               "again then" if state.phase != "orders" else
               "you have no battle fought on the tables this week" if not any(b.fought_as == "tables" for b in mine)
               else "your orders are in for every battle of yours")
        print(f"no orders to give: {why}"
              + ("" if args.draft is None else f" (no draft was written to {args.draft})"))
        return 0
    text = ("# Draft orders: change each order, then seal it:\n"
            f"#   python -m game campaign seal DRAFT --out {me}-week{state.week}.yaml "
            f"--scenario {args.scenario} --game {args.script}\n"
            "# Each order: battle, manoeuvre, stratagems, vanguard (a Withdraw's rearguard too; the brief\n"
            "# lists what each manoeuvre may take); a Withdraw may add withdraw_to: [column, row] and a\n"
            "# Breakthrough breakthrough_to: [column, row] (the brief lists the hexes).\n"
            + yaml.safe_dump({"campaign": game.loaded.name, "week": state.week, "player": me, "orders": draft},
                             sort_keys=False, default_flow_style=None, allow_unicode=True))
    return _print_draft(args, text)


def _print_draft(args: argparse.Namespace, text: str) -> int:
    """The brief's draft printed, and written to --draft (a new file: `_brief` checked it)."""
    print(text, end="")
    if args.draft is not None:
        written = write_output(args.draft, text, "draft", inputs=(args.scenario, args.script), backup=False)
        if written.failed:
            raise UserError(f"{written.failed}; the draft was kept in {written.path}")
        print(f"\nwrote the draft to {args.draft}")
    return 0


def _brief_turn(args: argparse.Namespace, game: Game, state: Any, me: str) -> int:
    """The brief's draft in the movement, pick-up, declare and narrative phases: the player's
    turn file to fill in and send (turns.py), or why there is nothing to send."""
    key, what = LISTS[state.phase]
    print(f"\n## Draft {key}\n")
    text, why = turn_draft(state, game.loaded.name, me, args.draft)
    if not text:
        print(f"nothing to send in the {PHASE_NAMES.get(state.phase, state.phase)} phase: {why}"
              + ("" if args.draft is None else f" (no draft was written to {args.draft})"))
        return 0
    return _print_draft(args, text)


def _brief_battle(state: Any, b: Any, me: str, enemy: str) -> None:
    """A battle of the brief: who fights in it, the scouting successes, the enemy's forces (the
    map is public), and, while the player's orders are to come, what each manoeuvre may take (the
    rules' own orders_refusal) and the hexes a Withdraw or a Breakthrough may name."""
    fighting = state.fighting_generals(b, me)
    print("  - your Generals fighting: " + (", ".join(f"{g.name} (level {g.level})" for g in fighting) or
                                            "none (a General fights only if named in your post about the "
                                            "battle this week)"))
    if b.scouting:
        print(f"  - scouting: you {counted(b.scouting.get(me, 0), 'success', 'successes')}, "
              f"{state.player_name(enemy)} {counted(b.scouting.get(enemy, 0), 'success', 'successes')}")
    for a in state.forces(b, enemy):
        units = state.alive_units(a.id)
        gens = "".join(f", with {g.name} (General, level {g.level})" for g in state.generals_of_army(a.id))
        print(f"  - enemy army {a.name} ({a.id}), {counted(len(units), 'unit', 'units')}{gens}:")
        for u in units:
            print(f"    - {_unit_line(state, u)}")
    if b.fought_as != "tables" or me in b.orders or state.phase != "orders":
        return
    facts = side_facts(state, b, me)
    allowed: set[str] = set()
    for m in MANOEUVRES:
        vans = [u.id for u in facts.units if orders_refusal(state.cs.rules, facts, m, (), u.id) is None]
        strats = [s for s in STRATAGEMS if any(orders_refusal(state.cs.rules, facts, m, (s,), v) is None
                                               for v in vans)]
        role = "vanguard (the rearguard)" if m == "withdraw" else "vanguard"
        allowed.update(strats + ([m] if vans else []))
        if vans:
            print(f"  - {MANOEUVRE_NAMES[m]} ({m}): {role} {', '.join(vans)}; stratagems "
                  f"{', '.join(strats) or 'none'}")
        else:
            why = next((orders_refusal(state.cs.rules, facts, m, (), u.id) for u in facts.units), None) or \
                "no unit can lead it"
            print(f"  - {MANOEUVRE_NAMES[m]} ({m}): not possible ({why.rstrip('.')})")
    m = state.cs.map
    near = hexes.adjacent(m, b.hex)
    routes = {a.route for a in state.forces(b, me) if a.route in near}
    arc = [c for r in sorted(routes) for c in hexes.arc(m, b.hex, r)] or near

    def passable(c: Any) -> bool:
        terrain = state.cs.rules.terrain.get(m.terrain.get(c, ""))
        return terrain is not None and terrain.cost is not None

    arc, near = [c for c in arc if passable(c)], [c for c in near if passable(c)]
    if "withdraw" in allowed and arc:
        print("  - withdraw_to (where a Withdraw goes; up your route first): "
              + ", ".join(f"[{c[0]}, {c[1]}]" for c in dict.fromkeys(arc)))
    if "breakthrough" in allowed and near:
        print("  - breakthrough_to (a Breakthrough's first hex, next to the battle): "
              + ", ".join(f"[{c[0]}, {c[1]}]" for c in near))


def _plan(args: argparse.Namespace) -> int:
    game = load_game_or_script(args.table, args.scenario, args.script, strict=False)
    full = game.record.state
    if args.player not in full.players:
        raise UserError(f"no player {args.player!r}; players are {', '.join(full.players)}")
    state = SYSTEM.view(full, args.player)
    if args.battle not in state.battles:
        raise UserError(f"no battle {args.battle}; battles: {', '.join(state.battles) or 'none'}")
    b = state.battles[args.battle]
    if b.over or args.player not in b.sides:
        why = f"battle {args.battle} is over" if b.over else \
            f"{state.player_says(args.player, 'is')} not a side of battle {args.battle}"
        raise UserError(f"--battle {args.battle}: {why}" + _your_battles(state, args.player, args.battle)
                        + "; nothing to plan")
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
    _print_equilibrium(state, args.battle, args.player)
    return 0


def _print_equilibrium(state: Any, battle: str, player: str) -> None:
    """The battle's equilibrium as a zero-sum game, from the player's view (the same figures as
    the planner on the orders screen: docs/campaign.md)."""
    try:
        eq = equilibrium(state, battle, player)
    except (KeyError, ValueError, ArithmeticError) as e:
        print(f"no equilibrium: {e}")
        return
    foe = state.player_name(eq.foe)
    print(f"equilibrium (zero-sum; payoff to {state.player_name(player)}: expected casualties inflicted minus taken, "
          f"plus {BAND_WORTH:g} per band of victory, minus per band of defeat)")
    summary = eq.manoeuvre_summary()
    for m in MANOEUVRES:
        if m in summary:
            chance, gives = summary[m]
            print(f"  {MANOEUVRE_NAMES[m]:>12}  mix {chance:.0%}  gives up {gives:.2f}")
        else:
            print(f"  {MANOEUVRE_NAMES[m]:>12}  mix -  (these forces may not order it)")
    print(f"  value {eq.value:+.2f} to {state.player_name(player)}; exploitability {eq.exploitability:.1e}")
    print("  the mix in full: " + ", ".join(f"{s.label} {p:.1%}" for s, p in eq.best_rows()))
    foe_by: dict[str, float] = {}
    for s, p in zip(eq.cols, eq.foe_mix, strict=True):
        foe_by[s.manoeuvre] = foe_by.get(s.manoeuvre, 0.0) + p
    print(f"  {foe}'s mix: " + ", ".join(f"{MANOEUVRE_NAMES[m]} {p:.0%}"
                                         for m, p in sorted(foe_by.items(), key=lambda mp: -mp[1]) if round(p, 2) > 0))
