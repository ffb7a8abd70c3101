"""Save-format migrations: one step per version, N -> N+1, applied in a chain on load.

These are the migrations of the *file format* (the header, the layout of the three documents),
the same for every rule system. The state document's own layout belongs to its rule system:
each system declares its state version and its steps (`state_version`, `state_migrations`,
game.core.system.VersionedState; the tactical ones are in game/systems/tactical/rules/migrations.py), the
header records the version a save was written at (format 3), and game.replay runs the
system's steps on the state before `state_from_data`.

Every change to the save format bumps `CURRENT_VERSION` and adds a `Step` here that turns a
version-N file (its three documents as plain YAML data) into a version-N+1 file. A save of
each old version is kept in tests/fixtures/saves/ and a test loads every one of them, so a
step can never silently stop working.

A step has two functions: `whole` migrates the three documents, `header` migrates the header
alone (the load menu reads headers without the rest of the file). Steps work on plain data,
never on live game objects, so they keep working when the game's classes change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

CURRENT_VERSION = 4

Docs = tuple[Any, Any, Any]


class MigrationError(Exception):
    """An old save that cannot be brought up to date (says which step and why)."""


@dataclass(frozen=True)
class Step:
    from_version: int
    summary: str
    whole: Callable[[Any, Any, Any], Docs]
    header: Callable[[Any], Any]


# --------------------------------------------------------------------------- 1 -> 2


def _v2_header(header: Any) -> Any:
    """Format 2 adds `side_names` to the header (the load menu says "Zenith Militia to play").
    A version-1 file only knows the side ids: they stand in for the names."""
    h = dict(header)
    h["format"] = 2
    h.setdefault("side_names", list(h.get("sides") or []))
    return h


def _v2_whole(header: Any, state: Any, log: Any) -> Docs:
    return _v2_header(header), state, log


# --------------------------------------------------------------------------- 2 -> 3


def _v3_header(header: Any) -> Any:
    """Format 3 records the rule system's state version in the header (`state_version`). Every
    file of format 2 or older was written before any system changed its state data: version 1."""
    h = dict(header)
    h["format"] = 3
    h.setdefault("state_version", 1)
    return h


def _v3_whole(header: Any, state: Any, log: Any) -> Docs:
    return _v3_header(header), state, log


# --------------------------------------------------------------------------- 3 -> 4


def _v4_header(header: Any) -> Any:
    """Format 4 names the rule system with the word set-up files use, `system:` (it was `game:`;
    a file of format 1 names none: the AI:L tactical rules, the only system then)."""
    h = dict(header)
    h["format"] = 4
    h["system"] = h.pop("game", "ail-tactical")
    return h


def _v4_whole(header: Any, state: Any, log: Any) -> Docs:
    return _v4_header(header), state, log


# from_version -> the step that produces from_version + 1
STEPS: dict[int, Step] = {
    1: Step(1, "side names in the header", _v2_whole, _v2_header),
    2: Step(2, "the rule system's state version in the header", _v3_whole, _v3_header),
    3: Step(3, "the header's `game:` is `system:`, as in set-up files", _v4_whole, _v4_header),
}


def _chain(version: int) -> list[Step]:
    steps = []
    for v in range(version, CURRENT_VERSION):
        step = STEPS.get(v)
        if step is None:
            raise MigrationError(f"no migration from format {v} to {v + 1}")
        steps.append(step)
    return steps


def migrate(version: int, header: Any, state: Any, log: Any) -> Docs:
    """Bring the three documents of a version-`version` save up to CURRENT_VERSION."""
    docs: Docs = (header, state, log)
    for step in _chain(version):
        try:
            docs = step.whole(*docs)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise MigrationError(
                f"cannot update the save from format {step.from_version} to {step.from_version + 1} "
                f"({step.summary}): {type(exc).__name__}: {exc}") from None
    return docs


def migrate_header(version: int, header: Any) -> Any:
    for step in _chain(version):
        try:
            header = step.header(header)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise MigrationError(
                f"cannot update the header from format {step.from_version} to {step.from_version + 1}: "
                f"{type(exc).__name__}: {exc}") from None
    return header
