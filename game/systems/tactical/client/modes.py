"""Input modes of the battle scene: tiny objects that turn clicks into intents.

A mode is given a `ModeContext` (context.py: the state on screen, the cached rules queries, the
hovered hex, who stands where, which units the side playing may use), never the scene, and
changes nothing: `click`, `button` and `cancel` return an `Intent` (a unit to select, a message,
a rules command, the next mode) for the scene to carry out, or None. `fills`/`path_view`/
`buttons` describe what to show; the scene's parts draw them. Every hex offered, every number
shown (reach, costs, charges, a move then a dash, overwatch odds, attack odds) and every
command made comes from the rules' queries, via rq.py (kept in the rules' memo per state).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import game.systems.tactical.rules as ail
from game.core.hexgrid import Hex
from game.shell import draw
from game.systems.tactical.client import rq
from game.systems.tactical.client.context import Intent, ModeContext
from game.systems.tactical.client.rq import reach_path, reach_roads

if TYPE_CHECKING:
    from game.systems.tactical.rules.base_queries import DashPayment
    from game.systems.tactical.rules.commands import DashPay

Result = Intent | None


@dataclass(frozen=True)
class ActionButton:
    """A button of the action bar, as the rules' queries offer it."""
    id: str
    label: str
    enabled: bool = True
    tooltip: str = ""
    selected: bool = False


@dataclass
class PathView:
    """What to draw for the hovered destination."""

    points: list[Hex]
    colour: tuple[int, int, int]
    label: str
    exposures: list[Any] = field(default_factory=list)
    target: str | None = None


class Mode:
    name = "mode"
    unit_id: str | None = None
    # a hint's mark (set on the mode the hint key selects): the hex where its command acts and
    # what to write there; the next mode (a click, a command) has none
    hinted: tuple[Hex, str] | None = None

    def hint(self, ctx: ModeContext) -> str:
        return ""

    def click(self, ctx: ModeContext, h: Hex) -> Result:
        return None

    def cancel(self, ctx: ModeContext) -> Intent:
        return Intent(mode=SelectMode())

    def fills(self, ctx: ModeContext) -> tuple[tuple[Any, ...], list[tuple[Hex, tuple[int, int, int], int]]]:
        """(cache key, hex tints) for the static overlay of this mode."""
        return ((), [])

    def path_view(self, ctx: ModeContext) -> PathView | None:
        return None

    def hover_fills(self, ctx: ModeContext) -> tuple[tuple[Any, ...], list[tuple[Hex, tuple[int, int, int], int]]]:
        """(cache key, hex tints) that depend on the hovered hex."""
        return ((), [])

    def hex_labels(self, ctx: ModeContext) -> list[tuple[Hex, str] | tuple[Hex, str, bool]]:
        """Short labels drawn over hexes (e.g. the hit chance over each target); a third item
        False draws the label greyed (a target it cannot hit)."""
        return []

    def preview(self, ctx: ModeContext) -> tuple[Any, Any] | None:
        """(attack preview, the same without Advantage) for the hovered target, if any."""
        return None

    def buttons(self, ctx: ModeContext) -> list[ActionButton]:
        return []

    def button(self, ctx: ModeContext, button_id: str) -> Result:
        return None


def advantage_pools(ctx: ModeContext, unit_id: str) -> list[tuple[str, int]]:
    """Advantage a unit may spend on a hit roll: (kind, points available), as the rules count it."""
    out: list[tuple[str, int]] = rq.cached(ctx.state, ("pools", unit_id),
                                                 lambda: list(ail.spendable_advantage(ctx.state, unit_id)))
    return out


def _pilot(state: Any, unit_id: str) -> str:
    """ " · pilot check 70 %" for a vehicle's dash or charge (the rules' exact chance; a failure
    spends the dash), "" for a unit that dashes without one."""
    chance = rq.cached(state, ("pilot_chance", unit_id), lambda: ail.queries.pilot_check_chance(state, unit_id))
    return "" if chance is None else f" · pilot check {draw.percent(chance)}"


