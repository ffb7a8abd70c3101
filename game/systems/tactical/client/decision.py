"""The dialog of a decision the rules wait for in a battle (the initiative choice, the turn
place, the defensive action): a shell dialog that also takes the battle's H (hint) and P (players) keys and lists them,
with the number keys that pick its buttons, in its F1 help. The battle's dialogs
(battle_dialogs.py) build it; the battle scene (battle.py) gives it its keys as `DecisionKeys`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from game.shell.keymap import Binding, dispatch
from game.shell.scenes.dialog import Choice, DialogScene
from game.shell.toolkit.richtext import Content, Styled
from game.systems.tactical.client.text import GOLD, ink, line

if TYPE_CHECKING:
    from game.shell.contracts import AppContext


# the shell's keys a decision's dialog refuses until it is answered (game/shell/keys.py)
ANSWER_FIRST = frozenset({"Ctrl+Z", "Ctrl+Y", "F2", "F3"})


@dataclass(frozen=True)
class DecisionKeys:
    """The battle's H and P keys for a dialog of a decision the rules wait for: `hint` asks the
    computer what it would choose, `said` reads the hint's message so far (None: none asked),
    `players` opens the players dialog (None: the rules have no computer players)."""
    hint: Callable[[], None]
    said: Callable[[], str | None]
    players: Callable[[], None] | None = None


class DecisionDialog(DialogScene):
    """A dialog of a decision the rules wait for (the initiative choice, the turn place) that
    takes the battle's H (hint, shown at the foot of the dialog once thought) and P (players)
    keys, and lists them in its F1 help with the number keys that pick its buttons and the
    buttons' own keys."""

    def __init__(self, app: AppContext, title: str, body: Content, choices: list[Choice], decision: DecisionKeys,
                 size: tuple[int, int], name: str) -> None:
        self._body = body
        self._decision = decision
        self._hint_shown: str | None = None
        own = [Binding((pygame.K_h,), "H", "hint: what the computer would choose here, and why (shown in this "
                       "dialog)", lambda _: decision.hint())]
        if decision.players is not None:
            players = decision.players
            own.append(Binding((pygame.K_p,), "P", "players: who plays each side (Human, or the computer at a "
                               "level); this question opens again after", lambda _: players()))
        if choices:
            last = min(len(choices), 9)
            own.append(Binding(tuple(pygame.K_1 + i for i in range(last)), "1" if last == 1 else f"1-{last}",
                               "pick the button in that place, counting from the left"))
        self._own: tuple[Binding, ...] = tuple(own)
        super().__init__(app, title, body, choices, size=size, name=name)

    def key_map(self) -> tuple[Binding, ...]:
        """H, P and the number keys, then the buttons' own keys (Y, N, C of the defensive action)."""
        return (*self._own, *self.button_keys())

    def take_shell_key(self, binding: Binding, act: Callable[[], object]) -> bool | str:
        """Undo, redo, GM mode and the replay view wait for the answer (the rules wait for it: the
        dialog cannot be closed, so the shell's 'close this first' would ask the impossible);
        the other shell keys are the shell's (False)."""
        if binding.label not in ANSWER_FIRST:
            return False
        title = self.title.strip()
        name = f'"{title}"' if title[-1:] in ".!?:;" else title
        return f"{name}: answer it first (a button below; H: a hint)"

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and dispatch(self._own, event, self):
            return
        super().handle_event(event)

    def update(self, dt: float) -> None:
        said = self._decision.said()
        if said != self._hint_shown:  # the hint asked (or its answer) joins the foot of the body
            self._hint_shown = said
            self.body_html = self._body if said is None else (*plain_lines(self._body), (), line(ink(said, GOLD)))
            self.body.set_text(self.body_html)
            if said is not None:  # the hint at the foot shows (a body taller than its box scrolls to it)
                self.body.scroll_to(self.body.max_scroll)
        super().update(dt)


def plain_lines(body: Content) -> Styled:
    """A dialog's body as lines of styled pieces (a plain string: one line of it)."""
    return body if isinstance(body, tuple) else (line(body),)
