"""Errors for mistakes in users' files: each names the file, the place in it and what was expected.

Messages are bounded: a hostile file may hold a megabyte-long string, a structure its aliases
expand a million times, or a number of thousands of digits, and none of that may be formatted
into a message whole. Show values with `brief(value)`; a GameFileError also cuts its own parts
to `MAX_PATH` / `MAX_WHERE` / `MAX_MESSAGE` characters.
"""

from __future__ import annotations

import reprlib
from typing import Any

MAX_PATH = 300
MAX_WHERE = 200
MAX_MESSAGE = 600


def cut(text: str, limit: int) -> str:
    """`text` on one line, at most `limit` characters (an ellipsis marks a cut)."""
    if len(text) > limit * 4:
        text = text[: limit * 4]  # never scan more than needed
    one = " ".join(text.split()) if ("\n" in text or "\r" in text) else text
    return one if len(one) <= limit else one[: max(limit - 3, 0)] + "..."


class _Brief(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxdict = 6
        self.maxlist = self.maxtuple = self.maxset = self.maxfrozenset = 8
        self.maxstring = 60
        self.maxlong = 40
        self.maxother = 60

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:  # (str() of a huge int is slow, and refused past 4300 digits)
            digits = int(x.bit_length() * 0.30103) + 1
            return f"<a whole number of about {digits:,} digits>"
        return super().repr_int(x, level)

    def repr_str(self, x: str, level: int) -> str:
        return super().repr_str(x[: self.maxstring * 2], level) if len(x) > self.maxstring else repr(x)


_BRIEF = _Brief()


def brief(value: Any, limit: int = 60) -> str:
    """A short repr of any value: bounded in length and in the work it takes to make."""
    try:
        return cut(_BRIEF.repr(value), limit)
    except Exception:  # noqa: BLE001 - a value whose repr fails must not break the message
        return f"<a {type(value).__name__}>"


class GameFileError(Exception):
    """A problem in a map, scenario, catalogue, rules or save file.

    str() gives one line: "<file>: <where>: <what was expected>".
    """

    def __init__(self, path: str, where: str, message: str) -> None:
        self.path = cut(str(path), MAX_PATH)
        self.where = cut(str(where), MAX_WHERE)
        self.message = cut(str(message), MAX_MESSAGE)
        super().__init__(self.line())

    def line(self) -> str:
        return f"{self.path}: {self.where}: {self.message}" if self.where else f"{self.path}: {self.message}"


class UserError(Exception):
    """A mistake in command-line arguments: printed as one line, no traceback."""
