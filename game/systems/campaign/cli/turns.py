"""A player's turn file (docs/campaign.md, "Play by post"): the moves, Generals' pick-up moves,
declarations or story posts of one player for one phase of one week, as `campaign brief --draft`
writes its draft and `campaign import` takes it.

    kind: campaign-turn
    campaign: Campaign teaching scenario
    week: 1
    player: jibril
    phase: movement            # or pickup, declare, narrative
    moves: [{army: corps, path: [[23, 26], [22, 27], [21, 27]]}]
    # pickups: [{general: kiran, army: corps}]      (pickup)
    # declarations: [{hex: [21, 27], fight: true}]  (declare)
    # posts: [{battle: B1, text: "...", generals: [kiran]}]   (narrative)

Nothing here is sealed [decision, docs/campaign.md]: the file goes to the GM as it is. The import
checks each file against its player's view and the rules, puts the commands in the order the
rules take them (movement and pick-up in player order, each player's turn ended after their
file; a player's story posts followed by narrative_done) and refuses a file naming its line,
field and the rules' reason."""

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, ConfigDict, Field

from game.core.errors import GameFileError, brief
from game.core.system import Rejection, counted, possessive
from game.io.datafiles import read_yaml, validate_model
from game.io.safe_read import compose_and_load
from game.systems.campaign.cli.trust import ORDERS_KIND, SECRET_KIND, TURN_KIND, what_found, where_in
from game.systems.campaign.io.files import Name
from game.systems.campaign.rules import SYSTEM, hexes
from game.systems.campaign.rules.commands import Declare, EndTurn, MoveArmy, NarrativeDone, Pickup, WritePost
from game.systems.campaign.rules.engine import (
    active_player,
    battle_order,
    battle_players,
    held_in_battle,
    movement_points,
    pending_declarations,
    reach,
)
from game.systems.campaign.rules.models import Coord
from game.systems.campaign.rules.state import PHASE_NAMES, hex_key, key_hex

# phase -> the file's list of entries, and what one entry is called in a refusal
LISTS = {"movement": ("moves", "move"), "pickup": ("pickups", "pick-up move"),
         "declare": ("declarations", "declaration"), "narrative": ("posts", "story post")}
TURN_PHASES = tuple(LISTS)
MAX_ENTRIES = 200  # a hostile file's thousands of posts would each copy the campaign's state
MAX_PATH_HEXES = 200  # far beyond any army's movement points: a longer path is a mistake or an attack
EXAMPLES = {"movement": "{army: corps, path: [[22, 27], [21, 27]]}", "pickup": "{general: kiran, army: corps}",
            "declare": "{hex: [21, 27], fight: true}", "narrative": '{battle: B1, text: "...", generals: [kiran]}'}


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MoveEntry(_Entry):
    army: Name
    path: tuple[Coord, ...] = Field(min_length=1)


class PickupEntry(_Entry):
    general: Name
    army: Name


class DeclareEntry(_Entry):
    hex: Coord
    fight: bool


class PostEntry(_Entry):
    battle: Name
    text: Annotated[str, Field(max_length=20_000)]
    generals: tuple[Name, ...] = ()


MODELS: dict[str, type[_Entry]] = {"movement": MoveEntry, "pickup": PickupEntry, "declare": DeclareEntry,
                                   "narrative": PostEntry}


@dataclass
class TurnFile:
    path: str
    campaign: str
    week: int
    player: str
    phase: str
    entries: list[Any] = field(default_factory=list)

    @property
    def key(self) -> str:
        return LISTS[self.phase][0]


# a line of a turn file / of an order file, for telling what a file that cannot be read meant to be
_TURN_LINE = re.compile(r"^\s*(kind:\s*['\"]?campaign-turn\b|phase:|moves:|pickups:|declarations:|posts:)", re.M)
_ORDER_LINE = re.compile(r"^\s*(kind:\s*['\"]?campaign-orders\b|fingerprint:|salt:|orders:)", re.M)
_KINDS = {"turn": "a player's turn file (kind: campaign-turn, as campaign brief --draft writes it)",
          "order": "a sealed order file (as campaign seal writes it)"}


