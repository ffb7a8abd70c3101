"""The battle board of a mass battle.

Layout: a top bar (battle, ground, Wave, stage, whose decision); one card per force (commander
and individuals with Wounds and Void as bars, Brute divisions, the Advantage of each Way and the
total as bars); the Phase track 1-10 with each force's action dice and its legend; the choices
the rules list as legal (`choices.legal_commands`), each labelled by what it does and wrapped to
its box, never cut, a list longer than its box saying how many choices lie above and below
(click one, or Up/Down, then Enter or the Apply button; a person's choice
that ends the battle for their own force, `choices.ends_own_battle`, asks first); the exact odds
of the chosen one (`choices.preview`); the casualties of the last Wave; the log, with each roll's
dice, chains (10+10+3), kept dice in brackets, Raises and a luck line. When the battle is over,
the lower half is the battle-over summary (`end.py`) with its buttons (New battle with unsaved
play asks first: the shell's `actions.ask_restart`); where it covers the log (960x600), the
shell's messages from then on ("Saved to ...") are drawn beside the buttons.

Wresting command (battle-waves §7.3) is not a decision the battle waits for: any member of a force
on the field may take its command whenever the rules allow, whoever's turn it is. So it is not in
the list but beside the Apply button: "Wrest command (W)", enabled exactly when the rules
(`wresting.wrest_choices`) accept a wrest by someone of a force commanded at this screen (a
person's, not the computer's; while a sealed choice is at the screen, only that force's; none
while the screen is being handed on). It opens the list of who may take command and why the
others may not (`wrest.py`), then asks before the Act of Vice. Clicking the disabled button, or W,
says why not.

Hand-offs (docs/mass-battle.md, "Hand-offs"): only a secret decision (`choices.secret`: the
sealed appointments) needs the screen passed with the board hidden, and only when it belongs to
a force other than the one that last had the screen. Every other choice is made in turn at the
open table. A player whose roll is on the board sees it before the board is hidden: the screen is
then handed on by a button ("Hand the screen to ...") rather than at once.

Computer forces (game/shell/seats.py): a force the players dialog (P) or `play --seat` hands to
the computer makes its own decisions when the rules wait for it (rolls, Battle Actions, duels and
their answers, the sealed appointments, a new commander), asked through `game.core.ai.choose` in
a thread (its own view: never another force's sealed appointment); its command plays through the
session like a person's, with its log lines and the why line after them (a sealed appointment's
why once every force has chosen). The list shows only the people's choices; the hand-off comes up
only between two people. H: a hint for the person to decide (for a sealed appointment, only over
the list: never in the log every force reads).

`draw()` only reads; the session's `apply` is the only way the state changes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import pygame
import pygame_gui

from game.core.system import counted, possessive
from game.shell import actions
from game.shell.fonts import font, outlined, text, wrap_px
from game.shell.keymap import Binding
from game.shell.scene import Scene
from game.shell.scenes.dialog import Choice, DialogScene
from game.shell.scenes.handoff import HandoffScene
from game.shell.scenes.seats import seats_dialog
from game.shell.seats import PACE, SeatRule, Seats, Thinker, hint_level, is_sealed, levels_of, said, why_line
from game.shell.session import session_for
from game.shell.toolkit.buttons import Button
from game.shell.toolkit.richtext import Span, styled
from game.systems.mass.client import end
from game.systems.mass.client.wrest import WrestScene
from game.systems.mass.io.picture import BAD, BG, DIM, GOLD, GOOD, INK, PANEL, TRACK, force_colours
from game.systems.mass.rules import choices
from game.systems.mass.rules import commands as c
from game.systems.mass.rules.pools import level_index, level_name, size
from game.systems.mass.rules.wresting import wrest_choices, wrest_label, wrest_refusal

TROUGH = TRACK
VOID = (160, 140, 230)
WAY_COLOURS = {"heaven": (150, 170, 230), "honor": (230, 220, 150), "glory": (240, 150, 80),
               "strategy": (120, 200, 150), "terrain": (170, 140, 110)}
CHOICE_SIZE = 13
CHOICE_LINE = 17
ODDS_SIZE = 13
TRACK_H = 86
SAID = (150, 210, 250)  # the computer's last decision and the hint
SAID_SIZE = 12
SAID_LINE = 15
SAID_MOST = 4  # lines of the computer's line or the hint over the list
MORE_SIZE = 11  # the "3 more below" marker of a list that does not all fit
MORE_LINE = 15
NOTICE_SIZE = 11  # the shell's last message beside the battle-over buttons (the log out of sight)
NOTICE_W = 300
# the confirming button of a command that ends the battle for its force, by its kind or action
_ENDING_WORDS = {"surrender": "Surrender", "cede": "Cede victory", "flee": "Flee",
                 "entrapping_ground": "Entrapping Ground", "name_commander": "Nobody commands"}


def open_scene(app: Any, session: Any) -> Scene:
    return MassBoardScene(app, session)


@dataclass(frozen=True)
class ChoiceRow:
    """One choice as drawn: its index in the legal list, its wrapped lines and its box."""

    index: int
    lines: tuple[str, ...]
    rect: pygame.Rect


@dataclass(frozen=True)
class ListView:
    """The choices in sight (`rows`), how many are out of sight above and below them, and the
    list's whole area (markers and the scroll cue included)."""

    rows: list[ChoiceRow]
    above: int
    below: int
    area: pygame.Rect


def wrap_path(line: str, size: int, width: int) -> list[str]:
    """`line` in lines no wider than `width`, a file path too wide for one cut after a "/"
    ("/tmp/saves/" + "valley-wave03.yaml", not "valley-wave03.yam" + "l"); a piece still too wide
    is cut between letters, as `wrap_px` does."""
    f = font(size)
    out: list[str] = []
    now = ""
    for word in line.split(" "):
        pieces = [word] if f.size(word)[0] <= width else [x for x in word.replace("/", "/\0").split("\0") if x]
        for k, piece in enumerate(pieces):
            joined = now + (" " if now and k == 0 else "") + piece
            if now and f.size(joined)[0] > width:
                out.append(now)
                now = piece
            else:
                now = joined
    if now:
        out.append(now)
    return [cut for row in out for cut in wrap_px(row, size, width, indent="")]


def _ellipsis(line: str, size: int, width: int) -> str:
    """`line` with " ..." after it, words dropped from its end until it fits `width`."""
    words = line.rstrip().split(" ")
    while words:
        cut = " ".join(words) + " ..."
        if font(size).size(cut)[0] <= width:
            return cut
        words.pop()
    return "..."


def _fitted(label: str, width: int, sizes: tuple[int, ...] = (13, 12, 11)) -> tuple[str, int]:
    """An individual's line on a force card in one row: the largest size at which it fits whole
    (a commander's star with two tags, "* Kuni Taro (teishin) (shugenja)", is wider than the
    card's name column at 960x600; its first row alone dropped the tag), else its first row at
    the smallest."""
    for pt in sizes:
        rows = wrap_px(label, pt, width)
        if len(rows) == 1:
            return rows[0], pt
    return wrap_px(label, sizes[-1], width)[0], sizes[-1]


