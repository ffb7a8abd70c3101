"""Checks the play-by-post commands share (docs/campaign.md, "Play by post" and "The dice"): a
game script with a refused command, files a command must not overwrite, what a file given as an
order file really is, and a dice commitment used in an earlier week."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import yaml

from game.core.errors import GameFileError, UserError
from game.io.datafiles import format_loc, read_yaml
from game.io.outpaths import check_destination
from game.systems.campaign.io.files import OrdersFile, read_orders_file

SECRET_KIND = "campaign-dice-secret"
ORDERS_KIND = "campaign-orders"
TURN_KIND = "campaign-turn"  # a player's moves, pick-ups, declarations or posts (turns.py)


# --------------------------------------------------------------------------- refused commands


def script_line(script: str, index: int) -> int | None:
    """The line of the command at `index` (0-based) in a command script, or None."""
    try:
        doc = read_yaml(script, "command script")
    except GameFileError:
        return None
    loc: tuple[int | str, ...] = ("commands", index) if isinstance(doc.data, dict) else (index,)
    return doc.line_of(loc)


def refusal_text(script: str, refusals: list[Any]) -> tuple[str, str]:
    """(where, what) of the first refused command of a script: its line and the rules' reason."""
    n, cmd, why = refusals[0]
    line = script_line(script, n - 1)
    where = f"line {line}" if line else f"command {n}"
    more = f" ({len(refusals)} commands refused in all)" if len(refusals) > 1 else ""
    return where, f"command {n} ({getattr(cmd, 'kind', '?')}) is refused by the rules: {why}{more}"


def refuse_refusals(script: str, refusals: list[Any]) -> None:
    """A trust command (report, verify-dice, import, commit, seal --game) takes no script with a
    refused command: what it shows would be a campaign the script does not describe."""
    if refusals:
        where, what = refusal_text(script, refusals)
        raise GameFileError(script, where, f"{what}; fix the script first (python -m game campaign play "
                                           "SCENARIO SCRIPT lists every refusal)")


def warn_refusals(script: str, refusals: list[Any]) -> None:
    """status, brief and plan show the campaign without the refused commands, and say so."""
    if refusals:
        where, what = refusal_text(script, refusals)
        print(f"warning: {script}: {where}: {what}; shown without the refused commands, so not the "
              "campaign the script describes", file=sys.stderr)


# --------------------------------------------------------------------------- files never overwritten


def free_name(path: str) -> str:
    """A name beside `path` that does not exist yet: NAME-2.yaml, NAME-3.yaml, ..."""
    p = Path(path)
    n = 2
    while True:
        candidate = p.with_name(f"{p.stem}-{n}{p.suffix}")
        if not os.path.lexists(candidate):
            return str(candidate)
        n += 1


def new_file(path: str, what: str, why: str, *, inputs: tuple[str | None, ...] = ()) -> None:
    """`path` is a fresh file the command may write (game.io.outpaths's checks first); an
    existing file is refused, never overwritten."""
    check_destination(path, what, inputs=inputs)
    if os.path.lexists(path):
        kind = precious_kind(path)
        why = PRECIOUS_WHY.get(kind, why)  # what the file there would lose, before what this command's would
        raise UserError(f"{path}: already exists{f' ({kind})' if kind else ''}; not overwriting it ({why}); name "
                        f"another file for the {what}, e.g. {free_name(path)}, or move that one away first")


PRECIOUS_WHY = {
    "a GM's dice secret file": "its commitments may be posted already",
    "a sealed order file": "it holds the salt behind a fingerprint that may be posted already",
    "a draft of orders": "it may hold orders already edited",
    "a player's turn file": "it may hold a player's moves, declarations or posts already edited",
}


def precious_kind(path: str) -> str:
    """What an existing file is if it must never be replaced by another command's output: a GM's
    dice secret, a sealed order file, a draft of orders or a player's turn file; else ''."""
    if not os.path.isfile(path):
        return ""
    try:
        data = read_yaml(path, "file").data
    except GameFileError:
        return ""
    if not isinstance(data, dict):
        return ""
    if data.get("kind") == SECRET_KIND:
        return "a GM's dice secret file"
    if data.get("kind") == ORDERS_KIND or ("fingerprint" in data and "orders" in data):
        return "a sealed order file"
    if {"player", "orders"} <= set(data):
        return "a draft of orders"
    if data.get("kind") == TURN_KIND or {"player", "phase"} <= set(data):
        return "a player's turn file"
    return ""


def refuse_precious(path: str, what: str) -> None:
    kind = precious_kind(path)
    if kind:
        raise UserError(f"{path}: is {kind}; never overwritten by the {what}; name another file, e.g. "
                        f"{free_name(path)}")


# --------------------------------------------------------------------------- order files


def what_found(data: Any) -> str:
    """What a file (or a field) held instead of what was expected, for the refusal: "got a
    list of 2 items", "got a string 'abc'", "got nothing (an empty file)"."""
    if data is None:
        return "got nothing (an empty file or value)"
    if isinstance(data, bool):
        return f"got {str(data).lower()}"
    if isinstance(data, (int, float)):
        return f"got a number, {data}"
    if isinstance(data, str):
        shown = data if len(data) <= 40 else data[:40] + "..."
        return f"got a string {shown!r}"
    if isinstance(data, list):
        return f"got a list of {len(data)} item{'' if len(data) == 1 else 's'}"
    if isinstance(data, dict):
        return f"got a mapping of {len(data)} key{'' if len(data) == 1 else 's'}"
    return f"got {type(data).__name__}"