def _looks_like(path: str) -> str:
    """'turn', 'order' or '' by the lines of a file that is not valid YAML (or not a mapping)."""
    try:
        with open(path, "rb") as fh:
            text = fh.read(200_000).decode("utf-8", errors="replace")
    except OSError:
        return ""
    turn, order = bool(_TURN_LINE.search(text)), bool(_ORDER_LINE.search(text))
    return "turn" if turn and not order else "order" if order and not turn else ""


_NOT_YAML_TEXT = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _bad_character_line(path: str) -> str:
    """'line N' of the first character YAML does not take (its reader's errors name no line)."""
    try:
        with open(path, "rb") as fh:
            text = fh.read(2_000_000).decode("utf-8", errors="replace")
    except OSError:
        return "line 1"
    m = _NOT_YAML_TEXT.search(text)
    return f"line {text.count(chr(10), 0, m.start()) + 1 if m else 1}"


def sort_file(path: str) -> tuple[str, GameFileError | None]:
    """What `campaign import` takes the file at `path` for: ("turn", None) or ("order", None); for
    a file that is neither (not valid YAML, binary, empty, not a mapping) (the kind it looks
    like, 'turn', 'order' or '', and its refusal: the line and what was expected)."""
    expected = "expected a sealed order file or a player's turn file"
    try:
        doc = read_yaml(path, "sealed order file (YAML) or a player's turn file")
    except GameFileError as exc:
        kind = _looks_like(path)
        said = f"; it looks like {_KINDS[kind]}: fix the line or send it again" if kind else \
            f"; {expected}" if exc.message.startswith("not valid YAML") else ""
        return kind, GameFileError(path, exc.where or _bad_character_line(path), exc.message + said)
    data = doc.data
    if isinstance(data, dict):
        named = data.get("kind")
        turn = named == TURN_KIND or (not isinstance(named, str) or named not in (ORDERS_KIND, SECRET_KIND)) and \
            "phase" in data and "orders" not in data
        return ("turn" if turn else "order"), None
    if isinstance(data, list) and data and all(isinstance(x, dict) for x in data):
        return "order", None  # (a command script given as a file to import: the order checks say so)
    line = doc.root.start_mark.line + 1 if doc.root is not None else 1
    what = "an empty file" if data is None else what_found(data)
    return "", GameFileError(path, f"line {line}", f"not an order file or a turn file: {expected} (a mapping: kind, "
                                                   f"campaign, week, player, ...); {what}")