def _reason(what: str, why: str) -> str:
    """A computer's why without the choice's label in front (the log's why line names the choice,
    the line over the list has just said it: three lines, the reason last, cut at 960 wide)."""
    return why[len(what) + 2:] if why.startswith(what + ": ") else why


def _without_name(label: str, name: str) -> str:
    """A choice's label without its force's name in front (the line names the force already)."""
    return label[len(name) + 2:] if label.startswith(name + ": ") else label


def colour_of(s: Any, fid: str) -> tuple[int, int, int]:
    """The force's colour: its battle file's `colour:` (a campaign battle: its power's campaign
    colour), else the palette's for its place (game/core/palette.py)."""
    return force_colours(s.setup)[fid]


def command_label(system: Any, before: Any, cmd: Any, *, reveal: bool = False) -> str:
    """A command's line in the log, as the board words it: a sealed choice only says that it was
    made, unless `reveal` (the GM, or a replay after the rules announced it)."""
    if is_sealed(system, before, cmd) and not reveal:
        return f"{before.says(cmd.force, 'makes')} {before.agrees(cmd.force, 'its')} sealed choice"
    if isinstance(cmd, c.WrestCommand):
        return wrest_label(before, cmd)
    if str(getattr(cmd, "kind", "")).startswith("gm_"):
        return gm_label(before, cmd)
    return str(choices.label(before, cmd))


def gm_label(before: Any, cmd: Any) -> str:
    """A GM command in words (its event then says what it did)."""
    k = str(getattr(cmd, "kind", ""))
    if k == "gm_force_rolls":
        return "GM: the next die is set" if len(cmd.values) == 1 else f"GM: the next {len(cmd.values)} dice are set"
    if k == "gm_set_person":
        f = before.force_of(cmd.person)
        name = f.people[cmd.person].name if f is not None else cmd.person
        return f"GM: {name} is changed"
    if k == "gm_set_brutes":
        return f"GM: the Brutes of {before.forces[cmd.force].name if cmd.force in before.forces else cmd.force}"
    if k == "gm_set_advantage":
        name = before.forces[cmd.force].name if cmd.force in before.forces else cmd.force
        return f"GM: {possessive(name)} {cmd.way} Advantage"
    if k == "gm_honor":
        return "GM: a change of Honor"
    return "GM: " + k[3:].replace("_", " ")


def event_line(system: Any, state: Any, cmd: Any, event: Any, *, gm_eyes: bool = False) -> str:
    """An event of `cmd` in words, as a player may read it: the faces the GM forced for the next
    rolls only to `gm_eyes` (the board's log, the replay view, `python -m game replay`)."""
    if str(getattr(cmd, "kind", "")) == "gm_force_rolls" and not gm_eyes and getattr(event, "what", "") == "gm":
        n = len(cmd.values)
        faces = "the face of the next die is" if n == 1 else f"the faces of the next {n} dice are"
        return f"GM: {faces} the GM's (the rolls say GM-forced)"
    return str(system.describe_event(state, event))


def command_lines(system: Any, before: Any, cmd: Any, events: Any, *, reveal: bool = False,
                  gm_eyes: bool = False) -> tuple[list[tuple[str, tuple[int, int, int]]], list[str]]:
    """The log lines of a command played from `before` with its events, each with its colour (a
    sealed choice: only that it was made, unless `reveal`), and the casualties they told. The
    board's log and the replay view's step panel both word a command this way. The faces the GM
    forced for the next rolls are the GM's (the rules' `view` hides the queue from every side):
    only `gm_eyes` read them here; the rolls say "GM-forced" when they are made."""
    lines: list[tuple[str, tuple[int, int, int]]] = [("> " + command_label(system, before, cmd, reveal=reveal), GOLD)]
    new_cas: list[str] = []
    for e in events:
        line = event_line(system, before, cmd, e, gm_eyes=gm_eyes)
        colour = INK
        if getattr(e, "kind", "") == "rolled":
            colour = (200, 200, 240)
        elif getattr(e, "what", "") in ("way_won", "battle_end", "terrain"):
            colour = GOOD
        elif getattr(e, "what", "") in ("commander_lost", "obliterated", "defeated", "fled"):
            colour = BAD
        lines.append((line, colour))
        if getattr(e, "what", "") in ("casualties", "wounds"):
            new_cas.append(getattr(e, "text", line))
    return lines, new_cas


