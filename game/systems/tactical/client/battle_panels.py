"""The battle scene's side panels and top bar: the status line and the hint, the selected unit
(or the sides' summary), the hovered hex or attack preview with its exact odds, the odds chart,
the dice log, and the top buttons.

`Panels` is one part of the battle scene (game/systems/tactical/client/battle.py), constructed by it: it owns
these widgets and what they last showed, and re-renders only what changed. What it reads of the
game is passed to each call as a `PanelContext`; it keeps no reference to the scene. The panels'
texts are styled pieces (richtext's `Span`s, never markup); those of units, terrain and events are
made by game/systems/tactical/client/text.py."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, Protocol

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

import game.systems.tactical.rules as ail  # (the attack rules load at the first preview, through the facade)
from game.core.hexgrid import Hex
from game.core.system import counted
from game.shell import draw, fonts
from game.shell.toolkit.buttons import Button
from game.shell.toolkit.richtext import Content, RichTextBox, Styled, TextCache, TextLine, plain
from game.systems.tactical.client import rq, text
from game.systems.tactical.client.text import (
    BAD,
    DIM,
    GOLD,
    Line,
    Lines,
    Piece,
    bold,
    ink,
    joined,
    line,
    words,
)
from game.systems.tactical.client.widgets import enable, hit_chance

if TYPE_CHECKING:
    from game.shell.session import Session
    from game.systems.tactical.client.modes import Mode

class PanelContext(Protocol):
    """What the panels read of the scene for one call (never kept between calls)."""

    session: Session
    mode: Mode
    hover: Hex | None
    selected: str | None
    gm_on: bool  # GM mode is on over the battle: the top bar's Undo is the GM's (anything)

    @property
    def state(self) -> Any: ...

    @property
    def toast_text(self) -> str | None: ...

    def side_colour(self, side: str | None) -> tuple[int, int, int]: ...

    def unit_at(self, h: Hex) -> Any: ...

    def is_mine(self, unit_id: str) -> bool: ...


# the top bar's buttons: (key, label, width, tooltip), right to left
TOP_BUTTONS = (("help", "Help F1", 78, "Controls"),
               ("options", "Options", 78, "Animation speed, blackout, questions"),
               ("end", "End phase (E)", 160, "End this phase"),
               ("undo", "Undo", 70, "Take back the last move (Ctrl+Z)"))


class Panels:
    """The side panel and the top bar of the battle scene.

    Public fields (the widgets, made by build()):
        status_label, hint_label: the top bar's two lines.
        top_buttons: key ("help", "options", "end", "undo") -> button.
        unit_box: the selected unit's card (or the sides' summary).
        info_box: the hovered hex, the path's overwatch, or the attack preview.
        (both laid out by game/shell/toolkit/richtext.py, which keeps the texts shown lately)
        log_title, log_box: the dice log.
        actions_rect: the band the action buttons go in (battle_actions.ActionButtons).
        chart_rect: where the odds chart is drawn.
        no_unit: what the unit card says with no unit selected (the replay view sets its own).
    Private: what each widget last showed (only changes are re-rendered), the layout's key, the
    chart picture."""

    def __init__(self) -> None:
        self._shown: dict[str, Content] = {}
        self._fitted: tuple[tuple[str, int], str] | None = None  # (hint, label width) -> what fits
        self._card: tuple[Any, tuple[str, Any], Styled] | None = None  # (state, (unit, colour), card)
        self._side_rows: tuple[int, tuple[int, int]] | None = None
        self._chart: tuple[object, pygame.Surface] | None = None
        self.top_buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.actions_rect = pygame.Rect(0, 0, 0, 0)
        self.chart_rect = pygame.Rect(0, 0, 0, 72)
        # the unit card with nothing selected (the replay view says what its own screen does)
        self.no_unit = "No unit selected. Click a unit to see it; Tab picks the next unit that can act."

    # ------------------------------------------------------------------ layout
    def build(self, ui: pygame_gui.UIManager, top: pygame.Rect, side: pygame.Rect) -> None:
        """Make the widgets for this window size (the manager was just cleared)."""
        self._shown.clear()
        self._fitted = None
        self.status_label = TextLine(pygame.Rect(10, 4, top.w - 480, 22), "", ui, object_id=ObjectID(class_id="@title"))
        self.hint_label = TextLine(pygame.Rect(10, 24, top.w - 430, 20), "", ui)
        bx = top.w - 10
        self.top_buttons = {}
        for key, label, width, tip in TOP_BUTTONS:
            bx -= width
            oid = ObjectID(class_id="@primary") if key == "end" else None
            btn = Button(pygame.Rect(bx, 6, width, 34), label, ui,
                                               tool_tip_text=tip, object_id=oid)
            self.top_buttons[key] = btn
            bx -= 8
        x, wdt = side.x + 8, side.w - 16
        y = side.y + 8
        texts = TextCache()
        self.unit_box = RichTextBox((), pygame.Rect(x, y, wdt, 100), ui, cache=texts)
        self.actions_rect = pygame.Rect(x, y, wdt, 0)
        self.info_box = RichTextBox((), pygame.Rect(x, y, wdt, 80), ui, cache=texts)
        self.chart_rect = pygame.Rect(x, y, wdt, 72)
        self.log_title = TextLine(pygame.Rect(x, y, wdt, 22), "Dice log (latest command first)", ui,
                                  object_id=ObjectID(class_id="@title"))
        self.log_box = RichTextBox((), pygame.Rect(x, y, wdt, 80), ui, cache=TextCache(size=4))
        self._side_rows = None

    def place(self, action_rows: int, side: pygame.Rect, screen_size: tuple[int, int]) -> bool:
        """Lay the side panel out from the space it has: the action buttons take the rows they
        need (none: no band at all), the odds chart is smaller in a short window, and what is left
        goes to the unit card, the hex / odds box and the dice log, the log taking whatever the
        others leave (so it grows when there are no buttons, e.g. in the replay). True when the
        layout changed (the action buttons must be placed again)."""
        key = (action_rows, screen_size)
        if key == self._side_rows:
            return False
        self._side_rows = key
        x, wdt = side.x + 8, side.w - 16
        y = side.y + 8
        bottom = side.bottom - 8
        actions_h = action_rows * 26 + max(0, action_rows - 1) * 4
        chart_h = 112 if side.h >= 640 else 76
        title_h = 22
        gaps = 6 * 4
        rest = max(180, bottom - y - actions_h - chart_h - title_h - gaps)
        unit_h = max(96, int(rest * 0.42))
        info_h = max(64, int(rest * 0.27))
        _place(self.unit_box, (x, y), (wdt, unit_h))
        y += unit_h + 6
        self.actions_rect = pygame.Rect(x, y, wdt, actions_h)
        y += actions_h + (6 if actions_h else 0)
        _place(self.info_box, (x, y), (wdt, info_h))
        y += info_h + 6
        self.chart_rect = pygame.Rect(x, y, wdt, chart_h)
        self._chart = None  # drawn again at the new size
        y += chart_h + 6
        self.log_title.set_relative_position((x, y))
        y += title_h
        _place(self.log_box, (x, y), (wdt, max(60, bottom - y)))
        return True

    def top_button(self, element: object) -> str | None:
        """Which top button an element is ("help", "options", "end", "undo"), if any."""
        for key, btn in self.top_buttons.items():
            if element is btn:
                return key
        return None

    # ------------------------------------------------------------------ what is shown
    def shown(self, key: str) -> str:
        """What a part of the panels shows now, without its styles: "status", "hint", "unit",
        "info", "log" (tests read the text without the toolkit's rendering)."""
        return plain(self._shown.get(key, ""))

    def styled(self, key: str) -> Styled:
        """What a box of the panels ("unit", "info", "log") shows now, as the styled pieces given
        to its widget."""
        got = self._shown.get(key, ())
        return got if isinstance(got, tuple) else ()

    def _set_text(self, key: str, box: RichTextBox, content: Styled) -> None:
        if self._shown.get(key) != content:
            self._shown[key] = content
            box.set_text(content)

    def _set_label(self, key: str, label: TextLine, s: str) -> None:
        if self._shown.get(key) != s:
            self._shown[key] = s
            label.set_text(s)

    def refresh_hint(self, ctx: PanelContext) -> None:
        """The top bar's second line alone (a toast just given shows at once, not at the next
        refresh: after Ctrl+Y it said the undo's "Taken back" still)."""
        hint = self.hint(ctx)
        fit = (hint, self.hint_label.rect.w)  # the hint fitted to the label once, not every refresh
        if self._fitted is None or self._fitted[0] != fit:
            self._fitted = (fit, _fit_sentences(hint, self.hint_label))
        self._set_label("hint", self.hint_label, self._fitted[1])

    def refresh(self, ctx: PanelContext, force: bool = False) -> None:
        """Bring the panels up to date (only what changed is re-rendered)."""
        st = ctx.state
        phase = text.PHASE_NAMES.get(st.phase, st.phase)
        rnd = f"Round {st.round}/{st.setup.round_limit}"
        if st.phase == "ended":
            status = f"{rnd} · Battle over"
        elif st.phase == "initiative":
            status = f"{rnd} · Initiative"
        else:
            owner = st.active_side
            slot = st.active_slot
            alone = (st.unit_name(slot.unit_id) if slot is not None and slot.unit_id is not None else None)
            status = _fit_status(rnd, st.side_name(owner) if owner else "", phase, alone, self.status_label)
        self._set_label("status", self.status_label, status)
        self.refresh_hint(ctx)
        # selected unit
        if ctx.selected and ctx.selected in st.units:
            colour = ctx.side_colour(st.units[ctx.selected].side)
            card = (ctx.selected, colour)  # the card's words once per state (held: never another's id)
            if self._card is None or self._card[0] is not st or self._card[1] != card:
                self._card = (st, card, text.unit_text(st, ctx.selected, colour))
            shown = self._card[2]
        else:
            shown = (line(ink(self.no_unit, DIM)), *_side_summary(st))
        self._set_text("unit", self.unit_box, shown)
        # hover / preview
        self._set_text("info", self.info_box, self.info_text(ctx))
        # dice log
        session = ctx.session
        seats = session.seats  # a why line noted or released changes the log too
        log_key = f"{len(session.history)}:{len(seats.whys)}:{len(seats.held)}"
        if force or self._shown.get("log_n") != log_key:
            self._shown["log_n"] = log_key
            self._set_text("log", self.log_box, log_text(session, st))
        # buttons
        # in GM mode the top bar's Undo is the GM's undo (gm.py), which takes back anything played
        enable(self.top_buttons["undo"], bool(session.record.steps) if ctx.gm_on else session.can_undo)
        if st.phase in ("movement", "attack") and st.pending is None and session.seats.is_computer(st.active_side):
            enable(self.top_buttons["end"], False)  # the computer ends its own phases
            label = "Computer playing"
        elif st.phase in ("movement", "attack") and st.pending is None:
            enable(self.top_buttons["end"], True)
            label = f"End {st.phase} (E)"
        else:
            enable(self.top_buttons["end"], False)
            # the label says what this phase is, never the end of a phase that is not on
            label = {"initiative": "Initiative…", "ended": "Battle over"}.get(st.phase, "Waiting…")
        if self._shown.get("endlbl") != label:
            self._shown["endlbl"] = label
            self.top_buttons["end"].set_text(label)

    def hint(self, ctx: PanelContext) -> str:
        """The top bar's second line: the toast, what the rules wait for, or the mode's hint."""
        toast = ctx.toast_text
        if toast is not None:
            return toast
        st = ctx.state
        if st.phase == "ended":
            return "The battle is over."
        if st.pending is not None:
            return f"Waiting for {st.side_name(st.pending.sides[0])} to answer."
        seats = ctx.session.seats
        if seats.is_computer(st.active_side):  # not the person's units to click: say who plays
            return f"{st.side_name(st.active_side)} is playing: {seats.label(st.active_side)}."
        return ctx.mode.hint(ctx)

    def info_text(self, ctx: PanelContext) -> Styled:
        """The hex / odds box: the attack preview, the path's overwatch, the hovered hex and unit."""
        st = ctx.state
        pv = ctx.mode.preview(ctx)
        if pv is not None:
            return _preview_text(st, pv[0], pv[1])
        view = ctx.mode.path_view(ctx)
        out = Lines()
        if view is not None and view.exposures:
            out.add(bold(view.label))
            for ex in view.exposures:
                out.add(ink(f"Overwatch at step {ex.step}: {words(st.unit_name(ex.watcher_id))} ({words(ex.weapon)}) "
                            f"{draw.percent(hit_chance(ex))} to hit", BAD))
        elif view is not None:
            out.add(bold(view.label), " · no overwatch on this path")
        hover = ctx.hover
        if hover is not None and hover in st.board.terrain:
            out.extend(text.terrain_text(st.board, st.setup.rules, hover, st))
            for obj in st.setup.objectives:
                if hover in obj.hexes:
                    out.add(ink(f"Objective of {words(st.side_name(obj.side))}: "
                                f"{words(obj.description or 'hold this hex')}", GOLD))
            u = ctx.unit_at(hover)
            if u is not None and u.stance == "overwatch":
                zone = rq.danger_zone(st, u.id)
                out.add(ink(f"{words(st.unit_name(u.id))} is on overwatch ({words(u.stance_weapon or '')}): it fires "
                            f"at the first enemy that dashes or charges into the red hexes ({len(zone)} in range "
                            "and sight).", BAD))
            if u is not None and u.id != ctx.selected:
                out.extend(text.unit_text(st, u.id, ctx.side_colour(u.side)))
        return out.text if out else (line(ink("Hover a hex to see its terrain.", DIM)),)

    # ------------------------------------------------------------------ the odds chart
    def update_chart(self, preview: Any) -> None:
        """Draw the odds chart for an attack preview (None: the empty chart), when it changed."""
        pv = preview
        chart_key = (id(pv[0]), id(pv[1])) if pv is not None else None
        if self._chart is not None and self._chart[0] == chart_key:
            return
        chart = pygame.Surface(self.chart_rect.size)
        local = chart.get_rect()
        if pv is None:
            pygame.draw.rect(chart, (16, 19, 23), local)
            pygame.draw.rect(chart, (59, 67, 76), local, 1)
            img = fonts.text("Hover a target: exact outcome odds", 12, (110, 106, 98))
            chart.blit(img, img.get_rect(center=local.center))
        else:
            _, odds = _preview_parts(pv[0])
            base = _preview_parts(pv[1])[1] if pv[1] is not None else None
            if odds is not None:
                compare = base.results if base is not None else None
                if (local.h - 8) / len(draw.RESULT_LABELS) >= CHART_ROW_MIN:
                    draw.bar_chart(chart, local, odds.results, compare)
                else:  # too short for a row per result: two columns
                    compact_chart(chart, local, odds.results, compare)
        self._chart = (chart_key, chart)

    def chart_pictures(self) -> list[tuple[pygame.Surface, pygame.Rect]]:
        """The odds chart's picture and where it goes (drawn over the toolkit's elements)."""
        return [(self._chart[1], self.chart_rect)] if self._chart is not None else []


# The height a row of the one-column odds chart needs for its 12-point label to be read.
CHART_ROW_MIN = 14


def compact_chart(surface: pygame.Surface, rect: pygame.Rect, results: dict[str, Any],
                  compare: dict[str, Any] | None = None) -> list[pygame.Rect]:
    """The odds chart in two columns, for a side panel too short for a row per result: each
    result's label, a short bar and its percentage, in the order of the one-column chart (down
    the left column, then the right). `compare` (the odds without the Advantage chosen) is a white
    tick on each bar, as in the one-column chart. Returns each row's rectangle (tests check that
    none overlaps another)."""
    pygame.draw.rect(surface, (16, 19, 23), rect)
    pygame.draw.rect(surface, (59, 67, 76), rect, 1)
    n = len(draw.RESULT_LABELS)
    per_col = (n + 1) // 2
    row_h = (rect.height - 8) // per_col
    col_w = (rect.width - 12) // 2
    labels = [fonts.text(label, 12, (210, 204, 190)) for _, label, _ in draw.RESULT_LABELS]
    label_w = [max(img.get_width() for img in labels[c * per_col:(c + 1) * per_col]) for c in range(2)]
    pct_w = fonts.text("100%", 12, (235, 230, 220), True).get_width()
    rows: list[pygame.Rect] = []
    for i, (key, _, colour) in enumerate(draw.RESULT_LABELS):
        col, r = divmod(i, per_col)
        cell = pygame.Rect(rect.x + 6 + col * (col_w + 4), rect.y + 4 + r * row_h, col_w - 4, row_h)
        rows.append(cell)
        p = float(results.get(key, 0))
        img = labels[i]
        surface.blit(img, (cell.x, cell.y + (row_h - img.get_height()) // 2))
        pct = fonts.text(draw.percent(p), 12, (235, 230, 220), True)
        surface.blit(pct, (cell.right - pct.get_width(), cell.y + (row_h - pct.get_height()) // 2))
        bar_x = cell.x + label_w[col] + 6  # the bars of a column line up
        bar_w = cell.right - pct_w - 6 - bar_x
        if bar_w < 8:
            continue  # no room for a bar beside this label: the percentage says it
        bar = pygame.Rect(bar_x, cell.y + row_h // 2 - 3, bar_w, 6)
        pygame.draw.rect(surface, (36, 40, 46), bar)
        if p > 0:
            pygame.draw.rect(surface, colour, (bar.x, bar.y, max(2, round(bar.w * p)), bar.h))
        if compare is not None:
            tx = bar.x + round(bar.w * float(compare.get(key, 0)))
            pygame.draw.line(surface, (255, 255, 255), (tx, bar.y - 2), (tx, bar.bottom + 1), 1)
    return rows


def side_names(session: Session) -> dict[str, str]:
    return {s.id: s.name for s in session.setup.sides}


def where(session: Session, h: Hex) -> str:
    """A hex as the map's column,row."""
    col, row = session.board.offset_of(h)
    return f"{col},{row}"


def _side_summary(st: Any) -> Styled:
    """Below "No unit selected": a blank line, then each side's units and Advantage, the turn
    order (the slot playing in bold) and the objectives."""
    out = Lines().add()
    for s in st.setup.sides:
        adv = st.sides[s.id].advantage
        pools = ", ".join(f"{k} {v}" for k, v in adv.items() if v)
        alive = len(st.live_units(s.id))
        units = counted(alive, "unit", "units")
        out.add(bold(s.name, text.rgb(s.colour)), f": {units}" + (f" · Advantage: {words(pools)}" if pools else ""))
    if st.turn_order:
        order: list[list[Piece]] = []
        for i, slot in enumerate(st.turn_order):
            label = st.side_name(slot.side) + (f" ({st.unit_name(slot.unit_id)})" if slot.unit_id else "")
            order.append([bold(label) if i == st.turn_index and st.phase != "initiative" else words(label)])
        out.add(ink("Turn order:", DIM), " ", *joined(" > ", order))
    for o in st.setup.objectives:
        if o.description:
            out.add(ink(f"Objective ({words(st.side_name(o.side))}): {words(o.description)}", DIM))
    return out.text


def _preview_text(st: Any, p: Any, base: Any) -> Styled:
    """The attack preview, most important first (a short window shows only its first lines): the
    target and the exact chance to hit (and without the Advantage chosen), why it is 0% when no
    roll can hit, the Accuracy Challenge in parts, the hit roll, then the expected loss, the chance
    with a defensive action and the rules' notes."""
    ac, odds = _preview_parts(p)
    out = Lines()
    target = getattr(p, "target_id", None)
    head: list[Piece] = [bold(f"vs {words(st.unit_name(target))}")] if target else []
    if odds is not None:
        head += [" · Hit chance " if head else "Hit chance ", bold(draw.percent(odds.hit_chance))]
        if base is not None:
            _, bodds = _preview_parts(base)
            if bodds is not None:
                head.append(f" (was {draw.percent(bodds.hit_chance)} without Advantage)")
    if head:
        out.add(*head)
    if odds is not None and odds.hit_chance == 0:
        why = getattr(p, "no_chance", None) or _no_chance_reason(st, p)  # the rules' own sentence
        if why.startswith("no chance to hit") and ": " in why:
            why = why.split(": ", 1)[1]  # "0% to hit:" says it already
        out.add(ink("0% to hit:", BAD, bold=True), ink(f" {words(why)}; the attack may still be made.", BAD))
    if ac is not None:
        parts = " ".join(f"{words(m.label)} {text.signed(m.value) if i else m.value}" for i, m in enumerate(ac.parts))
        out.add("Accuracy Challenge ", bold(ac.total), f" = {parts}")
    hit = _hit_roll_text(st, p)
    if hit:
        out.add(hit)
    if odds is not None:
        out.add(f"Expected strength lost {float(odds.expected_strength_lost):.2f}")
        da = getattr(p, "odds_if_defensive_action", None)
        if da is not None:
            out.add(ink(f"If the defender takes a defensive action: {draw.percent(da.hit_chance)} to hit", DIM))
        for note in getattr(odds, "notes", ()):
            out.add(ink(note, DIM))
    return out.text


# Each command's lines of the dice log, kept while the names they use and its why line hold: (a
# weak reference to the step, names version, why line, lines) by id of the step (a step gone, with
# the states it holds, leaves a dead reference: its id reused by another step is never taken for
# it). Without it every command described the last 80 again, each naming units in the state before it.
_LOG_BLOCKS: dict[int, tuple[Any, object, str | None, list[Line]]] = {}


def log_text(session: Session, st: Any) -> Styled:
    """The dice log, one group per command, the latest command first; within a group the
    command, the computer's why line when a computer seat chose it (`Seats.why_of`: none while
    its choice is sealed), then its rolls and results in the order they happened (an attack reads
    top down). `st`: the state on screen (for names)."""
    version = st.names_version() if hasattr(st, "names_version") else None
    seats = session.seats
    lines: list[Line] = []
    for step in reversed(session.history[-80:]):
        why = seats.why_of(step)
        kept = _LOG_BLOCKS.get(id(step))
        if kept is not None and kept[0]() is step and kept[1] is version and version is not None \
                and kept[2] == why:
            block = kept[3]
        else:
            block = _log_block(session, st, step, why)
            if len(_LOG_BLOCKS) > 400:
                _LOG_BLOCKS.clear()
            try:
                _LOG_BLOCKS[id(step)] = (weakref.ref(step), version, why, block)
            except TypeError:  # a step that cannot be referred to weakly: described each time
                pass
        if not block:
            continue
        if lines:
            lines.append(())  # a blank line between commands
        lines.extend(block)
        if len(lines) > 200:
            break
    if not lines:
        return (line(ink("Every die rolled appears here with all its parts.", DIM)),)
    return tuple(lines)


def _place(box: RichTextBox, position: tuple[int, int], size: tuple[int, int]) -> None:
    if box.relative_rect.topleft != position:
        box.set_relative_position(position)
    if box.relative_rect.size != size:
        box.set_dimensions(size)


def _log_block(session: Session, st: Any, step: Any, why: str | None = None) -> list[Line]:
    """One command's lines of the dice log: the command, its why line (`why`: a computer seat's,
    None for a person's or while sealed), then its events. A command with no event to show (a
    sealed initiative choice: its event stays hidden) and no why line shows nothing; with a why
    line (the choices revealed), its heading and the why."""
    block = [text.event_line(ev, st.unit_name, side_names(session), lambda h: where(session, h))
             for ev in step.events if getattr(ev, "kind", "") not in ("initiative_chosen",)]
    if not block and why is None:
        return []
    try:
        head = session.system.describe_command(step.before, step.command)
    except Exception:  # a command the describer does not know: the events still show
        head = getattr(step.command, "kind", "")
    gm = getattr(step, "gm", False) and not str(head).startswith("GM")
    said = [line(ink(why, DIM, italic=True))] if why is not None else []
    return [line(ink("GM", text.WARN) if gm else None, " " if gm else None, bold(head)), *said, *block]


def _fit_status(rnd: str, side: str, phase: str, alone: str | None, label: Any) -> str:
    """The top bar's first line, as it fits the label: "Round 1/8 · Zone Column · Movement phase
    · Personal: Captain Varga alone" in full when it fits; else without "phase", then (a unit
    acting alone names its side) without the side; else its words that fit, with "…". At 960 x
    600 a Personal slot's line was cut mid-word at the label's edge."""
    personal = f" · Personal: {alone} alone" if alone else ""
    forms = [f"{rnd} · {side} · {phase} phase{personal}", f"{rnd} · {side} · {phase}{personal}"]
    if alone:
        forms.append(f"{rnd} · {phase} · Personal: {alone} alone")
    font = getattr(label, "font", None)
    if font is None:
        return forms[0]
    room = label.rect.w - 4
    for form in forms:
        if font.size(form)[0] <= room:
            return form
    kept = ""
    for word in forms[-1].split(" "):
        longer = f"{kept} {word}" if kept else word
        if font.size(longer.rstrip(" ·") + "…")[0] > room:
            break
        kept = longer
    return kept.rstrip(" ·") + "…"


def _fit_sentences(hint: str, label: Any) -> str:
    """The hint as it fits the label: whole sentences from the start, never cut mid-sentence
    (a narrow window drops the later ones, e.g. "Right click: cancel.")."""
    font = getattr(label, "font", None)
    room = label.rect.w - 8
    if font is None or not hint or font.size(hint)[0] <= room:
        return hint
    parts = [p for p in hint.replace(". ", ".\n").replace("; ", ";\n").split("\n") if p]
    while len(parts) > 1:
        parts.pop()
        text = " ".join(parts).rstrip(";,")
        if not text.endswith("."):
            text = text.rstrip(";") + "."
        if font.size(text)[0] <= room:
            return text
    first = parts[0] if parts else hint
    clauses = first.split(", ")
    while len(clauses) > 1 and font.size(", ".join(clauses) + "…")[0] > room:
        clauses.pop()  # one sentence too long for the window: its first clauses, marked as cut
    if len(clauses) == len(first.split(", ")):
        if font.size(first)[0] <= room:
            return first
        # one clause, too long itself (a save's message with its file's path): the words that
        # fit, marked as cut, never a word cut at the label's edge under the bar's buttons
        kept = ""
        for word in first.split(" "):
            longer = f"{kept} {word}" if kept else word
            if font.size(longer.rstrip(":;,.") + "…")[0] > room:
                break
            kept = longer
        if not kept:  # not even its first word: its letters that fit
            n = len(first)
            while n > 1 and font.size(first[:n] + "…")[0] > room:
                n -= 1
            kept = first[:n]
        return kept.rstrip(":;,.") + "…"
    # then as many whole words of the next clause as fit ('Computer (easy), Zone Column: end
    # phase…', not 'Computer (easy)…', which says nothing of what was done)
    kept = ", ".join(clauses)
    for word in first.split(", ")[len(clauses)].split(" "):
        longer = f"{kept}, {word}" if kept == ", ".join(clauses) else f"{kept} {word}"
        if font.size(longer.rstrip(":;,.") + "…")[0] > room:
            break
        kept = longer
    return kept.rstrip(":;,.") + "…"


def _preview_parts(p: Any) -> tuple[Any, Any]:
    """(ACBreakdown, Odds) of an attack preview, whatever the preview object calls them."""
    if p is None:
        return None, None
    odds = getattr(p, "odds", None)
    if odds is None and hasattr(p, "results"):
        odds = p
    ac = getattr(p, "ac", None)
    if ac is None and odds is not None:
        ac = getattr(odds, "ac", None)
    return ac, odds


def _hit_roll_text(state: Any, p: Any) -> str:
    """'Hit roll: senses 3 + firearms 2 + d10 + braced +2' for an attack preview."""
    attacker = getattr(p, "attacker_id", None)
    weapon = getattr(p, "weapon", None)
    if attacker is None or weapon is None:
        return ""
    t = state.unit_type(attacker)
    w = next((x for x in t.weapons if x.name == weapon), None)
    if w is None:
        return ""
    stat_name, stat, skill_name, skill = ail.attack.hit_stat_and_skill(t, w)
    parts = [f"{stat_name} {stat}", f"{skill_name} {skill}", f"d{ail.check.die_for(skill, state.setup.rules.check)}"]
    parts += [f"{words(m.label)} {text.signed(m.value)}" for m in getattr(p, "hit_modifiers", ())]
    return "Hit roll: " + " + ".join(parts)


def _no_chance_reason(state: Any, p: Any) -> str:
    """Why an attack cannot hit, in words (the rules still allow it)."""
    ac, _ = _preview_parts(p)
    t = state.unit_type(p.attacker_id)
    w = next((x for x in t.weapons if x.name == p.weapon), None)
    if w is None or ac is None:
        return "no roll can meet the Accuracy Challenge"
    _, stat, _, skill = ail.attack.hit_stat_and_skill(t, w)
    best = stat + skill + ail.check.die_for(skill, state.setup.rules.check) + sum(m.value for m in p.hit_modifiers)
    if best < ac.total:
        return (f"the Accuracy Challenge {ac.total} is beyond the best possible roll {best} "
                f"(rolling {ail.check.die_for(skill, state.setup.rules.check)} on the die)")
    return "no roll can meet the Accuracy Challenge"
