"""The players dialog, for every rule system: who plays each side (Human, or the computer at one of
the levels its rules offer). A side's button (or its number key) moves it on to the next choice:
Human, Computer easy, Computer hard, ... and back to Human; T (Think) moves the computer's thinking
time a decision on (THINK_CHOICES, the window's Settings.think_seconds); Done closes.

Who may change a seat is the same in every window (`SeatRule`, game/shell/seats.py): anyone
before play has begun (a fresh game opens the dialog from its briefing); once it has, the GM
only. Then the dialog shows the seats, says why they are locked, and offers the GM's way in: the
system's GM lock (the campaign's passphrase); where the system has none, the shell's
(gm_seat.seat_unlock: the campaign's passphrase under a battle fought out from it, else the game's
own when set); else the GM's word (a button). A side's button pressed while locked says so again rather than doing nothing.

In a game without a GM lock of its own (the tactical and the mass battle; not the campaign, nor a
battle fought out from one, which have the campaign's), "GM passphrase..." (K) sets the GM
passphrase F2 then asks for, or changes or clears it with the current one
(game/shell/gm_seat.py); setting one once play has begun is the GM's, as the seats are. The body
says whether one is set and when GM mode was opened in the game (its trace, kept in the saves)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial

import pygame

from game.core import gm_lock
from game.shell import fonts, gm_seat
from game.shell.contracts import AppContext
from game.shell.scenes.dialog import Choice, DialogScene
from game.shell.seats import THINK_CHOICES, SeatRule, Seats
from game.shell.toolkit.richtext import Span, styled

__all__ = ["seats_dialog", "next_choice", "next_think"]

OPEN = SeatRule()


def next_choice(current: str | None, levels: Sequence[str]) -> str | None:
    """Human -> the first level -> ... -> the last level -> Human."""
    order: list[str | None] = [None, *levels]
    return order[(order.index(current) + 1) % len(order)] if current in order else None


def short(name: str, most: int = 12) -> str:
    """A side's name on its button: without a leading "The", whole when short, else cut at a word,
    or in one (with an ellipsis) when that leaves too little (the body names it whole)."""
    if name.startswith("The ") and len(name) > 4:
        name = name[4:]
    if len(name) <= most:
        return name
    words: list[str] = []
    for word in name.split():  # whole words while they fit
        if len(" ".join([*words, word])) > most:
            break
        words.append(word)
    while words and words[-1].lower() in _DANGLING:  # "Host of the" -> "Host"
        words.pop()
    if words and words[-1].lower().endswith(("'s", "\u2019s")):  # "Hida Jo's" (army) -> "Hida Jo"
        words[-1] = words[-1][:-2]
    cut = " ".join(words).rstrip(",;:-")
    # whole words of at least 4 letters beat a word cut in two ("Zone", not "Zone Expedi\u2026": QA at
    # 960 x 600), and so do half the room's
    return cut if len(cut) >= min(4, most // 2) else name[:most - 1].rstrip() + "\u2026"


_DANGLING = frozenset({"of", "the", "and", "a", "an", "at", "in", "on", "for", "to"})  # not a name's last word


def next_think(seconds: float) -> float:
    """The thinking time after `seconds` in the dialog's round (THINK_CHOICES): the next one up,
    from the longest back to the shortest."""
    return next((c for c in THINK_CHOICES if c > seconds + 1e-9), THINK_CHOICES[0])


def _fitting_label(name: str, level: str | None, room: int) -> str:
    """The longest `button_label` whose text fits `room` pixels (its name cut shorter as needed)."""
    for most in range(12, 3, -1):
        label = button_label(name, level, most)
        if fonts.text(label, 14, (0, 0, 0)).get_width() <= room:
            return label
    return button_label(name, level, 3)


def button_label(name: str, level: str | None, most: int = 12) -> str:
    """A side's button: its name (at most `most` letters) and who plays it ("Jibril: hard",
    "Zones: Human")."""
    return f"{short(name, most)}: {level or 'Human'}"


def seats_dialog(app: AppContext, seats: Seats, sides: Sequence[tuple[str, str]], levels: Sequence[str],
                 on_done: Callable[[], None] | None = None, rule: SeatRule = OPEN, *,
                 unlocked: bool = False, refused: bool = False) -> DialogScene:
    """The dialog over the game: `sides` as (id, name); `levels` the computer levels to offer;
    `rule` who may change them now; `unlocked`: the GM has opened the lock in this dialog. A rule
    without a GM lock of its system's gets the shell's (gm_seat.seat_unlock: the campaign's
    passphrase under a battle fought out from it, else this game's own when set), so every
    system's dialog asks the same passphrase F2 asks."""
    session = gm_seat.session_of_seats(app, seats)
    own_lock = rule.unlock is None and gm_seat.outer_seat(app) is None  # (K: this game's own passphrase)
    locked = rule if rule.unlock is not None else replace(rule, unlock=gm_seat.seat_unlock(app, session))
    why_not = None if unlocked else locked.why_not()

    def again(*, unlocked: bool = unlocked, refused: bool = False) -> None:
        app.push(seats_dialog(app, seats, sides, levels, on_done, rule, unlocked=unlocked, refused=refused))

    def change(what: Callable[[], None]) -> None:
        """Make a change the rule allows now (else say it is refused), then show the dialog again."""
        if why_not is None:
            what()
        again(refused=why_not is not None)

    def cycle(side: str) -> None:
        change(lambda: seats.set(side, next_choice(seats.level(side), levels)))

    def think() -> None:
        def longer() -> None:
            app.settings.think_seconds = next_think(app.settings.think_seconds)
        change(longer)

    pieces: list[Span | str] = []
    for i, (sid, name) in enumerate(sides, 1):  # names are text, never markup: nothing to escape
        pieces += [Span(str(i), bold=True), f"  {name}: ", Span(seats.label(sid), bold=True), "\n"]
    pieces += [Span("T", bold=True), "  The computer thinks up to ",
               Span(f"{app.settings.think_seconds:g} s", bold=True), " a decision.\n"]
    if why_not is None:
        pieces += ["\nClick a side (or press its number) to change who plays it: Human, then "
                   f"{', '.join('Computer ' + lv for lv in levels)}. A computer side plays by itself and says why "
                   "(in the log). Once play has begun only the GM changes this."]
    else:
        colour = (255, 138, 112) if refused else (255, 210, 122)
        pieces += ["\n", Span(f"{'Refused. ' if refused else ''}{why_not}", colour=colour)]
    kept = gm_lock.keeping(session) if session is not None else None
    own_lock = own_lock and kept is not None
    if kept is not None and own_lock:
        pieces += ["\n\n", Span("K", bold=True), "  GM passphrase: ",
                   Span("set" if kept.is_set else "none", bold=True),
                   " (F2 asks for it)." if kept.is_set else " (F2 asks \"I am the GM\" when two or more sides "
                   "play at this screen)."]
    if kept is not None and kept.opened and session is not None:
        pieces += ["\n", Span(f"GM mode was opened in {gm_seat.opened_text(session.system, kept.opened)}.",
                               colour=(224, 184, 100))]
    body = styled(*pieces)
    # the buttons share the dialog's width (shell/scenes/dialog.py): a side's name is cut to what
    # its button holds (QA: "esistance: Humar" at 960 x 600 with four powers)
    extra = (1 if kept is not None and own_lock else 0) + (1 if why_not is not None else 0) + 2
    n = len(sides) + extra
    width = min(max(app.screen.get_width() - 40, 520), 180 * n + 40)
    bwid = min(180, (min(width, app.screen.get_width() - 40) - 24 - 10 * (n - 1)) // max(1, n))
    choices = [Choice(_fitting_label(name, seats.level(sid), bwid - 16), partial(cycle, sid),
                      pygame.K_1 + i if i < 9 else None)
               for i, (sid, name) in enumerate(sides)]
    if kept is not None and own_lock:
        held = kept

        def passphrase() -> None:
            if not held.is_set and why_not is not None:
                again(refused=True)  # none yet, play has begun: setting one is the GM's, as the seats are
                return
            app.push(gm_seat.PassphraseFormScene(app, held, on_done=again))

        choices.append(Choice("GM passphrase... (K)", passphrase, pygame.K_k))
    if why_not is not None:
        if locked.unlock is not None:
            unlock = locked.unlock
            choices.append(Choice("GM: unlock (G)", lambda: unlock(lambda: again(unlocked=True)), pygame.K_g))
        else:
            choices.append(Choice("I am the GM (G)", lambda: again(unlocked=True), pygame.K_g))
    choices.append(Choice(f"Think: {app.settings.think_seconds:g} s", think, pygame.K_t))
    choices.append(Choice("Done", on_done, pygame.K_RETURN, primary=True))
    return DialogScene(app, "Players", body, choices, size=(width, 300),
                       cancel=Choice("Done", on_done), name="seats")