def where_in(path: str, *loc: int | str) -> str:
    """'line N: field' of a field of a draft, order file or turn file, for a refusal a player can
    find in it (the field alone when the file's lines cannot be read)."""
    try:
        line = read_yaml(path, "file").line_of(loc)
    except GameFileError:
        line = None
    return f"line {line}: {format_loc(loc)}" if line else format_loc(loc)


def read_order_file(path: str) -> OrdersFile:
    """An order file made by `campaign seal`; another kind of file (a GM's secret, a draft, a
    command script, a scenario) is refused saying what it is and what to give instead."""
    doc = read_yaml(path, "sealed order file (YAML)")
    d = doc.data
    if isinstance(d, list) or (isinstance(d, dict) and isinstance(d.get("commands"), list)):
        raise GameFileError(path, "", "a command script, not an order file; give the order files that "
                                      "campaign seal wrote (campaign, week, player, orders, salt, fingerprint)")
    if not isinstance(d, dict):
        raise GameFileError(path, "", "not an order file; expected the mapping campaign seal writes (campaign, "
                                      f"week, player, orders, salt, fingerprint); {what_found(d)}")
    kind = d.get("kind")
    if kind == SECRET_KIND:
        raise GameFileError(path, "kind", "a GM's dice secret file (campaign commit), not an order file; keep it "
                                          "private until the week's report and give the players' order files")
    if kind == TURN_KIND:
        raise GameFileError(path, where_in(path, "kind"), "a player's turn file (moves, pick-ups, declarations or "
                            "story posts), not an order file: campaign import takes it as it is (it is not sealed)")
    if kind not in (None, ORDERS_KIND):
        raise GameFileError(path, "kind", f"kind is {str(kind)[:60]!r}, not an order file; expected the file "
                                          f"campaign seal wrote (kind: {ORDERS_KIND})")
    if kind is None and "fingerprint" not in d and "salt" not in d and "orders" in d:
        raise GameFileError(path, "", "a draft of orders, not sealed (no salt, no fingerprint); seal it first: "
                                      f"python -m game campaign seal {path} --out ORDER_FILE")
    if kind is None and "armies" in d:
        raise GameFileError(path, "", "a campaign scenario, not an order file")
    return read_orders_file(path)


# --------------------------------------------------------------------------- dice commitments


def earlier_seed(steps: list[Any], commitment: str, secret: str, week: int) -> int | None:
    """The week before `week` whose dice seed used this commitment (or secret), or None: a secret
    is revealed in its week's report, so used again anyone knows that week's dice in advance. A
    scouting seed's secret counts too, from its own week on (it is in the log before the orders)."""
    for s in steps:
        c = s.command
        kind = getattr(c, "kind", "")
        if ((kind == "gm_dice_seed" and s.before.week < week) or (kind == "gm_scouting_seed" and s.before.week <= week)) \
                and (c.commitment == commitment or c.secret == secret):
            return int(s.before.week)
    return None


def used_scouting(steps: list[Any], commitment: str, secret: str) -> str | None:
    """Where a scouting commitment (or its secret) was already used in `steps` (a dice seed or
    a scouting seed: either secret is public once used), or None."""
    for s in steps:
        c = s.command
        kind = getattr(c, "kind", "")
        if kind in ("gm_dice_seed", "gm_scouting_seed") and (c.commitment == commitment or c.secret == secret):
            what = "dice" if kind == "gm_dice_seed" else "scouting dice"
            return f"the {what} of week {s.before.week}"
    return None


# --------------------------------------------------------------------------- a command put into a script


def insert_command(script: str, text: str, index: int, line: str) -> str:
    """`text` (a command script's text) with the one-line command `line` (a YAML flow mapping)
    put before its command `index` (0-based; at the end when there is none). GameFileError when
    that command does not start a line of its own as a block list item."""
    doc = read_yaml(script, "command script")
    root = doc.root
    if isinstance(root, yaml.MappingNode):
        root = next((v for k, v in root.value if isinstance(k, yaml.ScalarNode) and k.value == "commands"), None)
    items = root.value if isinstance(root, yaml.SequenceNode) else []
    if isinstance(root, yaml.SequenceNode) and root.flow_style:
        if items or doc.root is not root:
            raise GameFileError(script, f"line {root.start_mark.line + 1}", "the commands are a flow list ([...]); "
                                                                            "write one '- ' line per command, or add "
                                                                            "the command by hand")
        text = text[:root.start_mark.index] + text[root.end_mark.index:]  # `[]`: no command yet
    lines = text.split("\n")
    if index >= len(items):
        body = text.rstrip("\n")
        indent = ""
        if items:
            last = items[-1].start_mark
            indent = lines[last.line][:last.column]
        return body + "\n" + (indent or "- ") + line + "\n"
    mark = items[index].start_mark
    prefix = lines[mark.line][:mark.column]
    if prefix.strip() != "-":
        raise GameFileError(script, f"line {mark.line + 1}", "the command there does not start a line of its own "
                                                             "(- kind: ...); add the command by hand")
    lines.insert(mark.line, prefix + line)
    return "\n".join(lines)
