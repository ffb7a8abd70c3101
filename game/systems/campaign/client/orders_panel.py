"""The sealed-orders panel, by mouse: a button per manoeuvre (its tooltip says what it beats and
loses to), a list of the units that may lead it by name and stats (the best one chosen at
first), a check box per stratagem that goes with the manoeuvre (each with its requirement as a
tooltip; one that cannot be declared is greyed and says why), the hexes a withdrawal or a
breakthrough aims at picked on the map, and the planner for exactly these orders with what it
assumes of the enemy. Keys 1-6, V and S stay as shortcuts.

Beside the planner's rows, the equilibrium of the battle as a zero-sum game (rules/equilibrium.py,
issue 32): each manoeuvre's chance in the equilibrium mix and how much it gives up against the
enemy's equilibrium mix, then the battle's value, the enemy's mix and what the payoff counts. It is
solved from the player's view only (the enemy's sealed orders are never needed) and only while the
planner is shown (scipy is imported then, not at start-up); when the window is short the lines
under the table shrink to a compact form and say so.

Every option and every refusal comes from the rules' queries (rules/orders.py, the planner),
asked of the state as the player sees it (`scene.seen`): the panel decides nothing itself.
"""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from game.shell.fonts import font
from game.shell.toolkit.buttons import Button
from game.systems.campaign.rules import orders as q
from game.systems.campaign.rules.commands import GiveOrders
from game.systems.campaign.rules.equilibrium import BAND_WORTH, Equilibrium, equilibrium
from game.systems.campaign.rules.models import MANOEUVRE_NAMES, MANOEUVRES, Coord
from game.systems.campaign.rules.planner import plan

ROW = 26  # a button row
LIST_ROWS = 3  # vanguard list rows shown (it scrolls)