def read_turn_file(path: str) -> TurnFile:
    """The turn file at `path`, its shapes checked (GameFileError naming the line and field)."""
    doc = read_yaml(path, "player's turn file (YAML)")
    d = doc.data
    if not isinstance(d, dict):
        raise GameFileError(path, "", "expected a turn file: a mapping with kind, campaign, week, player, phase and "
                                      f"its list (moves, pickups, declarations or posts); {what_found(d)}")
    if d.get("kind") == SECRET_KIND:
        raise GameFileError(path, "kind", "a GM's dice secret file, not a player's turn file")
    if "kind" in d and d["kind"] != TURN_KIND:
        raise GameFileError(path, where_in(path, "kind"), f"expected kind: {TURN_KIND} (a player's turn file); "
                                                       f"{what_found(d['kind'])}")
    end = doc.root.value[-1][1].end_mark if isinstance(doc.root, yaml.MappingNode) and doc.root.value else None
    last = f"after line {end.line if end.column == 0 else end.line + 1}: " if end is not None else ""
    for key in ("campaign", "week", "player", "phase"):
        if key not in d:
            raise GameFileError(path, last + key, "required field is missing (kind, campaign, week, player, "
                                                        "phase; campaign brief --draft writes them)")
    phase = d["phase"]
    if not isinstance(phase, str) or phase not in LISTS:
        raise GameFileError(path, where_in(path, "phase"), f"expected one of {', '.join(TURN_PHASES)}; "
                                                        f"{what_found(phase)} (battle orders are sealed: campaign "
                                                        "seal)")
    week = d["week"]
    if not isinstance(week, int) or isinstance(week, bool) or not 1 <= week <= 100_000:
        raise GameFileError(path, where_in(path, "week"), f"expected a week number; {what_found(week)}")
    for key in ("campaign", "player"):
        if not isinstance(d[key], str) or any(ord(c) < 32 or 127 <= ord(c) < 160 for c in d[key]):
            raise GameFileError(path, where_in(path, key), f"expected a name in plain text; {what_found(d[key])}")
    key, what = LISTS[phase]
    extra = [k for k in d if k not in ("kind", "campaign", "week", "player", "phase", key)]
    if extra:
        other = next((p for p, (k, _w) in LISTS.items() if k == extra[0]), None)
        hint = f" ({extra[0]} belong to the {other} phase; this file is for the {phase} phase)" if other else ""
        raise GameFileError(path, where_in(path, extra[0]), f"unexpected field; a {phase} file holds {key}{hint}")
    if key not in d:
        raise GameFileError(path, last + key, f"required field is missing: the list of {what}s "
                                                    f"({key}: [] for none)")
    items = d[key]
    if items is None:
        items = []
    if not isinstance(items, list):
        raise GameFileError(path, where_in(path, key), f"expected a list of {what}s; {what_found(items)}")
    if len(items) > MAX_ENTRIES:
        raise GameFileError(path, where_in(path, key), f"{len(items)} {what}s; a turn file holds at most {MAX_ENTRIES}")
    entries = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise GameFileError(path, where_in(path, key, i), f"expected a {what}, a mapping such as "
                                                           f"{EXAMPLES[phase]}; {what_found(item)}")
        if phase == "declare" and isinstance(item, dict) and item.get("fight", False) is None:
            raise GameFileError(path, where_in(path, key, i, "fight"), "no answer: write fight: true to fight or "
                                                                    "fight: false to decline")
        if phase == "movement" and isinstance(item, dict) and isinstance(item.get("path"), list):
            if len(item["path"]) > MAX_PATH_HEXES:
                raise GameFileError(path, where_in(path, key, i, "path"),
                                    f"a path of {len(item['path'])} hexes; a move's path holds at most "
                                    f"{MAX_PATH_HEXES} (an army goes as far as its movement points take it)")
            for j, c in enumerate(item["path"]):
                _check_hex(path, c, (key, i, "path", j))
        if phase == "declare" and "hex" in item:
            _check_hex(path, item["hex"], (key, i, "hex"))
        entries.append(validate_model(MODELS[phase], item, doc, path, (key, i), what=what))
    return TurnFile(path, d["campaign"], week, d["player"], phase, entries)


def _check_hex(path: str, c: Any, loc: tuple[int | str, ...]) -> None:
    """A hex written [column, row] of two whole numbers (true / false are not 1 / 0 here)."""
    if not (isinstance(c, list) and len(c) == 2 and all(isinstance(n, int) and not isinstance(n, bool) for n in c)):
        raise GameFileError(path, where_in(path, *loc), f"expected a hex as [column, row], e.g. [23, 26]; "
                                                       f"{what_found(c) if not isinstance(c, list) or len(c) != 2 else 'got ' + brief(c)}")


# --------------------------------------------------------------------------- the import


@dataclass
class Imported:
    commands: list[Any]  # the commands added, in order
    lines: list[str]  # `ok FILE: ...` and notes, for the GM
    files: list[str]  # the files taken


def refused(f: TurnFile, loc: tuple[int | str, ...], why: str) -> GameFileError:
    return GameFileError(f.path, where_in(f.path, *loc), why)


def _by_player(state: Any, player: str, what: str, ids: list[str]) -> str:
    return f"{possessive(state.player_name(player))} {what}: {', '.join(ids) or 'none'}"