def hint_mark(state: Any, command: Any) -> tuple[Hex, str] | None:
    """Where a hint's command acts, and what to write there: the end of its move or dash, the
    unit it attacks or charges, the unit's own hex for a stance (None: nothing on the map)."""
    kind = getattr(command, "kind", "")
    if kind in ("move", "dash"):
        return (command.path[-1], f"Hint: {kind} here") if command.path else None
    if kind == "move_then_dash":
        path = command.dash_path or command.move_path
        return (path[-1], "Hint: move and dash here") if path else None
    if kind in ("special_move", "stuck_step"):
        return command.to, "Hint: step here"
    if kind in ("charge", "attack"):
        target = state.units.get(command.target_id)
        return None if target is None else (target.hex, f"Hint: {kind} with {command.weapon}")
    if kind == "enter_stance":
        unit = state.units.get(command.unit_id)
        return None if unit is None else (unit.hex, f"Hint: {command.stance}")
    return None


def unit_mode(ctx: ModeContext, unit_id: str) -> Mode:
    """The mode for acting with one of the viewer's units in the current phase."""
    phase = ctx.state.phase
    if phase == "movement":
        return MoveMode(unit_id)
    if phase == "attack":
        return AttackMode(unit_id)
    return SelectMode()


class SelectMode(Mode):
    name = "select"

    def hint(self, ctx: ModeContext) -> str:
        phase = ctx.state.phase
        if phase == "movement":
            return "Click one of your units to move it (Tab: next unit, E: end phase)."
        if phase == "attack":
            return "Click one of your units to attack or take a stance (Tab: next unit, E: end phase)."
        return ""

    def click(self, ctx: ModeContext, h: Hex) -> Result:
        u = ctx.unit_at(h)
        if u is None:
            return Intent(select=None)
        return Intent(select=u.id, mode=unit_mode(ctx, u.id) if ctx.is_mine(u.id) else None)

    def cancel(self, ctx: ModeContext) -> Intent:
        return Intent(select=None, mode=SelectMode())


# ---------------------------------------------------------------------------- movement

