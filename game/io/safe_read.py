"""Bounded reading of every input file, and a YAML loader with budgets.

Every scenario, catalogue, rules file, map, tileset, command list and save is read from disk
through `read_bytes` / `read_text` here, and every YAML document is parsed by `load_yaml` /
`load_yaml_all` here. Whatever a file holds, reading it ends quickly, in bounded memory, with
either the data or one error line naming the file, the place and what was expected.

Files (docs/formats.md#limits):
- only regular files: a folder, a device such as /dev/zero, a pipe or a socket is refused
  before anything is read (the null device, /dev/null, reads as an empty file); a loop of symbolic links is refused with one line;
- at most `MAX_FILE_BYTES` (16 MiB) for data files, `MAX_LARGE_FILE_BYTES` (64 MiB) for saves
  and command lists, checked before reading and enforced while reading;
- text files are UTF-8 with no NUL byte (a NUL means binary data).

YAML, parsed with the C loader (libyaml) and safe semantics only:
- at most `MAX_NODES` nodes in a document, counting every alias as the whole node it repeats
  (so an alias bomb is refused before anything is built from it), and no recursive alias;
- nesting at most `MAX_DEPTH` levels deep (aliases count with the depth they repeat);
- no key twice in one mapping (merge keys `<<` may still be overridden, as YAML intends);
- whole numbers of at most `MAX_INT_DIGITS` characters.

A YAML limit is reported as a `YamlLimitError`, a `yaml.MarkedYAMLError` carrying the line, so
every caller's existing "not valid YAML (line N: ...)" handling reports it in its own words.
"""

from __future__ import annotations

import errno
import gc
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from game.core.errors import GameFileError, brief

MiB = 1024 * 1024
MAX_FILE_BYTES = 16 * MiB          # scenarios, catalogues, rules files, maps, tilesets, images checked
MAX_LARGE_FILE_BYTES = 64 * MiB    # saves and command lists (a long game, a 100,000-command script)
MAX_NODES = 2_000_000              # YAML nodes in one document, aliases expanded
MAX_DEPTH = 100                    # YAML nesting levels
MAX_INT_DIGITS = 100               # characters of a whole number in YAML

ErrorFactory = Callable[[str, str, str], GameFileError]

_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # same safe semantics, much faster when built


class YamlLimitError(yaml.MarkedYAMLError):
    """A YAML document over one of this module's budgets (or with a duplicate key)."""

    def __init__(self, problem: str, mark: Any) -> None:
        super().__init__(None, None, problem, mark)


# --------------------------------------------------------------------------- files


def _size_text(n: int) -> str:
    return f"{n / MiB:.1f} MiB" if n >= MiB else f"{n} bytes"