def _check_entry(state: Any, f: TurnFile, i: int, e: Any) -> None:
    """What a player may name at all, before the rules: their own armies, Generals, hexes and
    battles (a refusal lists theirs)."""
    me = f.player
    if f.phase == "movement":
        a = state.armies.get(e.army)
        if a is None or a.owner != me:
            mine = [x.id for x in state.armies.values() if x.owner == me]
            whose = f"an army of {state.player_name(a.owner)}, not yours" if a is not None else "no such army"
            raise refused(f, (f.key, i, "army"), f"{e.army}: {whose}; {_by_player(state, me, 'armies', mine)}")
    elif f.phase == "pickup":
        g = state.generals.get(e.general)
        if g is None or g.owner != me:
            mine = [x.id for x in state.generals.values() if x.owner == me]
            whose = f"a General of {state.player_name(g.owner)}, not yours" if g is not None else "no such General"
            raise refused(f, (f.key, i, "general"), f"{e.general}: {whose}; "
                                                     f"{_by_player(state, me, 'Generals', mine)}")
    elif f.phase == "declare":
        mine = [k for k, d in state.declarations.items() if me in d]
        if hex_key(e.hex) not in mine:
            raise refused(f, (f.key, i, "hex"), f"{hex_key(e.hex)}: no declaration of yours is asked there; "
                                                f"{_by_player(state, me, 'hexes to declare at', mine)}")
    elif f.phase == "narrative":
        b = state.battles.get(e.battle)
        if b is None or b.over or me not in b.sides:
            mine = [x.id for x in state.open_games() if me in x.sides]
            raise refused(f, (f.key, i, "battle"), f"{e.battle}: not a battle of yours going on; "
                                                   f"{_by_player(state, me, 'battles', mine)}")


def _command(f: TurnFile, e: Any) -> Any:
    if f.phase == "movement":
        return MoveArmy(army=e.army, path=e.path)
    if f.phase == "pickup":
        return Pickup(general=e.general, army=e.army)
    if f.phase == "declare":
        return Declare(player=f.player, hex=e.hex, fight=e.fight)
    return WritePost(player=f.player, battle=e.battle, text=e.text, generals=e.generals)


def _field_of(f: TurnFile, reason: str) -> str:
    """The field a rules' refusal is about, for its line: a move's path, a post's Generals..."""
    low = reason.lower()
    if f.phase == "movement":
        return "army" if ("already moved" in low or "held in a battle" in low) else "path"
    if f.phase == "pickup":
        return "general" if "already made" in low else "army"
    if f.phase == "narrative":
        return "text" if ("text" in low or "characters" in low) else "player" if "posting" in low else "generals"
    return "fight"


def _check_answers(f: TurnFile, state: Any) -> None:
    """A declarations file answers every hex where its player is still asked."""
    if f.phase != "declare":
        return
    left = [k for k, d in state.declarations.items() if d.get(f.player, False) is None
            and k not in {hex_key(e.hex) for e in f.entries}]
    if left:
        raise refused(f, (f.key,), f"no answer for {', '.join(left)}: every hex where your armies meet another "
                                   "player's needs fight: true or false")


def _apply_entry(rec: Any, f: TurnFile, i: int, notes: list[str]) -> Any:
    """Entry `i` of the file as its command, checked against the player's view and the rules,
    then applied to `rec` (None: a declaration no longer asked). GameFileError naming its field."""
    e = f.entries[i]
    _check_entry(rec.state, f, i, e)
    key = (e.army if f.phase == "movement" else e.general if f.phase == "pickup" else
           hex_key(e.hex) if f.phase == "declare" else None)
    first = next((j for j, x in enumerate(f.entries[:i]) if key is not None and key ==
                  (x.army if f.phase == "movement" else x.general if f.phase == "pickup" else hex_key(x.hex))), None)
    if first is not None:
        raise refused(f, (f.key, i), f"a second {LISTS[f.phase][1]} for {key} (the first is {f.key}[{first}]); "
                                     "one each")
    again = next((j for j, x in enumerate(f.entries[:i]) if f.phase == "narrative" and x == e), None)
    if again is not None:
        raise refused(f, (f.key, i), f"the same story post as {f.key}[{again}] (battle, text and Generals): given "
                                     "twice; delete one (several different posts on a battle are fine)")
    cmd = _command(f, e)
    if f.phase == "declare" and f.player not in pending_declarations(rec.state).get(hex_key(e.hex), []) \
            and rec.state.declarations.get(hex_key(e.hex), {}).get(f.player) is None:
        notes.append(f"note {f.path}: the answer for {hex_key(e.hex)} is not needed: the other side declared to "
                     "fight there, which starts the battle (left out of the script)")
        return None
    outcome = SYSTEM.apply(SYSTEM.view(rec.state, f.player), cmd)
    if isinstance(outcome, Rejection):
        raise refused(f, (f.key, i, _field_of(f, outcome.reason)), f"refused by the rules: {outcome.reason}")
    outcome = rec.apply(cmd)
    if isinstance(outcome, Rejection):  # (the view hides nothing these rules read)
        raise refused(f, (f.key, i), f"refused by the rules: {outcome.reason}")
    return cmd