class MoveMode(Mode):
    """Select → move reach (blue) and dash reach (orange); click a hex to move there, click an
    adjacent-reachable enemy to charge it."""

    name = "move"

    unit_id: str

    def __init__(self, unit_id: str, pay: DashPay | None = None, advantage: int = 0) -> None:
        self.unit_id = unit_id
        self.pay = pay
        self.advantage = advantage  # Advantage to spend on a charge's melee attack

    def _adv_kind(self, ctx: ModeContext) -> str | None:
        pools = advantage_pools(ctx, self.unit_id)
        return pools[0][0] if pools and self.advantage else None

    # -------------------------------------------------- what the unit can do now
    def _unit(self, ctx: ModeContext) -> Any:
        return ctx.state.units[self.unit_id]

    def _stage(self, ctx: ModeContext) -> str:
        u = self._unit(ctx)
        if u.dashed:
            return "done"
        return "dash" if u.move_done else "move"

    def _move(self, ctx: ModeContext) -> dict[Hex, int]:
        if self._stage(ctx) != "move":
            return {}
        return rq.move_costs(ctx.state, self.unit_id)

    def _dash(self, ctx: ModeContext) -> dict[Hex, int]:
        if self._stage(ctx) == "done" or state_dash_blocked(ctx, self._unit(ctx), self.pay):
            return {}
        return rq.dash_costs(ctx.state, self.unit_id)

    def _melee(self, ctx: ModeContext) -> str | None:
        t = ctx.state.unit_type(self.unit_id)
        return next((w.name for w in t.weapons if w.melee), None)

    def charge_path(self, ctx: ModeContext, target_id: str) -> list[Hex] | None:
        """The charge a click on the target makes: the rules' `charge_path` (the cheapest dash
        path ending on a free hex next to it), None when there is none."""
        out = rq.cached(ctx.state, ("charge_path", self.unit_id, target_id, self.pay),
                            lambda: ail.queries.charge_path(ctx.state, self.unit_id, target_id, self.pay))
        return None if out is None else list(out)

    # -------------------------------------------------- mode interface
    def hint(self, ctx: ModeContext) -> str:
        stage = self._stage(ctx)
        name = ctx.state.unit_name(self.unit_id)
        if stage == "move":
            return f"{name}: blue moves, orange dashes, a red enemy is charged. Right click: cancel."
        if stage == "dash":
            return f"{name} has moved: click orange to dash or a red enemy to charge. Right click: done."
        return f"{name} has used its moves."

    def fills(self, ctx: ModeContext) -> tuple[tuple[Any, ...], list[tuple[Hex, tuple[int, int, int], int]]]:
        key = ("move", self.unit_id, ctx.state.seq)
        move = self._move(ctx)
        dash = self._dash(ctx)
        roads = reach_roads(rq.move_reach(ctx.state, self.unit_id)) if move else frozenset()
        out: list[tuple[Hex, tuple[int, int, int], int]] = []
        for h in sorted(self.combo_reach(ctx)):  # a move then a dash: faint orange
            out.append((h, draw.DASH_COLOUR, 45))
        for h in dash:
            if h not in move:
                out.append((h, draw.DASH_COLOUR, 105))
        for h in move:
            out.append((h, draw.ROAD_COLOUR if h in roads else draw.MOVE_COLOUR, 90))
        units = ctx.state.units
        for uid in sorted(self.charge_targets(ctx)):  # (each on its own hex: the order shows nowhere)
            out.append((units[uid].hex, draw.TARGET_COLOUR, 110))
        return key, out

    def charge_targets(self, ctx: ModeContext) -> frozenset[str]:
        """The enemies a charge reaches: the rules' `charge_targets` (those `charge_path` finds a
        path to, found all at once)."""
        out: frozenset[str] = rq.cached(ctx.state, ("charge_targets", self.unit_id, self.pay),
                                            lambda: ail.queries.charge_targets(ctx.state, self.unit_id, self.pay))
        return out

    def dash_after(self, ctx: ModeContext, h: Hex) -> dict[Hex, int]:
        """Where a dash could go after moving to `h`, at what cost: the rules' `dash_after_move`
        (the dash reach of the state that move would leave, without making it; nothing applied);
        empty when no move to `h` keeps the dash open."""
        out: dict[Hex, int] = rq.cached(ctx.state, ("dash_after", self.unit_id, h),
                                            lambda: ail.dash_after_move(ctx.state, self.unit_id, h))
        return out

    def combo_reach(self, ctx: ModeContext) -> frozenset[Hex]:
        """Hexes only a move followed by a dash reaches (before the unit has moved): the rules'
        `move_then_dash_targets` for the payment chosen."""
        reach: frozenset[Hex] = rq.cached(
            ctx.state, ("combo_reach", self.unit_id, self.pay),
            lambda: ail.move_then_dash.move_then_dash_targets(ctx.state, self.unit_id, self.pay))
        return reach

    def combo(self, ctx: ModeContext, h: Hex) -> Any:
        """The move then dash a click on `h` makes (one `MoveThenDash` command, its overwatch and
        costs): the rules' `move_then_dash_plan`; None when `h` is not one of `combo_reach`."""
        return rq.cached(ctx.state, ("combo", self.unit_id, self.pay, h),
                             lambda: ail.move_then_dash.move_then_dash_plan(ctx.state, self.unit_id, h, self.pay))

    def hover_fills(self, ctx: ModeContext) -> tuple[tuple[Any, ...], list[tuple[Hex, tuple[int, int, int], int]]]:
        h = ctx.hover
        move = self._move(ctx)
        if h is None or h not in move or self._stage(ctx) != "move":
            return ((), [])
        me = self._unit(ctx)
        if state_dash_blocked(ctx, me, self.pay):
            return ((), [])
        dash = self.dash_after(ctx, h)
        fills = [(x, draw.DASH_COLOUR, 70) for x in dash if x not in move and x != me.hex]
        return (("dash_after", self.unit_id, h, ctx.state.seq), fills)

    def _dest(self, ctx: ModeContext, h: Hex) -> tuple[str, list[Hex], int] | None:
        move, dash = self._move(ctx), self._dash(ctx)
        if h in move:
            return "move", reach_path(rq.move_reach(ctx.state, self.unit_id), h), move[h]
        if h in dash:
            return "dash", reach_path(rq.dash_reach(ctx.state, self.unit_id), h), dash[h]
        return None

    def path_view(self, ctx: ModeContext) -> PathView | None:
        h = ctx.hover
        if h is None:
            return None
        # asked by the hint, the hex box, the preview and the map in each frame: made once for
        # the state, the mode and the hovered hex (shared: not to be changed)
        view: PathView | None = rq.cached(ctx.state, ("path_view", self.unit_id, self.pay, self.advantage, h),
                                              lambda: self._path_view(ctx, h))
        return view

    def _path_view(self, ctx: ModeContext, h: Hex) -> PathView | None:
        state = ctx.state
        enemy = ctx.unit_at(h)
        me = self._unit(ctx)
        if enemy is not None and enemy.side != me.side:
            path = self.charge_path(ctx, enemy.id)
            if path is None:
                return None
            ex = rq.exposure(state, self.unit_id, path, "charge") if path else []
            return PathView([me.hex, *path], draw.TARGET_COLOUR,
                            f"Charge {state.unit_name(enemy.id)}{_pilot(state, self.unit_id)}", ex, target=enemy.id)
        dest = self._dest(ctx, h)
        if dest is None:
            plan = self.combo(ctx, h)
            if plan is None:
                return None
            c = plan.command
            return PathView([me.hex, *c.move_path, *c.dash_path], draw.DASH_COLOUR,
                            f"Move {plan.move_cost} + dash {plan.dash_cost}{_pilot(state, self.unit_id)}",
                            list(plan.exposures))
        kind, path, cost = dest
        ex = rq.exposure(state, self.unit_id, path, kind)
        colour = draw.MOVE_COLOUR if kind == "move" else draw.DASH_COLOUR
        reach = rq.move_reach(state, self.unit_id) if kind == "move" else rq.dash_reach(state, self.unit_id)
        road = ""
        if h in reach_roads(reach):
            road = f" (road bonus +{getattr(reach, 'road_allowance', 0) - getattr(reach, 'allowance', 0)})"
        pilot = _pilot(state, self.unit_id) if kind == "dash" else ""
        return PathView([me.hex, *path], colour, f"{kind.capitalize()} · cost {cost}{road}{pilot}", ex)

    def preview(self, ctx: ModeContext) -> tuple[Any, Any] | None:
        view = self.path_view(ctx)
        if view is None or view.target is None:
            return None
        weapon = self._melee(ctx)
        if weapon is None:
            return None
        state = ctx.state
        end = view.points[-1]
        target = view.target

        path = tuple(view.points[1:])

        def run() -> Any:
            # the rules' own charge preview: its melee attack from the charge's last hex
            out = ail.charge_preview(state, ail.Charge(
                unit_id=self.unit_id, path=path, target_id=target, weapon=weapon, pay=self.pay,  # type: ignore[arg-type,unused-ignore]
                advantage=self.advantage, advantage_kind=self._adv_kind(ctx)))  # type: ignore[arg-type,unused-ignore]
            return out if isinstance(out, ail.Rejection) else out.attack

        p = rq.cached(state, ("charge_preview", self.unit_id, target, end, self.advantage), run)
        if isinstance(p, ail.Rejection):
            return None
        base = None
        if self.advantage:
            base = MoveMode(self.unit_id, self.pay).preview(ctx)
        return p, (base[0] if base else None)

    def click(self, ctx: ModeContext, h: Hex) -> Result:
        state = ctx.state
        me = self._unit(ctx)
        if h == me.hex:
            return None
        other = ctx.unit_at(h)
        if other is not None and other.side != me.side:
            path = self.charge_path(ctx, other.id)
            weapon = self._melee(ctx)
            if path is None or weapon is None:
                return Intent(toast=f"{state.unit_name(self.unit_id)} cannot charge "
                                    f"{state.unit_name(other.id)} from here.")
            return Intent(command=ail.Charge(
                unit_id=self.unit_id, path=tuple(path), target_id=other.id, weapon=weapon,
                pay=self.pay, advantage=self.advantage,  # type: ignore[arg-type,unused-ignore]
                advantage_kind=self._adv_kind(ctx)))  # type: ignore[arg-type,unused-ignore]
        if other is not None and other.side == me.side and ctx.is_mine(other.id) and h not in self._move(ctx):
            return Intent(select=other.id, mode=unit_mode(ctx, other.id))
        dest = self._dest(ctx, h)
        if dest is None:
            plan = self.combo(ctx, h) if other is None else None
            if plan is not None:  # the move action as far as it helps, then the dash: one rules command
                return Intent(command=plan.command)
            if other is None:  # say why, in the rules' words (impassable, too far, blocked...)
                why = ail.unreachable_reason(state, self.unit_id, h, "dash" if self._stage(ctx) == "dash" else "move")
                return Intent(toast=f"{why[0].upper()}{why[1:]}." if why else "That hex is out of reach.")
            return None
        kind, path, _ = dest
        if kind == "move":
            return Intent(command=ail.Move(unit_id=self.unit_id, path=tuple(path)))
        return Intent(command=ail.Dash(unit_id=self.unit_id, path=tuple(path),
                                       pay=self.pay))  # type: ignore[arg-type,unused-ignore]

    def cancel(self, ctx: ModeContext) -> Intent:
        return Intent(select=None, mode=SelectMode())

    def buttons(self, ctx: ModeContext) -> list[ActionButton]:
        state = ctx.state
        t = state.unit_type(self.unit_id)
        stage = self._stage(ctx)
        out: list[ActionButton] = []
        if stage != "done":
            out.extend(pay_buttons(dash_payments(ctx, self.unit_id), self.pay))
            if t.special_move is not None:  # enabled when the rules list somewhere it may land
                lands = bool(SpecialMoveMode(self.unit_id).targets(ctx))
                out.append(ActionButton("special", f"{t.special_move.name.capitalize()} ({t.special_move.range})",
                                        enabled=lands,
                                        tooltip="Instead of a dash: ignores terrain and blockers, "
                                                "triggers no overwatch." if lands else
                                                f"no free hex within {t.special_move.range} to land on now."))
        pools = advantage_pools(ctx, self.unit_id)
        if stage != "done" and pools and self._melee(ctx) is not None:
            kind, avail = pools[0]
            out.append(ActionButton("cadv:+", f"+1 Adv. on charge ({self.advantage}/{avail})",
                                    enabled=self.advantage < avail, selected=self.advantage > 0,
                                    tooltip=f"Spend {kind} Advantage on the melee attack of a charge."
                                    if self.advantage < avail else f"the {kind} Advantage held ({avail}) is all named already."))
            if self.advantage:
                out.append(ActionButton("cadv:-", "−1 Adv. on charge"))
        if ail.queries.is_stuck(state, self.unit_id):  # the rules' stuck steps, each way they may be paid
            pays = {c.pay for c in stuck_steps(ctx, self.unit_id)}
            out.append(ActionButton("stuck:adrenaline", "Stuck: step (1 Adrenaline)", enabled="adrenaline" in pays))
            out.append(ActionButton("stuck:attack", "Stuck: step (lose attack)", enabled="attack" in pays))
        return out

    def button(self, ctx: ModeContext, button_id: str) -> Result:
        way = next((w for w in dash_payments(ctx, self.unit_id) if f"pay:{w.pay}" == button_id), None)
        if way is not None:  # the way a dash pays unless told otherwise is the default: no `pay` named
            return Intent(mode=MoveMode(self.unit_id, None if way.default else way.pay, self.advantage))
        if button_id == "cadv:+":
            return Intent(mode=MoveMode(self.unit_id, self.pay, self.advantage + 1))
        if button_id == "cadv:-":
            return Intent(mode=MoveMode(self.unit_id, self.pay, max(0, self.advantage - 1)))
        if button_id == "special":
            return Intent(mode=SpecialMoveMode(self.unit_id))
        if button_id.startswith("stuck:"):
            return Intent(mode=StuckMode(self.unit_id, button_id.split(":", 1)[1]))
        return None


