"""The players dialog, for every rule system: who plays each side (Human, or the computer at one of
the levels its rules offer). A side's button (or its number key) moves it on to the next choice:
Human, Computer easy, Computer hard, ... and back to Human; Done closes. The GM opens it at any
moment to hand a seat to the computer or take it back; a fresh game opens it at the start."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame

from game.shell.contracts import AppContext
from game.shell.scenes.dialog import Choice, DialogScene
from game.shell.seats import Seats

__all__ = ["seats_dialog", "next_choice"]


def next_choice(current: str | None, levels: Sequence[str]) -> str | None:
    """Human -> the first level -> ... -> the last level -> Human."""
    order: list[str | None] = [None, *levels]
    return order[(order.index(current) + 1) % len(order)] if current in order else None


def seats_dialog(app: AppContext, seats: Seats, sides: Sequence[tuple[str, str]], levels: Sequence[str],
                 on_done: Callable[[], None] | None = None) -> DialogScene:
    """The dialog over the game: `sides` as (id, name); `levels` the computer levels to offer."""

    def cycle(side: str) -> Callable[[], None]:
        def act() -> None:
            seats.set(side, next_choice(seats.level(side), levels))
            app.push(seats_dialog(app, seats, sides, levels, on_done))
        return act

    rows = "".join(f"<b>{i}</b>&nbsp; {name}: <b>{seats.label(sid)}</b><br>" for i, (sid, name) in enumerate(sides, 1))
    body = (f"{rows}<br>Click a side (or press its number) to change who plays it: Human, then "
            f"{', '.join('Computer ' + lv for lv in levels)}. A computer side plays by itself and says why; "
            "the GM can change this at any time with P.")
    choices = [Choice(f"{name[:12]}: {seats.label(sid).replace('Computer ', 'CPU ')}", cycle(sid),
                      pygame.K_1 + i if i < 9 else None)
               for i, (sid, name) in enumerate(sides)]
    choices.append(Choice("Done", on_done, pygame.K_RETURN, primary=True))
    return DialogScene(app, "Players", body, choices, size=(min(900, 200 * len(choices) + 40), 300),
                       cancel=Choice("Done", on_done), name="seats")