def _end(rec: Any, f: TurnFile) -> Any:
    """The command that ends the player's part of the phase: end_turn (movement, pick-up),
    narrative_done (narrative), or None (declare)."""
    cmd = EndTurn() if f.phase in ("movement", "pickup") else \
        NarrativeDone(player=f.player) if f.phase == "narrative" else None
    if cmd is None:
        return None
    outcome = rec.apply(cmd)
    if isinstance(outcome, Rejection):
        raise refused(f, ("player",), f"refused by the rules: {outcome.reason}")
    return cmd


def _apply_phase(rec: Any, now: list[TurnFile], done: Imported) -> None:
    """The files of the current phase (in player order; movement and pick-up: the active
    player's alone), each entry checked and applied, then each player's part ended. Story posts
    go by battle (in the order the battles resolve), then player order, as the report lists them."""
    state = rec.state
    for f in now:
        _check_answers(f, state)
    todo = [(f, i) for f in now for i in range(len(f.entries))]
    if state.phase == "narrative":
        rank = {b.id: n for n, b in enumerate(battle_order(state))}
        todo.sort(key=lambda fi: (rank.get(fi[0].entries[fi[1]].battle, len(rank)),
                                  state.players.index(fi[0].player), fi[1]))
    mine: dict[str, list[Any]] = {f.path: [] for f in now}
    notes: list[str] = []
    for f, i in todo:
        cmd = _apply_entry(rec, f, i, notes)
        if cmd is not None:
            mine[f.path].append(cmd)
            done.commands.append(cmd)
    for f in now:
        cmd = _end(rec, f)
        if cmd is not None:
            mine[f.path].append(cmd)
            done.commands.append(cmd)
        done.files.append(f.path)
        done.lines.append(f"ok {f.path}: {f.player}, {f.phase}: {_said(f, mine[f.path])}")
    done.lines += notes


def _not_now(state: Any, f: TurnFile, files: list[TurnFile]) -> GameFileError:
    """Why a file was left when the campaign went as far as the files took it."""
    name = state.player_name(f.player)
    if f.week != state.week:
        return refused(f, ("week",), f"for week {f.week}, but the campaign is in week {state.week}")
    if f.phase != state.phase:
        now = PHASE_NAMES.get(state.phase, state.phase)
        return refused(f, ("phase",), f"for the {PHASE_NAMES.get(f.phase, f.phase)} phase, but the campaign is in "
                                      f"the {now} phase (after the files before it)")
    if f.phase in ("movement", "pickup"):
        order = list(state.players)
        at = state.turn
        if order.index(f.player) < at:
            return refused(f, ("player",), f"{possessive(name)} {PHASE_NAMES[f.phase]} turn is over this week (now: "
                                           f"{state.player_name(order[at])})")
        have = {g.player for g in files if g.phase == f.phase}
        gap = [state.player_name(p) for p in order[at:order.index(f.player)] if p not in have]
        return refused(f, ("player",), f"not {possessive(name)} turn yet: the {PHASE_NAMES[f.phase]} phase goes in player order "
                                       f"({', '.join(state.player_name(p) for p in order)}) and the file of "
                                       f"{', '.join(gap)} comes first; nothing of this file is taken")
    return refused(f, ("player",), f"{state.player_says(f.player, 'has')} nothing to send in the "
                   f"{PHASE_NAMES.get(f.phase, f.phase)} phase")