def dash_payments(ctx: ModeContext, unit_id: str) -> tuple[DashPayment, ...]:
    """The ways the unit may pay for a dash, with the rules' verdict on each (`dash_payments`)."""
    out: tuple[DashPayment, ...] = rq.cached(ctx.state, ("dash_payments", unit_id),
                                     lambda: ail.dash_payments(ctx.state, unit_id))
    return out


# what each way of paying for a dash says on its button, and its tooltip
PAY_WORDS: dict[str, tuple[str, str]] = {
    "adrenaline": ("Adrenaline", "A living unit pays 1 Adrenaline to dash."),
    "leadership": ("Leadership", "Pay Leadership points instead of Adrenaline."),
    "pilot": ("pilot check", "A vehicle dashes with a pilot check; a failure spends the dash."),
}


def pay_buttons(ways: tuple[DashPayment, ...], pay: DashPay | None) -> list[ActionButton]:
    """The dash-payment buttons for the ways the rules list (`dash_payments`) and the payment
    chosen (`pay`, None: the default): each way the rules accept now, enabled (its button chooses
    it); one they refuse, shown greyed with their reason, but Leadership only when chosen (a unit
    without the points is not offered them) and Adrenaline always (a living unit's usual way). A
    vehicle's one way, its pilot check, is shown chosen and greyed: there is nothing to choose."""
    out: list[ActionButton] = []
    for way in ways:
        word, tip = PAY_WORDS.get(way.pay, (way.pay, ""))
        chosen = pay == way.pay or (pay is None and way.default)
        if way.pay == "pilot":
            out.append(ActionButton("pay:pilot", f"Dash: {word}", selected=True, enabled=False, tooltip=tip))
            continue
        if way.refusal is not None and not chosen and way.pay != "adrenaline":
            continue
        out.append(ActionButton(f"pay:{way.pay}", f"Dash: {word} ({way.held})", enabled=way.refusal is None,
                                selected=chosen, tooltip=tip if way.refusal is None else f"{way.refusal[0].upper()}"
                                                                                       f"{way.refusal[1:]}."))
    return out


