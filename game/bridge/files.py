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
from game.bridge.tiled import fresh_seed, generate_tactical, write_generated
from game.core.errors import GameFileError
from game.core.plugin import Table
from game.core.system import counted
from game.io import safe_read
from game.io.datafiles import read_yaml, validate_model
from game.io.outpaths import linked_path
from game.io.saves import backup_path, file_checksum, read_header
from game.io.tmx import load_map
from game.replay import find_scenario, load_game
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
        got = game.header.system
        raise GameFileError(str(path), "system", f"expected a {system} save, got {_a(got)} {got} save")
    return game


def _a(word: str) -> str:
    """The article before a word: "an ail-tactical save", "a mass-battle save"."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def _dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)


def _write_generated(path: Path, text: str, what: str, inputs: tuple[str | Path, ...]) -> None:
    """A generated battle file: never through a symbolic link, never onto an input (outpaths);
    the file it replaces (a GM may have edited it) is kept as `<name>.bak` (game.bridge.tiled)."""
    write_generated(path, text, what, inputs)


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
                    rules: ScalesRules | None = None, seed: int = 1, *, dice_seed: int | None = None,
                    link: CampaignBattle | None = None, inputs: tuple[str | Path, ...] = ()) -> Path:
    """Write the tactical scenario or mass battle file for an open campaign battle and load it
    back with its system's loader (it must load like a shipped one). Raises BridgeError or
    GameFileError (one line). `seed`: the campaign's (the tactical ground: the same battle, the
    same ground); `dice_seed`: the battle's dice (None: a fresh one nobody could know before,
    `fresh_seed`); `link`: the campaign battle it is for (written as its `campaign:`). A file it
    replaces is kept as `<name>.bak` (`replaced_by_generating` says which would be)."""
    rules = rules or load_scales_rules()
    data = link.data() if link is not None else None
    if scale == "tactical":  # the ground generated from the campaign hex, beside the scenario
        return generate_tactical(state, battle_id, rules, out_dir, stem, seed=seed, dice_seed=dice_seed,
                                 link=data, inputs=inputs).scenario
    if scale == "mass":
        mplan = mass_plan(state, battle_id, rules, mass_map_terrain(),
                          seed=fresh_seed() if dice_seed is None else dice_seed)
        battle = dict(mplan.battle)
        if data is not None:
            battle["campaign"] = data
        path = write_mass(battle, out_dir, stem, inputs=inputs)

        load_battle(path)
        return path
    raise ValueError(f"a battle is fought out as a tactical or a mass battle, not {scale!r}")


def generated_files(battle_file: str | Path, scale: str) -> tuple[Path, ...]:
    """The files generating a battle file writes: the battle file, and a tactical one's map."""
    p = Path(battle_file)
    return (p, p.with_suffix(".tmx")) if scale == "tactical" else (p,)


def replaced_by_generating(battle_file: str | Path, scale: str) -> list[Path]:
    """The generated files already there, which writing the battle file again replaces (each is
    kept as `<name>.bak`)."""
    return [p for p in generated_files(battle_file, scale) if p.exists()]


def rewritten(replaced: list[Path], since_ns: int) -> list[Path]:
    """Those of `replaced` (replaced_by_generating, asked before) that the generation did write
    again (`since_ns`: time.time_ns() before it): a file that would come out the same is not
    written, and keeps no new `.bak` to speak of."""
    out = []
    for p in replaced:
        try:
            if p.stat().st_mtime_ns >= since_ns:
                out.append(p)
        except OSError:
            continue
    return out


def backups_text(replaced: list[Path]) -> str:
    """"the previous b.yaml is kept as b.yaml.bak" for the files a generation replaced ('' for none)."""
    if not replaced:
        return ""
    return "the previous " + ", ".join(f"{p.name} is kept as {backup_path(p).name}" for p in replaced)


# --------------------------------------------------------------------------- the link to the campaign