def import_turns(rec: Any, campaign: str, paths: list[str]) -> Imported:
    """Apply the turn files to `rec` in the order the rules take them: the current phase's files
    (movement and pick-up in player order, each ended by end_turn; declarations and story posts in
    player order too), then the next phase's, as far as the files go. Raises a list of refusals
    (`Refusals`) when any file is refused; `rec` is then not to be used."""
    errors: list[GameFileError] = []
    files: list[TurnFile] = []
    for path in paths:
        try:
            f = read_turn_file(path)
            if f.campaign != campaign:
                raise refused(f, ("campaign",), f"a file for the campaign {f.campaign!r}, but this is {campaign!r}")
            if f.player not in rec.state.players:
                raise refused(f, ("player",), f"no player {f.player!r}; players are {', '.join(rec.state.players)} "
                                              "(spelt exactly)")
            first = next((g for g in files if (g.player, g.phase, g.week) == (f.player, f.phase, f.week)), None)
            if first is not None and os.path.abspath(first.path) == os.path.abspath(f.path):
                raise refused(f, ("player",), "the same file given twice; name each player's file once")
            if first is not None:
                raise refused(f, ("player",), f"a second {f.phase} file of {f.player} for week {f.week} (the first is "
                                              f"{first.path}); one file a player a phase")
        except GameFileError as exc:
            errors.append(exc)
            continue
        files.append(f)
    done = Imported([], [], [])
    left = list(files)
    while left and not errors:
        state = rec.state
        now = [f for f in left if f.phase == state.phase and f.week == state.week]
        if state.phase in ("movement", "pickup"):
            who = active_player(state)
            now = [f for f in now if f.player == who]
        now.sort(key=lambda f: state.players.index(f.player))
        if not now:
            break
        for f in now:
            left.remove(f)
        try:
            _apply_phase(rec, now, done)
        except GameFileError as exc:
            errors.append(exc)
    if not errors:
        errors += [_not_now(rec.state, f, files) for f in left]
    if errors:
        raise Refusals(errors)
    return done


def _said(f: TurnFile, cmds: list[Any]) -> str:
    what = LISTS[f.phase][1]
    n = sum(1 for c in cmds if c.kind not in ("end_turn", "narrative_done"))
    tail = {"movement": "; turn ended", "pickup": "; turn ended", "narrative": "; done posting", "declare": ""}
    return counted(n, what, what + "s") + tail[f.phase]


class Refusals(Exception):
    def __init__(self, errors: list[GameFileError]) -> None:
        self.errors = errors
        super().__init__("; ".join(e.line() for e in errors))


def command_lines(cmds: list[Any]) -> str:
    """The commands as a script's lines, one flow mapping each (as the teaching script writes them)."""
    return "".join("- " + yaml.safe_dump(SYSTEM.command_to_data(c), sort_keys=False, default_flow_style=True,
                                         width=10_000, allow_unicode=True).strip() + "\n" for c in cmds)


def without_empty_list(text: str) -> str:
    """A command script's text ready for '- ' lines after it: a script with no command yet (`[]`,
    or nothing but comments) keeps only its comments."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    if data not in ([], None):
        return text
    return "\n".join(ln for ln in text.split("\n") if not ln.strip() or ln.lstrip().startswith("#"))


def _commands_node(script: str, root: Any) -> Any:
    """The node of a script's command list: the document, or its `commands:` (docs/formats.md)."""
    if isinstance(root, yaml.MappingNode):
        for k, v in root.value:
            if isinstance(k, yaml.ScalarNode) and k.value == "commands":
                return k, v
        raise GameFileError(script, f"line {root.start_mark.line + 1}", "expected a list of commands, or a mapping "
                                                                       "with commands: (no commands: found)")
    return None, root