def state_dash_blocked(ctx: ModeContext, unit: Any, pay: str | None = None) -> bool:
    """A unit that cannot pay for a dash the chosen way shows no dash reach: the rules' own
    payment check (`dash_refusal`)."""
    out: bool = rq.cached(ctx.state, ("dash_blocked", unit.id, pay),
                              lambda: ail.dash_refusal(ctx.state, unit.id, pay) is not None)  # type: ignore[arg-type]
    return out


def stuck_steps(ctx: ModeContext, unit_id: str) -> list[Any]:
    """The stuck steps the rules allow the unit now (`stuck_step_commands`: hex and payment)."""
    out: list[Any] = rq.cached(ctx.state, ("stuck_steps", unit_id),
                                   lambda: ail.queries.stuck_step_commands(ctx.state, unit_id))
    return out


class SpecialMoveMode(Mode):
    name = "special"
    unit_id: str

    def __init__(self, unit_id: str) -> None:
        self.unit_id = unit_id

    def targets(self, ctx: ModeContext) -> set[Hex]:
        """Where the special move can land now: the rules' `special_move_commands` for the unit."""
        def run() -> set[Hex]:
            return {Hex(*c.to) for c in ail.queries.special_move_commands(ctx.state, self.unit_id)}

        out: set[Hex] = rq.cached(ctx.state, ("special", self.unit_id), run)
        return out

    def hint(self, ctx: ModeContext) -> str:
        return "Special move: click a destination in range (the rules check line of sight). Right click: back."

    def fills(self, ctx: ModeContext) -> tuple[tuple[Any, ...], list[tuple[Hex, tuple[int, int, int], int]]]:
        return ("special", self.unit_id, ctx.state.seq), [(h, (190, 120, 255), 80) for h in self.targets(ctx)]

    def click(self, ctx: ModeContext, h: Hex) -> Result:
        if h not in self.targets(ctx):
            return None
        return Intent(command=ail.SpecialMove(unit_id=self.unit_id, to=h))

    def cancel(self, ctx: ModeContext) -> Intent:
        return Intent(mode=MoveMode(self.unit_id))


