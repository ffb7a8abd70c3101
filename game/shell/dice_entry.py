"""The die faces a GM types to force the next rolls ("10 10 3", "3, 7"), read the same way in
every rule system's GM mode, refused with what was expected. Pure."""

from __future__ import annotations

import re

MAX_FACES = 500  # at most this many at a time (the campaign's rules take no more)


def expected_faces(sides: int, whose: str) -> str:
    """What a GM may type, in words: "whole numbers from 1 to 10 (the campaign's d10), ..."."""
    return f"whole numbers from 1 to {sides} ({whose} d{sides}), separated by spaces or commas"


def parse_faces(text: str, sides: int, whose: str) -> tuple[int, ...] | str:
    """The die faces typed, or why they are refused (naming what was expected). `whose`: the
    die's owner as the message says it ("the campaign's", "the mass battle's")."""
    words = [w for w in re.split(r"[\s,;]+", text.strip()) if w]
    if not words:
        return f"Type at least one die value: {expected_faces(sides, whose)}."
    if len(words) > MAX_FACES:
        return f"At most {MAX_FACES} values at a time; {len(words)} were typed."
    values: list[int] = []
    for w in words:
        if not re.fullmatch(r"[0-9]+", w):
            return f"'{w[:20]}' is not a die value: expected {expected_faces(sides, whose)}."
        v = int(w)
        if not 1 <= v <= sides:
            return f"{v} cannot be rolled on a d{sides}: expected {expected_faces(sides, whose)}."
        values.append(v)
    return tuple(values)
