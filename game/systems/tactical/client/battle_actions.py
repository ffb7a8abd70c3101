"""The battle scene's action buttons: the current mode's, and Leadership / casualty Advantage
for the selected unit, in the side panel's band; and what a press of one of them means.

`ActionButtons` is one part of the battle scene (game/systems/tactical/client/battle.py), constructed by it:
it owns the buttons it made and which button is which. What it reads of the game is passed to
each call as an `ActionContext`; it keeps no reference to the scene. Every button it shows is one
the rules offer: the mode's (modes.py, from the rules' queries), Leadership when the side holds
points to give it (`leadership_to_give`), the casualty order's choices
(`casualty_options`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

import game.systems.tactical.rules as ail  # (its names load when first used: start-up time)
from game.core.hexgrid import Hex
from game.shell.toolkit.buttons import Button
from game.systems.tactical.client.battle_panels import Panels
from game.systems.tactical.client.modes import ActionButton, Mode
from game.systems.tactical.client.widgets import enable

if TYPE_CHECKING:
    from game.shell.anim import AnimQueue


class ActionContext(Protocol):
    """What the action buttons read of the scene for one call (never kept between calls)."""

    mode: Mode
    selected: str | None
    anim: AnimQueue
    hover: Hex | None

    @property
    def state(self) -> Any: ...

    def is_mine(self, unit_id: str) -> bool: ...

    def unit_at(self, h: Hex) -> Any: ...


class ActionButtons:
    """The action buttons of the battle scene's side panel.

    No public fields. Private: the buttons on screen (element -> button id) and what they were
    made for (made again only when that changes)."""

    def __init__(self) -> None:
        self._ids: dict[object, str] = {}
        self._shown: dict[object, ActionButton] = {}  # what each button on screen was made from
        self._key: object = None
        self._inputs: object = None

    def forget(self) -> None:
        """The toolkit was cleared (a new layout): make the buttons again next time."""
        self._ids.clear()
        self._shown.clear()
        self._key = None
        self._inputs = None

    def label_at(self, pos: tuple[int, int]) -> str | None:
        """The words of the action button shown under `pos` (None: none there)."""
        for el in self._ids:
            if isinstance(el, pygame_gui.elements.UIButton) and el.visible and el.rect.collidepoint(pos):
                return str(el.text)
        return None

    def rebuild(self, ctx: ActionContext, ui: pygame_gui.UIManager, panels: Panels, side: pygame.Rect,
                screen_size: tuple[int, int]) -> None:
        """Show the buttons the mode and the selected unit offer now (only when they changed);
        the panels give them a band as tall as they need."""
        st = ctx.state
        quiet = st.pending is None and not ctx.anim.busy
        # what the buttons are made from (no mode's buttons follow the hovered hex): a hover asks
        # again with the same, and is answered without asking the mode
        mine = ctx.selected is not None and ctx.selected in st.units and ctx.is_mine(ctx.selected)
        inputs = (id(st), st.seq, type(ctx.mode), tuple(sorted(vars(ctx.mode).items())), ctx.selected, mine, quiet,
                  id(panels), tuple(side), screen_size)
        if inputs == self._inputs:
            return
        self._inputs = inputs
        buttons = ctx.mode.buttons(ctx) if quiet else []
        extra = _leadership_buttons(ctx)
        key = (tuple(buttons), tuple(extra))
        if key == self._key:
            return
        self._key = key
        for element in list(self._ids):
            element.kill()  # type: ignore[attr-defined]
        self._ids.clear()
        self._shown.clear()
        items: list[ActionButton] = list(buttons) + list(extra)
        cols = 2
        items = items[:12]
        rows = (len(items) + cols - 1) // cols
        panels.place(rows, side, screen_size)  # the band is as tall as its buttons need
        r = panels.actions_rect
        bw = (r.w - 6) // cols
        rows = max(1, rows)
        gap = 4 if rows <= 4 else 2
        bh = min(26, (r.h - gap * (rows - 1)) // rows)
        for i, b in enumerate(items):
            cx = r.x + (i % cols) * (bw + 6)
            cy = r.y + (i // cols) * (bh + gap)
            oid = ObjectID(class_id="@primary") if b.selected else None
            el = Button(pygame.Rect(cx, cy, bw, bh), b.label, ui,
                                              tool_tip_text=b.tooltip or None, object_id=oid)
            enable(el, b.enabled)
            self._ids[el] = b.id
            self._shown[el] = b

    def button_id(self, element: object) -> str | None:
        """The id of the action button an element is (None: not one of these)."""
        return self._ids.get(element)

    def greyed_at(self, pos: tuple[int, int]) -> ActionButton | None:
        """The greyed (disabled) action button under `pos`, None when there is none: the toolkit
        neither presses it nor shows its tooltip, so the scene says why it is closed."""
        for el, b in self._shown.items():
            if not b.enabled and getattr(el, "visible", True) and el.rect.collidepoint(pos):  # type: ignore[attr-defined]
                return b
        return None


def greyed_reason(st: Any, button: ActionButton, command: Any) -> str:
    """Why a greyed action button is closed, in the rules' words when it stands for a command (the
    rules' refusal of it: applying is pure, nothing changes), else its tooltip's, else plainly."""
    if command is not None:
        out = ail.apply(st, command)
        if isinstance(out, ail.Rejection) and out.reason:
            return f"{button.label}: {out.reason}."
    if button.tooltip:
        return f"{button.label}: {button.tooltip.rstrip('.')}."
    return f"{button.label}: not open now."


def unit_command(st: Any, selected: str | None, bid: str) -> Any:
    """The command the unit's own buttons make ("leadership", "casualty"); None for the mode's."""
    if selected is None or bid not in ("leadership", "casualty"):
        return None
    u = st.units[selected]
    if bid == "leadership":
        return ail.AssignLeadership(side=u.side, unit_id=u.id, points=1)
    options = ail.queries.casualty_options(st, u.id)
    now = (u.casualty_advantage, u.casualty_advantage_kind if u.casualty_advantage else None)
    n, kind = options[(options.index(now) + 1) % len(options)] if now in options else options[0]
    return ail.SetCasualtyAdvantage(unit_id=u.id, points=n, advantage_kind=kind)  # type: ignore[arg-type,unused-ignore]


def _leadership_buttons(ctx: ActionContext) -> list[ActionButton]:
    st = ctx.state
    if ctx.selected is None or st.phase not in ("movement", "attack") or st.pending is not None:
        return []
    u = st.units.get(ctx.selected)
    if u is None or not ctx.is_mine(u.id):
        return []
    out = []
    pool = ail.queries.leadership_to_give(st, u.id)
    if pool:
        out.append(ActionButton("leadership", f"Give Leadership ({pool} left)",
                                tooltip="The commander hands 1 Leadership point to this unit."))
    options = ail.queries.casualty_options(st, u.id)
    if len(options) > 1:
        now = (u.casualty_advantage, u.casualty_advantage_kind if u.casualty_advantage else None)
        out.append(ActionButton("casualty", f"Casualty: +{now[0]} {now[1]}" if now[0] else "Casualty rolls: none",
                                selected=bool(now[0]),
                                tooltip="Standing order: Advantage this unit spends on EACH of its casualty "
                                        "rolls when attacked, while its points last. Click to change."))
    return out
