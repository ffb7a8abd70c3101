"""The battle scene's buttons: the action buttons of the side panel (the current mode's, and
Leadership / casualty Advantage for the selected unit) and what a press of any button does.
Mixed into BattleScene (game/client/scenes/battle.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.client.ail.modes import ActionButton
from game.rules.ail import commands as cmd

if TYPE_CHECKING:
    from game.client.ail.battle import BattleScene
    from game.client.ail.modes import Mode
    from game.client.anim import AnimQueue


class BattleActions:
    """The buttons part of the battle scene."""

    if TYPE_CHECKING:  # provided by BattleScene (game/client/scenes/battle.py)
        _button_ids: dict[object, str]
        _buttons_key: object
        actions_rect: pygame.Rect
        anim: AnimQueue
        mode: Mode
        selected: str | None
        top_buttons: dict[str, pygame_gui.elements.UIButton]
        ui: pygame_gui.UIManager

        def _use(self, result: Any) -> None: ...
        def end_phase(self) -> None: ...
        def help_dialog(self) -> None: ...
        def is_mine(self, unit_id: str) -> bool: ...
        def options_dialog(self) -> None: ...
        def place_side_panel(self, action_rows: int) -> None: ...
        @property
        def state(self) -> Any: ...
        def submit(self, commands: Any) -> bool: ...
        def undo(self) -> None: ...

    def _rebuild_action_buttons(self) -> None:
        quiet = self.state.pending is None and not self.anim.busy
        buttons = self.mode.buttons(cast("BattleScene", self)) if quiet else []
        extra = self._leadership_buttons()
        key = (tuple(buttons), tuple(extra))
        if key == self._buttons_key:
            return
        self._buttons_key = key
        for element in list(self._button_ids):
            element.kill()  # type: ignore[attr-defined]
        self._button_ids.clear()
        items: list[ActionButton] = list(buttons) + list(extra)
        cols = 2
        items = items[:12]
        rows = (len(items) + cols - 1) // cols
        self.place_side_panel(rows)  # the band is as tall as its buttons need
        self._buttons_key = key
        r = self.actions_rect
        bw = (r.w - 6) // cols
        rows = max(1, rows)
        gap = 4 if rows <= 4 else 2
        bh = min(26, (r.h - gap * (rows - 1)) // rows)
        for i, b in enumerate(items):
            cx = r.x + (i % cols) * (bw + 6)
            cy = r.y + (i // cols) * (bh + gap)
            oid = ObjectID(class_id="@primary") if b.selected else None
            el = pygame_gui.elements.UIButton(pygame.Rect(cx, cy, bw, bh), b.label, self.ui,
                                              tool_tip_text=b.tooltip or None, object_id=oid)
            _enable(el, b.enabled)
            self._button_ids[el] = b.id

    def _leadership_buttons(self) -> list[ActionButton]:
        st = self.state
        if self.selected is None or st.phase not in ("movement", "attack") or st.pending is not None:
            return []
        u = st.units.get(self.selected)
        if u is None or not self.is_mine(u.id):
            return []
        out = []
        pool = st.sides[u.side].advantage.get("leadership", 0)
        if pool:
            out.append(ActionButton("leadership", f"Give Leadership ({pool} left)",
                                    tooltip="The commander hands 1 Leadership point to this unit."))
        options = casualty_options(st, u.id)
        if len(options) > 1:
            now = (u.casualty_advantage, u.casualty_advantage_kind if u.casualty_advantage else None)
            out.append(ActionButton("casualty", f"Casualty: +{now[0]} {now[1]}" if now[0] else "Casualty rolls: none",
                                    selected=bool(now[0]),
                                    tooltip="Standing order: Advantage this unit spends on EACH of its casualty "
                                            "rolls when attacked, while its points last. Click to change."))
        return out

    def _ui_button(self, element: object) -> None:
        for key, btn in self.top_buttons.items():
            if element is btn:
                {"help": self.help_dialog, "options": self.options_dialog, "end": self.end_phase,
                 "undo": self.undo}[key]()
                return
        bid = self._button_ids.get(element)
        if bid is None:
            return
        if bid == "leadership" and self.selected:
            u = self.state.units[self.selected]
            self.submit(cmd.AssignLeadership(side=u.side, unit_id=u.id, points=1))
            return
        if bid == "casualty" and self.selected:
            u = self.state.units[self.selected]
            options = casualty_options(self.state, u.id)
            now = (u.casualty_advantage, u.casualty_advantage_kind if u.casualty_advantage else None)
            n, kind = options[(options.index(now) + 1) % len(options)] if now in options else options[0]
            self.submit(cmd.SetCasualtyAdvantage(unit_id=u.id, points=n, advantage_kind=kind))  # type: ignore[arg-type,unused-ignore]
            return
        self._use(self.mode.button(cast("BattleScene", self), bid))


def _enable(element: Any, on: bool) -> None:
    if on:
        element.enable()
    else:
        element.disable()


def casualty_options(state: Any, unit_id: str) -> list[tuple[int, str | None]]:
    """What a unit may spend on each of its casualty rolls: none, or 1..3 points of each kind of
    Advantage it holds (Leadership points; Personal for the commander's unit), as the rules count it."""
    from game.rules.ail.attacks import held_advantage

    u = state.units[unit_id]
    out: list[tuple[int, str | None]] = [(0, None)]
    for kind in ("leadership", "personal"):
        held = held_advantage(state, u, kind)
        out += [(n, kind) for n in range(1, min(held, 3) + 1)]
    return out


def casualty_label(points: int, kind: str | None) -> str:
    return f"+{points} {kind}" if points and kind else "no Advantage"
