"""Property tests of the save file layer: whatever plain data a state holds (YAML's tricky words
like 'no' and 'null', numbers as text, newlines, '---' and '...' inside strings, unicode), it
comes back unchanged, with the same checksum, and the header reader stops where it should."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from game.io import saves
from game.io.saves import LogEntry, SaveData, SaveHeader

TRICKY = st.sampled_from(["no", "yes", "on", "off", "null", "~", "1e3", "0x1F", "007", "---", "...", "- x",
                          "a: b", "#hash", "'quoted'", '"dq"', "--- # state", "\n---\n", "tab\there", ""])
TEXT = st.one_of(TRICKY, st.text(max_size=30))
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**64), TEXT)
DATA = st.recursive(SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(TEXT, inner, max_size=4)), max_leaves=25)


def _save(state: dict[str, Any], title: str, command: dict[str, Any], rolls: list[int]) -> SaveData:
    check = saves.state_checksum(state)
    header = SaveHeader(format=saves.FORMAT_VERSION, title=title, scenario="maps/x.yaml", scenario_checksum="c",
                        seed=1, saved_at="2026-01-01T00:00:00", round=1, phase="movement", sides=("a", "b"),
                        to_move="a", commands=1, state_checksum=check)
    return SaveData(header, state, (LogEntry(command=command, rolls=tuple(rolls), round=1, after=check),))


@settings(max_examples=150, deadline=None)
@given(state=st.dictionaries(TEXT, DATA, max_size=6), title=TEXT,
       command=st.dictionaries(TEXT, DATA, max_size=4), rolls=st.lists(st.integers(1, 20), max_size=8))
def test_any_plain_state_survives_a_save_unchanged(state: dict[str, Any], title: str, command: dict[str, Any],
                                                   rolls: list[int]) -> None:
    data = _save(state, title, command, rolls)
    back = saves.parse_save(saves.dump_save(data), "p.yaml")
    assert back == data
    assert saves.state_checksum(back.state) == data.header.state_checksum


@settings(max_examples=100, deadline=None)
@given(title=TEXT, state=st.dictionaries(TEXT, DATA, max_size=3))
def test_the_header_reader_gets_the_header_whatever_the_strings(tmp_path_factory: Any, title: str,
                                                                state: dict[str, Any]) -> None:
    path = tmp_path_factory.mktemp("h") / "s.yaml"
    data = _save(state, title, {"kind": "end_phase"}, [])
    path.write_text(saves.dump_save(data), encoding="utf-8")
    assert saves.read_header(path) == data.header
