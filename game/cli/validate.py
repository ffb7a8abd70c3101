"""`python -m game validate PATH...`: check maps, tilesets, scenarios, unit catalogues, rules files
and saves. Prints one line per problem; exit 0 when everything is valid, 1 otherwise.
A folder is searched for .tmx, .tsx and .yaml files.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from game import paths
from game.errors import GameFileError, UserError

KINDS = "a map (.tmx), tileset (.tsx), scenario, unit catalogue, rules file, save or command list (.yaml)"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "validate", help="check maps, scenarios, unit catalogues, rules files and saves",
        description="Check each PATH (a file, or a folder searched for .tmx/.tsx/.yaml files). "
        "Prints one line per problem; exit status 0 when all are valid, 1 otherwise.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="files or folders to check")
    p.add_argument("-q", "--quiet", action="store_true", help="print only problems")
    p.set_defaults(func=run)


def _expand(path: Path) -> Iterator[Path]:
    if paths.is_dir(path):
        for p in sorted(path.rglob("*")):
            if p.is_file() and p.suffix.lower() in (".tmx", ".tsx", ".yaml", ".yml"):
                yield p
    else:
        yield path


def check_file(path: Path) -> str:
    """Check one file; return what it is. Raises GameFileError/UserError on a problem."""
    from game.io.datafiles import load_catalogue, load_rules
    from game.io.sniff import sniff_kind

    if not paths.exists(path) and not paths.is_symlink(path):  # (a symbolic link loop is reported by the reader)
        raise UserError(f"{path}: no such file")
    kind = sniff_kind(path)
    if kind == "map" or path.suffix.lower() in (".tmj", ".tsj", ".tj"):  # JSON: refused saying how to re-save
        from game.io.tmx import load_map

        md = load_map(path)
        if md.units:
            from game.io.datafiles import load_catalogue as _cat

            cat = _cat()
            for u in md.units:
                if u.unit_type not in cat.units:
                    raise GameFileError(str(path), u.describe(), f"unknown unit_type '{u.unit_type}'; the "
                                        f"starter catalogue has: {', '.join(sorted(cat.units))}")
        if not md.has_terrain:
            return (f"map {md.width} x {md.height}, {len(md.painted)} painted cells, {len(md.units)} units; no tile "
                    "has a 'terrain' property: it draws, and a scenario's terrain_map makes it playable")
        return f"map {md.width} x {md.height}, {len(md.board.terrain)} hexes, {len(md.units)} units"
    if kind == "tileset":
        from game.io.tmx import load_tileset

        ts = load_tileset(path)
        return f"tileset '{ts.name}', {ts.tilecount} tiles"
    if kind == "scenario":
        from game.io.scenario import load_scenario

        sc = load_scenario(path)
        return f"scenario '{sc.name}', {len(sc.setup.sides)} sides, {len(sc.setup.units)} units"
    if kind == "catalogue":
        cat = load_catalogue(path)
        return f"unit catalogue, {len(cat.units)} unit types"
    if kind == "rules":
        rules = load_rules(path)
        return f"rules file, {len(rules.terrain)} terrain types"
    if kind == "save":
        from game.replay import load_game

        game = load_game(path, verify=True)
        return f"save, round {game.state.round}"
    # --- the translations between the scales (game.io.bridge, docs/scales.md) ---
    if kind == "scales-rules":
        from game.io.bridge import load_scales_rules

        sr = load_scales_rules(path)
        n = sum(len(t) for t in sr.tactical.units.values())
        return (f"scales translation rules, {n} campaign unit types mapped to tactical units, "
                f"{len(sr.tactical.maps)} terrains to maps, {len(sr.mass.kinds)} mass unit kinds")
    # --- mass battles (game.io.mass) ---
    if kind == "mass-battle":
        from game.io.mass import load_battle

        lb = load_battle(path)
        return (f"mass battle '{lb.name}', {len(lb.setup.forces)} forces, {lb.combatants} combatants, "
                f"{lb.setup.terrain} ground")
    if kind == "mass-rules":
        from game.io.mass import load_mass_rules

        load_mass_rules(path)
        return "mass-battle rules file"
    if kind == "mass-commands":
        from game.io.mass import load_mass_commands

        battle, cmds = load_mass_commands(path)
        from game.io.mass import load_battle as _lb

        _lb(battle)
        return f"mass-battle command script, {len(cmds)} commands for {battle.name}"
    # --- end of mass battles ---
    if kind.startswith("campaign-"):
        return _check_campaign(path, kind)
    if kind in ("broken", "yaml"):
        from game.io.datafiles import read_yaml
        from game.io.safe_read import MAX_LARGE_FILE_BYTES

        read_yaml(path, limit=MAX_LARGE_FILE_BYTES)  # raises the located syntax error or limit
    if kind == "commands":
        from game.cli.run import read_commands

        return f"command list, {len(read_commands(str(path)))} commands"
    raise UserError(f"{path}: not {KINDS}")


def _check_campaign(path: Path, kind: str) -> str:
    """The campaign layer's files (game/io/campaign.py)."""
    from game.io import campaign as c

    if kind == "campaign-scenario":
        loaded = c.load_campaign(path)
        s = loaded.setup
        return (f"campaign scenario '{loaded.name}', {len(s.players)} players, {len(s.armies)} armies, "
                f"map {s.map.width} x {s.map.height}")
    if kind == "campaign-rules":
        rules = c.load_campaign_rules(path)
        return f"campaign rules file, {len(rules.terrain)} terrain types, {len(rules.stratagems)} stratagems"
    if kind == "campaign-catalogue":
        cat = c.load_campaign_catalogue(path)
        return f"campaign unit catalogue, {len(cat.powers)} powers, {len(cat.unit_types())} unit types"
    if kind == "campaign-orders":
        f = c.read_orders_file(path)
        state = "fingerprint matches" if c.check_fingerprint(f) else (
            "no salt (public copy)" if f.salt is None else "FINGERPRINT DOES NOT MATCH")
        if f.salt is not None and not c.check_fingerprint(f):
            raise GameFileError(str(path), "fingerprint", "the orders and salt do not match the fingerprint")
        return f"campaign orders of {f.player}, week {f.week}, {len(f.orders)} orders, {state}"
    return f"campaign command script, {len(c.read_script(path))} commands"


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from game.io.datafiles import problems_of

    bad = 0
    checked = 0
    for raw in args.paths:
        for path in _expand(Path(raw)):
            checked += 1
            try:
                what = check_file(path)
            except GameFileError as exc:
                bad += 1
                for problem in problems_of(exc):
                    print(f"error: {problem}", file=sys.stderr)
                continue
            except UserError as exc:
                bad += 1
                print(f"error: {exc}", file=sys.stderr)
                continue
            if not args.quiet:
                print(f"ok: {path} ({what})")
    if checked == 0:
        raise UserError("nothing to check: no .tmx, .tsx or .yaml files found")
    if bad:
        print(f"{bad} of {checked} file(s) have problems", file=sys.stderr)
        return 1
    return 0
