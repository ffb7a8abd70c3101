"""Modal dialogs drawn over the battle: a title, a body of text and a row of buttons.

Used for the end-of-phase confirmation, the defensive-action question, the help overlay and the
end-of-battle summary. The scene below stays drawn (dimmed) but gets no input.
Its F1 help names the keys it takes (`key_map`): each button's own key, Esc when it has a
cancel, and the number keys that press the n-th button.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame
import pygame_gui

from game.shell.contracts import AppContext
from game.shell.draw import shade
from game.shell.keymap import Binding
from game.shell.scene import Scene
from game.shell.toolkit.buttons import Button
from game.shell.toolkit.richtext import Content, RichTextBox, TextLine, plain


@dataclass(frozen=True)
class Choice:
    """One button of a dialog: its label, what it does, its key."""
    label: str
    action: Callable[[], object] | None = None  # run after the dialog closes
    key: int | None = None                    # keyboard shortcut
    primary: bool = False
    keep_open: bool = False                   # the action decides (e.g. restart replaces scenes)


KEY_NAMES = {pygame.K_RETURN: "Enter", pygame.K_ESCAPE: "Esc", pygame.K_SPACE: "Space",
             pygame.K_DELETE: "Delete", pygame.K_BACKSPACE: "Backspace"}


def key_label(key: int) -> str:
    """A key's name as the help writes it: "Enter", "Esc", "F1", "Y"."""
    return KEY_NAMES.get(key) or pygame.key.name(key).upper()


class DialogScene(Scene):
    overlay = True
    name = "dialog"

    def __init__(self, app: AppContext, title: str, body_html: Content, choices: Sequence[Choice],
                 size: tuple[int, int] = (520, 300), cancel: Choice | None = None,
                 dim: bool = True, name: str = "dialog") -> None:
        super().__init__(app)
        self.title = title
        self.body_html = body_html
        self.choices = list(choices)
        self.cancel = cancel
        self.box_size = size
        self.dim = dim
        self.name = name
        self.buttons: dict[object, Choice] = {}
        self.ui = app.make_ui()
        self._build()

    def _build(self) -> None:
        self.ui.clear_and_reset()  # type: ignore[no-untyped-call]
        self.buttons.clear()
        w, h = self.app.screen.get_size()
        bw, bh = min(self.box_size[0], w - 40), min(self.box_size[1], h - 40)
        self.rect = pygame.Rect((w - bw) // 2, (h - bh) // 2, bw, bh)
        # the box is drawn by draw() in the theme's panel colours: the toolkit's panel made a
        # drawable shape with five states for this plain rectangle (2.8 ms, at every dialog)
        theme = self.ui.get_theme()
        self._box_colours = (theme.get_colour("dark_bg", ["panel"]), theme.get_colour("normal_border", ["panel"]))
        try:
            self._edge = max(0, int(str(theme.get_misc_data("border_width", ["panel"]))))
        except (LookupError, ValueError, TypeError):
            self._edge = 1
        # (the toolkit's panel placed what it holds inside its border)
        panel = pygame_gui.core.UIContainer(self.rect.inflate(-2 * self._edge, -2 * self._edge), self.ui)
        TextLine(pygame.Rect(12, 8, bw - 24, 28), self.title, self.ui, container=panel,
                 object_id=pygame_gui.core.ObjectID(class_id="@title"))
        self.body = RichTextBox(self.body_html, pygame.Rect(12, 40, bw - 24, bh - 100), self.ui, container=panel)
        n = max(1, len(self.choices))
        gap = 10
        bwid = min(180, (bw - 24 - gap * (n - 1)) // n)
        x = bw - 12 - n * bwid - (n - 1) * gap
        for choice in self.choices:
            oid = pygame_gui.core.ObjectID(class_id="@primary") if choice.primary else None
            btn = Button(pygame.Rect(x, bh - 52, bwid, 38), choice.label, self.ui,
                                               container=panel, object_id=oid)
            self.buttons[btn] = choice
            x += bwid + gap

    def key_map(self) -> tuple[Binding, ...]:
        """The keys this dialog takes (handle_event), for its F1 help: a button's own key, Esc (the
        cancel), 1-N (the n-th button). Named only (no action): handle_event presses the button. A
        dialog that builds its own help (the briefing, a decision, the end summary) overrides it."""
        own = list(self.button_keys())
        last = min(len(self.choices), 9)
        if last:
            own.append(Binding(tuple(pygame.K_1 + i for i in range(last)), "1" if last == 1 else f"1-{last}",
                               "press the button in that place, counting from the left"))
        return tuple(own)

    def button_keys(self) -> tuple[Binding, ...]:
        """Each button's own key (its letter: Y, N, C...) and Esc for the cancel, for the help."""
        own: list[Binding] = []
        for place, choice in enumerate(self.choices):
            if choice.key is None or choice.key == pygame.K_1 + place or any(choice.key in b.keys for b in own):
                continue  # (a button's own number is the 1-N line's)
            label = key_label(choice.key)
            what = choice.label.removesuffix(f" ({label})")  # "I am the GM (G)": "G: I am the GM"
            own.append(Binding((choice.key,), label, what))
        if self.cancel is not None and not any(pygame.K_ESCAPE in b.keys for b in own):
            same = next((i for i, b in enumerate(own) if b.what == self.cancel.label), None)
            if same is None:
                own.append(Binding((pygame.K_ESCAPE,), "Esc", self.cancel.label))
            else:  # one line for the two keys of one button: "Enter or Esc: Done"
                b = own[same]
                own[same] = Binding((*b.keys, pygame.K_ESCAPE), f"{b.label} or Esc", b.what)
        return tuple(own)

    @property
    def body_text(self) -> str:
        """The body without its styles (tests)."""
        return plain(self.body_html)

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        self._build()

    def choose(self, choice: Choice) -> None:
        if not choice.keep_open:
            self.app.pop()
        if choice.action is not None:
            choice.action()

    def choose_label(self, label: str) -> None:
        """Press the button with this label (tests and keyboard shortcuts)."""
        for choice in self.choices:
            if choice.label == label:
                self.choose(choice)
                return
        raise KeyError(label)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            self.choose(self.buttons[event.ui_element])
            return
        if self.ui.process_events(event):
            return
        if event.type == pygame.KEYDOWN:
            for choice in self.choices:
                if choice.key is not None and event.key == choice.key:
                    self.choose(choice)
                    return
            if event.key == pygame.K_ESCAPE and self.cancel is not None:
                self.choose(self.cancel)
                return
            if pygame.K_1 <= event.key <= pygame.K_9 and event.key - pygame.K_1 < len(self.choices):
                self.choose(self.choices[event.key - pygame.K_1])  # number keys pick the n-th button

    def update(self, dt: float) -> None:
        self.ui.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        if self.dim:
            shade(surface, 140)
        bg, edge = self._box_colours
        surface.fill(bg, self.rect)
        if self._edge:
            pygame.draw.rect(surface, edge, self.rect, self._edge)
        self.ui.draw_ui(surface)
