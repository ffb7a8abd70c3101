"""Files for game/bridge/ (docs/scales.md): the translation rules (assets/rules/scales.yaml), a
tactical map's standable cells, a campaign or battle save brought back, and the generated
scenario / battle files written next to each other."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from game import paths
from game.bridge import back
from game.bridge.mass import mass_plan
from game.bridge.models import ScalesRules
from game.bridge.sides import BridgeError, open_battle, terrain_of
from game.bridge.tactical import Cells, tactical_origin
from game.bridge.tiled import generate_tactical
from game.core.errors import GameFileError, UserError
from game.core.plugin import Table
from game.io import safe_read
from game.io.datafiles import read_yaml, validate_model
from game.io.outpaths import linked_path, write_output
from game.io.saves import file_checksum, read_header
from game.io.tmx import load_map
from game.replay import load_game
from game.systems.campaign.rules.odds import battle_odds
from game.systems.mass.io.files import load_battle, load_mass_rules
from game.systems.mass.rules.odds import contest
from game.systems.mass.rules.pools import way_entries
from game.systems.mass.rules.system import SYSTEM as MASS
from game.systems.tactical.io.data import load_rules
from game.systems.tactical.io.scenario import load_scenario

DEFAULT_SCALES = paths.asset("rules", "scales.yaml")


def load_scales_rules(path: str | Path = DEFAULT_SCALES) -> ScalesRules:
    p = Path(path)
    doc = read_yaml(p, "scales rules file")
    return validate_model(ScalesRules, doc.data, doc, p, what="scales rules file")


def tactical_map_path(map_name: str) -> Path:
    p = paths.maps_dir() / map_name
    if not paths.is_file(p):
        raise GameFileError(str(p), "", f"the tactical map {map_name!r} is neither beside the scenario nor in "
                                        f"{paths.maps_dir()}")
    return p


def cells_of(map_name: str) -> Cells:
    """The map's size and every cell a unit of any kind may stand on (on the board, passable)."""
    rules = load_rules()
    md = load_map(tactical_map_path(map_name), set(rules.terrain))
    board = md.board
    ok: set[tuple[int, int]] = set()
    for col in range(md.width):
        for row in range(md.height):
            h = board.stagger.to_hex(col, row)
            if h not in board:
                continue
            t = rules.terrain.get(board.terrain_at(h))
            if t is not None and not t.impassable:
                ok.add((col, row))
    return Cells(md.width, md.height, frozenset(ok), board.stagger)


def mass_map_terrain() -> dict[str, str]:
    return dict(load_mass_rules().map_terrain)


def load_state(table: Table, path: str | Path, system: str) -> Any:
    """(record, loaded game) of a save of the given system, verified by replaying its log."""
    game = load_game(table, path)
    if game.header.system != system:
        raise GameFileError(str(path), "system", f"expected a {system} save, got a {game.header.system} save")
    return game


def _dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)


def _write_generated(path: Path, text: str, what: str, inputs: tuple[str | Path, ...]) -> None:
    """A generated battle file: never through a symbolic link, never onto an input (outpaths)."""
    written = write_output(path, text, what, inputs=inputs, backup=False)
    if written.failed:
        raise UserError(f"{written.failed}; it was kept in {written.path}")


def write_mass(battle: dict[str, Any], out_dir: str | Path, stem: str, *,
               inputs: tuple[str | Path, ...] = ()) -> Path:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{stem}.yaml"
    header = "# A campaign battle as a mass battle (python -m game scales mass); docs/scales.md\n"
    _write_generated(path, header + _dump(battle), "mass battle file", inputs)
    return path


# --------------------------------------------------------------------------- generating a battle


def generate_battle(state: Any, battle_id: str, scale: str, out_dir: str | Path, stem: str,
                    rules: ScalesRules | None = None, seed: int = 1) -> Path:
    """Write the tactical scenario or mass battle file for an open campaign battle and load it
    back with its system's loader (it must load like a shipped one). Raises BridgeError or
    GameFileError (one line)."""
    rules = rules or load_scales_rules()
    if scale == "tactical":  # the ground generated from the campaign hex, beside the scenario
        return generate_tactical(state, battle_id, rules, out_dir, stem, seed=seed).scenario
    if scale == "mass":
        mplan = mass_plan(state, battle_id, rules, mass_map_terrain(), seed=seed)
        path = write_mass(mplan.battle, out_dir, stem)

        load_battle(path)
        return path
    raise ValueError(f"a battle is fought out as a tactical or a mass battle, not {scale!r}")


