"""The battle scene's side panels and top bar text: the status line and the hint, the selected
unit (or the sides' summary), the hovered hex or attack preview with its exact odds, and the
dice log. Mixed into BattleScene (game/client/scenes/battle.py); the HTML of units, terrain and
events is made by game/client/text.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import pygame_gui

from game.client import draw
from game.client.ail import text
from game.client.ail.battle_actions import _enable
from game.hexgrid import Hex

if TYPE_CHECKING:
    from game.client.ail.battle import BattleScene
    from game.client.ail.modes import Mode
    from game.client.ail.rq import Queries
    from game.client.session import Session


class BattlePanels:
    """The panels part of the battle scene (only what changed is re-rendered)."""

    if TYPE_CHECKING:  # provided by BattleScene (game/client/scenes/battle.py)
        _toast: tuple[str, float] | None
        _ui_cache: dict[str, str]
        hint_label: pygame_gui.elements.UILabel
        hover: Hex | None
        info_box: pygame_gui.elements.UITextBox
        log_box: pygame_gui.elements.UITextBox
        mode: Mode
        q: Queries
        selected: str | None
        session: Session
        status_label: pygame_gui.elements.UILabel
        top_buttons: dict[str, pygame_gui.elements.UIButton]
        unit_box: pygame_gui.elements.UITextBox

        def _rebuild_action_buttons(self) -> None: ...
        def side_colour(self, side: str | None) -> tuple[int, int, int]: ...
        @property
        def state(self) -> Any: ...
        def unit_at(self, h: Hex) -> Any: ...

    def _set_html(self, key: str, box: pygame_gui.elements.UITextBox, html: str) -> None:
        if self._ui_cache.get(key) != html:
            self._ui_cache[key] = html
            box.set_text(html)

    def _set_label(self, key: str, label: pygame_gui.elements.UILabel, s: str) -> None:
        if self._ui_cache.get(key) != s:
            self._ui_cache[key] = s
            label.set_text(s)

    def refresh_panels(self, force: bool = False) -> None:
        """Bring the panels up to date (only what changed is re-rendered)."""
        st = self.state
        phase = text.PHASE_NAMES.get(st.phase, st.phase)
        rnd = f"Round {st.round}/{st.setup.round_limit}"
        if st.phase == "ended":
            status = f"{rnd} · Battle over"
        elif st.phase == "initiative":
            status = f"{rnd} · Initiative"
        else:
            owner = st.active_side
            status = f"{rnd} · {st.side_name(owner) if owner else ''} · {phase} phase"
            slot = st.active_slot
            if slot is not None and slot.unit_id is not None:
                status += f" · Personal: {st.unit_name(slot.unit_id)} alone"
        self._set_label("status", self.status_label, status)
        self._set_label("hint", self.hint_label, _fit_sentences(self._hint(), self.hint_label))
        # selected unit
        if self.selected and self.selected in st.units:
            html = text.unit_html(st, self.selected, self.side_colour(st.units[self.selected].side))
        else:
            html = f"<font color='{text.DIM}'>No unit selected. Click a unit to see it; Tab picks the next " \
                   "unit that can act.</font>"
            html += self._side_summary_html()
        self._set_html("unit", self.unit_box, html)
        # hover / preview
        self._set_html("info", self.info_box, self._info_html())
        # dice log
        if force or self._ui_cache.get("log_n") != str(len(self.session.history)):
            self._ui_cache["log_n"] = str(len(self.session.history))
            self._set_html("log", self.log_box, self.log_html())
        # buttons
        _enable(self.top_buttons["undo"], self.session.can_undo)
        if st.phase in ("movement", "attack") and st.pending is None:
            _enable(self.top_buttons["end"], True)
            label = f"End {st.phase} (E)"
            if self._ui_cache.get("endlbl") != label:
                self._ui_cache["endlbl"] = label
                self.top_buttons["end"].set_text(label)
        else:
            _enable(self.top_buttons["end"], False)
            # the label says what this phase is, never the end of a phase that is not on
            label = {"initiative": "Initiative…", "ended": "Battle over"}.get(st.phase, "Waiting…")
            if self._ui_cache.get("endlbl") != label:
                self._ui_cache["endlbl"] = label
                self.top_buttons["end"].set_text(label)
        self._rebuild_action_buttons()

    def _where(self, h: Hex) -> str:
        col, row = self.session.board.offset_of(h)
        return f"{col},{row}"

    def _side_names(self) -> dict[str, str]:
        return {s.id: s.name for s in self.session.setup.sides}

    def _side_summary_html(self) -> str:
        st = self.state
        lines = []
        for s in st.setup.sides:
            adv = st.sides[s.id].advantage
            pools = ", ".join(f"{k} {v}" for k, v in adv.items() if v)
            alive = len(st.live_units(s.id))
            units = f"{alive} unit{'' if alive == 1 else 's'}"
            lines.append(f"<font color='{text.hexcol(s.colour)}'><b>{text.e(s.name)}</b></font>: "
                         f"{units}" + (f" · Advantage: {text.e(pools)}" if pools else ""))
        if st.turn_order:
            order = []
            for i, slot in enumerate(st.turn_order):
                label = st.side_name(slot.side) + (f" ({st.unit_name(slot.unit_id)})" if slot.unit_id else "")
                order.append(f"<b>{text.e(label)}</b>" if i == st.turn_index and st.phase != "initiative"
                             else text.e(label))
            lines.append(f"<font color='{text.DIM}'>Turn order:</font> " + " &gt; ".join(order))
        for o in st.setup.objectives:
            if o.description:
                lines.append(f"<font color='{text.DIM}'>Objective ({text.e(st.side_name(o.side))}): "
                             f"{text.e(o.description)}</font>")
        return "<br><br>" + "<br>".join(lines)

    def _hint(self) -> str:
        if self._toast is not None:
            return self._toast[0]
        st = self.state
        if st.phase == "ended":
            return "The battle is over."
        if st.pending is not None:
            return f"Waiting for {st.side_name(st.pending.sides[0])} to answer."
        return self.mode.hint(cast("BattleScene", self))

    def _info_html(self) -> str:
        st = self.state
        pv = self.mode.preview(cast("BattleScene", self))
        if pv is not None:
            return self._preview_html(pv[0], pv[1])
        view = self.mode.path_view(cast("BattleScene", self))
        parts = []
        if view is not None and view.exposures:
            parts.append(f"<b>{text.e(view.label)}</b>")
            for ex in view.exposures:
                parts.append(f"<font color='{text.BAD}'>Overwatch at step {ex.step}: "
                             f"{text.e(st.unit_name(ex.watcher_id))} ({text.e(ex.weapon)}) "
                             f"{draw.percent(_hit_chance(ex))} to hit</font>")
        elif view is not None:
            parts.append(f"<b>{text.e(view.label)}</b> · no overwatch on this path")
        if self.hover is not None and self.hover in st.board.terrain:
            parts.append(text.terrain_html(st.board, st.setup.rules, self.hover, st))
            for obj in st.setup.objectives:
                if self.hover in obj.hexes:
                    parts.append(f"<font color='{text.GOLD}'>Objective of {text.e(st.side_name(obj.side))}: "
                                 f"{text.e(obj.description or 'hold this hex')}</font>")
            u = self.unit_at(self.hover)
            if u is not None and u.stance == "overwatch":
                zone = self.q.danger_zone(st, u.id)
                parts.append(f"<font color='{text.BAD}'>{text.e(st.unit_name(u.id))} is on overwatch "
                             f"({text.e(u.stance_weapon or '')}): it fires at the first enemy that dashes or "
                             f"charges into the red hexes ({len(zone)} in range and sight).</font>")
            if u is not None and u.id != self.selected:
                parts.append(text.unit_html(st, u.id, self.side_colour(u.side)))
        return "<br>".join(parts) or f"<font color='{text.DIM}'>Hover a hex to see its terrain.</font>"

    def _preview_html(self, p: Any, base: Any) -> str:
        ac, odds = _preview_parts(p)
        st = self.state
        lines = []
        target = getattr(p, "target_id", None)
        if target:
            lines.append(f"<b>vs {text.e(st.unit_name(target))}</b>")
        if ac is not None:
            parts = " ".join(f"{text.e(m.label)} {text.signed(m.value) if i else m.value}"
                             for i, m in enumerate(ac.parts))
            lines.append(f"Accuracy Challenge <b>{ac.total}</b> = {parts}")
        hit = _hit_roll_text(st, p)
        if hit:
            lines.append(hit)
        if odds is not None and odds.hit_chance == 0:
            why = getattr(p, "no_chance", None) or _no_chance_reason(st, p)  # the rules' own sentence
            lines.append(f"<font color='{text.BAD}'><b>0% to hit:</b> {text.e(why)}; the attack may still be "
                         "made.</font>")
        if odds is not None:
            chance = f"Hit chance <b>{draw.percent(odds.hit_chance)}</b>"
            if base is not None:
                _, bodds = _preview_parts(base)
                if bodds is not None:
                    chance += f" (was {draw.percent(bodds.hit_chance)} without Advantage)"
            chance += f" · expected strength lost {float(odds.expected_strength_lost):.2f}"
            lines.append(chance)
            da = getattr(p, "odds_if_defensive_action", None)
            if da is not None:
                lines.append(f"<font color='{text.DIM}'>If the defender takes a defensive action: "
                             f"{draw.percent(da.hit_chance)} to hit</font>")
            for note in getattr(odds, "notes", ()):
                lines.append(f"<font color='{text.DIM}'>{text.e(note)}</font>")
        return "<br>".join(lines)

    def log_html(self) -> str:
        """The dice log, one group per command, the latest command first; within a group the
        command, then its rolls and results in the order they happened (an attack reads top down)."""
        st = self.state
        name = st.unit_name
        system = self.session.system
        lines: list[str] = []
        for step in reversed(self.session.history[-80:]):
            block = [text.event_html(ev, name, self._side_names(), self._where) for ev in step.events
                     if getattr(ev, "kind", "") not in ("initiative_chosen",)]
            if not block:
                continue
            try:
                head = system.describe_command(step.before, step.command)
            except Exception:  # a command the describer does not know: the events still show
                head = getattr(step.command, "kind", "")
            gm = "<font color='#ffc857'>GM</font> " if getattr(step, "gm", False) \
                and not str(head).startswith("GM") else ""
            if lines:
                lines.append("")  # a blank line between commands
            lines.append(f"{gm}<b>{text.e(str(head))}</b>")
            lines.extend(block)
            if len(lines) > 200:
                break
        if not lines:
            return f"<font color='{text.DIM}'>Every die rolled appears here with all its parts.</font>"
        return "<br>".join(lines)


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
    return ", ".join(clauses) + ("…" if len(clauses) < len(first.split(", ")) else "")


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
    from game.rules.ail.attack import hit_stat_and_skill
    from game.rules.ail.check import die_for

    t = state.unit_type(attacker)
    w = next((x for x in t.weapons if x.name == weapon), None)
    if w is None:
        return ""
    stat_name, stat, skill_name, skill = hit_stat_and_skill(t, w)
    parts = [f"{stat_name} {stat}", f"{skill_name} {skill}", f"d{die_for(skill, state.setup.rules.check)}"]
    parts += [f"{text.e(m.label)} {text.signed(m.value)}" for m in getattr(p, "hit_modifiers", ())]
    return "Hit roll: " + " + ".join(parts)


def _no_chance_reason(state: Any, p: Any) -> str:
    """Why an attack cannot hit, in words (the rules still allow it)."""
    from game.rules.ail.attack import hit_stat_and_skill
    from game.rules.ail.check import die_for

    ac, _ = _preview_parts(p)
    t = state.unit_type(p.attacker_id)
    w = next((x for x in t.weapons if x.name == p.weapon), None)
    if w is None or ac is None:
        return "no roll can meet the Accuracy Challenge."
    _, stat, _, skill = hit_stat_and_skill(t, w)
    best = stat + skill + die_for(skill, state.setup.rules.check) + sum(m.value for m in p.hit_modifiers)
    if best < ac.total:
        return (f"the Accuracy Challenge {ac.total} is beyond the best possible roll {best} "
                f"(rolling {die_for(skill, state.setup.rules.check)} on the die). The attack may still be made.")
    return "no roll can meet the Accuracy Challenge. The attack may still be made."


def _hit_chance(ex: Any) -> float:
    for name in ("hit_chance", "chance", "p_hit"):
        v = getattr(ex, name, None)
        if v is not None:
            return float(v)
    odds = getattr(ex, "odds", None)
    if odds is not None:
        return float(getattr(odds, "hit_chance", 0))
    return 0.0