def with_commands(script: str, text: str, tail: str) -> str:
    """The command script `text` with `tail` (a comment and '- ' lines of commands, as import
    writes them) added after its last command, whether the script is a plain list or a mapping
    with `commands:` (its list indented or not, other keys after it). A flow list with commands
    ([{...}, ...]) is refused naming its line: '- ' lines cannot be added to it."""
    if not tail.strip():
        return text + tail
    data, root = compose_and_load(text)
    key, seq = _commands_node(script, root)
    if seq is None or (key is None and data in ([], None)):
        out = without_empty_list(text) + tail
    else:
        lines = text.split("\n")
        if isinstance(seq, yaml.SequenceNode) and seq.value and not seq.flow_style:
            end = seq.value[-1].end_mark
            at = end.line if end.column == 0 else end.line + 1
            indent = " " * seq.start_mark.column
        elif (isinstance(seq, yaml.SequenceNode) and not seq.value) or \
                (isinstance(seq, yaml.ScalarNode) and seq.tag.endswith(":null")):
            if seq.end_mark.index > seq.start_mark.index:  # `commands: []`: the list is written out below
                text = text[:seq.start_mark.index].rstrip(" ") + text[seq.end_mark.index:]
                lines = text.split("\n")
            at, indent = key.start_mark.line + 1, ""
        elif isinstance(seq, yaml.SequenceNode):
            raise GameFileError(script, f"line {seq.start_mark.line + 1}",
                                "the commands are a flow list ([...]); write one '- ' line per command, then import "
                                "again (nothing written)")
        else:
            raise GameFileError(script, f"line {seq.start_mark.line + 1}", "expected a list of commands")
        if all(not ln.strip() or ln.lstrip().startswith("#") for ln in lines[at:]):
            out = text.rstrip("\n") + "\n" + "\n".join(indent + ln if ln else ln for ln in tail.split("\n")[1:])
        else:
            added = [indent + ln for ln in tail.strip("\n").split("\n")]
            out = "\n".join(lines[:at] + added + lines[at:]).rstrip("\n") + "\n"
    _check_added(script, data, out, tail)
    return out


def check_layout(script: str, text: str) -> None:
    """GameFileError when import could not add commands to the script `text` (with_commands),
    before any file is checked."""
    with_commands(script, text, "\n# (a check)\n- {kind: end_turn}\n")


def _check_added(script: str, old: Any, out: str, tail: str) -> None:
    """`out` holds the script's commands then the tail's (a layout this module did not foresee
    is refused, never written broken)."""
    def commands(d: Any) -> Any:
        return d.get("commands") if isinstance(d, dict) else d
    try:
        new = commands(compose_and_load(out)[0])
    except yaml.YAMLError:
        new = None
    want = list(commands(old) or []) + list(yaml.safe_load(tail) or [])
    if new != want:
        raise GameFileError(script, "", "the imported commands cannot be added to this script as it is laid out; "
                                        "write its commands as one list of '- ' lines (or under commands:), then "
                                        "import again (nothing written)")


# --------------------------------------------------------------------------- the brief's drafts


def _hexes(cs: list[Coord]) -> str:
    return ", ".join(f"[{c[0]}, {c[1]}]" for c in cs)


def _comment(first: str, items: list[str], width: int = 98) -> list[str]:
    """`first` then the items, comma-separated, as comment lines no wider than `width` (an item
    is never cut)."""
    lines = [first]
    for n, item in enumerate(items):
        piece = item + ("," if n < len(items) - 1 else "")
        if len(lines[-1]) + 1 + len(piece) > width and lines[-1].strip("# "):
            lines.append("#  ")
        lines[-1] += " " + piece
    return lines