class OrdersPanel:
    """One player's orders for one battle; `orders` is always a legal GiveOrders."""

    def __init__(self, scene: Any, battle_id: str, player: str) -> None:
        self.scene = scene
        self.battle_id = battle_id
        self.player = player
        self.vanguard_chosen = False  # the player picked the vanguard (else each manoeuvre's best)
        self.picking: str | None = None  # "withdraw" / "breakthrough": the next map click picks it
        self.notes: tuple[str, ...] = ()
        self.choices = q.choices(scene.seen, battle_id, player)
        self.first = self.choices.orders  # the rules' first choice: anything else is the player's
        self.widgets: dict[Any, tuple[str, str]] = {}
        self.vanguard_list: Any = None
        self._van_labels: dict[str, str] = {}
        self.text_top = 0  # where the drawn text (summary, planner) starts
        self._plan: tuple[Any, Any] | None = None  # (the choice it was made for, the planner's table)
        self._eq: tuple[int, Equilibrium | str] | None = None  # (the history length, the equilibrium or why none)

    @property
    def orders(self) -> GiveOrders:
        return self.choices.orders

    # ------------------------------------------------------------------ changing the choice
    def _remake(self, **change: Any) -> None:
        o = self.orders
        args = {"manoeuvre": o.manoeuvre, "vanguard": o.vanguard, "stratagems": o.stratagems,
                "withdraw_to": o.withdraw_to, "breakthrough_to": o.breakthrough_to, **change}
        self.choices = q.choices(self.scene.seen, self.battle_id, self.player, **args)
        self.notes = self.choices.dropped
        if self.picking == "withdraw" and not self.choices.asks_withdraw_hex:
            self.picking = None
        if self.picking == "breakthrough" and not self.choices.asks_breakthrough_hex:
            self.picking = None

    def half_chosen(self) -> bool:
        """The player changed the orders from the first choice, or is picking a hex: not sealed,
        this would be lost (the map asks before quitting)."""
        return self.picking is not None or self.orders != self.first

    def refresh(self) -> None:
        """The orders chosen so far, asked of the rules again (the state changed while they were
        kept: an undo, the GM's commands): kept where they still go, the dropped parts said."""
        self._remake(vanguard=self.orders.vanguard if self.vanguard_chosen else None)

    def set_manoeuvre(self, m: str) -> None:
        """A new manoeuvre keeps the vanguard the player chose if it may lead it (else the best)
        and the stratagems that still go with it; one these forces may not order is refused."""
        info = next(i for i in self.choices.manoeuvres if i.id == m)
        if info.refusal:
            self.notes = (f"{info.name}: {info.refusal}",)
            return
        self._remake(manoeuvre=m, vanguard=self.orders.vanguard if self.vanguard_chosen else None)

    def set_vanguard(self, uid: str) -> None:
        self.vanguard_chosen = True
        self._remake(vanguard=uid)

    def toggle(self, stratagem: str) -> None:
        opt = next(s for s in self.choices.stratagems if s.id == stratagem)
        if stratagem not in self.orders.stratagems and opt.refusal:
            self.notes = (opt.refusal,)
            return
        new = q.toggled(self.scene.seen, self.orders, stratagem)
        self._remake(stratagems=new.stratagems)

    def next_vanguard(self) -> None:
        legal = [v.id for v in self.choices.vanguards if v.refusal is None]
        if legal:
            i = (legal.index(self.orders.vanguard) + 1) % len(legal) if self.orders.vanguard in legal else 0
            self.set_vanguard(legal[i])

    def next_stratagem(self) -> None:
        """S: add the next stratagem that may be added; when none may, clear them all."""
        nxt = next((s.id for s in self.choices.stratagems
                    if s.goes_with and s.refusal is None and s.id not in self.orders.stratagems), None)
        if nxt is None:
            self._remake(stratagems=())
        else:
            self.toggle(nxt)

    def pick(self, c: Coord) -> bool:
        """A map click while picking a hex: True when it was taken."""
        if self.picking is None:
            return False
        what = self.picking
        allowed = self.choices.withdraw_hexes if what == "withdraw" else self.choices.breakthrough_hexes
        if c not in allowed:
            self.notes = (f"{c[0]},{c[1]} is not next to the battle: pick one of the marked hexes.",)
            return True
        self.picking = None
        self._remake(**{f"{what}_to": c})
        return True

    def marked_hexes(self) -> tuple[tuple[Coord, ...], Coord | None, Coord | None]:
        """(hexes to pick from now, the chosen withdraw hex, the chosen breakthrough hex)."""
        pick: tuple[Coord, ...] = ()
        if self.picking == "withdraw":
            pick = self.choices.withdraw_hexes
        elif self.picking == "breakthrough":
            pick = self.choices.breakthrough_hexes
        return pick, self.orders.withdraw_to, self.orders.breakthrough_to

    # ------------------------------------------------------------------ widgets
    def build(self, ui: Any, rect: pygame.Rect) -> None:
        """The panel's widgets inside `rect` (the drawn text goes below them: `text_top`)."""
        self.widgets = {}
        x, y, w = rect.x, rect.y, rect.w
        bw = (w - 2 * 6) // 3
        for i, info in enumerate(self.choices.manoeuvres):
            r = pygame.Rect(x + (i % 3) * (bw + 6), y + (i // 3) * (ROW + 4), bw, ROW)
            b = Button(r, f"{i + 1} {info.name}", ui, tool_tip_text=info.tip)
            if info.id == self.orders.manoeuvre:
                b.select()  # type: ignore[no-untyped-call]
            elif info.refusal:
                b.disable()  # type: ignore[no-untyped-call]
            self.widgets[b] = ("manoeuvre", info.id)
        y += 2 * (ROW + 4) + 18  # (the vanguard's heading is drawn above its list)
        self.list_label_y = y - 16
        labels: list[str | tuple[str, str]] = []
        self._van_labels = {}
        # identical units (same type) lead alike: one line each, with how many there are
        legal = [v for v in self.choices.vanguards if v.refusal is None]
        by_type: dict[str, list[Any]] = {}
        for v in legal:
            by_type.setdefault(v.label, []).append(v)
        best = self.choices.best_vanguard
        for label, group in sorted(by_type.items(), key=lambda kv: not any(v.id == best for v in kv[1])):
            ids = [v.id for v in group]
            pick = self.orders.vanguard if self.orders.vanguard in ids else (best if best in ids else ids[0])
            text = label + (f"  x{len(group)}" if len(group) > 1 else "") + ("  (best)" if best in ids else "")
            self._van_labels[text] = pick
            labels.append(text)
        chosen = next((lab for lab, uid in self._van_labels.items() if uid == self.orders.vanguard), None)
        self.vanguard_ids = {lab: uid for lab, uid in self._van_labels.items()}
        self.vanguard_list = pygame_gui.elements.UISelectionList(
            pygame.Rect(x, y, w, LIST_ROWS * 20 + 6), labels, ui, default_selection=chosen)
        y += LIST_ROWS * 20 + 10
        shown = [s for s in self.choices.stratagems if s.goes_with]
        sw = (w - 6) // 2
        for i, s in enumerate(shown):
            mark = "[x]" if s.id in self.orders.stratagems else "[ ]"
            tip = s.requirement + (f" Not now: {s.refusal}" if s.refusal and s.id not in self.orders.stratagems else "")
            r = pygame.Rect(x + (i % 2) * (sw + 6), y + (i // 2) * (ROW + 2), sw, ROW)
            b = Button(r, f"{mark} {s.name}", ui, tool_tip_text=tip)
            if s.refusal and s.id not in self.orders.stratagems:
                b.disable()  # type: ignore[no-untyped-call]
            self.widgets[b] = ("stratagem", s.id)
        y += ((len(shown) + 1) // 2) * (ROW + 2) + 2
        row: list[tuple[str, str]] = []
        if self.choices.asks_withdraw_hex:
            at = self.orders.withdraw_to
            row.append(("withdraw", "Withdraw to: " + (f"{at[0]},{at[1]}" if at else "pick on map")))
        if self.choices.asks_breakthrough_hex:
            at = self.orders.breakthrough_to
            row.append(("breakthrough", "Break through to: " + (f"{at[0]},{at[1]}" if at else "pick on map")))
        if row:
            hw = (w - 6 * (len(row) - 1)) // len(row)
            for i, (key, text) in enumerate(row):
                b = Button(pygame.Rect(x + i * (hw + 6), y, hw, ROW), text, ui,
                           tool_tip_text="Click, then click one of the marked hexes next to the battle.")
                if self.picking == key:
                    b.select()  # type: ignore[no-untyped-call]
                self.widgets[b] = ("pick", key)
            y += ROW + 4
        self.text_top = y

    def handle(self, event: pygame.event.Event) -> bool:
        """A widget event of this panel: True when it changed the orders (rebuild the widgets)."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.widgets:
            what, arg = self.widgets[event.ui_element]
            if what == "manoeuvre":
                self.set_manoeuvre(arg)
            elif what == "stratagem":
                self.toggle(arg)
            elif what == "pick":
                self.picking = None if self.picking == arg else arg
            return True
        if (event.type == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION and self.vanguard_list is not None
                and event.ui_element is self.vanguard_list):
            uid = self._van_labels.get(event.text)
            if uid is not None and uid != self.orders.vanguard and not (
                    self._type_of(uid) == self._type_of(self.orders.vanguard)):
                self.set_vanguard(uid)
                return True
        return False

    def _type_of(self, uid: str) -> str:
        v = next((v for v in self.choices.vanguards if v.id == uid), None)
        return v.label if v is not None else uid

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, x: int, bottom: int) -> int:
        """The vanguard's heading, the orders in words and the planner (as room allows)."""
        sc = self.scene
        o = self.orders
        sc._text(surface, "Vanguard (units that may lead it; best first chosen):", (x, self.list_label_y), 12,
                 (200, 200, 210))
        y = self.text_top
        van = next((v for v in self.choices.vanguards if v.id == o.vanguard), None)
        strs = ", ".join(q.title(s) for s in o.stratagems) or "no stratagems"
        y += sc._para(surface, f"Orders: {MANOEUVRE_NAMES[o.manoeuvre]}, vanguard "
                      f"{van.label if van else o.vanguard}, {strs}.", (x, y), 13, (240, 230, 190), True)
        others = sum(1 for s in self.choices.stratagems if not s.goes_with)
        if others:
            y += sc._para(surface, f"{others} more stratagems go with other manoeuvres (hover: needs).",
                          (x, y), 11, (170, 170, 180))
        if self.picking:
            y += sc._para(surface, f"Click a marked hex next to the battle: where to {self.picking}.", (x, y), 12,
                          (255, 255, 160), True)
        for n in self.notes:
            y += sc._para(surface, n, (x, y), 12, (255, 170, 120))
        sc.planner_fits = bottom - y >= PLANNER_NEED
        if not sc.show_planner:
            return int(y + sc._text(surface, "Planner hidden (E shows it).", (x, y), 11, (170, 170, 180)))
        if bottom - y < PLANNER_NEED:  # a short window: the planner over the map, clear of the battle's hex
            box = self.planner_box()
            pygame.draw.rect(surface, (22, 25, 32), box)
            pygame.draw.rect(surface, EQ_COLOUR, box, 1)
            self._draw_planner(surface, box.x + 8, box.y + 6, box.bottom - 4)
            return int(y) + int(sc._para(surface, "Planner: over the map (no room for it here at this window "
                                         "size; E hides it).", (x, y), 11, (170, 170, 180)))
        return self._draw_planner(surface, x, y, bottom)

    def planner_box(self) -> pygame.Rect:
        """Where the planner is drawn over the map when the panel has no room for it [decision]:
        the panel's width, along the map view's foot (above its line of controls), or along its top (below the week's steps)
        when the battle's hex would be under it at the foot."""
        sc = self.scene
        view = sc.map_view()
        w = min(view.w - 12, PLANNER_BOX[0])
        h = min(view.h - 46, PLANNER_BOX[1])
        box = pygame.Rect(view.x + 6, view.bottom - h - 22, w, h)  # (above the map's line of controls)
        bx, by = sc.hex_centre(sc.seen.battles[self.battle_id].hex)
        reach = int(3 * 36 * sc.scale)  # the battle's hex and the hexes beside it (picked for a Withdraw)
        if box.inflate(2 * reach, 2 * reach).collidepoint(bx, by):
            box.y = view.y + 24
        return box

    def _draw_planner(self, surface: pygame.Surface, x: int, y: int, bottom: int) -> int:
        """The planner's table (win% / lose% of each pair of manoeuvres), the equilibrium's mix and
        what each manoeuvre gives up, its value and the note on the rows, from `y`, above `bottom`.
        Returns the y under it."""
        sc = self.scene
        st = sc.seen
        o = self.orders
        # the vanguard the player picked, else each manoeuvre's best (the chosen row's is the best)
        picked = o.vanguard if self.vanguard_chosen else None
        key = (o.stratagems, picked, len(sc.session.history))
        if self._plan is None or self._plan[0] != key:  # (computed once per choice, not per frame)
            self._plan = (key, plan(st, self.battle_id, self.player, o.stratagems, picked))
        p = self._plan[1]
        eq = self.equilibrium()
        summary = eq.manoeuvre_summary() if isinstance(eq, Equilibrium) else {}
        y += sc._text(surface, "Planner: win% / lose%, mine (rows) vs theirs (columns)", (x, y), 12, bold=True)
        # each text at its own place (the font is not monospaced): the rows named in full as on the
        # manoeuvre buttons, the columns by the same numbers, each cell right-aligned in its column
        f = font(11)

        def right(text: str, at: int, top: int, colour: tuple[int, int, int] = (225, 225, 225)) -> int:
            return int(sc._text(surface, text, (x + at - f.size(text)[0], top), 11, colour))

        sc._text(surface, "theirs:", (x + 10, y), 11, (170, 170, 180))
        for i, _t in enumerate(MANOEUVRES):
            right(str(i + 1), PLAN_CELLS_X + (i + 1) * PLAN_CELL_W, y)
        sc._text(surface, "mix", (x + EQ_MIX_X, y), 11, EQ_COLOUR)
        y += sc._text(surface, "gives up", (x + EQ_GIVES_X, y), 11, EQ_COLOUR)
        for row_no, mine in enumerate(MANOEUVRES, 1):
            cells = [c for c in p.cells if c.mine == mine]
            colour = (255, 240, 170) if mine == o.manoeuvre else (225, 225, 225)
            if mine == o.manoeuvre:
                sc._text(surface, ">", (x, y), 11, colour)
            sc._text(surface, f"{row_no} {MANOEUVRE_NAMES[mine]}", (x + 10, y), 11, colour)
            for i, c in enumerate(cells):
                lose = round(100 * sum(v for k, v in c.chances.items() if k.startswith("lose")))
                right(f"{round(100 * c.win)}/{lose}", PLAN_CELLS_X + (i + 1) * PLAN_CELL_W, y, colour)
            chance, gives = summary.get(mine, (None, None))
            sc._text(surface, mix_text(chance), (x + EQ_MIX_X, y), 11, EQ_COLOUR)
            y += sc._text(surface, gives_text(gives), (x + EQ_GIVES_X, y), 11, EQ_COLOUR)
        y += self._draw_equilibrium(surface, eq, x, y, bottom)
        lead = ("this vanguard where it may lead (else the best)" if self.vanguard_chosen
                else "each manoeuvre's best vanguard")
        note = (f"Row {MANOEUVRE_NAMES[o.manoeuvre]} (>) is exactly these orders; the other rows use {lead} "
                "and these stratagems where they go. "
                + q.enemy_assumption(st, self.battle_id, self.player))
        if len(sc._wrap(note, 11, False, 376)) * 14 > bottom - y:
            note = "Row > = these orders; enemy: best vanguard, no stratagems."
        if len(sc._wrap(note, 11, False, 376)) * 14 <= bottom - y:
            y += sc._para(surface, note, (x, y), 11, (180, 190, 200))
        return int(y) + 4

    # ------------------------------------------------------------------ the equilibrium
    def equilibrium(self) -> Equilibrium | str:
        """The battle's equilibrium for this player from its view (computed once per state, not
        per frame), or why there is none."""
        key = len(self.scene.session.history)
        if self._eq is None or self._eq[0] != key:
            try:
                found: Equilibrium | str = equilibrium(self.scene.seen, self.battle_id, self.player)
            except (KeyError, ValueError, ArithmeticError) as e:
                found = f"No equilibrium: {e}"
            self._eq = (key, found)
        return self._eq[1]

    def _draw_equilibrium(self, surface: pygame.Surface, eq: Equilibrium | str, x: int, y: int, bottom: int) -> int:
        """Under the table: the value and the enemy's mix, then what the payoff counts; each line
        in full when it fits, else compact (and saying so). Returns the height drawn."""
        sc = self.scene
        if isinstance(eq, str):
            return int(sc._para(surface, eq, (x, y), 11, (255, 170, 120)))
        foe = sc.seen.player_name(eq.foe)
        full = f"Equilibrium value {value_text(eq.value)} to you; {foe}'s mix: {foe_mix_text(eq)}."
        compact = f"Value {value_text(eq.value)}; {foe}: {foe_mix_text(eq, short=True)} (compact)"
        mine = "Your mix with its stratagems: " + ", ".join(f"{s.label} {p:.0%}" for s, p in eq.best_rows(0.005)) + "."
        room = bottom - y - 14  # keep a line for the note on the rows
        h = 0
        for lines in ((full, mine, PAYOFF_NOTE), (full, PAYOFF_NOTE), (full, PAYOFF_SHORT), (compact,)):
            if sum(len(sc._wrap(t, 11, False, 376)) for t in lines) * 14 <= room:
                for t in lines:
                    h += sc._para(surface, t, (x, y + h), 11, EQ_COLOUR)
                break
        return h


PLANNER_NEED = 14 * 9 + 16  # the panel's height the planner needs below the orders (else: over the map)
PLANNER_BOX = (396, 14 * 14 + 12)  # the planner's box over the map: its table, value and notes
EQ_MIX_X = 290  # where the equilibrium's columns are drawn, from the panel's left edge
EQ_GIVES_X = 324
PLAN_CELLS_X = 88  # the planner's cells: right of the rows' names ("6 Shock Attack"), six columns
PLAN_CELL_W = 32  # (a cell such as "100/0" is 28 pixels wide at 11 points)
EQ_COLOUR = (170, 215, 255)
PAYOFF_NOTE = (f"Zero-sum payoff: expected casualties inflicted minus taken, plus {BAND_WORTH:g} for each band of "
               "victory (minus for defeat). Mix: each manoeuvre's chance in the equilibrium; gives up: what it "
               "loses against the enemy's mix (0 in the mix).")
PAYOFF_SHORT = "Payoff: casualties inflicted - taken + bands won (docs/ai.md)."


def mix_text(chance: float | None) -> str:
    return "-" if chance is None else f"{chance:.0%}"


def gives_text(gives: float | None) -> str:
    return "-" if gives is None else f"{gives:.2f}"


def value_text(value: float) -> str:
    return f"{value:+.2f}"


def foe_mix_text(eq: Equilibrium, short: bool = False) -> str:
    """The enemy's equilibrium mix by manoeuvre, most likely first."""
    by: dict[str, float] = {}
    for s, p in zip(eq.cols, eq.foe_mix, strict=True):
        by[s.manoeuvre] = by.get(s.manoeuvre, 0.0) + p
    shown = sorted(((m, p) for m, p in by.items() if round(p, 2) > 0), key=lambda mp: -mp[1])
    return ", ".join(f"{SHORT_NAMES.get(m, MANOEUVRE_NAMES[m]) if short else MANOEUVRE_NAMES[m]} {p:.0%}"
                     for m, p in shown)


# the compact line's names (a 960 x 600 window): abbreviations that read as such, not cut words
SHORT_NAMES = {"withdraw": "Wdr.", "defend": "Def.", "block": "Blk.", "skirmish": "Skir.", "attack": "Att.",
               "shock_attack": "Shock"}