def campaign_identity(scenario_checksum: str, seed: int) -> str:
    """[decision] Which campaign a battle file was generated for: its scenario's checksum (the one
    its saves' headers record) and its seed. Both stay when the campaign is saved again, to
    another file or folder; another campaign (another scenario, or the same one begun with other
    dice) has another."""
    return f"{scenario_checksum}/{seed}"


@dataclass(frozen=True)
class CampaignBattle:
    """The campaign battle a battle file is generated for (its `campaign:` mapping): the
    campaign's identity (`campaign_identity`), the battle's id and the campaign week it is fought
    in (a battle may go on into a second week under the same id)."""

    campaign: str
    battle: str
    week: int

    def data(self) -> dict[str, Any]:
        return {"id": self.campaign, "battle": self.battle, "week": self.week}

    def text(self) -> str:
        return f"battle {self.battle} of week {self.week}"


def link_of(campaign_header: Any, state: Any, battle_id: str) -> CampaignBattle:
    """The campaign battle `battle_id` of a campaign whose save header (or anything with
    `scenario_checksum` and `seed`) is `campaign_header`, in its state's current week."""
    return CampaignBattle(campaign_identity(str(campaign_header.scenario_checksum), int(campaign_header.seed)),
                          battle_id, int(state.week))


def check_link(battle_save: str | Path, header: Any, expected: CampaignBattle) -> str | None:
    """A battle save is evidence only for the campaign battle its battle file was generated for:
    its battle file's `campaign:` must name `expected` (this campaign, this battle, this week).
    GameFileError (one line naming the save and what was expected) when it names another; a
    warning (the text) for a battle file written before battle files named their campaign battle
    (it has no `campaign:`); None when it matches. The battle file is found as the save's loader
    finds it (relative to the save first); one not found is left to the loader to report."""
    where = str(battle_save)
    if header.system not in SCALE_SYSTEMS.values():
        return None  # (not a battle save: result_of says so)
    found = find_scenario(str(header.scenario), battle_save)
    if found is None:
        return None
    try:
        data = read_yaml(found, "battle file").data
    except GameFileError:
        return None  # (the save's loader says what is wrong with it)
    link = data.get("campaign") if isinstance(data, dict) else None
    if link is None:
        return (f"{where}: warning: its battle file {found.name} does not say which campaign battle it is for "
                f"(written before battle files did); taken as {expected.text()}")
    if not isinstance(link, dict):
        raise GameFileError(where, "", f"its battle file {found.name} has a `campaign:` that is not a mapping")
    theirs = f"battle {link.get('battle')} of week {link.get('week')}"
    if str(link.get("id")) != expected.campaign:
        raise GameFileError(where, "", f"a save of another campaign's battle ({theirs}, campaign "
                                       f"{link.get('id')}); expected {expected.text()} of this campaign "
                                       f"({expected.campaign})")
    if str(link.get("battle")) != expected.battle or link.get("week") != expected.week:
        raise GameFileError(where, "", f"a save of {theirs} of this campaign; expected {expected.text()}")
    return None


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
    loaded = load_scenario(generate_battle(state, battle_id, "tactical", tmp, "forecast-tactical", rules,
                                           dice_seed=1))
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


def load_battle_save(table: Table, path: str | Path) -> Any:
    """A battle save, verified by replaying its log (load_game). A battle file (a scenario or a
    mass battle file, not played yet) given for it is named as such: GameFileError."""
    try:
        read_header(path)
    except GameFileError:
        try:
            data = read_yaml(Path(path), "battle save").data
        except GameFileError:
            data = None
        if isinstance(data, dict) and ("forces" in data or "sides" in data):
            raise GameFileError(str(path), "", "this is a battle file, not a save: play it first (python -m "
                                               f"game play {path}), then give the save it leaves") from None
        raise
    return load_game(table, path)


