"""`python -m game scales ...`: one campaign, three scales (docs/scales.md).

    scales tactical CAMPAIGN_SAVE --battle B1 --out DIR    write a tactical scenario for a campaign battle
    scales mass CAMPAIGN_SAVE --battle B1 --out DIR        write a mass battle file for it
    scales back CAMPAIGN_SAVE --battle B1 --result SAVE    the campaign result a finished tactical or
                                                           mass battle translates to, step by step
                 [--apply NEW_CAMPAIGN_SAVE]               ... and a campaign save that continues from it
    scales verify CAMPAIGN_SAVE                            replay the campaign and every battle save its
                                                           results came from; recompute each translation
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from game.bridge.files import (
    DEFAULT_SCALES,
    backups_text,
    check_link,
    generate_battle,
    link_of,
    linked_save,
    load_battle_save,
    load_scales_rules,
    load_state,
    mass_map_terrain,
    replaced_by_generating,
    rewritten,
    source_of,
    verify_links,
)
from game.bridge.files import result_of as _result_of
from game.bridge.mass import mass_plan
from game.bridge.sides import BridgeError
from game.bridge.tiled import generate_tactical
from game.core.errors import GameFileError
from game.core.system import Rejection, counted
from game.io.outpaths import check_destination, check_folder, write_text_or_keep
from game.io.saves import dump_save
from game.replay import make_save
from game.systems.campaign.rules.commands import parse_command
from game.systems.mass.io.files import load_battle
from game.systems.tactical.io.scenario import load_scenario


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("scales", help="fight a campaign battle out as a tactical or mass battle, and back",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="scales_command", metavar="ACTION")
    for name, helptext, func in (("tactical", "write a tactical scenario for a campaign battle", _tactical),
                                 ("mass", "write a mass battle file for a campaign battle", _mass)):
        s = sub.add_parser(name, help=helptext)
        s.add_argument("campaign", metavar="CAMPAIGN_SAVE")
        s.add_argument("--battle", required=True)
        s.add_argument("--out", required=True, metavar="DIR")
        s.add_argument("--rules", default=None, help="translation rules (default: assets/rules/scales.yaml)")
        s.set_defaults(func=_generating(func))
    b = sub.add_parser("back", help="the campaign result of a finished tactical or mass battle")
    b.add_argument("campaign", metavar="CAMPAIGN_SAVE")
    b.add_argument("--battle", required=True)
    b.add_argument("--result", required=True, metavar="BATTLE_SAVE")
    b.add_argument("--rules", default=None)
    b.add_argument("--apply", default=None, metavar="NEW_CAMPAIGN_SAVE",
                   help="write a campaign save with the result applied (a gm_battle_result command)")
    b.set_defaults(func=_back)
    v = sub.add_parser("verify", help="check a campaign save and the battle saves its results came from")
    v.add_argument("campaign", metavar="CAMPAIGN_SAVE")
    v.add_argument("--rules", default=None)
    v.set_defaults(func=_verify)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def _rules(args: argparse.Namespace) -> Any:
    return load_scales_rules(args.rules or DEFAULT_SCALES)


def _campaign(args: argparse.Namespace) -> Any:
    return load_state(args.table, args.campaign, "campaign")


def _fail(exc: Exception) -> int:
    print(f"error: {exc}", file=sys.stderr)
    return 1


def _out_folder(args: argparse.Namespace) -> bool:
    """The --out folder is usable; True when it is not there yet (made by the writing)."""
    made = not os.path.exists(args.out)
    check_folder(args.out, "battle file")
    return made


def _generating(func: Any) -> Any:
    """`scales tactical|mass`: a --out folder made for the battle file is not left behind, empty,
    when the work fails."""
    def run(args: argparse.Namespace) -> int:
        made = _out_folder(args)
        ok = False
        try:
            code = int(func(args))
            ok = code == 0
            return code
        finally:
            if made and not ok:
                try:
                    os.rmdir(args.out)  # only when empty
                except OSError:
                    pass
    return run


def _said(path: Path, replaced: list[Path], since: int) -> None:
    replaced = rewritten(replaced, since)  # (a file that came out the same was not written again)
    print(f"  dice: a fresh seed drawn now from the system's secure random source (seed: in {path.name}); "
          "nobody could know it before. Its campaign battle is named under campaign: in it")
    if replaced:
        print(f"  {backups_text(replaced)}")


def _warn_fought_elsewhere(state: Any, battle_id: str, scale: str) -> None:
    """A battle the campaign already fights out at the other scale: the battle file is written (a
    GM may want it), but said at once that its result would not be taken back (the way back refuses
    a save of another scale than the one chosen), not only when the battle has been played."""
    b = state.battles.get(battle_id)
    fought = getattr(b, "fought_as", "tables")
    if b is not None and fought not in ("tables", scale):
        print(f"warning: battle {battle_id} is being fought out as a {fought} battle (its save {b.battle_save}); "
              f"the way back will refuse this {scale} battle's result unless the battle is abandoned to the "
              "tables first (the GM's Abandon to tables) and chosen again", file=sys.stderr)


def _tactical(args: argparse.Namespace) -> int:
    rules = _rules(args)
    game = _campaign(args)
    state = game.state
    _warn_fought_elsewhere(state, args.battle, "tactical")
    stem = f"battle-{args.battle}-tactical"
    replaced, since = replaced_by_generating(Path(args.out) / f"{stem}.yaml", "tactical"), time.time_ns()
    try:  # the ground generated from the campaign hex (a Tiled map), the scenario beside it
        made = generate_tactical(state, args.battle, rules, args.out, stem, seed=game.header.seed,
                                 link=link_of(game.header, state, args.battle).data(), inputs=(args.campaign,))
    except BridgeError as exc:
        return _fail(exc)
    plan, path = made.plan, made.scenario
    loaded = load_scenario(path)  # it must load like a shipped one
    print(f"{path}: {loaded.name}; map {made.map} (generated from the campaign hex: edit it in Tiled before "
          f"play if you like); {len(plan.origin)} tactical units for {len(set(plan.origin.values()))} campaign "
          f"units; {state.player_says(plan.defender, 'defends')}")
    for army, (edge, why) in plan.edges.items():
        print(f"  {state.army_says(army, 'deploys')} on the {edge} edge ({why})")
    _said(path, replaced, since)
    print(f"play it: python -m game play {path}")
    return 0


def _mass(args: argparse.Namespace) -> int:
    rules = _rules(args)
    game = _campaign(args)
    _warn_fought_elsewhere(game.state, args.battle, "mass")
    stem = f"battle-{args.battle}-mass"
    replaced, since = replaced_by_generating(Path(args.out) / f"{stem}.yaml", "mass"), time.time_ns()
    try:
        plan = mass_plan(game.state, args.battle, rules, mass_map_terrain())
        path = generate_battle(game.state, args.battle, "mass", args.out, stem, rules, seed=game.header.seed,
                               link=link_of(game.header, game.state, args.battle), inputs=(args.campaign,))
    except BridgeError as exc:
        return _fail(exc)
    loaded = load_battle(path)
    # the note names the combatants' count itself ("6002 combatants: a battle ..."), so it is said once
    print(f"{path}: {loaded.name}; terrain {plan.terrain_kind}; {loaded.note}")
    _said(path, replaced, since)
    print(f"play it: python -m game play {path}")
    return 0


def result_of(state: Any, battle_id: str, rules: Any, battle_game: Any) -> Any:
    """The CampaignResult of a finished battle save (game.bridge.files.result_of)."""
    return _result_of(state, battle_id, rules, battle_game)


def _back(args: argparse.Namespace) -> int:
    if args.apply is not None:  # before anything is read: never onto an input (issue 34: the lost battle save)
        check_destination(args.apply, "campaign save", inputs=(args.campaign, args.result, args.rules))
        rel = os.path.relpath(os.path.abspath(args.result), os.path.dirname(os.path.abspath(args.apply)))
        try:  # the link the new save will hold must be one verify trusts (docs/saves.md)
            linked_save(args.apply, Path(rel).as_posix(), args.battle)
        except GameFileError as exc:
            return _fail(ValueError(f"{exc.message}; put the battle save in the new campaign save's folder "
                                    "(or below it)"))
    rules = _rules(args)
    game = _campaign(args)
    if args.apply is not None:  # the links already in its log must still lead to their battle saves
        moved = moved_links(game.record.steps, args.campaign, args.apply, args.battle)
        if moved:
            many = len(moved) > 1
            return _fail(ValueError(
                f"{args.apply}: a campaign save in another folder would lose the link{'s' if many else ''} its log "
                f"holds to {'; '.join(moved)} (relative to the campaign save's folder "
                f"{os.path.dirname(os.path.abspath(args.campaign))}): write the new campaign save in that folder, "
                f"or first copy {'those battle saves' if many else 'that battle save'} to the same place beside it"))

    battle_game = load_battle_save(args.table, args.result)
    try:  # a save of this campaign battle only (its battle file names it), finished
        warning = check_link(args.result, battle_game.header, link_of(game.header, game.state, args.battle))
        result = result_of(game.state, args.battle, rules, battle_game)
    except GameFileError as exc:
        return _fail(ValueError(exc.line()))
    except BridgeError as exc:
        return _fail(exc)
    if warning:
        print(warning, file=sys.stderr)
    print(f"Battle {args.battle}, fought out as a {result.scale} battle ({args.result}):")
    for line in result.steps:
        print(line)
    source = None
    if args.apply:
        source = source_of(args.result, args.apply, result.scale)
    cmd = result.command(note=f"{result.scale} battle {Path(args.result).name}", source=source)
    print(f"result: {result.band_name}" + (f" for {game.state.player_name(result.winner)}" if result.winner else ""))
    print(f"command: {cmd}")
    if args.apply:
        return _apply(game, cmd, args.apply)
    return 0


def moved_links(steps: Any, campaign: str | Path, new: str | Path, battle: str = "") -> list[str]:
    """The battle saves the campaign's log links to and `replay --verify` checks (a result's
    `source`; a choice's `save` while its battle has no result yet, other than `battle`, whose
    result is being applied now): paths relative to the campaign save's folder, which a campaign
    save written at `new` would not find: "B2: battles/camp-B2-mass-save.yaml" for each. None
    when `new` is in the same folder, or the same relative path leads to the same file content there."""
    old_dir, new_dir = Path(os.path.abspath(campaign)).parent, Path(os.path.abspath(new)).parent
    if old_dir == new_dir:
        return []
    kinds = [(step.command, str(getattr(step.command, "kind", ""))) for step in steps]
    decided = {battle} | {str(cmd.battle) for cmd, kind in kinds if kind == "gm_battle_result"}
    out: list[str] = []
    for cmd, kind in kinds:
        source = getattr(cmd, "source", None)
        if kind == "gm_battle_result" and source is not None:
            rel = str(source.save)
        elif kind == "gm_battle_choice" and str(cmd.battle) not in decided:
            rel = str(getattr(cmd, "save", "") or "")
        else:
            continue
        if not rel:
            continue
        before, after = old_dir / rel, new_dir / rel
        if not before.is_file() or (after.is_file() and after.read_bytes() == before.read_bytes()):
            continue
        line = f"{cmd.battle}: {rel}"
        if line not in out:
            out.append(line)
    return out


def _verify(args: argparse.Namespace) -> int:
    """The campaign save replays (load_game verifies it); then each gm_battle_result with a
    source: its battle save is there, unchanged (checksum), replays, and translates to exactly
    the result the command applied; a battle still being fought out: its save replays."""
    rules = _rules(args)
    game = _campaign(args)
    print(f"{args.campaign}: {len(game.record.steps)} commands replay exactly")
    checks = verify_links(args.table, args.campaign, game, rules)
    for c in checks:
        print(c.text)
    problems = sum(1 for c in checks if not c.ok)
    # (a result's source, "<-", or the save of a battle still being fought out, "is being fought out:")
    linked = sum(1 for c in checks if "<-" in c.text or " is being fought out: " in c.text or not c.ok)
    print(f"-- {counted(linked, 'linked battle save', 'linked battle saves')}, {counted(problems, 'problem', 'problems')}")
    return 1 if problems else 0


def _apply(game: Any, cmd: dict[str, Any], out: str) -> int:
    outcome = game.record.apply(parse_command(cmd))
    if isinstance(outcome, Rejection):
        return _fail(ValueError(f"the campaign refused the result: {outcome.reason}"))
    state = game.record.state
    # the campaign save's own title (the load menu lists a save by it; it was left empty here)
    title = game.header.title or str(getattr(getattr(game.scenario, "setup", None), "name", "") or "")
    save = make_save(game.system, state, game.record.steps, scenario_path=game.scenario.path, seed=game.header.seed,
                     title=title)
    written = write_text_or_keep(out, dump_save(save), "save")  # (checked by _back before the work)
    if written.failed:
        return _fail(ValueError(f"{written.failed}; the save was kept in {written.path}"))
    print(f"-- campaign save with the result applied: {out} (week {state.week}, {state.phase} phase)")
    return 0