def turn_draft(state: Any, campaign: str, me: str, draft: str | None = None) -> tuple[str, str]:
    """(the draft's text, '') for the player's part of the current phase, or ('', why there is
    nothing to send). `state` is the player's view."""
    phase = state.phase
    name = state.player_name(me)
    if phase not in LISTS:
        return "", ""
    key, what = LISTS[phase]
    out = Path(draft).name if draft else f"{me}-week{state.week}-{phase}.yaml"
    head = [f"# {PHASE_NAMES.get(phase, phase).capitalize()} of {name}, week {state.week}.",
            "# Fill in the list, then send this file to the GM as it is (not sealed: only battle orders",
            "# are). The GM checks it and adds it to the script with",
            f"#   python -m game campaign import SCENARIO SCRIPT {out} --out NEW_SCRIPT"]
    entries: list[dict[str, Any]] = []
    if phase == "movement":
        order = list(state.players)
        if order.index(me) < state.turn:
            return "", "your movement turn is over this week"
        before = [state.player_name(p) for p in order[state.turn:order.index(me)]]
        head += ["# Each move: army and path, the hexes it enters in order as [column, row]. An army moves once a",
                 "# week; entering a hex with an enemy army or a battle ends its move. moves: [] moves nothing;",
                 "# the import ends your turn after your moves."]
        if before:
            head += _comment(f"# Your turn comes after {', '.join(before)}:", ["their moves may change what is legal."])
        for a in (x for x in state.armies.values() if x.owner == me):
            if a.moved or held_in_battle(state, a):
                head.append(f"# {a.id} ({a.name}) at {a.hex[0]},{a.hex[1]}: "
                            + ("moved this week" if a.moved else f"held in battle {a.battle}: cannot move"))
                continue
            r = reach(state, a.id)
            steps = [f"[{c[0]}, {c[1]}] costs {e.cost}" for c, e in r.items() if len(e.path) == 1]
            head += _comment(f"# {a.id} ({a.name}) at {a.hex[0]},{a.hex[1]}, "
                             f"{counted(movement_points(state, a), 'movement point', 'movement points')}; "
                             "first steps:", steps or ["none"])
            for c, e in sorted(r.items()):
                if e.stops:
                    head.append(f"#   meets {'an enemy army' if e.stops == 'enemy' else 'a battle'} at "
                                f"[{c[0]}, {c[1]}] by path [{_hexes(list(e.path))}]")
    elif phase == "pickup":
        order = list(state.players)
        if order.index(me) < state.turn:
            return "", "your pick-up turn is over this week"
        rng = state.cs.rules.movement.pickup_range
        head += [f"# Each pick-up move: general and army, an army of yours at most {rng} hexes from the General;",
                 "# a General moves once a week. pickups: [] moves none; the import ends your turn after it."]
        before = [state.player_name(p) for p in order[state.turn:order.index(me)]]
        if before:
            head.append(f"# Your turn comes after {', '.join(before)}.")
        for g in (x for x in state.generals.values() if x.owner == me):
            near = [a.id for a in state.armies.values() if a.owner == me and a.id != g.army
                    and hexes.hex_distance(state.cs.map, g.hex, a.hex) <= rng]
            head.append(f"# {g.id} ({g.name}) at {g.hex[0]},{g.hex[1]}: "
                        + ("moved this week" if g.picked_up else f"may join {', '.join(near)}" if near else
                           "no other army of yours in reach"))
    elif phase == "declare":
        mine = [k for k, d in state.declarations.items() if me in d and d[me] is None]
        if not mine:
            return "", "none of your armies meets another player's army this week (or your answers are in)"
        head += ["# For each hex: fight: true to fight, false to decline (one \"fight\" from either side starts the",
                 "# battle). Send it privately: nobody sees the answers until the week's report."]
        for k in mine:
            c = key_hex(k)
            others = [f"{a.name} of {state.player_name(a.owner)}" for a in state.armies.values()
                      if a.hex == c and a.owner != me]
            head.append(f"# {k}: your army meets {', '.join(others)}")
            entries.append({"hex": [c[0], c[1]], "fight": None})
    elif phase == "narrative":
        if me not in battle_players(state):
            return "", "you have no battle to write about this week"
        if me in state.narrative_done:
            return "", "your story posts of the week are in"
        head += ["# One post per battle you write about: text, and the Generals it names (only a General named",
                 "# in a post fights in that battle this week). Delete a post you do not want; posts: [] posts",
                 "# nothing. The import ends your posting for the week with this file."]
        for b in state.open_games():
            if me not in b.sides:
                continue
            present = {a.id for a in state.forces(b, me)}
            gens = [g for g in state.generals.values() if g.owner == me and g.army in present]
            head.append(f"# {b.id} at {b.hex[0]},{b.hex[1]}: Generals that may be named: "
                        + (", ".join(f"{g.id} ({g.name}, level {g.level})" for g in gens) or "none"))
            entries.append({"battle": b.id, "text": "", "generals": [g.id for g in gens]})
    body = yaml.safe_dump({"kind": TURN_KIND, "campaign": campaign,
                           "week": state.week, "player": me, "phase": phase}, sort_keys=False, allow_unicode=True)
    items = yaml.safe_dump({key: entries}, sort_keys=False, default_flow_style=None, allow_unicode=True,
                           width=10_000)
    return "\n".join(head) + "\n" + body + items, ""


def print_refusals(errors: list[GameFileError]) -> None:
    for e in errors:
        print(f"REFUSED {e.line()}", file=sys.stderr)
