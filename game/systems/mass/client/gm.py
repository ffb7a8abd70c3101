"""GM mode (F2) of the mass battle: the game master's tools over the battle board, marked by a
gold frame and a "GM MODE" banner. The force cards, the Phase track and the log stay in view;
the GM's panel covers the choices and the odds while it is open.

Everything the GM does is one of the rules' GM commands (rules/commands.py, handled in
rules/engine.py) played through the board (`MassBoardScene._play(..., gm=True)`), so it is
logged in the board's log, saved, replayed and undone like any other command:

- the next rolls (`GmForceRolls`): type die faces (e.g. "10 10 3") and Queue, or click 1-10 for
  one die; the queue still waiting is shown ("Queued: ..."), oldest first; Ctrl+Z takes a
  queueing back;
- an individual (choose with < >): Wounds, Void points and status (`GmSetPerson`), and Honor
  with its reason (`GmHonor`), each in a dialog;
- a force (choose with < >): its Brutes by armour (`GmSetBrutes`) and the Advantage of each Way
  (`GmSetAdvantage`), in dialogs.

A dialog checks that each field is a whole number (or an armour the rules know) and says so by
the field; what the rules refuse is said as the rules say it ("Refused by the rules: ..."), and
the dialog stays open to be put right. Undo (Ctrl+Z) and Redo (Ctrl+Y) take back anything, dice
included, as in the tactical GM mode. While GM mode is open the battle waits: the computer does
not play and no hand-off comes up; F2 or Esc leaves, F3 opens the replay view as the GM sees it
(sealed choices shown).

Who may open it [decision] (game/shell/gm_seat.py `open_gm_mode`): with a GM passphrase set in the
players dialog (P, "GM passphrase..."), only the passphrase opens it; a battle fought out from a
campaign whose GM passphrase is set (the campaign screen under it holds the GM's seat) asks for
that one instead. Without a passphrase, the shell's rule, as in the tactical battle: with two or
more sides played at the screen behind the blackout (hotseat), the GM says so ("I am the GM");
else (one side at the screen, against the computer, or the blackout off: a GM at the table) it
opens at once, before or after the battle has begun. Every opening is
said on the board's line ("GM mode opened in wave 1") and kept in the game's later saves.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.core.system import Rejection
from game.shell.dice_entry import parse_faces
from game.shell.fonts import outlined, text, wrap_px
from game.shell.gm_seat import PassphraseScene as PassphraseScene  # (the mass client's name for it, kept)
from game.shell.gm_seat import open_gm_mode, outer_seat
from game.shell.keymap import Binding
from game.shell.scene import Scene
from game.shell.toolkit.buttons import Button
from game.systems.mass.client.replay import MassReplayScene
from game.systems.mass.io.picture import BAD, DIM, GOLD, GOOD, INK, PANEL
from game.systems.mass.rules import commands as c
from game.systems.mass.rules.engine import (
    MAX_BRUTES,
    MAX_HONOR_CHANGE,
    MAX_REASON,
    RING_MAX,
    STATUS_MAX,
    WAY_ADVANTAGE_MAX,
    dead_at,
)
from game.systems.mass.rules.pools import level_name

if TYPE_CHECKING:
    from game.shell.app import App
    from game.systems.mass.client.board import MassBoardScene

GM_GOLD = (224, 184, 100)
WAYS = ("heaven", "honor", "glory", "strategy", "terrain")
ARMOURS = ("none", "light", "heavy")


def gm_active(app: Any) -> bool:
    """GM mode is open over the game (the replay then shows the sealed choices too)."""
    return any(getattr(s, "name", "") == "gm" for s in app.scenes)


def _campaign_seat(app: Any) -> Any:
    """The GM's seat of a campaign under this battle whose passphrase is set (a battle fought
    out from the campaign), or None (game/shell/gm_seat.py `outer_seat`)."""
    return outer_seat(app)


def open_gm(app: App, board: Any) -> None:
    """F2 on the board: GM mode, once whoever asks has shown they may (see the module); its
    opening is said on the board's line and kept in the game's saves (game/shell/gm_seat.py)."""
    if gm_active(app):
        return

    def enter() -> None:
        app.push(MassGmScene(app, board))

    # the shell's rule, as in the tactical battle: the passphrase when set, the GM's word in a hotseat
    # battle, else at once (one side at the screen, or the blackout off: a GM at the table)
    open_gm_mode(app, board, enter, what="the battle (wounds, Brutes, Advantage, the next dice)")


# --------------------------------------------------------------------------- a dialog of fields


@dataclass(frozen=True)
class Field:
    key: str
    label: str
    initial: str


class FormScene(Scene):
    """A small dialog of text fields. `on_ok(values)` answers None (done: the dialog closes) or
    what is wrong (said in the dialog, which stays open)."""

    overlay = True
    name = "gm_form"
    KEYS = (Binding((pygame.K_RETURN, pygame.K_KP_ENTER), "Enter", "apply"),
            Binding((pygame.K_ESCAPE,), "Esc", "cancel"))

    def __init__(self, app: Any, title: str, note: str, fields: Sequence[Field],
                 on_ok: Callable[[dict[str, str]], str | None]) -> None:
        super().__init__(app)
        self.title = title
        self.note = note
        self.fields = list(fields)
        self.on_ok = on_ok
        self.message = ""
        self.entries: dict[str, Any] = {}
        self.ui = app.make_ui()
        self._build()

    def _box(self) -> pygame.Rect:
        w, h = self.app.screen.get_size()
        bw = min(560, w - 40)
        bh = min(h - 40, 150 + 38 * len(self.fields))
        return pygame.Rect((w - bw) // 2, (h - bh) // 2, bw, bh)

    def _build(self) -> None:
        old = {k: e.get_text() for k, e in self.entries.items()}
        self.ui.clear_and_reset()
        box = self._box()
        self.entries = {}
        y = box.y + 64
        for f in self.fields:
            e = pygame_gui.elements.UITextEntryLine(pygame.Rect(box.x + box.w // 2, y, box.w // 2 - 16, 32), self.ui)
            e.set_text(old.get(f.key, f.initial))
            self.entries[f.key] = e
            y += 38
        bw = (box.w - 42) // 2
        self.ok = Button(pygame.Rect(box.x + 16, box.bottom - 48, bw, 36), "Apply (Enter)", self.ui,
                         object_id=ObjectID(class_id="@primary"))
        self.cancel = Button(pygame.Rect(box.x + 26 + bw, box.bottom - 48, bw, 36), "Cancel (Esc)", self.ui)
        if self.fields:
            self.ui.set_focus_set(self.entries[self.fields[0].key])  # (the manager's focus: one caret)

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        self._build()

    def typing(self) -> bool:
        return True  # its fields have the keyboard (Enter and Esc are the dialog's own)

    def values(self) -> dict[str, str]:
        return {k: e.get_text() for k, e in self.entries.items()}

    def submit(self) -> bool:
        why = self.on_ok(self.values())
        if why is not None:
            self.message = why
            return False
        if self.app.scenes.top is self:
            self.app.pop()
        return True

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.submit()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB:  # the next field
            keys = list(self.entries)
            now = next((i for i, k in enumerate(keys) if self.entries[k].is_focused), -1)
            step = -1 if event.mod & pygame.KMOD_SHIFT else 1
            # through the manager, which takes the focus from the field that had it (an entry's own
            # focus() left it on the first field too: Tab wrote into it again)
            self.ui.set_focus_set(self.entries[keys[(now + step) % len(keys)]])
            return
        self.ui.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.ok:
                self.submit()
            elif event.ui_element is self.cancel:
                self.app.pop()

    def update(self, dt: float) -> None:
        self.ui.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 150))
        surface.blit(shade, (0, 0))
        box = self._box()
        pygame.draw.rect(surface, PANEL, box, border_radius=6)
        pygame.draw.rect(surface, GM_GOLD, box, 2, border_radius=6)
        surface.blit(text(self.title, 16, GOLD, True), (box.x + 16, box.y + 10))
        for k, chunk in enumerate(wrap_px(self.note, 12, box.w - 32)[:2]):
            surface.blit(text(chunk, 12, DIM), (box.x + 16, box.y + 32 + 15 * k))
        y = box.y + 64
        for f in self.fields:
            surface.blit(text(wrap_px(f.label, 13, box.w // 2 - 24)[0], 13, INK), (box.x + 16, y + 8))
            y += 38
        for k, chunk in enumerate(wrap_px(self.message, 12, box.w - 32)[:2]):
            surface.blit(text(chunk, 12, BAD), (box.x + 16, y + 2 + 15 * k))
        self.ui.draw_ui(surface)


def _said(raw: str) -> str:
    """What was typed, as a message quotes it (a long entry cut short)."""
    typed = raw.strip()
    return repr(typed if len(typed) <= 24 else typed[:21] + "...")


def whole(label: str, raw: str, *, low: int | None = 0) -> int:
    """A field read as a whole number (at least `low`), or ValueError saying what is wrong. The
    rules say the rest of its range (engine.gm_range_problem), before anything is applied."""
    typed = raw.strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,24}", typed):  # (int() would read 4,300 digits before giving up)
        raise ValueError(f"{label}: a whole number, not {_said(raw)}")
    v = int(typed)
    if low is not None and v < low:
        raise ValueError(f"{label}: {low} or more, not {v}")
    return v


def number(label: str, raw: str) -> float:
    """A field read as a number, decimals allowed (a status such as 2.5), 0 or more; or ValueError."""
    typed = raw.strip()
    try:
        v = float(typed) if len(typed) <= 24 else float("nan")
    except ValueError:
        v = float("nan")
    if v != v or v in (float("inf"), float("-inf")):  # NaN, or infinite
        raise ValueError(f"{label}: a number, not {_said(raw)}")
    if v < 0:
        raise ValueError(f"{label}: 0 or more, not {v:g}")
    return v


def dice_of(raw: str) -> tuple[int, ...]:
    """Die faces typed as "10 10 3" or "10, 10, 3" (the shell's reading, as in every GM mode), or
    ValueError saying what was expected."""
    faces = parse_faces(raw, 10, "the mass battle's")
    if isinstance(faces, str):
        raise ValueError(faces)
    return faces


# --------------------------------------------------------------------------- GM mode


class MassGmScene(Scene):
    overlay = True
    name = "gm"
    KEYS = (Binding((pygame.K_F2,), "F2", "leave GM mode"),
            Binding((pygame.K_ESCAPE,), "Esc", "leave GM mode"),
            Binding((pygame.K_z,), "Ctrl+Z", "GM undo: take back any command, dice included", ctrl=True),
            Binding((pygame.K_y,), "Ctrl+Y", "GM redo (the same dice again)", ctrl=True),
            Binding((pygame.K_F3,), "F3", "the replay view, as the GM sees it (sealed choices shown)"))

    def inner_scenes(self) -> tuple[Scene, ...]:
        return (self.board,)

    def __init__(self, app: App, board: MassBoardScene) -> None:
        super().__init__(app)
        self.board = board
        self.session = board.session
        self.person_index = 0
        self.force_index = 0
        self.message = "GM mode: every change is a GM command, in the log, saved, replayed and undone like any other."
        self.refused = False
        self.buttons: dict[Any, str] = {}
        self.ui = app.make_ui()
        self._build()

    # ------------------------------------------------------------------ what it edits
    @property
    def state(self) -> Any:
        return self.session.state

    def people(self) -> list[tuple[str, Any]]:
        """Every individual of every force: (force id, person)."""
        s = self.state
        return [(fid, p) for fid in s.order for p in s.forces[fid].people.values()]

    def person(self) -> tuple[str, Any]:
        everyone = self.people()
        return everyone[self.person_index % len(everyone)]

    def force(self) -> Any:
        s = self.state
        return s.forces[s.order[self.force_index % len(s.order)]]

    # ------------------------------------------------------------------ layout
    def panel_rect(self) -> pygame.Rect:
        r = self.board._rects()
        return pygame.Rect(0, r["track"].bottom, r["odds"].right, r["cmds"].h)

    def _button(self, key: str, label: str, rect: pygame.Rect, tip: str | None = None,
                primary: bool = False) -> None:
        oid = ObjectID(class_id="@primary") if primary else None
        self.buttons[Button(rect, label, self.ui, tool_tip_text=tip, object_id=oid)] = key

    def columns(self) -> tuple[pygame.Rect, pygame.Rect]:
        box = self.panel_rect().inflate(-8, -8)
        top = box.y + 28
        half = (box.w - 30) // 2
        return (pygame.Rect(box.x + 10, top, half, box.bottom - top - 30),
                pygame.Rect(box.x + 20 + half, top, half, box.bottom - top - 30))

    def _build(self) -> None:
        self.ui.clear_and_reset()  # type: ignore[no-untyped-call]
        self.buttons = {}
        left, right = self.columns()
        # the next rolls: a line of faces to queue, or one die at a click
        y = left.y + 40
        # (no placeholder text: pygame_gui 0.6's placeholder came back mixed with what was typed after
        # the box was emptied; the example is in the heading)
        self.dice_entry = pygame_gui.elements.UITextEntryLine(pygame.Rect(left.x, y, left.w - 110, 32), self.ui)
        self._button("queue", "Queue", pygame.Rect(left.right - 104, y, 104, 32),
                     tip="The next dice rolled show these faces, in order (after any already queued)")
        y += 38
        cell = (left.w - 4 * 4) // 5
        for v in range(1, 11):
            i = (v - 1) % 5
            self._button(f"die:{v}", str(v), pygame.Rect(left.x + i * (cell + 4), y + ((v - 1) // 5) * 32, cell, 28),
                         tip=f"Queue one die showing {v}")
        y += 70
        half = (left.w - 6) // 2
        self._button("undo", "Undo (Ctrl+Z)", pygame.Rect(left.x, y, half, 30),
                     tip="Take back the last command, whoever's, dice included")
        self._button("redo", "Redo (Ctrl+Y)", pygame.Rect(left.x + half + 6, y, half, 30))
        # an individual, a force
        y = right.y + 20
        self._button("person-", "<", pygame.Rect(right.x, y, 30, 28), tip="The individual before")
        self._button("person+", ">", pygame.Rect(right.right - 30, y, 30, 28), tip="The next individual")
        y += 52
        third = (right.w - 8) // 3
        self._button("edit_person", "Wounds, Void...", pygame.Rect(right.x, y, third * 2 + 4, 30),
                     tip="Set this individual's Wounds, Void points and status")
        self._button("honor", "Honor...", pygame.Rect(right.x + 2 * (third + 4), y, third, 30),
                     tip="Change this individual's Honor in the ledger (with the reason)")
        y += 44
        self._button("force-", "<", pygame.Rect(right.x, y, 30, 28), tip="The force before")
        self._button("force+", ">", pygame.Rect(right.right - 30, y, 30, 28), tip="The next force")
        y += 52
        self._button("brutes", "Brutes...", pygame.Rect(right.x, y, (right.w - 6) // 2, 30),
                     tip="Set how many Brutes of an armour this force has")
        self._button("advantage", "Advantage...", pygame.Rect(right.x + (right.w + 6) // 2, y, (right.w - 6) // 2, 30),
                     tip="Set this force's Advantage in each Way")
        self._button("leave", "Leave GM mode (F2)", pygame.Rect(self.panel_rect().right - 200, self.panel_rect().y + 6,
                                                                188, 26))

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        self._build()

    def typing(self) -> bool:
        return bool(self.dice_entry.is_focused)

    # ------------------------------------------------------------------ commands
    def say(self, message: str, refused: bool = False) -> None:
        self.message = message
        self.refused = refused

    def submit(self, command: Any) -> str | None:
        """Play a GM command through the board (logged, autosaved, undoable); None, or the
        rules' refusal in words."""
        ok = self.board._play(command, gm=True)
        if not ok:
            why = f"Refused by the rules: {self.session.last_rejection or 'refused'}"
            self.say(why, refused=True)
            return why
        said = [self.session.system.describe_event(self.state, e) for e in self.session.history[-1].events]
        self.say(said[0] if said else "Done.")
        return None

    def _make(self, build: Callable[[], Any]) -> str | None:
        """Build a command from the dialog's fields and play it: None, or what is wrong."""
        try:
            command = build()
        except ValueError as exc:  # a field that is not what it must be (or the command's own check)
            return str(exc).splitlines()[0]
        return self.submit(command)

    def queue_dice(self, raw: str) -> str | None:
        why = self._make(lambda: c.GmForceRolls(values=dice_of(raw)))
        if why is None:
            self.dice_entry.set_text("")
        else:
            self.say(why, refused=True)
        return why

    def undo(self) -> None:
        what = self.session.gm_undo()
        if what is None:
            self.say("Nothing to undo.")
            return
        what = what.removeprefix("GM: ")
        self.board.after_change()
        self.board._say(f"GM undo: {what}", GM_GOLD)
        self.say(f"Undone: {what}")

    def redo(self) -> None:
        played, what = self.session.gm_redo()
        if not played:
            self.say(what, refused=what != "Nothing to redo.")
            return
        what = what.removeprefix("GM: ")
        self.board.after_change()
        self.board._say(f"GM redo: {what}", GM_GOLD)
        self.say(f"Redone: {what}")

    # ------------------------------------------------------------------ the dialogs
    def edit_person(self) -> None:
        fid, p = self.person()

        def ok(v: dict[str, str]) -> str | None:
            try:  # each field as typed; one left as it was is not sent (a value the battle reached stays)
                wounds = whole("Wounds taken", v["wounds"])
                void = whole("Void points left", v["void"])
                status = number("Status", v["status"])
            except ValueError as exc:
                return str(exc)
            if (wounds, void, status) == (p.wounds, p.void_left, p.stats.status):
                return "Nothing changed: type a new value, or Cancel."
            return self._make(lambda: c.GmSetPerson(
                person=p.id, wounds=None if wounds == p.wounds else wounds,
                void_left=None if void == p.void_left else void,
                status=None if status == p.stats.status else status))

        dead = dead_at(self.state.rules, p)
        self.app.push(FormScene(
            self.app, f"GM: {p.name} ({self.state.forces[fid].name})",
            f"Wounds taken (the wound level follows from them; {dead} is dead), Void points left, and status. "
            "Applied as one GM command.",
            [Field("wounds", f"Wounds taken (0 to {dead})", str(p.wounds)),
             Field("void", f"Void points left (0 to {p.stats.max_void_points})", str(p.void_left)),
             Field("status", f"Status (0 to {STATUS_MAX:g})", f"{p.stats.status:g}")], ok))

    def edit_honor(self) -> None:
        fid, p = self.person()

        def ok(v: dict[str, str]) -> str | None:
            return self._make(lambda: c.GmHonor(person=p.id, points=whole("Honor change", v["points"], low=None),
                                                reason=v["reason"]))

        self.app.push(FormScene(
            self.app, f"GM: Honor of {p.name}",
            "Honor changes only this way, with the reason, in the ledger (e.g. +1, or -2).",
            [Field("points", f"Honor change (-{MAX_HONOR_CHANGE} to +{MAX_HONOR_CHANGE})", ""),
             Field("reason", f"Why (at most {MAX_REASON} characters)", "")], ok))

    def edit_brutes(self) -> None:
        f = self.force()
        now = ", ".join(f"{d.count} {d.armour}" for d in f.brutes) or "none"

        def ok(v: dict[str, str]) -> str | None:
            armour = v["armour"].strip().lower()
            if armour not in ARMOURS:
                return f"Armour: one of {', '.join(ARMOURS)}, not {armour!r}"
            return self._make(lambda: c.GmSetBrutes(force=f.id, armour=armour, count=whole("Count", v["count"])))

        first = f.brutes[0] if f.brutes else None
        self.app.push(FormScene(
            self.app, f"GM: the Brutes of {f.name}",
            f"Now: {now}. Sets how many Brutes of one armour the force has (a new division if it had none).",
            [Field("armour", "Armour (none, light, heavy)", first.armour if first else "light"),
             Field("count", f"How many (0 to {MAX_BRUTES:,})", str(first.count) if first else "0")], ok))

    def edit_advantage(self) -> None:
        f = self.force()

        def ok(v: dict[str, str]) -> str | None:
            try:
                wanted = {w: whole(w.title(), v[w]) for w in WAYS}
            except ValueError as exc:
                return str(exc)
            changed = [w for w in WAYS if wanted[w] != f.advantage.get(w, 0)]
            if not changed:
                return "Nothing changed: type a new value in a Way, or Cancel."
            # every Way's command tried on the rules first (apply changes no state): one refused,
            # none is played
            trial = self.state
            for w in changed:
                out = self.session.system.apply(trial, c.GmSetAdvantage(force=f.id, way=w, value=wanted[w]))
                if isinstance(out, Rejection):
                    return f"Refused by the rules: {out.reason}"
                trial = out.state
            for w in changed:
                why = self._make(lambda way=w: c.GmSetAdvantage(force=f.id, way=way, value=wanted[way]))  # type: ignore[misc]
                if why is not None:
                    return why
            return None

        self.app.push(FormScene(
            self.app, f"GM: the Advantage of {f.name}",
            "The Advantage in each Way (a GM command for each Way changed).",
            [Field(w, f"{w.title()} (0 to {RING_MAX if w == 'terrain' else WAY_ADVANTAGE_MAX})",
                   str(f.advantage.get(w, 0))) for w in WAYS], ok))

    # ------------------------------------------------------------------ events
    def press(self, key: str) -> None:
        if key == "queue":
            self.queue_dice(self.dice_entry.get_text())
        elif key.startswith("die:"):
            self.queue_dice(key[4:])
        elif key == "undo":
            self.undo()
        elif key == "redo":
            self.redo()
        elif key in ("person-", "person+"):
            self.person_index = (self.person_index + (1 if key == "person+" else -1)) % len(self.people())
        elif key in ("force-", "force+"):
            self.force_index = (self.force_index + (1 if key == "force+" else -1)) % len(self.state.order)
        elif key == "edit_person":
            self.edit_person()
        elif key == "honor":
            self.edit_honor()
        elif key == "brutes":
            self.edit_brutes()
        elif key == "advantage":
            self.edit_advantage()
        elif key == "leave":
            self.leave()

    def leave(self) -> None:
        if self.app.scenes.top is self:
            self.app.pop()

    def on_exit(self) -> None:
        self.board.after_change()  # the board's choices follow what the GM changed

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            self.press(self.buttons[event.ui_element])
            return
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.dice_entry:
            self.queue_dice(self.dice_entry.get_text())
            return
        if event.type == pygame.KEYDOWN and self.dice_entry.is_focused:
            if event.key == pygame.K_ESCAPE:
                self.dice_entry.unfocus()  # type: ignore[no-untyped-call]
                return
            if event.key == pygame.K_F2:  # (F2 and F3 type nothing: they leave, and replay, with the caret too)
                self.leave()
            elif event.key == pygame.K_F3:
                self.open_replay()
            else:
                self.ui.process_events(event)
            return
        if self.ui.process_events(event):
            return
        if event.type == pygame.KEYDOWN:
            ctrl = bool(getattr(event, "mod", 0) & pygame.KMOD_CTRL)
            shift = bool(getattr(event, "mod", 0) & pygame.KMOD_SHIFT)
            if event.key in (pygame.K_F2, pygame.K_ESCAPE):
                self.leave()
            elif ctrl and event.key == pygame.K_z and not shift:
                self.undo()
            elif ctrl and (event.key == pygame.K_y or (event.key == pygame.K_z and shift)):
                self.redo()
            elif event.key == pygame.K_F3:
                self.open_replay()

    def open_replay(self) -> None:
        """F3 in GM mode: the replay as the GM sees it (the sealed choices shown)."""
        name = getattr(self.session.loaded, "name", "") or "Mass battle"
        self.app.push(MassReplayScene(self.app, self.session, list(self.session.history),
                                      title=f"{name} (so far)", gm=True))

    def update(self, dt: float) -> None:
        self.ui.update(dt)

    # ------------------------------------------------------------------ drawing
    def queue_text(self) -> str:
        """The forced dice still waiting, oldest first (the next roll takes them)."""
        queue = ", ".join(str(v) for v in self.state.forced)
        return f"Queued: {queue}" if queue else "Queued: none (the dice fall as they will)"

    def draw(self, surface: pygame.Surface) -> None:
        pygame.draw.rect(surface, GM_GOLD, surface.get_rect(), 3)
        panel = self.panel_rect()
        box = panel.inflate(-8, -8)
        pygame.draw.rect(surface, PANEL, box, border_radius=6)
        pygame.draw.rect(surface, GM_GOLD, box, 2, border_radius=6)
        banner = outlined("GM MODE", 18, GM_GOLD)
        surface.blit(banner, (box.x + 10, box.y + 5))
        surface.blit(text("F2 / Esc leaves · Ctrl+Z / Ctrl+Y: undo / redo anything · F3: replay (GM)", 12, DIM),
                     (box.x + 20 + banner.get_width(), box.y + 9))
        left, right = self.columns()
        s = self.state
        head = text("The next rolls", 14, GOLD, True)
        surface.blit(head, (left.x, left.y))
        surface.blit(text("type faces, e.g. 10 10 3", 12, DIM), (left.x + head.get_width() + 8, left.y + 2))
        queue = bool(s.forced)
        surface.blit(text(wrap_px(self.queue_text(), 12, left.w, True)[0], 12, GM_GOLD if queue else DIM, queue),
                     (left.x, left.y + 20))
        # an individual
        fid, p = self.person()
        surface.blit(text("An individual", 14, GOLD, True), (right.x, right.y))
        name = wrap_px(f"{p.name} ({s.forces[fid].name})", 13, right.w - 72, True)[0]
        surface.blit(text(name, 13, INK, True), (right.x + 36, right.y + 26))
        lvl = "fled" if p.fled else level_name(s.rules, p)
        facts = f"Wounds {p.wounds} ({lvl}) · Void {p.void_left} · status {p.stats.status:g}"
        surface.blit(text(wrap_px(facts, 12, right.w)[0], 12, DIM), (right.x, right.y + 52))
        # a force
        f = self.force()
        y = right.y + 116
        surface.blit(text(wrap_px(f.name, 13, right.w - 72, True)[0], 13, INK, True), (right.x + 36, y + 6))
        brutes = ", ".join(f"{d.count} {d.armour}" for d in f.brutes) or "no Brutes"
        adv = " ".join(f"{w[:3].title()} {f.advantage.get(w, 0)}" for w in WAYS)
        surface.blit(text(wrap_px(f"{brutes} · {adv}", 12, right.w)[0], 12, DIM), (right.x, y + 32))
        # the last result, or the refusal
        for k, chunk in enumerate(wrap_px(self.message, 12, box.w - 20)[:2]):
            surface.blit(text(chunk, 12, BAD if self.refused else GOOD), (box.x + 10, box.bottom - 30 + 14 * k))
        self.ui.draw_ui(surface)