def check_regular(path: str | os.PathLike[str], what: str = "file", *,
                  error: ErrorFactory = GameFileError) -> os.stat_result:
    """`os.stat` of `path` (symbolic links followed) if it is a regular file; else one clear error."""
    p = str(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise error(p, "", f"{what} not found (no such file)") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise error(p, "", f"cannot read {what}: its symbolic links form a loop") from None
        if exc.errno == errno.ENAMETOOLONG:
            raise error(p, "", f"cannot read {what}: the path is too long") from None
        raise error(p, "", f"cannot read {what} ({exc.strerror or exc})") from None
    except ValueError:  # e.g. a NUL character in the path itself
        raise error(_brief_path(p), "", f"not a usable path for a {what}") from None
    if stat.S_ISDIR(st.st_mode):
        raise error(p, "", f"is a folder, not a {what}")
    if is_null_device(st):
        return st  # the null device reads as an empty file (`--commands /dev/null`: no commands)
    if not stat.S_ISREG(st.st_mode):
        raise error(p, "", f"is not a regular file (a device, pipe or socket); expected a {what}")
    return st


def is_null_device(st: os.stat_result) -> bool:
    """Is this the system's null device (os.devnull), which reads as an empty file?"""
    if not stat.S_ISCHR(st.st_mode):
        return False
    try:
        null = os.stat(os.devnull)
    except OSError:
        return False
    return stat.S_ISCHR(null.st_mode) and st.st_rdev == null.st_rdev


def not_a_file(path: str | os.PathLike[str]) -> str | None:
    """Why `path` cannot be read as a file, in a few words ("not found", "is a folder, not a
    file", "is not a regular file (a device, pipe or socket)"), or None when it can (a regular file
    or the null device). For a loader to report it against the line that names the path."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return "not found"
    if stat.S_ISDIR(st.st_mode):
        return "is a folder, not a file"
    if stat.S_ISREG(st.st_mode) or is_null_device(st):
        return None
    return "is not a regular file (a device, pipe or socket)"


def _brief_path(p: str) -> str:
    return p.replace("\0", "\\0")[:200]


def read_bytes(path: str | os.PathLike[str], what: str = "file", *, limit: int = MAX_FILE_BYTES,
               error: ErrorFactory = GameFileError) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; anything else is one clear error."""
    p = str(path)
    st = check_regular(p, what, error=error)
    if is_null_device(st):
        return b""
    if st.st_size > limit:
        raise error(p, "", f"{what} is too large ({_size_text(st.st_size)}; the limit is {_size_text(limit)})")
    try:
        # O_NONBLOCK: should the file be swapped for a pipe after the check, opening does not hang.
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise error(p, "", f"cannot read {what}: its symbolic links form a loop") from None
        raise error(p, "", f"cannot read {what} ({exc.strerror or exc})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise error(p, "", f"is not a regular file (a device, pipe or socket); expected a {what}")
        chunks: list[bytes] = []
        total = 0
        while True:
            try:
                block = os.read(fd, min(1 << 20, limit + 1 - total))
            except BlockingIOError:
                raise error(p, "", f"is not a regular file; expected a {what}") from None
            if not block:
                break
            chunks.append(block)
            total += len(block)
            if total > limit:
                raise error(p, "", f"{what} is too large (more than {_size_text(limit)}, the limit)")
    except OSError as exc:
        raise error(p, "", f"cannot read {what} ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def decode_text(raw: bytes, path: str, what: str = "file", *, error: ErrorFactory = GameFileError) -> str:
    """UTF-8 text without NUL bytes (a UTF-8 byte-order mark is allowed and dropped)."""
    nul = raw.find(b"\0")
    if nul >= 0:
        line = raw.count(b"\n", 0, nul) + 1
        raise error(path, f"line {line}", f"a NUL byte: binary data, not UTF-8 text; expected a {what}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise error(path, f"line {line}", f"not UTF-8 text; expected a {what}") from None
    return text.removeprefix("\ufeff")


def read_text(path: str | os.PathLike[str], what: str = "file", *, limit: int = MAX_FILE_BYTES,
              error: ErrorFactory = GameFileError) -> str:
    """`read_bytes` then `decode_text`."""
    return decode_text(read_bytes(path, what, limit=limit, error=error), str(path), what, error=error)


def resolve(path: Path, what: str = "file", *, error: ErrorFactory = GameFileError,
            origin: str | None = None, where: str = "") -> Path:
    """`path.resolve()`, with a loop of symbolic links (or a path the system refuses) reported as
    one line against `origin` (the file that names the path) or the path itself."""
    try:
        return path.resolve()
    except (RuntimeError, OSError, ValueError) as exc:  # RuntimeError: symlink loop (Python < 3.13)
        reason = "its symbolic links form a loop" if (
            isinstance(exc, RuntimeError) or getattr(exc, "errno", None) == errno.ELOOP) else "unusable path"
        raise error(origin or _brief_path(str(path)), where,
                    f"cannot open {what} '{_brief_path(str(path))}': {reason}") from None


# --------------------------------------------------------------------------- YAML budgets


@dataclass
class Shape:
    """What a scan learnt of a YAML stream: enough to tell a file's kind without building it."""

    documents: int = 0
    top: str = ""                     # "map", "seq", "scalar" or "" (empty) for the first document
    top_keys: list[str] = field(default_factory=list)   # scalar keys of a top-level mapping
    items: int = 0                    # entries of a top-level sequence
    items_with_kind: int = 0          # ... that are mappings with a `kind` key
    stopped_early: bool = False       # a scan that stopped at the second document


def scan(text: str, *, stop_after_first: bool = False) -> Shape:
    """Walk the YAML event stream (C parser, nothing built) and enforce the node, depth and alias
    budgets. Raises `YamlLimitError` over budget and the parser's own `yaml.YAMLError` on syntax."""
    loader = _Base(text)
    shape = Shape()
    ScalarEvent, AliasEvent = yaml.ScalarEvent, yaml.AliasEvent
    SeqStart, MapStart = yaml.SequenceStartEvent, yaml.MappingStartEvent
    SeqEnd, MapEnd = yaml.SequenceEndEvent, yaml.MappingEndEvent
    DocStart, StreamEnd = yaml.DocumentStartEvent, yaml.StreamEndEvent
    nodes = 0
    anchors: dict[str, tuple[int, int]] = {}  # anchor -> (nodes, depth) of the node it names
    open_anchors: set[str] = set()
    # a frame per open collection: [anchor, nodes before it, its level, deepest level inside,
    #                               is a mapping, children so far, has a `kind` key]
    stack: list[list[Any]] = []
    try:
        while True:
            ev = loader.get_event()
            t = ev.__class__
            if t is ScalarEvent or t is AliasEvent or t is SeqStart or t is MapStart:
                level = len(stack) + 1
                if stack:
                    top = stack[-1]
                    is_key = top[4] and top[5] % 2 == 0
                    top[5] += 1
                    if level == 2 and shape.documents == 1:
                        if top[4] and is_key and t is ScalarEvent:
                            shape.top_keys.append(ev.value)
                        elif not top[4]:
                            shape.items += 1
                    elif level == 3 and len(stack) == 2 and is_key and t is ScalarEvent and ev.value == "kind":
                        stack[1][6] = True
                elif shape.documents == 1:
                    shape.top = "map" if t is MapStart else "seq" if t is SeqStart else "scalar"
                if t is AliasEvent:
                    name = ev.anchor
                    if name in open_anchors:
                        raise YamlLimitError(f"alias *{name} repeats a node that contains it (a recursive "
                                             "alias); expected a document without cycles", ev.start_mark)
                    size, depth = anchors.get(name, (1, 1))  # an unknown alias: the loader names it
                    nodes += size
                    reach = level + depth - 1
                else:
                    nodes += 1
                    reach = level
                    if t is ScalarEvent:
                        if ev.anchor is not None:
                            anchors[ev.anchor] = (1, 1)
                    else:
                        if ev.anchor is not None:
                            open_anchors.add(ev.anchor)
                        stack.append([ev.anchor, nodes - 1, level, level, t is MapStart, 0, False])
                if nodes > MAX_NODES:
                    raise YamlLimitError(f"the document holds more than {MAX_NODES:,} values (aliases "
                                         "counted as what they repeat); expected a smaller file", ev.start_mark)
                if reach > MAX_DEPTH:
                    raise YamlLimitError(f"nested more than {MAX_DEPTH} levels deep; expected a flatter "
                                         "document", ev.start_mark)
                if stack and reach > stack[-1][3]:
                    stack[-1][3] = reach
            elif t is SeqEnd or t is MapEnd:
                frame = stack.pop()
                if frame[0] is not None:
                    open_anchors.discard(frame[0])
                    anchors[frame[0]] = (nodes - frame[1], frame[3] - frame[2] + 1)
                if stack:
                    parent = stack[-1]
                    if frame[3] > parent[3]:
                        parent[3] = frame[3]
                    if len(stack) == 1 and not parent[4] and shape.documents == 1 and frame[4] and frame[6]:
                        shape.items_with_kind += 1
            elif t is DocStart:
                shape.documents += 1
                anchors.clear()  # (the node budget is for the whole stream)
                if stop_after_first and shape.documents > 1:
                    shape.stopped_early = True
                    return shape
            elif t is StreamEnd:
                return shape
    finally:
        loader.dispose()


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Building a large document makes millions of containers: the cyclic collector would scan
    them again and again (three times slower overall); they hold no cycles worth collecting."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class BoundedLoader(_Base):  # type: ignore[misc]
    """The safe loader with duplicate keys and over-long whole numbers refused."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, Any] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=deep)
                try:
                    first = seen.get(key)
                except TypeError:  # an unhashable key: the constructor says so
                    continue
                if first is not None:
                    raise YamlLimitError(f"key {_brief_key(key)} appears twice in this mapping (first on line "
                                         f"{first.line + 1}); expected each key once", key_node.start_mark)
                seen[key] = key_node.start_mark
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node: Any) -> Any:
        value = str(node.value)
        if len(value) > MAX_INT_DIGITS:
            raise YamlLimitError(f"a whole number of {len(value):,} characters; expected at most "
                                 f"{MAX_INT_DIGITS}", node.start_mark)
        return super().construct_yaml_int(node)


BoundedLoader.add_constructor("tag:yaml.org,2002:int", BoundedLoader.construct_yaml_int)


def _brief_key(key: Any) -> str:
    return brief(key, 60)


def compose_and_load(text: str) -> tuple[Any, yaml.Node | None]:
    """One YAML document: (data, root node for line numbers). Budgets enforced."""
    scan(text)
    loader = BoundedLoader(text)
    try:
        with _gc_paused():
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        return data, node
    finally:
        loader.dispose()


def load_yaml(text: str) -> Any:
    """One YAML document's data (an empty document is None). Budgets enforced."""
    return compose_and_load(text)[0]


def load_yaml_all(text: str) -> list[Any]:
    """Every document of a YAML stream. Budgets enforced."""
    scan(text)
    loader = BoundedLoader(text)
    try:
        with _gc_paused():
            out = []
            while loader.check_node():
                out.append(loader.construct_document(loader.get_node()))
        return out
    finally:
        loader.dispose()


def compose_all(text: str) -> list[yaml.Node]:
    """The node trees of a stream (for line numbers in messages). Budgets enforced."""
    scan(text)
    loader = BoundedLoader(text)
    try:
        with _gc_paused():
            out = []
            while loader.check_node():
                out.append(loader.get_node())
        return out
    finally:
        loader.dispose()


def yaml_problem(exc: yaml.YAMLError) -> tuple[str, str]:
    """(where, problem) of a YAML error, one line each: 'line 3, column 5' and the reason."""
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = exc.problem or exc.context or "syntax error"
        return where, " ".join(str(problem).split())
    first = str(exc).strip().splitlines()
    return "", first[0] if first else "syntax error"