def result_of(state: Any, battle_id: str, rules: ScalesRules, battle_game: Any) -> Any:
    """The CampaignResult of a finished battle save (tactical or mass; a LoadedGame) for a
    campaign battle. Raises BridgeError (naming the save) when the battle is not over, not a
    battle of a scale, or not of the scale the battle is being fought out at."""
    system = battle_game.header.system
    final = battle_game.state
    initial = battle_game.record.initial
    where = str(getattr(battle_game, "path", "") or "the battle save")
    b = state.battles.get(battle_id)
    chosen = getattr(b, "fought_as", "tables")
    scale = next((k for k, v in SCALE_SYSTEMS.items() if v == system), None)
    if scale is None:
        raise BridgeError(f"{where}: {_a(system)} {system} save is not a tactical or mass battle")
    if chosen != "tables" and scale != chosen:
        raise BridgeError(f"{where}: a {scale} battle save, but battle {battle_id} is being fought out as a "
                          f"{chosen} battle")
    if system == "ail-tactical":
        if final.phase != "ended":
            raise BridgeError(f"{where}: the tactical battle is not over (round {final.round}, {final.phase} phase)")
        losses = back.tactical_losses(tactical_origin(state, battle_id, rules), initial, final)
        return back.campaign_result(state, battle_id, rules, losses, final.winner, "tactical")
    if final.stage != "ended":
        stage = str(MASS.summary(final)["phase"])  # the board's words: "Phase 5", "sealed appointments"
        raise BridgeError(f"{where}: the mass battle is not over (wave {final.wave}, "
                          f"{stage[:1].lower() + stage[1:]})")
    mplan = mass_plan(state, battle_id, rules, mass_map_terrain())
    losses = back.mass_losses(mplan.heads, mplan.armour, initial, final)
    return back.campaign_result(state, battle_id, rules, losses, final.winner, "mass")


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
    camp_header = game.header if hasattr(game, "header") else read_header(campaign_save)

    def linked(i: int, path: Path, header: Any, state: Any, battle_id: str) -> bool:
        """The battle save's battle file names this campaign battle (check_link); False: refused."""
        try:
            warning = check_link(path, header, link_of(camp_header, state, battle_id))
        except GameFileError as exc:
            out.append(LinkCheck(False, f"command {i}: {exc.line()}"))
            return False
        if warning:
            out.append(LinkCheck(True, f"command {i}: {warning}"))
        return True

    last_word: dict[str, int] = {}  # per battle, the last choice, abandonment or result in the log
    for i, step in enumerate(steps, start=1):
        if getattr(step.command, "kind", "") in ("gm_battle_choice", "gm_battle_abandon", "gm_battle_result"):
            last_word[str(step.command.battle)] = i
    for i, step in enumerate(steps, start=1):
        cmd = step.command
        kind = getattr(cmd, "kind", "")
        if kind == "gm_battle_choice" and cmd.scale != "tables":
            b = game.state.battles.get(cmd.battle)
            if b is None or b.over or b.battle_save != cmd.save or last_word.get(str(cmd.battle)) != i:
                continue  # settled since (its result is checked below), abandoned, or chosen again
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
                header = check_linked_save(campaign_save, path, cmd.scale, b)
                if not linked(i, path, header, game.state, cmd.battle):
                    continue
                bg = load_game(table, path)
            except GameFileError as exc:
                out.append(LinkCheck(False, f"command {i}: the {cmd.scale} battle save of {cmd.battle}: {exc.line()}"))
                continue
            out.append(LinkCheck(True, f"command {i}: {cmd.battle} is being fought out: {cmd.save} replays "
                                       f"({counted(len(bg.record.steps), 'command', 'commands')})"))
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
            header = check_linked_save(campaign_save, path, cmd.source.scale, step.before.battles[cmd.battle])
        except (GameFileError, KeyError) as exc:
            out.append(LinkCheck(False, f"command {i}: {exc.line() if isinstance(exc, GameFileError) else exc}"))
            continue
        if not linked(i, path, header, step.before, cmd.battle):
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