def battle_paths(campaign_save: str | Path, battle_id: str, scale: str) -> tuple[Path, Path]:
    """[decision] Where the client keeps a battle fought out: next to the campaign save, in
    `battles/`: (the generated battle file, the battle's save)."""
    folder = Path(campaign_save).parent / "battles"
    stem = "".join(ch if ch.isalnum() else "-" for ch in Path(campaign_save).stem).strip("-") or "campaign"
    base = f"{stem}-{battle_id}-{scale}"
    return folder / f"{base}.yaml", folder / f"{base}-save.yaml"


def scenario_of_save(battle_save: str | Path) -> Path:
    """The generated battle file that goes with a battle save named by battle_paths."""
    p = Path(battle_save)
    return p.with_name(p.name.removesuffix("-save.yaml") + ".yaml")


# --------------------------------------------------------------------------- the forecast


@dataclass(frozen=True)
class SideForecast:
    player: str
    name: str
    defender: bool
    units: int  # tactical units (tactical) / campaign units (mass)
    strength: int  # total tactical strength (tactical) / heads (mass)
    commander: str


@dataclass(frozen=True)
class Forecast:
    """What the GM sees before choosing how a campaign battle is resolved (docs/scales.md)."""

    battle: str
    tables: Any  # game.systems.campaign.rules.odds.BattleOdds
    tactical_map: str
    tactical_sides: tuple[SideForecast, ...]
    mass_terrain: str
    mass_sides: tuple[SideForecast, ...]
    mass_ways: tuple[tuple[str, dict[str, float]], ...]  # (Way, force -> P(win)) from the mass rules
    problems: tuple[str, ...]  # a scale this battle cannot be fought at, and why


def forecast(state: Any, battle_id: str, rules: ScalesRules | None = None) -> Forecast:
    """The tables' exact odds (the campaign rules' battle_odds) beside the tactical battle's
    forces and map and the mass battle's head counts and the exact odds of its opening Ways
    (the mass rules' own contest odds), from the very files the choice would generate."""
    rules = rules or load_scales_rules()
    tables = battle_odds(state, battle_id)
    problems: list[str] = []
    tmap, mterrain = "", ""
    tsides: list[SideForecast] = []
    msides: list[SideForecast] = []
    ways: tuple[tuple[str, dict[str, float]], ...] = ()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            tmap, tsides = _tactical_forecast(state, battle_id, rules, tmp)
        except (BridgeError, GameFileError) as exc:
            problems.append(f"tactical: {exc}")
        try:
            mterrain, msides, ways = _mass_forecast(state, battle_id, rules, tmp)
        except (BridgeError, GameFileError) as exc:
            problems.append(f"mass: {exc}")
    return Forecast(battle_id, tables, tmap, tuple(tsides), mterrain, tuple(msides), ways, tuple(problems))


def _tactical_forecast(state: Any, battle_id: str, rules: ScalesRules, tmp: str) -> tuple[str, list[SideForecast]]:
    map_name = f"ground generated from the hex ({terrain_of(state, open_battle(state, battle_id))})"
    loaded = load_scenario(generate_battle(state, battle_id, "tactical", tmp, "forecast-tactical", rules))
    setup = loaded.setup
    out = []
    for i, side in enumerate(setup.sides):
        units = [u for u in setup.units if u.side == side.id]
        strength = sum(u.strength if u.strength is not None else setup.catalogue.units[u.type].strength for u in units)
        cmd = side.commander.name if side.commander is not None else "-"
        out.append(SideForecast(side.id, side.name, i == 0, len(units), strength, cmd))
    return map_name, out


def _mass_forecast(state: Any, battle_id: str, rules: ScalesRules,
                   tmp: str) -> tuple[str, list[SideForecast], tuple[tuple[str, dict[str, float]], ...]]:
    plan = mass_plan(state, battle_id, rules, mass_map_terrain())
    loaded = load_battle(write_mass(plan.battle, tmp, "forecast-mass"))
    s = MASS.initial_state(loaded.setup, loaded.seed)
    out = []
    for i, fid in enumerate(s.order):
        f = s.forces[fid]
        cmd = f.people[f.commander].name if f.commander in f.people else "-"
        out.append(SideForecast(fid, f.name, i == 0, len(plan.heads.get(fid, {})), sum(b.count for b in f.brutes), cmd))
    ways = []
    for way in ("heaven", "strategy"):
        ways.append((way, dict(contest(s, way_entries(s, way), way).win)))
    return plan.terrain_kind, out, tuple(ways)