class StuckMode(Mode):
    name = "stuck"
    unit_id: str

    def __init__(self, unit_id: str, pay: str) -> None:
        self.unit_id = unit_id
        self.pay = pay

    def _targets(self, ctx: ModeContext) -> list[Hex]:
        """The free neighbours the rules let the unit step into, paid this way (`stuck_step_commands`)."""
        return [Hex(*c.to) for c in stuck_steps(ctx, self.unit_id) if c.pay == self.pay]

    def hint(self, ctx: ModeContext) -> str:
        cost = "1 Adrenaline" if self.pay == "adrenaline" else "its attack this turn"
        return f"Stuck: click a neighbouring hex to step into it (costs {cost}). Right click: back."

    def fills(self, ctx: ModeContext) -> tuple[tuple[Any, ...], list[tuple[Hex, tuple[int, int, int], int]]]:
        return ("stuck", self.unit_id, ctx.state.seq), [(h, draw.MOVE_COLOUR, 90) for h in self._targets(ctx)]

    def click(self, ctx: ModeContext, h: Hex) -> Result:
        if h not in self._targets(ctx):
            return None
        return Intent(command=ail.StuckStep(unit_id=self.unit_id, to=h,
                                            pay=self.pay))  # type: ignore[arg-type,unused-ignore]

    def cancel(self, ctx: ModeContext) -> Intent:
        return Intent(mode=MoveMode(self.unit_id))


# ---------------------------------------------------------------------------- attack

