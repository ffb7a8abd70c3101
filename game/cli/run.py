"""`python -m game run SCENARIO --commands FILE.yaml [--seed N] [--out SAVE.yaml]`

Applies a list of commands to a scenario without a window and prints one line per event (and
`REJECTED: <reason>` for every refused command): the tool a GM uses to prepare a demonstration
and the tool tests use to play whole scenarios. Exit status 0 when every command was accepted,
3 when some were rejected (1 for a bad file or argument).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, TextIO

import yaml

from game.core.errors import GameFileError, brief
from game.core.record import Record
from game.core.system import Accepted, clock_of, counted
from game.io import safe_read
from game.io.outpaths import check_destination, write_text_or_keep
from game.io.saves import dump_save
from game.io.sniff import peek_system
from game.replay import make_save
from game.table import TABLE


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "run", help="apply a list of commands to a scenario headless and print every event",
        description="Apply the commands of FILE.yaml (a YAML list of command mappings, each with a "
        "'kind'; hexes axial [q, r], or [column, row] as Tiled shows them when the file is a mapping "
        "{coordinates: col_row, commands: [...]}) to SCENARIO and print one line per event; refused "
        "commands print 'REJECTED: reason'. "
        "Exit status 0 when every command was accepted, 3 when some were refused (a teaching script "
        "may refuse one on purpose), 1 for a file that cannot be read or written.",
    )
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file (.yaml)")
    p.add_argument("--commands", required=True, metavar="FILE.yaml", help="YAML list of commands")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: the scenario's)")
    p.add_argument("--out", metavar="SAVE.yaml", default=None, help="write a save of the final state")
    p.add_argument("--stop-on-reject", action="store_true", help="stop at the first refused command")
    p.set_defaults(func=run_command)


HEX_FIELDS = ("to", "at")  # a single hex; "path" is a list of them


def _to_axial(entry: Any, board: Any) -> Any:
    """A command mapping with its hexes turned from [column, row] into axial [q, r] (anything
    that is not a pair of whole numbers is left for the command parser to refuse)."""
    def conv(v: Any) -> Any:
        if isinstance(v, list | tuple) and len(v) == 2 and all(isinstance(x, int) for x in v):
            q, r = board.hex_at(v[0], v[1])
            return [q, r]
        return v

    if not isinstance(entry, dict):
        return entry
    out = dict(entry)
    for key in HEX_FIELDS:
        if key in out:
            out[key] = conv(out[key])
    if isinstance(out.get("path"), list):
        out["path"] = [conv(v) for v in out["path"]]
    return out


def read_commands(path: str, board: Any = None, system: Any = None) -> list[Any]:
    """The commands of FILE.yaml, parsed; errors name the file and the entry.

    The file is a list of commands, or a mapping `{coordinates: axial | col_row, commands: [...]}`;
    with `col_row` every hex is written [column, row] as Tiled and the game show them, and is
    converted with `board` (without a board, e.g. when only validating, they are parsed as they are).
    GM commands (`gm_...`, game/systems/tactical/rules/gm.py) are accepted too: a GM prepares a situation with
    them (place units, set stances, queue dice) and then plays it. `system`: the rule system whose
    commands these are (default: the AI:L tactical rules)."""
    if system is None:
        system = TABLE.plugin_named(TABLE.default).system
    parse_command = system.parse_command

    text = safe_read.read_text(path, "command list", limit=safe_read.MAX_LARGE_FILE_BYTES)
    try:
        data = safe_read.load_yaml(text)
    except yaml.YAMLError as exc:
        where, problem = safe_read.yaml_problem(exc)
        raise GameFileError(path, where, f"not valid YAML ({problem})") from None
    if data is None:
        return []
    coordinates = "axial"
    if isinstance(data, dict) and "commands" in data:
        coordinates = data.get("coordinates", "axial")
        if coordinates not in ("axial", "col_row"):
            raise GameFileError(path, "coordinates", f"expected axial or col_row, got {brief(coordinates)}")
        extra = sorted(set(data) - {"commands", "coordinates"})
        if extra:
            raise GameFileError(path, "", f"unknown {'key' if len(extra) == 1 else 'keys'} {', '.join(map(str, extra))}; expected commands "
                                          "and optionally coordinates")
        data = data["commands"]
    if not isinstance(data, list):
        raise GameFileError(path, "", "expected a YAML list of commands (mappings with a 'kind')")
    out = []
    for i, entry in enumerate(data):
        try:
            if coordinates == "col_row" and board is not None:
                entry = _to_axial(entry, board)
            out.append(parse_command(entry))
        except ValueError as exc:
            raise GameFileError(path, f"command {i + 1}", str(exc)) from None
    return out


def run_commands(record: Record, commands: list[Any], out: TextIO, *, stop_on_reject: bool = False) -> int:
    """Apply `commands` to the record, printing every event; returns the number refused."""
    system = record.system
    rejected = 0
    for i, cmd in enumerate(commands):
        outcome = record.apply(cmd)
        if not isinstance(outcome, Accepted):
            rejected += 1
            print(f"[{i + 1}] {cmd.kind}: REJECTED: {outcome.reason}", file=out)
            if stop_on_reject:
                break
            continue
        for ev in outcome.events:
            print(f"[{i + 1}] {ev.kind}: {system.describe_event(outcome.state, ev)}", file=out)
    return rejected


def save_title(scenario: Any, path: str | Path) -> str:
    """The title of a save of `scenario` (what the load menu lists it by): the one a save from the
    window gets (game.shell.savegame.game_title): the scenario's name, else its file's name. Without
    it a `run --out` save of a campaign or a mass battle had an empty title (make_save falls back to
    the system's summary, which only the tactical rules give a title)."""
    name = getattr(getattr(scenario, "setup", None), "name", "") or getattr(scenario, "name", "")
    return str(name or Path(path).stem)


def run_command(args: argparse.Namespace) -> int:
    if args.out:  # before the work: a destination that cannot be written is said now
        check_destination(args.out, "save")
    table = args.table
    plugin = table.plugin_named(peek_system(args.scenario, table.default))
    scenario = plugin.load(Path(args.scenario))
    if getattr(scenario, "warning", ""):  # what the board shows too (e.g. a mass battle under 50 strong)
        print(f"-- note: {scenario.warning}")
    system = plugin.system
    if plugin.read_script is not None:
        commands = plugin.read_script(Path(args.commands), scenario)
    else:
        commands = read_commands(args.commands, getattr(scenario, "board", None), system)
    seed = args.seed if args.seed is not None else getattr(scenario, "seed", 0)
    record = Record(system, system.initial_state(plugin.setup_of(scenario), seed))
    try:
        rejected = run_commands(record, commands, sys.stdout, stop_on_reject=args.stop_on_reject)
        summary = system.summary(record.state)
        ending = ""
        if summary.get("over") and summary.get("winner"):
            # the side's name, as everywhere a person reads (the id only when the system names none)
            names = dict(zip(summary.get("sides") or [], summary.get("side_names") or [], strict=False))
            ending = f", winner {names.get(summary['winner'], summary['winner'])}"
        print(f"-- {counted(len(record.steps), 'command', 'commands')} accepted, {rejected} rejected; {clock_of(system)} {summary.get('round')}, "
              f"phase {summary.get('phase')}" + ending)
        sys.stdout.flush()
    except BrokenPipeError:  # output piped into `head` and closed: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    if args.out:
        save = make_save(system, record.state, record.steps, scenario_path=args.scenario, seed=seed,
                         title=save_title(scenario, args.scenario))
        written = write_text_or_keep(args.out, dump_save(save), "save")
        if written.failed:
            print(f"error: {written.failed}; the save was kept in {written.path}", file=sys.stderr)
            return 1
        print(f"-- saved to {args.out}")
    return 3 if rejected else 0