# --------------------------------------------------------------------------- the way back


def result_of(state: Any, battle_id: str, rules: ScalesRules, battle_game: Any) -> Any:
    """The CampaignResult of a finished battle save (tactical or mass; a LoadedGame) for a
    campaign battle. Raises BridgeError when the battle is not over or not of this battle."""
    system = battle_game.header.system
    final = battle_game.state
    initial = battle_game.record.initial
    if system == "ail-tactical":
        if final.phase != "ended":
            raise BridgeError(f"the tactical battle is not over (round {final.round}, {final.phase} phase)")
        losses = back.tactical_losses(tactical_origin(state, battle_id, rules), initial, final)
        return back.campaign_result(state, battle_id, rules, losses, final.winner, "tactical")
    if system == "mass-battle":
        if final.stage != "ended":
            raise BridgeError(f"the mass battle is not over (Wave {final.wave}, {final.stage})")
        mplan = mass_plan(state, battle_id, rules, mass_map_terrain())
        losses = back.mass_losses(mplan.heads, mplan.armour, initial, final)
        return back.campaign_result(state, battle_id, rules, losses, final.winner, "mass")
    raise BridgeError(f"a {system} save is not a tactical or mass battle")


def source_of(battle_save: str | Path, campaign_save: str | Path, scale: str) -> dict[str, str]:
    """The `source` of a gm_battle_result: the battle save relative to the campaign save's folder
    and its file checksum."""
    rel = os.path.relpath(os.path.abspath(battle_save), os.path.dirname(os.path.abspath(campaign_save)))
    return {"scale": scale, "save": Path(rel).as_posix(), "checksum": file_checksum(battle_save)}


SCALE_SYSTEMS = {"tactical": "ail-tactical", "mass": "mass-battle"}  # the save's header `system:` per scale


def linked_save(campaign_save: str | Path, rel: str, battle_id: str) -> Path:
    """[decision] The one place a battle save named by a campaign save may be (docs/saves.md): a
    relative path inside the campaign save's folder, through no symbolic link (game.io.outpaths.
    linked_path). The client writes a battle save only there, and verify reads only there.
    GameFileError against the campaign save otherwise."""
    base = Path(os.path.abspath(campaign_save)).parent
    return linked_path(base, rel, "battle save", campaign_save, where=f"battle {battle_id}")


def check_linked_save(campaign_save: str | Path, path: Path, scale: str, battle: Any) -> Any:
    """What must hold before a linked battle save is read as evidence, each checked from its
    header alone (nothing hashed or replayed yet): a regular file of at most the save size limit;
    not the campaign save itself; a save of the scale's system (a campaign save here would be a
    cycle); fought by the campaign battle's two sides. Returns the header; GameFileError naming
    the campaign battle otherwise."""
    where = f"battle {battle.id}"
    st = safe_read.check_regular(path, f"battle save of {battle.id}")
    if st.st_size > safe_read.MAX_LARGE_FILE_BYTES:
        raise GameFileError(str(path), where, f"the battle save is too large ({st.st_size:,} bytes; a save "
                                              f"is at most {safe_read.MAX_LARGE_FILE_BYTES:,})")
    try:
        if os.path.samefile(path, campaign_save):
            raise GameFileError(str(path), where, "the battle save is the campaign save itself (a link to "
                                                  "itself); expected the battle's own save")
    except OSError:
        pass
    header = read_header(path)
    want = SCALE_SYSTEMS[scale]
    if header.system == "campaign":
        raise GameFileError(str(path), where, f"a campaign save, not the {scale} battle's save (a campaign "
                                              "linking to a campaign: a cycle)")
    if header.system != want:
        raise GameFileError(str(path), where, f"a {header.system} save; a {scale} battle's save is a "
                                              f"{want} save")
    if set(header.sides) != set(battle.sides):
        raise GameFileError(str(path), where, f"a battle between {', '.join(header.sides) or 'nobody'}, not "
                                              f"this campaign battle's sides {', '.join(battle.sides)}")
    return header