class MassBoardScene(Scene):
    name = "mass-board"
    game_scene = True  # a live game: the shell's save / load / quit, undo / redo and F1 help act on it
    # the board's own keys, for the F1 help (handle_event handles them); Esc, Ctrl+Z / Ctrl+Y are
    # the shell's (quit asking first, undo / redo)
    KEYS = (Binding((pygame.K_UP, pygame.K_DOWN), "Up / Down", "choose a command"),
            Binding((pygame.K_PAGEUP, pygame.K_PAGEDOWN), "PageUp / PageDown", "a page of commands"),
            Binding((pygame.K_RETURN, pygame.K_KP_ENTER), "Enter", "apply the chosen command (or hand the "
                    "screen on when a sealed choice is next); one that ends the battle for your force "
                    "(Surrender, Flee, ...) asks first"),
            Binding((pygame.K_w,), "W", "wrest command: someone of a force at the screen takes its command from "
                    "its leader (an Act of Vice; asks first)"),
            Binding((pygame.K_h,), "H", "hint: what the computer would choose for the force to decide, and why"),
            Binding((pygame.K_p,), "P", "players: who commands each force (Human, or the computer at a level); "
                    "once the battle has begun only the GM changes it"))

    def __init__(self, app: Any, session: Any) -> None:
        super().__init__(app)
        self.session = session
        self.system = session.system
        self.log: list[tuple[str, tuple[int, int, int]]] = []
        self.casualties: list[str] = []
        self.selected = 0
        self.scroll = 0
        self.message = ""
        # the force whose eyes are on the screen while a secret decision is open (None: the open
        # table); a hand-off due to `handoff_to` (pushed at the next update, or by the player's
        # Enter when `handoff_wait`: their roll is on the board to read first)
        self.viewer: str | None = None
        self.handoff_to: str | None = None
        self.handoff_wait = False
        self.handoffs = 0
        self.end_buttons: dict[Any, str] = {}
        # the shell's last message (saved to ..., not saved: ...), shown beside the battle-over
        # buttons when the summary covers the log
        self.notice: tuple[str, tuple[int, int, int]] | None = None
        self.summary_fits = True
        self.wrest_button: Any = None
        self.wrest_forces: list[str] = []  # the forces at the screen whose members may wrest command
        self.wrest_why: str | None = None  # why nobody of them may now (None: someone may)
        # computer forces (game/shell/seats.py): their decisions and the hint's, in a thread
        self.players = app.table.plugin_named(session.system.name).players
        self.thinker = Thinker(self.players, session.seed, seconds=lambda: app.settings.think_seconds)
        self._hint_for: str | None = None  # the force a hint is being thought for
        self._hint_over_list: str | None = None  # the force whose hint is the line over the list
        self.thinking: str | None = None  # the computer force whose decision is awaited
        self.last_said = ""  # what the computer last played, and why (over the list until a person plays)
        self.pace = PACE  # seconds at least between two computer commands (the people follow them)
        self._next_computer = 0.0  # (time.monotonic) when the next computer command may be played
        self.ui = app.make_ui()
        self._plan_handoff(rolled=False)
        self._refresh()
        self._build()
        self._intro()
        self._log_history()  # a loaded game: what was played before, with the computer's why lines

    # ------------------------------------------------------------------ set-up
    def _intro(self) -> None:
        lb = self.session.loaded
        note = getattr(lb, "note", "")
        self._say(f"{getattr(lb, 'name', 'Battle')}: {getattr(lb, 'description', '')}", GOLD)
        if note:
            self._say(note, DIM if "a battle" in note else BAD)
        setup = self.session.state.setup
        self._say(f"Ground: {setup.terrain}" + (f" ({setup.terrain_note})" if setup.terrain_note else ""), DIM)

    def _rects(self) -> dict[str, pygame.Rect]:
        w, h = self.app.screen.get_size()
        top = pygame.Rect(0, 0, w, 30)
        s = self.session.state
        people = max([1] + [len(f.people) for f in s.forces.values()])
        needed = 9 + 22 + 17 * people + 30 + 3 + 26 + 22 + 10  # a card's rows (_draw_card)
        forces = pygame.Rect(0, 30, w, max(150, min(int(h * 0.36), needed)))
        track = pygame.Rect(0, forces.bottom, w, TRACK_H)
        lower = h - track.bottom
        cmds = pygame.Rect(0, track.bottom, w * 3 // 8, lower)
        # in a small window the odds take a wider column and the log a narrower one
        odds = pygame.Rect(cmds.right, track.bottom, w * 5 // 16 if w >= 1200 else w * 3 // 8, lower - 50)
        log = pygame.Rect(odds.right, track.bottom, w - odds.right, lower)
        button = pygame.Rect(odds.x + 10, odds.bottom + 6, odds.w - 20, 38)
        # beside Apply, the Wrest command button (not while the screen waits to be handed on)
        wrest = pygame.Rect(0, 0, 0, 0)
        if not (self.handoff_to is not None and self.handoff_wait):
            part = button.w * (2 if w >= 1200 else 3) // (5 if w >= 1200 else 7)  # its label whole at 960
            wrest = pygame.Rect(button.right - part, button.y, part, button.h)
            button.w -= wrest.w + 8
        # the battle-over summary: beside the log, or over it too in a small window
        summary = pygame.Rect(0, track.bottom, odds.right if w >= 1200 else w, lower)
        return {"top": top, "forces": forces, "track": track, "cmds": cmds, "odds": odds, "log": log,
                "button": button, "wrest": wrest, "summary": summary}

    def _build(self) -> None:
        self.ui.clear_and_reset()
        r = self._rects()
        self.end_buttons = {}
        self.apply_button: Any = None
        self.wrest_button = None
        if self.over:
            reserve = NOTICE_W if self._log_covered() else 0  # room beside them for the shell's messages
            for rect, (key, label) in zip(end.button_rects(r["summary"], len(self._end_labels()), reserve),
                                          self._end_labels(), strict=True):
                self.end_buttons[Button(rect, label, self.ui)] = key
        else:
            self.apply_button = Button(r["button"], self._apply_label(), self.ui)
            if not self.legal and self.handoff_to is None:  # nothing for a person to apply (the computer decides)
                self.apply_button.disable()
            if r["wrest"].w:
                self.wrest_button = Button(r["wrest"], "Wrest command (W)", self.ui)
                if self.wrest_why is not None:
                    self.wrest_button.disable()

    def _apply_label(self) -> str:
        if self.handoff_to is not None and self.handoff_wait:
            return f"Hand the screen to {self.session.state.forces[self.handoff_to].name} (Enter)"
        return "Apply (Enter)"

    def _end_labels(self) -> list[tuple[str, str]]:
        out = []
        if self.session.return_to is not None:
            out.append(("back", self.session.return_label or "Back to the campaign"))
        return [*out, ("save", "Save"), ("new", "New battle"), ("quit", "Quit")]

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        self._build()

    @property
    def over(self) -> bool:
        return bool(self.session.state.stage == "ended")

    # ------------------------------------------------------------------ the rules' answers
    def _refresh(self) -> None:
        s = self.session.state
        seats: Seats = self.session.seats
        self.legal = [] if (self.handoff_to is not None) else list(self.system.legal_commands(s))
        # the computer's choices are its own: the list offers the people's
        self.legal = [c for c in self.legal if not seats.is_computer(getattr(c, "force", None))]
        if choices.secret(s) and self.viewer is not None:
            # a sealed decision: the screen offers only the choices of the force it was handed to
            self.legal = [c for c in self.legal if getattr(c, "force", self.viewer) == self.viewer]
        self.labels = [self._short(s, choices.label(s, c)) for c in self.legal]
        self.selected = min(self.selected, max(0, len(self.legal) - 1))
        self._preview()
        self._refresh_wrest()

    def _refresh_wrest(self) -> None:
        """Who at the screen may wrest command now, from the rules (`wrest_choices`), or why not."""
        s = self.session.state
        seats: Seats = self.session.seats
        self.wrest_forces = []
        if self.over:
            self.wrest_why = "the battle is over"
            return
        if self.handoff_to is not None:
            self.wrest_why = "the screen is to be handed on first"
            return
        people = [fid for fid in s.order if not seats.is_computer(fid)]
        if choices.secret(s) and self.viewer is not None:  # a sealed choice at the screen: only its force
            people = [fid for fid in people if fid == self.viewer]
        self.wrest_forces = [fid for fid in people if s.forces[fid].in_field]
        if not self.wrest_forces:
            self.wrest_why = "no force on the field is commanded at this screen"
            return
        if any(w.allowed for fid in self.wrest_forces for w in wrest_choices(s, fid)):
            self.wrest_why = None
            return
        common = {wrest_refusal(s, fid) for fid in self.wrest_forces}
        if len(common) == 1 and None not in common:
            self.wrest_why = str(common.pop())
        else:  # nobody able: each individual's reason
            self.wrest_why = "; ".join(str(w.refusal) for fid in self.wrest_forces for w in wrest_choices(s, fid))

    def _short(self, s: Any, label: str) -> str:
        """A choice's label without its force's name: the list's heading says whose choice it is."""
        for f in s.forces.values():
            if label.startswith(f.name + ": ") and self.legal and getattr(self.legal[0], "force", "") == f.id:
                rest = label[len(f.name) + 2:]
                return rest[:1].upper() + rest[1:]
        return label

    def _preview(self) -> None:
        self.odds_lines: list[str] = []
        if not self.legal:
            return
        p = self.system.preview(self.session.state, self.legal[self.selected])
        if p is not None:
            self.odds_lines = [getattr(p, "title", "")] + list(getattr(p, "lines", ()))

    def toast(self, text: str, seconds: float = 3.0) -> None:
        """A message from the shell (saved, loaded, refused): into the log, where it stays."""
        self._say(text, (255, 200, 120))
        self.notice = (text, (255, 200, 120))

    def notify(self, text: str, seconds: float, problem: bool) -> bool:
        """A shell message in its tone: a confirmation in the log's normal colour, a problem as a refusal."""
        self._say(text, BAD if problem else INK)
        self.notice = (text, BAD if problem else INK)
        return True

    def _log_covered(self) -> bool:
        """The battle is over and its summary lies over the log (a small window)."""
        r = self._rects()
        return self.over and r["summary"].colliderect(r["log"])

    def notice_rect(self) -> pygame.Rect:
        """Where the shell's last message is drawn while the summary covers the log: beside the
        summary's buttons (a save's place, a refusal: read there, not in a log out of sight)."""
        box = self._rects()["summary"].inflate(-8, -8)
        last = max((b.rect.right for b in self.end_buttons), default=box.x)
        return pygame.Rect(last + 12, box.bottom - end.BUTTON_H - 8, box.right - 12 - (last + 12), end.BUTTON_H + 4)

    def after_change(self) -> None:
        """The shell's undo / redo changed the state: the board's lists follow it."""
        self.selected = 0
        self.scroll = 0
        self.handoff_to = None
        self._plan_handoff(rolled=False)
        self._refresh()
        self._build()

    def _say(self, line: str, colour: tuple[int, int, int] = INK) -> None:
        self.log.append((line, colour))
        self.log = self.log[-300:]

    # ------------------------------------------------------------------ hand-offs
    def _plan_handoff(self, rolled: bool) -> None:
        """After every change: whether the screen must pass, hidden, to another force."""
        s = self.session.state
        seats: Seats = self.session.seats
        movers = [m for m in self.system.to_move(s) if not seats.is_computer(m)]  # the people to decide
        if not movers or not choices.secret(s):
            self.viewer = None  # open choices: the whole table looks at the board
            return
        if not getattr(self.app.settings, "blackout", True) or len(seats.humans(list(s.forces))) < 2:
            self.viewer = movers[0]  # a GM at the table, or one person (nobody to hide from): no hiding
            return
        if self.viewer in movers:
            return  # the force at the screen still has its own sealed choice to make
        self.handoff_to = movers[0]
        self.handoff_wait = rolled and self.viewer is None  # let the table read the roll first

    def _hand_off(self) -> None:
        side = self.handoff_to
        if side is None:
            return
        s = self.session.state
        self.handoff_to = None
        self.handoff_wait = False
        self.viewer = side
        self.handoffs += 1
        if self._hint_over_list not in (None, side):  # another force's hint is not shown to this one
            self.last_said = ""
            self._hint_over_list = None
        self.app.push(HandoffScene(self.app, s.forces[side].name, colour_of(s, side),
                                   f"{s.says(side, 'makes')} a sealed choice; the other commanders look away."))
        self._refresh()
        self._build()

    # ------------------------------------------------------------------ wresting command
    def wrest(self) -> None:
        """W or the button: the list of who may take command (then a confirmation), or why nobody may."""
        if self.over:
            return
        if self.wrest_why is not None:
            self.message = f"Wrest command: not now - {self.wrest_why}"
            self._say(self.message, BAD)
            return
        s = self.session.state
        self.app.push(WrestScene(self.app, s, self.wrest_forces, {fid: colour_of(s, fid) for fid in s.order},
                                 self._wrest_confirmed))

    def _wrest_confirmed(self, cmd: c.WrestCommand) -> None:
        if self._play(cmd):
            self.last_said = ""

    # ------------------------------------------------------------------ input
    def choose(self, index: int) -> None:
        if not self.legal:
            return
        self.selected = max(0, min(len(self.legal) - 1, index))
        if self.selected < self.scroll:
            self.scroll = self.selected
        else:
            while self.scroll < self.selected and all(row.index != self.selected for row in self.command_rows()):
                self.scroll += 1
        self._preview()

    def page(self, direction: int) -> None:
        """PageDown (`direction` 1) / PageUp (-1): the list moves a whole page, the row at the edge
        it moves towards staying in sight as the other edge's row (one line of context); the
        selection moves as far as the list, keeping its place in the box. With nothing more that
        way, the selection goes to the first / last choice. (It scrolled only enough to show the
        choice a page's count of rows on, so a page moved by a row or two.)"""
        if not self.legal:
            return
        rows = self.command_rows()
        first, last = rows[0].index, rows[-1].index
        if direction > 0:
            if self.list_view().below == 0:
                self.choose(len(self.legal) - 1)
                return
            scroll = min(self._last_scroll(), max(last, first + 1))
        else:
            if first == 0:
                self.choose(0)
                return
            scroll = first - 1  # the furthest back the list starts with `first` still its last row
            while scroll > 0 and self._shows_from(scroll - 1, first):
                scroll -= 1
        moved = scroll - self.scroll
        self.scroll = scroll
        shown = [r.index for r in self.command_rows()]
        self.selected = max(shown[0], min(shown[-1], self.selected + moved))
        self._preview()

    def _shows_from(self, scroll: int, index: int) -> bool:
        """Whether the list scrolled to `scroll` shows the choice `index`."""
        was, self.scroll = self.scroll, scroll
        try:
            return any(r.index == index for r in self.command_rows())
        finally:
            self.scroll = was

    def apply_selected(self) -> None:
        if self.handoff_to is not None:
            self._hand_off()
            return
        if not self.legal:
            return
        cmd = self.legal[self.selected]
        ends = choices.ends_own_battle(self.session.state, cmd)
        if ends:  # it ends the battle for the person's own force and cannot be taken back: asked first
            self.app.push(self._ending_dialog(cmd, ends))
            return
        self._play_person(cmd)

    def _play_person(self, cmd: Any) -> None:
        if self._play(cmd):
            self.last_said = ""

    def _ending_dialog(self, cmd: Any, ends: str) -> DialogScene:
        """The question before a command that ends the battle for the person's own force
        (`choices.ends_own_battle`: Surrender, Cede, Flee, ...): what it does, "<it> (Y)" and
        "Keep fighting (N)" (or Esc)."""
        s = self.session.state
        name = s.forces[cmd.force].name
        what = _ENDING_WORDS.get(str(getattr(cmd, "action", "") or cmd.kind), "End the battle")
        keep = Choice("Keep fighting (N)", None, pygame.K_n)
        w, h = self.app.screen.get_size()
        return DialogScene(self.app, f"End the battle for {name}?",
                           styled(ends, "\n", Span("It cannot be taken back.", bold=True)),
                           [Choice(f"{what} (Y)", lambda: self._play_person(cmd), pygame.K_y, primary=True), keep],
                           size=(min(600, w - 40), min(220, h - 40)), cancel=keep, name="confirm_ending")

    def _log_command(self, before: Any, cmd: Any, events: Any) -> list[str]:
        """The log lines of a command played from `before` and its events (a sealed choice: only
        that it was made); returns the casualties it told."""
        lines, new_cas = command_lines(self.system, before, cmd, events)
        for line, colour in lines:
            self._say(line, colour)
        return new_cas

    def _log_history(self) -> None:
        """The commands played before the board opened (a loaded save's), as they were logged,
        each with the computer's why line when the save kept one (Seats.why_of)."""
        for step in self.session.history:
            new_cas = self._log_command(step.before, step.command, step.events)
            if new_cas and getattr(step.command, "kind", "") == "resolve_wave":
                self.casualties = new_cas  # the last Wave's, as the board showed them
            why = self.session.seats.why_of(step)
            if why is not None:
                self._say(why, DIM)

    def _play(self, cmd: Any, why: str | None = None, *, gm: bool = False) -> bool:
        """Apply a command through the session and log it with its events; `why`: a computer
        force's why line, logged after them (a sealed choice's once every force has chosen);
        `gm`: made in GM mode (gm.py: the record marks it the GM's)."""
        before = self.session.state
        ok, events, reason = self.session.apply(cmd, gm=gm)
        if not ok:
            self.message = reason or "refused"
            if not gm:  # (a GM command the rules refuse is said in GM mode's dialog and panel: the log is every player's)
                self._say(f"refused: {reason}", BAD)
            return False
        self.message = ""
        sealed = is_sealed(self.system, before, cmd)
        new_cas = self._log_command(before, cmd, events)
        if new_cas and getattr(cmd, "kind", "") == "resolve_wave":
            self.casualties = new_cas
        seats: Seats = self.session.seats
        held = sealed and choices.secret(self.session.state)  # (the last appointment: announced at once)
        if why is not None:
            seats.note_why(self.session.history[-1], why, sealed=held)
        if seats.held and not choices.secret(self.session.state):
            for line in seats.unseal():  # the appointments are announced: why each was made
                self._say(line, DIM)
        if why is not None and not held:
            self._say(why, DIM)
        self.selected = 0
        self.scroll = 0
        self._plan_handoff(rolled=bool(self.system.rolls(events)))
        self._refresh()
        if self.over:
            self._say("The battle is over: its summary is on the board, with Save, New battle and Quit.", GOLD)
            self.notice = None  # (beside the summary's buttons: only what is said from now on)
        self._build()
        actions.after_change(self)  # the autosave at each new Wave
        return True

    # ------------------------------------------------------------------ computer forces
    def _computer_turn(self) -> None:
        """A computer force the rules wait for decides (a thread: nothing until it has), then its
        command plays through the session as a person's would, with its why line."""
        seats: Seats = self.session.seats
        s = self.session.state
        waiting = [m for m in self.system.to_move(s) if seats.is_computer(m)]
        self.thinking = waiting[0] if waiting else None
        if not waiting:
            return
        force = waiting[0]
        level = seats.level(force) or ""
        if time.monotonic() < self._next_computer:
            return
        try:
            timed = self.thinker.poll(self.system, s, force, level)
        except Exception as exc:  # a player's bug must not take the window down: the force goes back to a person
            self._to_person(force, f"its computer player failed ({exc})")
            return
        if timed is None:
            return
        cmd, why = timed.decision.command, timed.decision.why
        name = s.forces[force].name
        sealed = is_sealed(self.system, s, cmd)
        what = "makes its sealed choice" if sealed else _without_name(choices.label(s, cmd), name)
        if not self._play(cmd, why_line(level, name, why)):
            self._to_person(force, "the rules refused its computer's command")
            return
        self.message = ""
        self.last_said = said(level, name, what, _reason(what, why), sealed=sealed and choices.secret(self.session.state))
        self._next_computer = time.monotonic() + self.pace

    def _to_person(self, force: str, why: str) -> None:
        self.session.seats.set(force, None)
        self._say(f"{self.session.state.says(force, 'is')} commanded at the screen again: {why}.", BAD)
        self._refresh()
        self._build()

    def players_dialog(self) -> None:
        """P: who commands each force, Human or the computer at a level (anyone before the
        battle has begun; after, the GM)."""
        if not self.players:
            self._say("These rules have no computer players.", BAD)
            return
        s = self.session.state
        sides = [(fid, s.forces[fid].name) for fid in s.order]
        rule = SeatRule(started=bool(self.session.history))  # then the GM's (the shell adds the GM passphrase: scenes/seats.py)
        self.app.push(seats_dialog(self.app, self.session.seats, sides, levels_of(self.players),
                                   self._seats_changed, rule))

    def _seats_changed(self) -> None:
        self.thinker.forget()
        self.after_change()

    def hint(self) -> None:
        """H: what the computer would choose for the force whose choices are listed, and why."""
        level = hint_level(self.players)
        force = getattr(self.legal[0], "force", None) if self.legal else None
        if level is None or force is None or self.handoff_to is not None:
            self._say("No hint: no person's choice is waiting.", DIM)
            return
        self._hint_for = force
        self._say("Thinking of a hint...", DIM)

    def _poll_hint(self) -> None:
        force = self._hint_for
        if force is None:
            return
        s = self.session.state
        if force not in self.system.to_move(s) or self.session.seats.is_computer(force):
            self._hint_for = None  # the choice it was for has passed
            return
        level = hint_level(self.players) or ""
        try:
            timed = self.thinker.poll(self.system, s, force, level, slot="hint")
        except Exception as exc:
            self._hint_for = None
            self._say(f"No hint: the computer player failed ({exc}).", BAD)
            return
        if timed is None:
            return
        self._hint_for = None
        cmd = timed.decision.command
        name = s.forces[force].name
        what = _without_name(choices.label(s, cmd), name)
        why = _reason(what, timed.decision.why)
        # a why that only says the choice again ("roll Heaven ... Why: roll Heaven ...") is left out
        because = "" if why.strip().rstrip(".").lower() == what.strip().rstrip(".").lower() else f" Why: {why}"
        self.last_said = f"Hint ({level}) for {name}: {what}.{because}"
        self._hint_over_list = force
        if not (choices.secret(s) and is_sealed(self.system, s, cmd)):
            self._say(self.last_said, SAID)  # (a sealed choice's hint stays off the log every force reads)
        if cmd in self.legal:  # the hinted choice is the one chosen in the list (Enter plays it)
            self.choose(self.legal.index(cmd))

    def wants_frames(self) -> bool:
        return super().wants_frames() or self.thinker.busy() or self.thinker.busy("hint") \
            or self.thinking is not None

    def _end_action(self, key: str) -> None:
        if key == "back" and self.session.return_to is not None:
            self.session.return_to(self)
        elif key == "save":
            actions.save_new_action(self)
        elif key == "new":
            self.new_battle()
        elif key == "quit":
            actions.request_quit(self.app)

    def new_battle(self) -> None:
        """The same battle again from its set-up, with the next dice seed; with moves since the
        last save, the shell asks first (Save and restart / Restart / Back: `actions.ask_restart`)."""
        loaded = self.session.loaded
        if loaded is None:
            self._say("This battle has no set-up file to start again from", BAD)
            return
        actions.ask_restart(self, self._start_new_battle)  # unsaved play is not thrown away without asking

    def _start_new_battle(self) -> None:
        loaded = self.session.loaded
        plugin = self.app.table.plugin_of_loaded(loaded)
        fresh = session_for(plugin, loaded, seed=self.session.seed + 1)
        # the same people and computers, the GM's passphrase, the way back to a campaign it came from
        self.app.replace(MassBoardScene(self.app, actions.restarted(self.session, fresh)))

    def handle_event(self, event: pygame.event.Event) -> None:
        self.ui.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.apply_button:
                self.apply_selected()
            elif event.ui_element is self.wrest_button:
                self.wrest()
            elif event.ui_element in self.end_buttons:
                self._end_action(self.end_buttons[event.ui_element])
        elif event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and not self.over:
                self.apply_selected()
            elif event.key == pygame.K_DOWN:
                self.choose(self.selected + 1)
            elif event.key == pygame.K_UP:
                self.choose(self.selected - 1)
            elif event.key == pygame.K_PAGEDOWN:
                self.page(1)
            elif event.key == pygame.K_PAGEUP:
                self.page(-1)
            elif event.key == pygame.K_p:
                self.players_dialog()
            elif event.key == pygame.K_h and not self.over:
                self.hint()
            elif event.key == pygame.K_w and not (event.mod & pygame.KMOD_CTRL) and not self.over:
                self.wrest()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.wrest_button is not None and self.wrest_why is not None \
                    and self.wrest_button.rect.collidepoint(event.pos):
                self.wrest()  # the disabled button says why it is disabled
            for row in self.command_rows():
                if row.rect.collidepoint(event.pos):
                    self.choose(row.index)
        elif event.type == pygame.MOUSEWHEEL and self.legal:
            self.scroll = max(0, min(self._last_scroll(), self.scroll - event.y))

    def update(self, dt: float) -> None:
        if self.handoff_to is not None and not self.handoff_wait and self.app.scenes.top is self:
            self._hand_off()
        if self.over:
            self.thinking = None  # (nobody decides any more: the window may rest)
        elif self.app.scenes.top is self and self.handoff_to is None:
            self._computer_turn()
        self._poll_hint()
        self.ui.update(dt)

    def update_covered(self, dt: float) -> None:
        self._poll_hint()

    # ------------------------------------------------------------------ the choices' layout
    def command_rows(self) -> list[ChoiceRow]:
        """The choices drawn from `scroll` on, each wrapped to the box (never cut)."""
        return self.list_view().rows

    def list_view(self) -> ListView:
        """The choices drawn from `scroll` on, and how many lie above and below them: when some are
        out of sight, a marker line says so at the top or bottom of the list ("3 more below")."""
        if self.over:
            return ListView([], 0, 0, pygame.Rect(0, 0, 0, 0))
        box = self._rects()["cmds"].inflate(-8, -8)
        width = box.w - 20
        top = box.y + 28 + SAID_LINE * len(self._said_lines(width))
        bottom = box.bottom - 6 - 15 * len(self._message_lines(width))
        y = top + (MORE_LINE if self.scroll > 0 else 0)
        rows = self._rows_from(self.scroll, y, bottom)
        if self.scroll + len(rows) < len(self.legal):  # some below: their marker takes the last line
            rows = self._rows_from(self.scroll, y, bottom - MORE_LINE)
        below = len(self.legal) - self.scroll - len(rows)
        return ListView(rows, self.scroll, below, pygame.Rect(box.x, top, box.w, bottom - top))

    def _rows_from(self, first: int, y: int, bottom: int) -> list[ChoiceRow]:
        """The choices from `first` on that fit between `y` and `bottom` (always at least one)."""
        box = self._rects()["cmds"].inflate(-8, -8)
        rows: list[ChoiceRow] = []
        for i in range(first, len(self.legal)):
            lines = tuple(wrap_px(self.labels[i], CHOICE_SIZE, box.w - 20))
            h = CHOICE_LINE * len(lines) + 3
            if y + h > bottom and rows:
                break
            rows.append(ChoiceRow(i, lines, pygame.Rect(box.x + 4, y, box.w - 8, h)))
            y += h
        return rows

    def _last_scroll(self) -> int:
        """The furthest the list scrolls: its last choice at the bottom, no empty space under it."""
        scroll, self.scroll = self.scroll, 0
        try:
            for first in range(len(self.legal)):
                self.scroll = first
                if self.list_view().below == 0:
                    return first
            return max(0, len(self.legal) - 1)
        finally:
            self.scroll = scroll

    def _message_lines(self, width: int) -> list[str]:
        """A refusal under the list, wrapped (at most two lines; the log has it whole)."""
        return wrap_px(self.message, 12, width)[:2] if self.message else []

    def _said_lines(self, width: int) -> list[str]:
        """What the computer last played, or the hint, wrapped over the list: at most four lines,
        the fourth ending in "..." when more was cut (a sealed appointment's hint is not in the
        log to read whole)."""
        lines = wrap_px(self.last_said, SAID_SIZE, width) if self.last_said else []
        if len(lines) > SAID_MOST:
            lines = lines[:SAID_MOST - 1] + [_ellipsis(lines[SAID_MOST - 1], SAID_SIZE, width)]
        return lines

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BG)
        r = self._rects()
        s = self.session.state
        self._draw_top(surface, r["top"], s)
        self._draw_forces(surface, r["forces"], s)
        self._draw_track(surface, r["track"], s)
        if self.over:
            self.summary_fits = end.draw_summary(surface, r["summary"], self.session, self.system)
        else:
            self._draw_commands(surface, r["cmds"], s)
            self._draw_odds(surface, r["odds"])
        if not (self.over and r["summary"].colliderect(r["log"])):
            self._draw_log(surface, r["log"])
        elif self.notice is not None:
            self._draw_notice(surface)
        self.ui.draw_ui(surface)

    def _draw_top(self, surface: pygame.Surface, rect: pygame.Rect, s: Any) -> None:
        pygame.draw.rect(surface, PANEL, rect)
        summ = self.system.summary(s)
        movers = self.system.to_move(s)
        who = ", ".join(s.forces[m].name for m in movers) if movers else "-"
        line = (f"{s.setup.name}  |  {s.setup.terrain.title()} ground  |  Wave {s.wave}  |  {summ['phase']}"
                f"  |  deciding: {who}")
        if s.stage == "ended":
            line = f"{s.setup.name}  |  battle over: " + (
                f"{s.says(s.winner, 'wins')} ({s.end_reason})" if s.winner else f"no victor ({s.end_reason})")
        surface.blit(text(wrap_px(line, 15, rect.w - 20, True)[0], 15, GOLD, True), (10, rect.y + 7))

    def _draw_forces(self, surface: pygame.Surface, rect: pygame.Rect, s: Any) -> None:
        n = len(s.order)
        w = rect.w // n
        top_total = max([1] + [f.total() for f in s.forces.values()])
        for i, fid in enumerate(s.order):
            f = s.forces[fid]
            box = pygame.Rect(rect.x + i * w + 6, rect.y + 6, w - 12, rect.h - 10)
            self._draw_card(surface, box, s, f, colour_of(s, fid), top_total)

    def _draw_card(self, surface: pygame.Surface, box: pygame.Rect, s: Any, f: Any,
                   colour: tuple[int, int, int], top_total: int) -> None:
        pygame.draw.rect(surface, PANEL, box, border_radius=6)
        pygame.draw.rect(surface, colour, pygame.Rect(box.x, box.y, box.w, 5), border_top_left_radius=6,
                         border_top_right_radius=6)
        old_clip = surface.get_clip()
        surface.set_clip(box)
        y = box.y + 9
        status = "" if f.in_field else f"  [{f.status}]"
        fighting = text(f"{size(s.rules, f)} fighting", 13, DIM)
        name_w = box.w - 24 - fighting.get_width()
        surface.blit(text(wrap_px(f"{f.name}{status}", 15, name_w, True)[0], 15, colour, True), (box.x + 10, y))
        surface.blit(fighting, (box.right - 10 - fighting.get_width(), y + 2))
        y += 22
        # individuals: name (tags once), Wounds as a bar on the wound track, Void points as pips
        name_w = int(box.w * 0.40)
        bar_x = box.x + 10 + name_w + 6
        bar_w = int(box.w * 0.30)
        void_x = bar_x + bar_w + 8
        for p in f.people.values():
            mark = "* " if p.id == f.commander else ""
            label, pt = _fitted(mark + choices.person_label(p), name_w)
            gone = p.fled or level_name(s.rules, p) in ("Down", "Out", "Dead")
            surface.blit(text(label, pt, BAD if gone else INK), (box.x + 10, y + (13 - pt) // 2))
            self._wound_bar(surface, pygame.Rect(bar_x, y + 2, bar_w, 13), s, p)
            self._void_pips(surface, pygame.Rect(void_x, y + 2, box.right - 10 - void_x, 13), p)
            y += 17
        parts = [f"{d.count} {d.armour}" for d in f.brutes]
        brutes = "Brutes: " + (", ".join(parts) if parts else "none")
        if f.brutes_wounded:
            brutes += f"  (out: {f.brutes_wounded} wounded, {f.brutes_killed} of them dead)"
        for chunk in wrap_px(brutes, 12, box.w - 20)[:2]:
            surface.blit(text(chunk, 12, DIM), (box.x + 10, y + 1))
            y += 15
        y += 3
        # the Advantage of each Way: five short bars in a row, then the total
        ways = ("heaven", "honor", "glory", "strategy", "terrain")
        cell = (box.w - 20) // len(ways)
        for k, way in enumerate(ways):
            v = f.advantage.get(way, 0)
            x = box.x + 10 + k * cell
            surface.blit(text(f"{way.title()} {v}", 12, DIM), (x, y))
            pygame.draw.rect(surface, TROUGH, pygame.Rect(x, y + 16, cell - 8, 6))
            pygame.draw.rect(surface, WAY_COLOURS[way], pygame.Rect(x, y + 16, int((cell - 8) * v / top_total), 6))
        y += 26
        tot = f.total()
        surface.blit(text(f"Advantage {tot}", 13, GOLD, True), (box.x + 10, y))
        tx = box.x + 110
        pygame.draw.rect(surface, TROUGH, pygame.Rect(tx, y + 3, box.right - 10 - tx, 11))
        pygame.draw.rect(surface, colour, pygame.Rect(tx, y + 3, int((box.right - 10 - tx) * tot / top_total), 11))
        surface.set_clip(old_clip)

    def _wound_bar(self, surface: pygame.Surface, rect: pygame.Rect, s: Any, p: Any) -> None:
        """Wounds taken against the whole wound track (to dead), with the level's name on it."""
        earth = p.stats.rings.earth
        track = sum(lvl.earth_times * earth for lvl in s.rules.wound_levels) or 1
        frac = min(1.0, p.wounds / track)
        idx = level_index(s.rules, p)
        colour = GOOD if idx == 0 else ((230, 190, 90) if level_name(s.rules, p) not in ("Down", "Out", "Dead")
                                        else BAD)
        pygame.draw.rect(surface, TROUGH, rect, border_radius=3)
        pygame.draw.rect(surface, colour, pygame.Rect(rect.x, rect.y, max(2, int(rect.w * frac)), rect.h),
                         border_radius=3)
        lvl = "fled" if p.fled else level_name(s.rules, p)
        # past the end of the track (the dead): the Wounds taken, not an impossible "57/38"
        words = f"{lvl} {p.wounds}/{track}" if p.wounds <= track else f"{lvl}, {counted(p.wounds, 'Wound', 'Wounds')}"
        label = outlined(words, 11, INK, False)  # readable on the bar and off it
        surface.blit(label, (rect.x + 3, rect.y - 1))

    def _void_pips(self, surface: pygame.Surface, rect: pygame.Rect, p: Any) -> None:
        """Void points: one pip each, filled while unspent."""
        most = max(p.stats.max_void_points, p.void_left)
        if most <= 0 or rect.w <= 0:
            return
        pip = max(4, min(12, (rect.w - 2) // most - 2))
        for k in range(most):
            r = pygame.Rect(rect.x + k * (pip + 2), rect.y + (rect.h - pip) // 2, pip, pip)
            if r.right > rect.right:
                break
            pygame.draw.rect(surface, VOID, r, width=0 if k < p.void_left else 1, border_radius=2)

    def _draw_track(self, surface: pygame.Surface, rect: pygame.Rect, s: Any) -> None:
        pygame.draw.rect(surface, PANEL, rect)
        left = 150
        cell = (rect.w - left - 10) // 10
        surface.blit(text("Phases", 13, DIM, True), (rect.x + 10, rect.y + 4))
        for i, fid in enumerate(s.order):  # the legend: each force's colour
            y = rect.y + 22 + i * 15
            pygame.draw.rect(surface, colour_of(s, fid), pygame.Rect(rect.x + 10, y + 2, 10, 10), border_radius=2)
            surface.blit(text(wrap_px(s.forces[fid].name, 12, left - 30)[0], 12, INK), (rect.x + 26, y))
        for ph in range(1, 11):
            x = rect.x + left + (ph - 1) * cell
            now = s.stage == "phases" and s.phase == ph
            pygame.draw.rect(surface, (70, 64, 40) if now else (40, 43, 50), pygame.Rect(x, rect.y + 4, cell - 4, 60),
                             border_radius=4)
            surface.blit(text(str(ph), 13, GOLD if now else DIM, True), (x + 4, rect.y + 5))
            past = s.stage == "phases" and ph < s.phase
            for i, fid in enumerate(s.order):
                f = s.forces[fid]
                # a die held past its Phase is drawn once: as an outline in the Phase now, not
                # also as a square in the Phase it has left
                count = 0 if past else sum(1 for d in f.dice if d == ph)
                held = sum(1 for d in f.dice if d < ph) if now else 0
                for k in range(count + held):
                    sq = pygame.Rect(x + 20 + k * 13, rect.y + 8 + i * 14, 10, 10)
                    if sq.right > x + cell - 6:
                        break
                    pygame.draw.rect(surface, colour_of(s, fid), sq, width=0 if k < count else 2, border_radius=2)
        legend = ("a square: one action die of that force, its Battle Action in that Phase; an outline: a die "
                  "held from an earlier Phase; gold: the Phase now")
        surface.blit(text(wrap_px(legend, 11, rect.w - left - 20)[0], 11, DIM), (rect.x + left, rect.y + 68))

    def _draw_commands(self, surface: pygame.Surface, rect: pygame.Rect, s: Any) -> None:
        box = rect.inflate(-8, -8)
        pygame.draw.rect(surface, PANEL, box, border_radius=6)
        movers = self.system.to_move(s)
        if self.handoff_to is not None:
            head = f"Next: a sealed choice for {s.forces[self.handoff_to].name}"
        elif not self.legal and self.thinking is not None:
            head = f"Computer ({self.session.seats.level(self.thinking)}): {s.forces[self.thinking].name}"
        elif not self.legal:
            head = "No decision waiting"
        else:
            fid = getattr(self.legal[0], "force", movers[0] if movers else "")
            head = s.says(fid, "decides") if fid in s.forces else "Choices"  # ("Hida Jo's army's choice" read badly)
            if choices.secret(s):
                head += " (sealed)"
        surface.blit(text(wrap_px(head, 14, box.w - 20, True)[0], 14, GOLD, True), (box.x + 10, box.y + 6))
        for k, line in enumerate(self._said_lines(box.w - 20)):
            surface.blit(text(line, SAID_SIZE, SAID), (box.x + 10, box.y + 26 + k * SAID_LINE))
        view = self.list_view()
        for row in view.rows:
            sel = row.index == self.selected
            if sel:
                pygame.draw.rect(surface, (60, 56, 40), row.rect, border_radius=3)
            for k, line in enumerate(row.lines):
                surface.blit(text(line, CHOICE_SIZE, GOLD if sel else INK), (row.rect.x + 6, row.rect.y + 1 + k * CHOICE_LINE))
        self._draw_more(surface, view)
        lines = self._message_lines(box.w - 20)
        for k, line in enumerate(lines):
            surface.blit(text(line, 12, BAD), (box.x + 10, box.bottom - 5 - 15 * (len(lines) - k)))

    def _draw_more(self, surface: pygame.Surface, view: ListView) -> None:
        """When the list does not all fit: a marker line above and below the choices in sight
        ("2 more choices above: ...", "5 more choices below: ...", each with a small arrow) and,
        down the list's right edge, a scroll cue: a thin trough with the part in sight lit."""
        if not (view.above or view.below):
            return
        area = view.area
        marks = []
        if view.above:
            n = counted(view.above, "more choice", "more choices")
            marks.append((area.y, -1, (f"{n} above: Up / PageUp or the wheel", f"{n} above")))
        if view.below:
            last = view.rows[-1].rect.bottom if view.rows else area.y
            n = counted(view.below, "more choice", "more choices")
            marks.append((last + 1, 1, (f"{n} below: Down / PageDown or the wheel", f"{n} below")))
        for y, way, words in marks:
            # the keys too when they fit on the line, else the count alone (never cut)
            label = next((w for w in words if len(wrap_px(w, MORE_SIZE, area.w - 44)) == 1), words[-1])
            x, mid = area.x + 14, y + MORE_LINE // 2
            tip, base = (mid - 4, mid + 3) if way < 0 else (mid + 4, mid - 3)
            pygame.draw.polygon(surface, GOLD, [(x - 5, base), (x + 5, base), (x, tip)])
            surface.blit(text(label, MORE_SIZE, GOLD), (x + 10, y))
        trough = pygame.Rect(area.right - 7, area.y + 2, 3, area.h - 4)
        total = len(self.legal)
        pygame.draw.rect(surface, TROUGH, trough, border_radius=1)
        lit_top = trough.y + trough.h * view.above // total
        lit_h = max(6, trough.h * len(view.rows) // total)
        pygame.draw.rect(surface, DIM, pygame.Rect(trough.x, min(lit_top, trough.bottom - lit_h), trough.w, lit_h),
                         border_radius=1)

    def _draw_odds(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        box = rect.inflate(-8, -8)
        pygame.draw.rect(surface, PANEL, box, border_radius=6)
        y = box.y + 6
        surface.blit(text("Exact odds before you choose", 14, GOLD, True), (box.x + 10, y))
        y += 22
        width = box.w - 20
        size = ODDS_SIZE if surface.get_width() >= 1200 else ODDS_SIZE - 1
        lines: list[tuple[str, int, tuple[int, int, int], bool]] = []
        for k, line in enumerate(self.odds_lines):
            lines += [(chunk, size, GOLD if k == 0 else INK, k == 0)
                      for chunk in wrap_px(line, size, width, k == 0)]
        if self.casualties:
            lines.append(("", 6, DIM, False))
            lines.append(("Last Wave's casualties", 13, GOLD, True))
            for line in self.casualties:
                lines += [(chunk, 12, DIM, False) for chunk in wrap_px(line, 12, width)]
        for k, (chunk, sz, colour, bold) in enumerate(lines):
            if y + sz + 4 > box.bottom - (4 if k == len(lines) - 1 else 18):
                # what does not fit is said, not silently dropped (the window is too small for it)
                left = sum(1 for x in lines[k:] if x[0])
                surface.blit(text(f"... {counted(left, 'more line', 'more lines')}: a larger window shows them", 11, DIM), (box.x + 10, y))
                break
            surface.blit(text(chunk, sz, colour, bold), (box.x + 10, y))
            y += sz + 3

    def _draw_notice(self, surface: pygame.Surface) -> None:
        """The shell's last message beside the battle-over buttons, wrapped to their height."""
        if self.notice is None:
            return
        words, colour = self.notice
        area = self.notice_rect()
        lines = wrap_path(words, NOTICE_SIZE, area.w)
        most = max(1, area.h // (NOTICE_SIZE + 2))
        if len(lines) > most:  # (never cut silently: the last line that fits says so)
            lines = lines[:most - 1] + [wrap_px(lines[most - 1].strip() + " ...", NOTICE_SIZE, area.w)[0]]
        y = area.y + (area.h - len(lines) * (NOTICE_SIZE + 2)) // 2
        for line in lines:
            surface.blit(text(line, NOTICE_SIZE, colour), (area.x, y))
            y += NOTICE_SIZE + 2

    def _draw_log(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        box = rect.inflate(-8, -8)
        pygame.draw.rect(surface, PANEL, box, border_radius=6)
        surface.blit(text("Battle log", 14, GOLD, True), (box.x + 10, box.y + 6))
        width = box.w - 20
        rows = (box.h - 34) // 15
        lines: list[tuple[str, tuple[int, int, int]]] = []
        for line, colour in reversed(self.log):  # wrap only what fits, newest last
            lines[:0] = [(chunk, colour) for chunk in wrap_px(line, 12, width)]
            if len(lines) >= rows:
                break
        y = box.y + 28
        for line, colour in lines[-rows:]:
            surface.blit(text(line, 12, colour), (box.x + 10, y))
            y += 15