class AttackMode(Mode):
    """Select → valid targets of the chosen weapon in red; hover one → AC parts and exact odds;
    click → attack. Buttons: weapon, Advantage to spend, overwatch, guard, defensive stance."""

    name = "attack"
    unit_id: str

    def __init__(self, unit_id: str, weapon: str | None = None, advantage: int = 0,
                 advantage_kind: str | None = None) -> None:
        self.unit_id = unit_id
        self.weapon = weapon
        self.advantage = advantage
        self.advantage_kind = advantage_kind

    def _weapon(self, ctx: ModeContext) -> str | None:
        t = ctx.state.unit_type(self.unit_id)
        if self.weapon is not None:
            return str(self.weapon)
        # default: the first weapon with a target, else the first ranged one
        for w in t.weapons:
            if rq.targets(ctx.state, self.unit_id, w.name):
                return str(w.name)
        ranged = [w.name for w in t.weapons if not w.melee]
        return ranged[0] if ranged else (t.weapons[0].name if t.weapons else None)

    def pools(self, ctx: ModeContext) -> list[tuple[str, int]]:
        return advantage_pools(ctx, self.unit_id)

    def _kind(self, ctx: ModeContext) -> tuple[str | None, int]:
        pools = self.pools(ctx)
        for kind, n in pools:
            if kind == self.advantage_kind:
                return kind, n
        return (pools[0] if pools else (None, 0))

    def hint(self, ctx: ModeContext) -> str:
        w = self._weapon(ctx)
        name = ctx.state.unit_name(self.unit_id)
        return f"{name}: click a red target to attack with {w}, or pick a stance."  # fits 960 wide

    def fills(self, ctx: ModeContext) -> tuple[tuple[Any, ...], list[tuple[Hex, tuple[int, int, int], int]]]:
        w = self._weapon(ctx)
        key = ("attack", self.unit_id, w, ctx.state.seq)
        if w is None:
            return key, []
        out = []
        for t, p in self._target_odds(ctx, w).items():
            hopeless = p.odds.hit_chance == 0  # still a legal attack: greyed, not hidden
            out.append((ctx.state.units[t].hex, draw.NO_CHANCE_COLOUR if hopeless else draw.TARGET_COLOUR,
                        90 if hopeless else 110))
        return key, out

    def _target_odds(self, ctx: ModeContext, w: str) -> dict[str, Any]:
        """Every target of weapon `w` -> its preview with the Advantage now chosen."""
        targets = rq.targets(ctx.state, self.unit_id, w)
        if not self.advantage:
            return dict(sorted(targets.items()))
        kind, _ = self._kind(ctx)
        out = {}
        for t in sorted(targets):
            p = rq.preview(ctx.state, self.unit_id, t, w, self.advantage, kind)
            if not isinstance(p, str):
                out[t] = p
        return out

    def hex_labels(self, ctx: ModeContext) -> list[tuple[Hex, str] | tuple[Hex, str, bool]]:
        w = self._weapon(ctx)
        if w is None:
            return []
        out: list[tuple[Hex, str] | tuple[Hex, str, bool]] = []
        for t, p in self._target_odds(ctx, w).items():
            chance = p.odds.hit_chance
            out.append((ctx.state.units[t].hex, draw.percent(chance), chance > 0))
        return out

    def _hover_target(self, ctx: ModeContext) -> str | None:
        if ctx.hover is None:
            return None
        u = ctx.unit_at(ctx.hover)
        w = self._weapon(ctx)
        if u is None or w is None or u.id not in rq.targets(ctx.state, self.unit_id, w):
            return None
        return str(u.id)

    def preview(self, ctx: ModeContext) -> tuple[Any, Any] | None:
        target = self._hover_target(ctx)
        w = self._weapon(ctx)
        if target is None or w is None:
            return None
        kind, _ = self._kind(ctx)
        p = rq.preview(ctx.state, self.unit_id, target, w, self.advantage, kind if self.advantage else None)
        base = rq.preview(ctx.state, self.unit_id, target, w, 0) if self.advantage else None
        if isinstance(p, str):
            return None
        return p, (None if isinstance(base, str) else base)

    def path_view(self, ctx: ModeContext) -> PathView | None:
        target = self._hover_target(ctx)
        if target is None:
            return None
        me = ctx.state.units[self.unit_id]
        pv = self.preview(ctx)
        chance = f" · {draw.percent(pv[0].odds.hit_chance)} to hit" if pv is not None else ""
        return PathView([me.hex, ctx.state.units[target].hex], draw.TARGET_COLOUR,
                        f"{self._weapon(ctx)}{chance}", target=target)

    def click(self, ctx: ModeContext, h: Hex) -> Result:
        state = ctx.state
        other = ctx.unit_at(h)
        if other is None:
            return None
        if other.side == state.units[self.unit_id].side:
            if ctx.is_mine(other.id) and other.id != self.unit_id:
                return Intent(select=other.id, mode=AttackMode(other.id))
            return None
        w = self._weapon(ctx)
        if w is None:
            return None
        kind, _ = self._kind(ctx)
        return Intent(command=ail.Attack(attacker_id=self.unit_id, target_id=other.id, weapon=w,
                                         advantage=self.advantage if kind else 0,
                                         advantage_kind=kind if self.advantage else None))  # type: ignore[arg-type,unused-ignore]

    def cancel(self, ctx: ModeContext) -> Intent:
        return Intent(select=None, mode=SelectMode())

    def buttons(self, ctx: ModeContext) -> list[ActionButton]:
        state = ctx.state
        t = state.unit_type(self.unit_id)
        w = self._weapon(ctx)
        out = [ActionButton(f"weapon:{x.name}", x.name + (" (melee)" if x.melee else ""), selected=x.name == w,
                            tooltip=f"FP {x.fp}") for x in t.weapons]
        kind, avail = self._kind(ctx)
        if avail:
            out.append(ActionButton("adv:-", "−1 Advantage", enabled=self.advantage > 0,
                                    tooltip="Take back a point named for the hit roll." if self.advantage
                                    else "no Advantage named for the hit roll yet (+1 Advantage names a point)."))
            out.append(ActionButton("adv:+", f"+1 Advantage ({self.advantage}/{avail})",
                                    enabled=self.advantage < avail, selected=self.advantage > 0,
                                    tooltip=f"Spend {kind} Advantage points (+1 each) on the hit roll."
                                    if self.advantage < avail else f"the {kind} Advantage held ({avail}) is all named already."))
            if len(self.pools(ctx)) > 1:
                out.append(ActionButton("adv:kind", f"Pool: {kind}"))
        # the stances the rules offer the unit now (those `legal_commands` lists)
        stances = rq.cached(state, ("stances", self.unit_id),
                                lambda: ail.queries.stance_commands(state, self.unit_id))
        ranged = any(c.stance == "overwatch" and c.weapon == w for c in stances)
        adv = f" +{self.advantage} Adv." if self.advantage and kind else ""
        named = (f" The {self.advantage} {kind} Advantage chosen is named now and spent on that shot."
                 if adv else " The +1 Advantage buttons name Advantage for that shot.")
        out.append(ActionButton("stance:overwatch", f"Overwatch{adv}", enabled=ranged,
                                tooltip="Hold a ranged shot for the first enemy that dashes or charges in range."
                                + named))
        has_melee = any(x.melee for x in t.weapons)
        out.append(ActionButton("stance:guard", f"Guard{adv}", enabled=any(c.stance == "guard" for c in stances),
                                tooltip="Strike first with a melee counter at the first unit that charges it."
                                + named.replace("shot", "counter") if has_melee else "Guard needs a melee weapon."))
        out.append(ActionButton("stance:defensive", "Defensive stance",
                                enabled=any(c.stance == "defensive" for c in stances), tooltip="+5 AC against attacks."))
        return out

    def button(self, ctx: ModeContext, button_id: str) -> Result:
        if button_id.startswith("weapon:"):
            return Intent(mode=AttackMode(self.unit_id, button_id.split(":", 1)[1], self.advantage,
                                          self.advantage_kind))
        kind, avail = self._kind(ctx)
        if button_id == "adv:+":
            return Intent(mode=AttackMode(self.unit_id, self.weapon, min(avail, self.advantage + 1), kind))
        if button_id == "adv:-":
            return Intent(mode=AttackMode(self.unit_id, self.weapon, max(0, self.advantage - 1), kind))
        if button_id == "adv:kind":
            kinds = [k for k, _ in self.pools(ctx)]
            nxt = kinds[(kinds.index(kind) + 1) % len(kinds)] if kind in kinds else kinds[0]
            return Intent(mode=AttackMode(self.unit_id, self.weapon, 0, nxt))
        if button_id.startswith("stance:"):
            stance = button_id.split(":", 1)[1]
            weapon = self._weapon(ctx) if stance == "overwatch" else None
            # overwatch and guard name the Advantage chosen for their triggered shot
            spend = self.advantage if kind and stance != "defensive" else 0
            return Intent(command=ail.EnterStance(
                unit_id=self.unit_id, stance=stance, weapon=weapon,  # type: ignore[arg-type,unused-ignore]
                advantage=spend, advantage_kind=kind if spend else None))  # type: ignore[arg-type,unused-ignore]
        return None
