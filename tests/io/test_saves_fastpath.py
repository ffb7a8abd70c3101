"""The quick ways through a save: per-command checksums put together from cached parts must give
the very digits the plain canonical JSON gives, and the log read as JSON lines must give exactly
the data a YAML reader gets from the same file (or the file is read with YAML after all)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict

from game.io import saves
from game.io.saves import LogEntry, SaveData, SaveError, SaveHeader
from game.replay import Record, load_game, make_save, state_checksummer
from game.systems.tactical.rules.commands import parse_command
from game.systems.tactical.rules.gm import (
    EditUnit,
    GiveAdvantage,
    MoveUnitGM,
    PlaceUnit,
    RemoveUnit,
    SetNextRoll,
)
from game.systems.tactical.rules.system import SYSTEM
from game.table import TABLE
from tests.test_replay import battle, play, start

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "saves"

TRICKY = st.sampled_from(["no", "yes", "null", "~", "1e3", "1.5e3", "0x1F", "007", "---", "...", "- x", "a: b",
                          "#hash", "'q'", '"dq"', "\\u00e9", "\\ud83d\\ude00", "--- # log", "\n--- # log\n",
                          "tab\there", "nel\x85", "ls\u2028", "bom\ufeff", "del\x7f", "bell\x07", "é", "😀", ""])
TEXT = st.one_of(TRICKY, st.text(max_size=20))
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), TEXT,
                   st.floats(allow_nan=False), st.sampled_from([1e3, 1.5, -0.0, 1e-7, 1e300]))
DATA = st.recursive(SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(TEXT, inner, max_size=4)), max_leaves=20)


# --------------------------------------------------------------------------- checksums from parts


def test_per_command_checksums_of_a_played_game_with_gm_edits_equal_the_canonical_ones() -> None:
    sc = battle()
    rec = Record(SYSTEM, start(sc))
    for command in (SetNextRoll(values=(3, 9)), EditUnit(unit_id="m1", strength=2, stats={"senses": 5}),
                    PlaceUnit(unit_id="x é", type_id="militia_band", side="zone", at=sc.board.hex_at(2, 6)),
                    GiveAdvantage(side="zenith", advantage_kind="deception", points=2),
                    MoveUnitGM(unit_id="k1", to=sc.board.hex_at(8, 6)), RemoveUnit(unit_id="r2")):
        rec.apply(command)
    play(rec, 120, random.Random(5))
    assert rec.state.custom_types, "the GM edit of a stat should have made a unit type of its own"
    fast = state_checksummer(SYSTEM)
    states = [rec.initial, *(s.after for s in rec.steps)]
    assert [fast(s) for s in states] == [saves.state_checksum(s.to_dict()) for s in states]
    # asked again (every part cached now) and in another order: still the same digits
    assert [fast(s) for s in reversed(states)] == [saves.state_checksum(s.to_dict())
                                                   for s in reversed(states)]


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    n: int
    tags: dict[str, int] = {}
    at: tuple[int, int] = (0, 0)


class _Whole(BaseModel):
    model_config = ConfigDict(frozen=True)
    round: int
    note: str | None
    parts: dict[str, _Part]
    extra: dict[str, _Part] = {}
    plain: list[Any] = []


PARTS = st.builds(_Part, name=TEXT, n=st.integers(-5, 10**20), tags=st.dictionaries(TEXT, st.integers(), max_size=3),
                  at=st.tuples(st.integers(-9, 9), st.integers(-9, 9)))


@settings(max_examples=150, deadline=None)
@given(pool=st.lists(PARTS, min_size=1, max_size=6), picks=st.lists(st.lists(st.tuples(TEXT, st.integers(0, 5)),
                                                                             max_size=5), min_size=1, max_size=4),
       note=st.one_of(st.none(), TEXT), plain=st.lists(DATA, max_size=3))
def test_a_checksum_put_together_from_shared_parts_equals_the_checksum_of_the_whole_dump(
        pool: list[_Part], picks: list[list[tuple[str, int]]], note: str | None, plain: list[Any]) -> None:
    fast = saves.StateChecksums(("parts", "extra", "not_a_field"))
    for i, chosen in enumerate(picks):  # successive states sharing part objects, keys in any order
        parts = {key: pool[j % len(pool)] for key, j in chosen}
        whole = _Whole(round=i, note=note, parts=parts, extra=dict(reversed(list(parts.items()))), plain=plain)
        assert fast.checksum(whole) == saves.state_checksum(whole.model_dump(mode="json"))


# --------------------------------------------------------------------------- the log as JSON lines


def _save_with(commands: list[dict[str, Any]]) -> SaveData:
    state = {"round": 1}
    check = saves.state_checksum(state)
    header = SaveHeader(format=saves.FORMAT_VERSION, scenario="maps/x.yaml", scenario_checksum="c", seed=1,
                        saved_at="2026-01-01T00:00:00", round=1, phase="movement", sides=("a",), to_move="a",
                        commands=len(commands), state_checksum=check)
    log = tuple(LogEntry(command=c, rolls=(i % 10 + 1,), gm=i % 2 == 0, round=i, after=f"{i:016x}")
                for i, c in enumerate(commands))
    if log:
        log = (*log[:-1], log[-1].model_copy(update={"after": check}))
    return SaveData(header, state, log)


def _yaml_docs(text: str) -> list[Any]:
    """The documents as the game's YAML reader reads them (libyaml's when present, like the game)."""
    return list(yaml.load_all(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))


def _yaml_log(text: str) -> Any:
    return _yaml_docs(text)[2]


def _plain(entries: Any) -> list[dict[str, Any]]:
    return [{**e.model_dump(), "rolls": list(e.rolls)} for e in entries]


@settings(max_examples=200, deadline=None)
@given(commands=st.lists(st.dictionaries(TEXT, st.one_of(DATA, st.dictionaries(st.integers(), DATA, max_size=3)),
                                         max_size=5), max_size=5))
def test_any_logged_command_is_read_back_unchanged_and_as_any_yaml_reader_reads_it(
        commands: list[dict[str, Any]]) -> None:
    save = _save_with(commands)
    text = saves.dump_save(save)
    back = saves.parse_save(text, "game.yaml")
    assert back.log == save.log
    assert _plain(save.log) == _yaml_log(text)


def test_a_command_with_keys_that_are_not_text_keeps_them_through_a_save() -> None:
    save = _save_with([{"kind": "k", "table": {1: "one", 2: [True, None]}}])
    assert saves.parse_save(saves.dump_save(save), "game.yaml").log == save.log


def test_a_save_the_game_writes_has_its_log_read_without_yaml(tmp_path: Path) -> None:
    sc = battle()
    rec = play(Record(SYSTEM, start(sc)), 60, random.Random(3))
    data = make_save(SYSTEM, rec.state, rec.steps, scenario_path=__file__, seed=sc.seed, scenario_checksum="test")
    text = saves.dump_save(data)
    log_lines = text[text.index("--- # log\n"):].splitlines()[1:-1]
    assert len(log_lines) == len(rec.steps) and all(ln.startswith('- {"command": {"kind": ') for ln in log_lines)
    fast = saves._read_log_fast("game.yaml", text)  # noqa: SLF001 - the quick path must stay the usual one
    assert fast is not None and fast.log == _yaml_log(text)
    assert [fast.header, fast.state] == _yaml_docs(text)[:2]


_LINE = '- {"command": {"kind": "k", "v": VALUE}, "rolls": [2], "gm": false, "round": 1, "after": "x"}'


@pytest.mark.parametrize("line", [
    _LINE.replace("VALUE", "1e3"),                       # a number to JSON, a string to YAML 1.1
    _LINE.replace("VALUE", "1.5"),
    _LINE.replace("VALUE", "NaN"),                       # JSON's extension; a string to YAML
    _LINE.replace("VALUE", '"nel\x85here"'),             # a line break to YAML inside quotes
    _LINE.replace("VALUE", '"ls\u2028here"'),
    _LINE.replace("VALUE", '"\\ud83d\\ude00"'),          # surrogate escapes: JSON pairs them, YAML refuses
    _LINE.replace("VALUE", '"del\x7f"'),                 # not printable: YAML refuses the file
    _LINE.replace("VALUE", '"tab\there"'),               # a raw tab in quotes: JSON refuses, YAML keeps
    _LINE.replace("VALUE", "[1, 2,]"),                   # trailing comma: fine in YAML only
    _LINE.replace('"v": VALUE', f'"{"k" * 1100}": 1'),   # YAML forgets a key that long
    _LINE.replace("VALUE", "1") + "  # a comment",
    '- {command: {kind: k, v: yes}, rolls: [2], gm: false, round: 1, after: x}',
    '- command: {kind: k, v: 1}\n  rolls: [2]\n  gm: false\n  round: 1\n  after: x',
    '- {"command": {"kind": "k"},\n   "rolls": [2], "gm": false, "round": 1, "after": "x"}',
])
def test_a_hand_written_log_line_is_read_as_yaml_reads_it_or_refused_as_yaml_refuses_it(line: str) -> None:
    text = saves.dump_save(_save_with([])).replace("--- # log\n[]\n", f"--- # log\n{line}\n")
    try:
        expected = _yaml_log(text)
    except yaml.YAMLError:
        with pytest.raises(SaveError):
            saves.parse_save(text, "game.yaml", verify_checksums=False)
        return
    try:
        got = saves.parse_save(text, "game.yaml", verify_checksums=False)
    except SaveError as exc:  # YAML read it, the log model refused it (a long key is unknown, ...)
        assert "log[0]" in str(exc)
        return
    assert _plain(got.log) == expected


def test_the_block_and_the_json_lines_layouts_of_the_same_game_load_the_same_log() -> None:
    block, lines = FIXTURES / "v2-demo-overwatch.yaml", FIXTURES / "v2-jsonlines-demo-overwatch.yaml"
    assert "\n- command: {kind: " in block.read_text(encoding="utf-8")
    assert '\n- {"command": {"kind": ' in lines.read_text(encoding="utf-8")
    old, new = saves.load_save(block, verify_checksums=False), saves.load_save(lines)
    # (commands compared as the game reads them: fields added since the old save take defaults)
    assert [(parse_command(e.command), e.rolls, e.gm, e.round) for e in old.log] == [
        (parse_command(e.command), e.rolls, e.gm, e.round) for e in new.log]
    game = load_game(TABLE, lines)  # today's save of it verifies command by command
    assert len(game.record.steps) == len(new.log) == new.header.commands
