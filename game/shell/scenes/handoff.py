"""The hand-off screen between sides: the map is hidden before the next side's view is drawn.

It is a full (non-overlay) scene, so nothing under it is drawn while it is up. Only a deliberate
Enter or Space, or a click on its button, continues (a stray key or click does not reveal the
map); the click is consumed on release so it cannot fall through to the map. Esc asks whether
to quit, as on a game screen (the question is drawn over the blank screen, so it shows nothing of
the map): first, when a scene under it holds something typed and not sent (a story post, orders
chosen in part), naming it, then about unsaved play (actions.request_quit). So does Ctrl+Q.

The shell's keys that would act on the hidden game (F2 GM mode, F3 replay, Ctrl+Z / Ctrl+Y, F5,
Ctrl+S, F9) are refused here with a line under the button that says so and names nothing of the
game ("Hand-off: pass the screen first (Enter); GM mode (F2) works from the game's screen.");
F1, Ctrl+O (the load menu, over the blank screen), Ctrl+Q, F11 and Ctrl+B (back to the campaign
from a battle fought out; here it says when there is none) work.

`HandoffPolicy` decides when the blackout is needed: once per change of the side at the screen,
except the way back. When a side lends the screen in its own turn for another side's quick
answer (a defensive-action question) and control then comes straight back to it in the same
turn, the way back needs no second blackout: the other side answered over the same map, which
hides nothing (the tactical map is in plain sight), so one hand-off does.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pygame_gui

from game.shell import actions, fonts
from game.shell.contracts import AppContext
from game.shell.keymap import Binding
from game.shell.scene import Scene
from game.shell.toolkit.buttons import Button

CONTINUE_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
# the shell's keys that act on the game behind the screen: refused here, with a word
REFUSED = ("F2", "F3", "Ctrl+Z", "Ctrl+Y", "F5", "Ctrl+S", "F9")
REFUSED_COLOUR = (255, 138, 112)
MESSAGE_SIZE = 17


class HandoffPolicy:
    """Whether a change of the side at the screen needs the hand-off screen (see the module)."""

    def __init__(self) -> None:
        self._lent: tuple[str, object] | None = None  # (turn owner, turn) that lent the screen

    def needed(self, viewer: str | None, side: str, owner: str | None, turn: object) -> bool:
        """`viewer`: the side whose view is on screen (None: nobody's yet); `side`: the side that
        must look now; `owner`: the side whose turn it is (None outside a turn); `turn`: what
        tells one turn from another. False only for the screen coming straight back."""
        lent, self._lent = self._lent, None
        if lent == (side, turn):
            return False  # back to the side that lent it, in the same turn
        if owner is not None and viewer == owner and side != owner:
            self._lent = (owner, turn)  # lent for another side's answer in the owner's turn
        return True

    def forget(self) -> None:
        """Something else took the screen meanwhile (a load, GM mode): the next change counts."""
        self._lent = None


class HandoffScene(Scene):
    overlay = False
    name = "handoff"
    REFUSED_SHELL_KEYS = REFUSED  # (not in its F1 help: keys.help_groups)
    KEYS = (Binding(CONTINUE_KEYS, "Enter or Space", "show the map to the side named (or click Continue)"),
            Binding((pygame.K_ESCAPE,), "Esc", "quit (asks first when there is unsaved play or something typed and not sent; "
                    "the map stays hidden)"))

    def __init__(self, app: AppContext, side_name: str, colour: tuple[int, int, int],
                 detail: str = "", on_continue: Callable[[], None] | None = None) -> None:
        super().__init__(app)
        self.side_name = side_name
        self.colour = colour
        self.detail = detail
        self._on_continue = on_continue
        self._pressed = False
        self.message: str | None = None  # why a shell key did nothing here (shown under the button)
        self._message_left = 0.0
        self.ui = app.make_ui()
        self._build()

    def _build(self) -> None:
        self.ui.clear_and_reset()  # type: ignore[no-untyped-call]
        w, h = self.app.screen.get_size()
        self.title = pygame_gui.elements.UILabel(
            pygame.Rect(0, h // 2 - 90, w, 50), f"{self.side_name} to play", self.ui,
            object_id=pygame_gui.core.ObjectID(class_id="@big_title"))
        self.sub = pygame_gui.elements.UILabel(
            pygame.Rect(0, h // 2 - 35, w, 30), self.detail or "Pass the screen, then press Enter or Space.", self.ui,
            object_id=pygame_gui.core.ObjectID(class_id="@subtitle"))
        self.button = Button(
            pygame.Rect(w // 2 - 110, h // 2 + 20, 220, 44), "Continue (Enter)", self.ui,
            object_id=pygame_gui.core.ObjectID(class_id="@primary"))

    def take_shell_key(self, binding: Binding, act: Callable[[], object]) -> bool | str:
        """A shell key (game/shell/keys.py): the ones that would act on the hidden game are refused
        (the shell says so, here); the others are the shell's (False): Ctrl+O, Ctrl+Q, F11, and
        Ctrl+B, back to the game this one was opened from (a campaign battle: the campaign map),
        whose refusal when there is none the shell says here too (actions.refuse)."""
        return "Hand-off: pass the screen first (Enter)" if binding.label in REFUSED else False

    def notify(self, text: str, seconds: float, problem: bool) -> bool:
        """A word from the shell, under the button, for `seconds`."""
        self.message, self._message_left = text, seconds
        return True

    def message_lines(self) -> list[str]:
        """The message as drawn under the button, wrapped to the window."""
        if not self.message:
            return []
        return fonts.wrap_px(self.message, MESSAGE_SIZE, self.app.screen.get_width() - 80, indent="")

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        self._build()

    def _continue(self) -> None:
        self.app.pop()
        if self._on_continue is not None:
            self._on_continue()

    def handle_event(self, event: pygame.event.Event) -> None:
        self.ui.process_events(event)
        if event.type == pygame.KEYDOWN and event.key in CONTINUE_KEYS:
            self._continue()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            actions.request_quit(self.app)
        elif event.type == pygame.KEYDOWN and _typed(event):
            # a game's key (G, P, H...): said, not swallowed in silence, and nothing of the game
            self.notify("Hand-off: the game's keys wait until the screen is passed (Enter).", 4.0, False)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._pressed = self.button.rect.collidepoint(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            if self._pressed and self.button.rect.collidepoint(event.pos):
                self._continue()
            self._pressed = False

    def update(self, dt: float) -> None:
        if self.message is not None:
            self._message_left -= dt
            if self._message_left <= 0:
                self.message = None
        self.ui.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.fill((8, 9, 11))
        band = pygame.Rect(0, h // 2 - 110, w, 200)
        pygame.draw.rect(surface, (20, 22, 26), band)
        pygame.draw.rect(surface, self.colour, pygame.Rect(0, band.y, w, 4))
        pygame.draw.rect(surface, self.colour, pygame.Rect(0, band.bottom - 4, w, 4))
        self.ui.draw_ui(surface)
        y = band.bottom + 18
        for line in self.message_lines():
            picture = fonts.text(line, MESSAGE_SIZE, REFUSED_COLOUR)
            surface.blit(picture, ((w - picture.get_width()) // 2, y))
            y += picture.get_height() + 2


def _typed(event: pygame.event.Event) -> bool:
    """A key that types a character (G, P, 3...), not a shell key (Ctrl+..., F-keys): those the
    shell answers itself."""
    text = getattr(event, "unicode", "")
    mods = getattr(event, "mod", 0) & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META)
    return bool(text) and text.isprintable() and bool(text.strip()) and not mods
