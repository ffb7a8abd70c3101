"""What a replay may say of a step: a sealed initiative choice (the rules' `sealed`: an option
chosen while another side has still to choose) is worded only as made ("Jibril makes its sealed
initiative choice") until the game being replayed went on to reveal it (the rolls), or to the GM.
Used by the replay view (F3, the load menu's replay) and `python -m game replay SAVE`
(`terminal_lines`, game/cli/replay.py), so every replay a player can open hides the same."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.shell.seats import is_sealed


def step_said(system: Any, step: Any, *, reveal: bool) -> str:
    """The step's command in the rules' words, or only that a side made its sealed choice."""
    if is_sealed(system, step.before, step.command) and not reveal:
        side = getattr(step.command, "side", None)
        who = step.before.side_name(side) if side else "a side"
        return f"{who} makes its sealed initiative choice"
    return str(system.describe_command(step.before, step.command))


def revealed(system: Any, steps: Sequence[Any], i: int, *, gm: bool) -> bool:
    """Whether step `i` of `steps` (a game's history) may show what it chose: the GM sees
    everything; a sealed choice shows once a later step of the game left it unsealed (the rolls)."""
    step = steps[i]
    if gm or not is_sealed(system, step.before, step.command):
        return True
    return any(not is_sealed(system, later.after, step.command) for later in steps[i + 1:])


def terminal_lines(system: Any, step: Any, *, reveal: bool, gm: bool) -> tuple[str, list[str]]:
    """A step of `python -m game replay SAVE` as the replay view shows it: a sealed initiative
    choice only as made unless `reveal` (the rolls came later in the game, or `--gm`); its events
    in the rules' words (the choice's own event names no option)."""
    return step_said(system, step, reveal=reveal), [system.describe_event(step.after, e) for e in step.events]
