"""Mutations for fuzzing the project's file loaders, and the one check every fuzz test makes:
a loader either succeeds or raises the project's own GameFileError naming the file it was given
(never a traceback of another kind).

Mutations come in two families: structural ones on the parsed data (replace a value with a value
of another type, delete a key, add an unknown key, duplicate or empty a list) and textual ones on
the file's bytes (truncate, delete a slice, insert characters that matter to YAML or XML).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import strategies as st

from game.core.errors import GameFileError

T = TypeVar("T")
Loc = tuple[Any, ...]

# How many examples each fuzz test runs: quick in the default suite, the full count when slow.
QUICK = int(os.environ.get("AIL_FUZZ_QUICK", "40"))
SLOW = int(os.environ.get("AIL_FUZZ_SLOW", "3500"))

ODD_STRINGS = ["", " ", "clear", "road", "water", "zone", "zenith", "blue", "rifle_section", "warjack",
               "#zzzzzz", "#fff", "nonexistent.tmx", "../../nowhere.yaml", "riverford.tmx", "hover",
               "null", "~", "yes", "no", "1e309", "-1", "0x10", "é", "\u202e", "a" * 300, "[1, 2", "{a: 1"]


def shipped_scenarios() -> list[Path]:
    """The scenario files under maps/ (command scripts and other YAML files left out)."""
    import yaml

    root = Path(__file__).resolve().parents[2] / "maps"
    out = []
    for path in sorted(root.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "sides" in data and "map" in data:
            out.append(path)
    return out


def scalar_values() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(), st.booleans(),
        st.integers(-3, 40), st.integers(-(2**70), 2**70),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from(ODD_STRINGS), st.text(max_size=10),
    )


def any_values() -> st.SearchStrategy[Any]:
    return st.one_of(
        scalar_values(),
        st.lists(st.integers(-5, 60), max_size=4),
        st.lists(scalar_values(), max_size=3),
        st.dictionaries(st.sampled_from(["x", "id", "at", "kind", "name", "q"]), scalar_values(), max_size=2),
    )


def all_locs(data: Any, prefix: Loc = ()) -> list[Loc]:
    """Every place in a tree of dicts and lists (the root excluded)."""
    out: list[Loc] = []
    if isinstance(data, dict):
        for k, v in data.items():
            out.append((*prefix, k))
            out.extend(all_locs(v, (*prefix, k)))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out.append((*prefix, i))
            out.extend(all_locs(v, (*prefix, i)))
    return out


def _parent(data: Any, loc: Loc) -> Any:
    node = data
    for k in loc[:-1]:
        node = node[k]
    return node


@st.composite
def mutated_tree(draw: st.DrawFn, base: Any, max_mutations: int = 3) -> Any:
    """A copy of `base` with 1..max_mutations structural mutations."""
    data = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, max_mutations))):
        locs = all_locs(data)
        if not locs:
            break
        loc = draw(st.sampled_from(locs))
        parent = _parent(data, loc)
        key = loc[-1]
        op = draw(st.sampled_from(["replace", "replace", "replace", "delete", "add_key", "dup", "empty",
                                   "swap_type"]))
        if op == "replace":
            parent[key] = draw(any_values())
        elif op == "delete":
            del parent[key]
        elif op == "add_key":
            target = parent[key] if isinstance(parent[key], dict) else parent
            if isinstance(target, dict):
                target[draw(st.sampled_from(["extra", "colour", "unit", "strength", "hexes", "bogus_key"]))] = \
                    draw(any_values())
            else:
                target.append(draw(any_values()))
        elif op == "dup":
            if isinstance(parent, list):
                parent.insert(key, copy.deepcopy(parent[key]))
            elif isinstance(parent[key], list) and parent[key]:
                parent[key].append(copy.deepcopy(parent[key][0]))
        elif op == "empty":
            value = parent[key]
            parent[key] = type(value)() if isinstance(value, (dict, list, str)) else None
        else:  # swap_type: a value of a neighbouring type (int <-> str <-> list)
            value = parent[key]
            if isinstance(value, bool):
                parent[key] = str(value).lower()
            elif isinstance(value, int):
                parent[key] = draw(st.sampled_from([str(value), [value], float(value), -value, value * 1000]))
            elif isinstance(value, str):
                parent[key] = draw(st.sampled_from([[value], {value: value}, len(value), value.upper()]))
            elif isinstance(value, list):
                parent[key] = draw(st.sampled_from([tuple(value), {"items": value}, str(value), value[::-1]]))
            else:
                parent[key] = draw(any_values())
    return data


SIGNIFICANT = list(":-[]{}#&*!|>'\"%@`,? \n\t<>/=\\") + ["\x00", "\ufeff", "0", "9", "a", "Z"]


@st.composite
def mutated_text(draw: st.DrawFn, text: str, max_mutations: int = 3) -> str:
    """`text` with 1..max_mutations character-level mutations (truncation included)."""
    for _ in range(draw(st.integers(1, max_mutations))):
        if not text:
            break
        op = draw(st.sampled_from(["truncate", "delete", "insert", "replace", "duplicate_line"]))
        i = draw(st.integers(0, len(text)))
        if op == "truncate":
            text = text[:i]
        elif op == "delete":
            j = draw(st.integers(i, min(len(text), i + 40)))
            text = text[:i] + text[j:]
        elif op == "insert":
            text = text[:i] + "".join(draw(st.lists(st.sampled_from(SIGNIFICANT), min_size=1, max_size=4))) + text[i:]
        elif op == "replace":
            text = text[:i] + draw(st.sampled_from(SIGNIFICANT)) + text[i + 1:]
        else:
            lines = text.splitlines(keepends=True)
            k = draw(st.integers(0, max(0, len(lines) - 1)))
            lines.insert(k, lines[k] if lines else "")
            text = "".join(lines)
    return text


def loads_or_clean_error(load: Callable[[Path], T], path: Path) -> T | GameFileError:
    """Run a loader: its result, or the GameFileError it raised, which must name `path`.

    Any other exception escapes and fails the test (that is the bug a fuzz test looks for)."""
    try:
        return load(path)
    except GameFileError as exc:
        text = str(exc)
        assert text.strip(), "an empty error message"
        assert "\n" not in text.strip() or text.count("\n") < 3, f"error is not one clear line: {text!r}"
        assert Path(exc.path).name == path.name or str(path) in text, \
            f"the error does not name the file {path.name}: {text}"
        return exc


class TookTooLong(AssertionError):
    """A single fuzz case ran past its time limit: a hang or a runaway computation."""


def time_limit(seconds: int) -> Any:
    """Context manager: fail the case (instead of hanging the suite) after `seconds` (POSIX)."""
    import contextlib
    import signal

    @contextlib.contextmanager
    def guard() -> Any:
        if not hasattr(signal, "SIGALRM"):
            yield
            return

        def alarm(*_: Any) -> None:
            raise TookTooLong(f"a single case ran longer than {seconds} s")

        old = signal.signal(signal.SIGALRM, alarm)
        signal.alarm(seconds)
        try:
            yield
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)

    return guard()