@dataclass(frozen=True)
class LinkCheck:
    ok: bool
    text: str


def replay_links(table: Table, campaign_save: Path, record: Any) -> list[tuple[bool, str]]:
    """The campaign's Plugin.verify_links hook (wired in game/table.py), for `replay --verify`."""
    return [(c.ok, c.text) for c in verify_links(table, campaign_save, record)]


def verify_links(table: Table, campaign_save: str | Path, game: Any,
                 rules: ScalesRules | None = None) -> list[LinkCheck]:
    """The battle saves a campaign save refers to (docs/scales.md): for every gm_battle_result
    with a source, its battle save is there, unchanged (checksum), replays (load_game verifies
    every die) and translates to exactly the result applied; for every battle still being fought
    out (gm_battle_choice), its save, when there is one yet, replays. `game`: the campaign's
    LoadedGame or its replayed Record (anything with `.steps` or `.record.steps`, and `.state`)."""
    rules = rules or load_scales_rules()
    out: list[LinkCheck] = []
    steps = game.record.steps if hasattr(game, "record") else game.steps
    for i, step in enumerate(steps, start=1):
        cmd = step.command
        kind = getattr(cmd, "kind", "")
        if kind == "gm_battle_choice" and cmd.scale != "tables":
            b = game.state.battles.get(cmd.battle)
            if b is None or b.over or b.battle_save != cmd.save:
                continue  # settled since (its result is checked below) or abandoned
            try:
                path = linked_save(campaign_save, cmd.save, cmd.battle)
            except GameFileError as exc:
                out.append(LinkCheck(False, f"command {i}: {exc.line()}"))
                continue
            if not paths.exists(path) and not paths.is_symlink(path):
                out.append(LinkCheck(True, f"command {i}: {cmd.battle} is being fought out as a {cmd.scale} "
                                           f"battle; its save {cmd.save} is not written yet"))
                continue
            try:
                check_linked_save(campaign_save, path, cmd.scale, b)
                bg = load_game(table, path)
            except GameFileError as exc:
                out.append(LinkCheck(False, f"command {i}: the {cmd.scale} battle save of {cmd.battle}: {exc.line()}"))
                continue
            out.append(LinkCheck(True, f"command {i}: {cmd.battle} is being fought out: {cmd.save} replays "
                                       f"({len(bg.record.steps)} commands)"))
            continue
        if kind != "gm_battle_result":
            continue
        if cmd.source is None:
            out.append(LinkCheck(True, f"command {i}: result of {cmd.battle} has no battle save (decided by the GM alone)"))
            continue
        try:
            path = linked_save(campaign_save, cmd.source.save, cmd.battle)
        except GameFileError as exc:
            out.append(LinkCheck(False, f"command {i}: {exc.line()}"))
            continue
        if not paths.exists(path) and not paths.is_symlink(path):
            out.append(LinkCheck(False, f"command {i}: battle save {cmd.source.save} of {cmd.battle} is missing "
                                        f"(looked for {path})"))
            continue
        try:
            check_linked_save(campaign_save, path, cmd.source.scale, step.before.battles[cmd.battle])
        except (GameFileError, KeyError) as exc:
            out.append(LinkCheck(False, f"command {i}: {exc.line() if isinstance(exc, GameFileError) else exc}"))
            continue
        if file_checksum(path) != cmd.source.checksum:
            out.append(LinkCheck(False, f"command {i}: battle save {cmd.source.save} has changed since its result "
                                        f"was applied"))
            continue
        try:
            battle_game = load_game(table, path)
            result = result_of(step.before, cmd.battle, rules, battle_game)
        except GameFileError as exc:
            out.append(LinkCheck(False, f"command {i}: {exc.line()}"))
            continue
        except BridgeError as exc:
            out.append(LinkCheck(False, f"command {i}: {exc}"))
            continue
        if not result.same_as(cmd):
            out.append(LinkCheck(False, f"command {i}: the {cmd.source.scale} battle {cmd.source.save} translates to "
                                        f"{result.command()} today, not to the result applied"))
            continue
        out.append(LinkCheck(True, f"command {i}: {cmd.battle} <- {cmd.source.save}: replays, unchanged, "
                                   f"translates to the same result"))
    return out
