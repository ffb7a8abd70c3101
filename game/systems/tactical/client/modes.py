"""Input modes of the battle scene: tiny objects that turn clicks into a command or the next mode.

A mode never changes the game: `click` and `button` return a Command for the scene to apply,
another Mode to switch to, or None. `fills`/`path_view`/`buttons` describe what to show; the
scene draws them. Every number shown (reach, costs, overwatch odds, attack odds) comes from the
rules' queries via `scene.q`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import game.systems.tactical.rules as ail
from game.core.hexgrid import Hex, neighbours
from game.shell import draw
from game.systems.tactical.client.rq import adjacent, reach_cost, reach_path, reach_roads

if TYPE_CHECKING:
    from game.systems.tactical.client.battle import BattleScene

Result = Any  # a Command, a Mode, or None


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

    def hint(self, scene: BattleScene) -> str:
        return ""

    def click(self, scene: BattleScene, h: Hex) -> Result:
        return None

    def cancel(self, scene: BattleScene) -> Mode | None:
        return SelectMode()

    def fills(self, scene: BattleScene) -> tuple[tuple[Any, ...], list[tuple[Hex, tuple[int, int, int], int]]]:
        """(cache key, hex tints) for the static overlay of this mode."""
        return ((), [])

    def path_view(self, scene: BattleScene) -> PathView | None:
        return None

    def hover_fills(self, scene: BattleScene) -> tuple[tuple[Any, ...], list[tuple[Hex, tuple[int, int, int], int]]]:
        """(cache key, hex tints) that depend on the hovered hex."""
        return ((), [])

    def hex_labels(self, scene: BattleScene) -> list[tuple[Hex, str] | tuple[Hex, str, bool]]:
        """Short labels drawn over hexes (e.g. the hit chance over each target); a third item
        False draws the label greyed (a target it cannot hit)."""
        return []

    def preview(self, scene: BattleScene) -> tuple[Any, Any] | None:
        """(attack preview, the same without Advantage) for the hovered target, if any."""
        return None

    def buttons(self, scene: BattleScene) -> list[ActionButton]:
        return []

    def button(self, scene: BattleScene, button_id: str) -> Result:
        return None


def advantage_pools(scene: BattleScene, unit_id: str) -> list[tuple[str, int]]:
    """Advantage a unit may spend on a hit roll: (kind, points available), as the rules count it."""
    out: list[tuple[str, int]] = scene.q._cached(scene.state, ("pools", unit_id),
                                                 lambda: list(ail.spendable_advantage(scene.state, unit_id)))
    return out


def unit_mode(scene: BattleScene, unit_id: str) -> Mode:
    """The mode for acting with one of the viewer's units in the current phase."""
    phase = scene.state.phase
    if phase == "movement":
        return MoveMode(unit_id)
    if phase == "attack":
        return AttackMode(unit_id)
    return SelectMode()


class SelectMode(Mode):
    name = "select"

    def hint(self, scene: BattleScene) -> str:
        phase = scene.state.phase
        if phase == "movement":
            return "Click one of your units to move it (Tab: next unit, E: end phase)."
        if phase == "attack":
            return "Click one of your units to attack or take a stance (Tab: next unit, E: end phase)."
        return ""

    def click(self, scene: BattleScene, h: Hex) -> Result:
        u = scene.unit_at(h)
        if u is None:
            scene.selected = None
            return None
        scene.selected = u.id
        if scene.is_mine(u.id):
            return unit_mode(scene, u.id)
        return None


# ---------------------------------------------------------------------------- movement

class MoveMode(Mode):
    """Select → move reach (blue) and dash reach (orange); click a hex to move there, click an
    adjacent-reachable enemy to charge it."""

    name = "move"

    unit_id: str

    def __init__(self, unit_id: str, pay: str | None = None, advantage: int = 0) -> None:
        self.unit_id = unit_id
        self.pay = pay
        self.advantage = advantage  # Advantage to spend on a charge's melee attack

    def _adv_kind(self, scene: BattleScene) -> str | None:
        pools = advantage_pools(scene, self.unit_id)
        return pools[0][0] if pools and self.advantage else None

    # -------------------------------------------------- what the unit can do now
    def _unit(self, scene: BattleScene) -> Any:
        return scene.state.units[self.unit_id]

    def _stage(self, scene: BattleScene) -> str:
        u = self._unit(scene)
        if u.dashed:
            return "done"
        return "dash" if u.move_done else "move"

    def _move(self, scene: BattleScene) -> dict[Hex, int]:
        if self._stage(scene) != "move":
            return {}
        return scene.q.move_costs(scene.state, self.unit_id)

    def _dash(self, scene: BattleScene) -> dict[Hex, int]:
        if self._stage(scene) == "done" or state_dash_blocked(scene, self._unit(scene), self.pay):
            return {}
        return scene.q.dash_costs(scene.state, self.unit_id)

    def _melee(self, scene: BattleScene) -> str | None:
        t = scene.state.unit_type(self.unit_id)
        return next((w.name for w in t.weapons if w.melee), None)

    def _charge_path(self, scene: BattleScene, target_id: str) -> list[Hex] | None:
        """The cheapest dash path ending next to the target (a charge is a dash: it moves at
        least one hex, so a unit already adjacent charges from another hex next to it)."""
        if self._stage(scene) == "done" or self._melee(scene) is None or self._unit(scene).action_used:
            return None
        if state_dash_blocked(scene, self._unit(scene), self.pay):
            return None
        state = scene.state
        there = state.units[target_id].hex
        dash = self._dash(scene)
        best = [(c, h) for h, c in dash.items() if adjacent(h, there) and scene.unit_at(h) is None]
        if not best:
            return None
        _, h = min(best, key=lambda ch: (ch[0], ch[1]))
        return reach_path(scene.q.dash_reach(state, self.unit_id), h)

    # -------------------------------------------------- mode interface
    def hint(self, scene: BattleScene) -> str:
        stage = self._stage(scene)
        name = scene.state.unit_name(self.unit_id)
        if stage == "move":
            return f"{name}: blue moves, orange dashes, a red enemy is charged. Right click: cancel."
        if stage == "dash":
            return f"{name} has moved: click orange to dash or a red enemy to charge. Right click: done."
        return f"{name} has used its moves."

    def fills(self, scene: BattleScene) -> tuple[tuple[Any, ...], list[tuple[Hex, tuple[int, int, int], int]]]:
        key = ("move", self.unit_id, scene.state.seq)
        move = self._move(scene)
        dash = self._dash(scene)
        roads = reach_roads(scene.q.move_reach(scene.state, self.unit_id)) if move else frozenset()
        out: list[tuple[Hex, tuple[int, int, int], int]] = []
        for h in sorted(self.combo_reach(scene)):  # a move then a dash: faint orange
            out.append((h, draw.DASH_COLOUR, 45))
        for h in dash:
            if h not in move:
                out.append((h, draw.DASH_COLOUR, 105))
        for h in move:
            out.append((h, draw.ROAD_COLOUR if h in roads else draw.MOVE_COLOUR, 90))
        units = scene.state.units
        for uid in sorted(self.charge_targets(scene)):  # (each on its own hex: the order shows nowhere)
            out.append((units[uid].hex, draw.TARGET_COLOUR, 110))
        return key, out

    def charge_targets(self, scene: BattleScene) -> frozenset[str]:
        """The enemy units `_charge_path` finds a charge to, all at once: those next to a free hex
        the dash reaches (its very test, with one pass over the dash reach instead of one per enemy:
        at 1,000 units that pass per enemy was a quarter of a click)."""
        if self._stage(scene) == "done" or self._melee(scene) is None or self._unit(scene).action_used:
            return frozenset()
        if state_dash_blocked(scene, self._unit(scene), self.pay):
            return frozenset()
        near: set[Hex] = set()
        for h in self._dash(scene):
            if scene.unit_at(h) is None:
                near.update(neighbours(h))
        side = self._unit(scene).side
        found = (scene.unit_at(h) for h in near)  # who stands there (live units only)
        return frozenset(u.id for u in found if u is not None and u.side != side)

    def _keep_dash(self, scene: BattleScene) -> Any:
        """The rules' move reach that leaves the dash open (`move_reach_keeping_dash`)."""
        return scene.q._cached(scene.state, ("keep_dash", self.unit_id),
                               lambda: ail.move_reach_keeping_dash(scene.state, self.unit_id))

    def _move_keeping_dash(self, scene: BattleScene) -> dict[Hex, int]:
        """Where the move action can end with the dash still open after it."""
        if self._stage(scene) != "move":
            return {}
        out: dict[Hex, int] = scene.q._cached(scene.state, ("keep_dash_costs", self.unit_id),
                                              lambda: reach_cost(self._keep_dash(scene)))
        return out

    def _move_path_keeping_dash(self, scene: BattleScene, h: Hex) -> list[Hex]:
        return reach_path(self._keep_dash(scene), h)

    def _after_move(self, scene: BattleScene, h: Hex) -> Any:
        """The rules' what-if state once the move action has taken the unit to `h` along the
        path that keeps the dash open (`state_after_move`); None when that move is not legal."""
        def run() -> Any:
            out = ail.state_after_move(scene.state, self.unit_id, self._move_path_keeping_dash(scene, h))
            return None if isinstance(out, ail.Rejection) else out

        return scene.q._cached(scene.state, ("after_move", self.unit_id, h), run)

    def _dash_reach_after(self, scene: BattleScene, h: Hex) -> Any:
        """The rules' dash reach from `h` once the move action has taken the unit there."""
        def run() -> Any:
            after = self._after_move(scene, h)
            return None if after is None else ail.dash_reach(after, self.unit_id)

        return scene.q._cached(scene.state, ("dash_reach_after", self.unit_id, h), run)

    def dash_after(self, scene: BattleScene, h: Hex) -> dict[Hex, int]:
        """Where a dash could go after moving to `h`, at what cost: the rules' `dash_after_move`
        (the dash reach of the state that move would leave, without making it; nothing applied);
        empty when no move to `h` keeps the dash open."""
        def run() -> dict[Hex, int]:
            if h not in self._move_keeping_dash(scene):
                return {}
            return ail.dash_after_move(scene.state, self.unit_id, h)

        out: dict[Hex, int] = scene.q._cached(scene.state, ("dash_after", self.unit_id, h), run)
        return out

    def combo_reach(self, scene: BattleScene) -> frozenset[Hex]:
        """Hexes only a move followed by a dash reaches (before the unit has moved)."""
        if self._stage(scene) != "move" or state_dash_blocked(scene, self._unit(scene), self.pay):
            return frozenset()
        move = self._move(scene)
        dash = self._dash(scene)
        start = self._unit(scene).hex

        def run() -> frozenset[Hex]:  # the rules' union of the dashes after each move, in one search
            out = ail.move_then_dash_reach(scene.state, self.unit_id)
            return frozenset(h for h in out if h not in move and h not in dash and h != start
                             and scene.unit_at(h) is None)

        reach: frozenset[Hex] = scene.q._cached(scene.state, ("combo_reach", self.unit_id), run)
        return reach

    def combo(self, scene: BattleScene, h: Hex) -> tuple[list[Hex], list[Hex], list[Any]] | None:
        """For a hex only a move followed by a dash can reach (before the unit has moved): the
        move path, the dash path after it, and the overwatch the two draw. The move ends where
        the dash draws the fewest overwatch shots, then where the dash is shortest (the move
        goes as far as it can), then the cheapest in all; ties by hex order."""
        if self._stage(scene) != "move" or state_dash_blocked(scene, self._unit(scene), self.pay):
            return None
        move = self._move_keeping_dash(scene)
        if h not in self.combo_reach(scene):
            return None
        state = scene.state

        def run() -> tuple[list[Hex], list[Hex], list[Any]] | None:
            # Only the move ends the dash then reaches h from (the rules' one search back from h),
            # tried shortest dash first: the first that draws no overwatch is the best there is.
            dcosts = ail.move_then_dash_sources(state, self.unit_id, h)
            best: tuple[tuple[int, int, int, Hex], tuple[list[Hex], list[Hex], list[Any]]] | None = None
            for m in sorted(dcosts, key=lambda m: (dcosts[m], move[m] + dcosts[m], m)):
                mpath = self._move_path_keeping_dash(scene, m)
                dpath = reach_path(self._dash_reach_after(scene, m), h)
                ex = combo_exposure(scene, self.unit_id, mpath, dpath, self._after_move(scene, m))
                rank = (len(ex), dcosts[m], move[m] + dcosts[m], m)
                if best is None or rank < best[0]:
                    best = (rank, (mpath, dpath, ex))
                if not ex:
                    break
            return None if best is None else best[1]

        out: tuple[list[Hex], list[Hex], list[Any]] | None = scene.q._cached(
            state, ("combo", self.unit_id, h), run)
        return out

    def hover_fills(self, scene: BattleScene) -> tuple[tuple[Any, ...], list[tuple[Hex, tuple[int, int, int], int]]]:
        h = scene.hover
        move = self._move(scene)
        if h is None or h not in move or self._stage(scene) != "move":
            return ((), [])
        me = self._unit(scene)
        if state_dash_blocked(scene, me, self.pay):
            return ((), [])
        dash = self.dash_after(scene, h)
        fills = [(x, draw.DASH_COLOUR, 70) for x in dash if x not in move and x != me.hex]
        return (("dash_after", self.unit_id, h, scene.state.seq), fills)

    def _dest(self, scene: BattleScene, h: Hex) -> tuple[str, list[Hex], int] | None:
        move, dash = self._move(scene), self._dash(scene)
        if h in move:
            return "move", reach_path(scene.q.move_reach(scene.state, self.unit_id), h), move[h]
        if h in dash:
            return "dash", reach_path(scene.q.dash_reach(scene.state, self.unit_id), h), dash[h]
        return None

    def path_view(self, scene: BattleScene) -> PathView | None:
        h = scene.hover
        if h is None:
            return None
        # asked by the hint, the hex box, the preview and the map in each frame: made once for
        # the state, the mode and the hovered hex (shared: not to be changed)
        view: PathView | None = scene.q._cached(scene.state, ("path_view", self.unit_id, self.pay, self.advantage, h),
                                                lambda: self._path_view(scene, h))
        return view

    def _path_view(self, scene: BattleScene, h: Hex) -> PathView | None:
        state = scene.state
        enemy = scene.unit_at(h)
        me = self._unit(scene)
        if enemy is not None and enemy.side != me.side:
            path = self._charge_path(scene, enemy.id)
            if path is None:
                return None
            ex = scene.q.exposure(state, self.unit_id, path, "charge") if path else []
            return PathView([me.hex, *path], draw.TARGET_COLOUR,
                            f"Charge {state.unit_name(enemy.id)}", ex, target=enemy.id)
        dest = self._dest(scene, h)
        if dest is None:
            both = self.combo(scene, h)
            if both is None:
                return None
            mpath, dpath, ex = both
            mcost = self._move_keeping_dash(scene).get(mpath[-1], 0) if mpath else 0
            dcost = self.dash_after(scene, mpath[-1] if mpath else me.hex).get(h, 0)
            return PathView([me.hex, *mpath, *dpath], draw.DASH_COLOUR,
                            f"Move {mcost} + dash {dcost}", ex)
        kind, path, cost = dest
        ex = scene.q.exposure(state, self.unit_id, path, kind)
        colour = draw.MOVE_COLOUR if kind == "move" else draw.DASH_COLOUR
        reach = scene.q.move_reach(state, self.unit_id) if kind == "move" else scene.q.dash_reach(state, self.unit_id)
        road = ""
        if h in reach_roads(reach):
            road = f" (road bonus +{getattr(reach, 'road_allowance', 0) - getattr(reach, 'allowance', 0)})"
        return PathView([me.hex, *path], colour, f"{kind.capitalize()} · cost {cost}{road}", ex)

    def preview(self, scene: BattleScene) -> tuple[Any, Any] | None:
        view = self.path_view(scene)
        if view is None or view.target is None:
            return None
        weapon = self._melee(scene)
        if weapon is None:
            return None
        state = scene.state
        end = view.points[-1]
        target = view.target

        path = tuple(view.points[1:])

        def run() -> Any:
            # the rules' own charge preview: its melee attack from the charge's last hex
            out = ail.charge_preview(state, ail.Charge(
                unit_id=self.unit_id, path=path, target_id=target, weapon=weapon, pay=self.pay,  # type: ignore[arg-type,unused-ignore]
                advantage=self.advantage, advantage_kind=self._adv_kind(scene)))  # type: ignore[arg-type,unused-ignore]
            return out if isinstance(out, ail.Rejection) else out.attack

        p = scene.q._cached(state, ("charge_preview", self.unit_id, target, end, self.advantage), run)
        if isinstance(p, ail.Rejection):
            return None
        base = None
        if self.advantage:
            base = MoveMode(self.unit_id, self.pay).preview(scene)
        return p, (base[0] if base else None)

    def click(self, scene: BattleScene, h: Hex) -> Result:
        state = scene.state
        me = self._unit(scene)
        if h == me.hex:
            return None
        other = scene.unit_at(h)
        if other is not None and other.side != me.side:
            path = self._charge_path(scene, other.id)
            weapon = self._melee(scene)
            if path is None or weapon is None:
                scene.toast(f"{state.unit_name(self.unit_id)} cannot charge {state.unit_name(other.id)} from here.")
                return None
            return ail.Charge(unit_id=self.unit_id, path=tuple(path), target_id=other.id, weapon=weapon,
                              pay=self.pay, advantage=self.advantage,  # type: ignore[arg-type,unused-ignore]
                              advantage_kind=self._adv_kind(scene))  # type: ignore[arg-type,unused-ignore]
        if other is not None and other.side == me.side and scene.is_mine(other.id) and h not in self._move(scene):
            scene.selected = other.id
            return unit_mode(scene, other.id)
        dest = self._dest(scene, h)
        if dest is None:
            both = self.combo(scene, h) if other is None else None
            if both is not None:  # the move action as far as it helps, then the dash: two commands
                mpath, dpath, _ = both
                return [ail.Move(unit_id=self.unit_id, path=tuple(mpath)),
                        ail.Dash(unit_id=self.unit_id, path=tuple(dpath), pay=self.pay)]  # type: ignore[arg-type,unused-ignore]
            if other is None:  # say why, in the rules' words (impassable, too far, blocked...)
                why = ail.unreachable_reason(state, self.unit_id, h, "dash" if self._stage(scene) == "dash" else "move")
                scene.toast(f"{why[0].upper()}{why[1:]}." if why else "That hex is out of reach.")
            return None
        kind, path, _ = dest
        if kind == "move":
            return ail.Move(unit_id=self.unit_id, path=tuple(path))
        return ail.Dash(unit_id=self.unit_id, path=tuple(path), pay=self.pay)  # type: ignore[arg-type,unused-ignore]

    def cancel(self, scene: BattleScene) -> Mode | None:
        scene.selected = None
        return SelectMode()

    def buttons(self, scene: BattleScene) -> list[ActionButton]:
        state = scene.state
        me = self._unit(scene)
        t = state.unit_type(self.unit_id)
        stage = self._stage(scene)
        out: list[ActionButton] = []
        if stage != "done":
            if t.living:
                out.append(ActionButton("pay:adrenaline", f"Dash: Adrenaline ({me.adrenaline})",
                                        selected=self.pay in (None, "adrenaline"),
                                        tooltip="A living unit pays 1 Adrenaline to dash."))
                if me.leadership >= state.setup.rules.dash.leadership_per_adrenaline or self.pay == "leadership":
                    out.append(ActionButton("pay:leadership", f"Dash: Leadership ({me.leadership})",
                                            selected=self.pay == "leadership",
                                            tooltip="Pay Leadership points instead of Adrenaline."))
            else:
                out.append(ActionButton("pay:pilot", "Dash: pilot check", selected=True, enabled=False,
                                        tooltip="A vehicle dashes with a pilot check; a failure spends the dash."))
            if t.special_move is not None:
                out.append(ActionButton("special", f"{t.special_move.name.capitalize()} ({t.special_move.range})",
                                        tooltip="Instead of a dash: ignores terrain and blockers, "
                                                "triggers no overwatch."))
        pools = advantage_pools(scene, self.unit_id)
        if stage != "done" and pools and self._melee(scene) is not None:
            kind, avail = pools[0]
            out.append(ActionButton("cadv:+", f"+1 Adv. on charge ({self.advantage}/{avail})",
                                    enabled=self.advantage < avail, selected=self.advantage > 0,
                                    tooltip=f"Spend {kind} Advantage on the melee attack of a charge."))
            if self.advantage:
                out.append(ActionButton("cadv:-", "−1 Adv. on charge"))
        stuck = stage == "move" and not self._move(scene)
        if stuck:
            out.append(ActionButton("stuck:adrenaline", "Stuck: step (1 Adrenaline)", enabled=t.living))
            out.append(ActionButton("stuck:attack", "Stuck: step (lose attack)"))
        return out

    def button(self, scene: BattleScene, button_id: str) -> Result:
        if button_id.startswith("pay:"):
            pay = button_id.split(":", 1)[1]
            return MoveMode(self.unit_id, None if pay == "adrenaline" else pay, self.advantage)
        if button_id == "cadv:+":
            return MoveMode(self.unit_id, self.pay, self.advantage + 1)
        if button_id == "cadv:-":
            return MoveMode(self.unit_id, self.pay, max(0, self.advantage - 1))
        if button_id == "special":
            return SpecialMoveMode(self.unit_id)
        if button_id.startswith("stuck:"):
            return StuckMode(self.unit_id, button_id.split(":", 1)[1])
        return None


def combo_exposure(scene: BattleScene, unit_id: str, move_path: list[Hex], dash_path: list[Hex],
                   after_move: Any) -> list[Any]:
    """The overwatch a move then a dash would draw: the move's (when the rules' triggers include
    moves) and the dash's, asked of the state after the move, its steps counted from the start."""
    from dataclasses import replace

    out = list(scene.q.exposure(scene.state, unit_id, move_path, "move")) if move_path else []
    fired = {e.watcher_id for e in out}
    dash = ail.overwatch_exposure(after_move, unit_id, list(dash_path), "dash")
    out += [replace(e, step=e.step + len(move_path)) for e in dash if e.watcher_id not in fired]
    return out


def state_dash_blocked(scene: BattleScene, unit: Any, pay: str | None = None) -> bool:
    """A unit that cannot pay for a dash the chosen way shows no dash reach: the rules' own
    payment check (`dash_refusal`)."""
    out: bool = scene.q._cached(scene.state, ("dash_blocked", unit.id, pay),
                                lambda: ail.dash_refusal(scene.state, unit.id, pay) is not None)  # type: ignore[arg-type]
    return out


class SpecialMoveMode(Mode):
    name = "special"
    unit_id: str

    def __init__(self, unit_id: str) -> None:
        self.unit_id = unit_id

    def _range(self, scene: BattleScene) -> set[Hex]:
        """Where the special move can land: the rules' own targets (range, terrain, line of sight)."""
        out: set[Hex] = scene.q._cached(scene.state, ("special", self.unit_id),
                                        lambda: set(ail.special_move_targets(scene.state, self.unit_id)))
        return out

    def hint(self, scene: BattleScene) -> str:
        return "Special move: click a destination in range (the rules check line of sight). Right click: back."

    def fills(self, scene: BattleScene) -> tuple[tuple[Any, ...], list[tuple[Hex, tuple[int, int, int], int]]]:
        return ("special", self.unit_id, scene.state.seq), [(h, (190, 120, 255), 80) for h in self._range(scene)]

    def click(self, scene: BattleScene, h: Hex) -> Result:
        if h not in self._range(scene):
            return None
        return ail.SpecialMove(unit_id=self.unit_id, to=h)

    def cancel(self, scene: BattleScene) -> Mode | None:
        return MoveMode(self.unit_id)


class StuckMode(Mode):
    name = "stuck"
    unit_id: str

    def __init__(self, unit_id: str, pay: str) -> None:
        self.unit_id = unit_id
        self.pay = pay

    def _targets(self, scene: BattleScene) -> list[Hex]:
        from game.core.hexgrid import neighbours
        me = scene.state.units[self.unit_id]
        return [h for h in neighbours(me.hex) if h in scene.state.board.terrain and scene.unit_at(h) is None]

    def hint(self, scene: BattleScene) -> str:
        cost = "1 Adrenaline" if self.pay == "adrenaline" else "its attack this turn"
        return f"Stuck: click a neighbouring hex to step into it (costs {cost}). Right click: back."

    def fills(self, scene: BattleScene) -> tuple[tuple[Any, ...], list[tuple[Hex, tuple[int, int, int], int]]]:
        return ("stuck", self.unit_id, scene.state.seq), [(h, draw.MOVE_COLOUR, 90) for h in self._targets(scene)]

    def click(self, scene: BattleScene, h: Hex) -> Result:
        if h not in self._targets(scene):
            return None
        return ail.StuckStep(unit_id=self.unit_id, to=h, pay=self.pay)  # type: ignore[arg-type,unused-ignore]

    def cancel(self, scene: BattleScene) -> Mode | None:
        return MoveMode(self.unit_id)


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

    def _weapon(self, scene: BattleScene) -> str | None:
        t = scene.state.unit_type(self.unit_id)
        if self.weapon is not None:
            return str(self.weapon)
        # default: the first weapon with a target, else the first ranged one
        for w in t.weapons:
            if scene.q.targets(scene.state, self.unit_id, w.name):
                return str(w.name)
        ranged = [w.name for w in t.weapons if not w.melee]
        return ranged[0] if ranged else (t.weapons[0].name if t.weapons else None)

    def pools(self, scene: BattleScene) -> list[tuple[str, int]]:
        return advantage_pools(scene, self.unit_id)

    def _kind(self, scene: BattleScene) -> tuple[str | None, int]:
        pools = self.pools(scene)
        for kind, n in pools:
            if kind == self.advantage_kind:
                return kind, n
        return (pools[0] if pools else (None, 0))

    def hint(self, scene: BattleScene) -> str:
        w = self._weapon(scene)
        name = scene.state.unit_name(self.unit_id)
        return f"{name}: click a red target to attack with {w}, or pick a stance on the right."

    def fills(self, scene: BattleScene) -> tuple[tuple[Any, ...], list[tuple[Hex, tuple[int, int, int], int]]]:
        w = self._weapon(scene)
        key = ("attack", self.unit_id, w, scene.state.seq)
        if w is None:
            return key, []
        out = []
        for t, p in self._target_odds(scene, w).items():
            hopeless = p.odds.hit_chance == 0  # still a legal attack: greyed, not hidden
            out.append((scene.state.units[t].hex, draw.NO_CHANCE_COLOUR if hopeless else draw.TARGET_COLOUR,
                        90 if hopeless else 110))
        return key, out

    def _target_odds(self, scene: BattleScene, w: str) -> dict[str, Any]:
        """Every target of weapon `w` -> its preview with the Advantage now chosen."""
        targets = scene.q.targets(scene.state, self.unit_id, w)
        if not self.advantage:
            return dict(sorted(targets.items()))
        kind, _ = self._kind(scene)
        out = {}
        for t in sorted(targets):
            p = scene.q.preview(scene.state, self.unit_id, t, w, self.advantage, kind)
            if not isinstance(p, str):
                out[t] = p
        return out

    def hex_labels(self, scene: BattleScene) -> list[tuple[Hex, str] | tuple[Hex, str, bool]]:
        w = self._weapon(scene)
        if w is None:
            return []
        out: list[tuple[Hex, str] | tuple[Hex, str, bool]] = []
        for t, p in self._target_odds(scene, w).items():
            chance = p.odds.hit_chance
            out.append((scene.state.units[t].hex, draw.percent(chance), chance > 0))
        return out

    def _hover_target(self, scene: BattleScene) -> str | None:
        if scene.hover is None:
            return None
        u = scene.unit_at(scene.hover)
        w = self._weapon(scene)
        if u is None or w is None or u.id not in scene.q.targets(scene.state, self.unit_id, w):
            return None
        return str(u.id)

    def preview(self, scene: BattleScene) -> tuple[Any, Any] | None:
        target = self._hover_target(scene)
        w = self._weapon(scene)
        if target is None or w is None:
            return None
        kind, _ = self._kind(scene)
        p = scene.q.preview(scene.state, self.unit_id, target, w, self.advantage, kind if self.advantage else None)
        base = scene.q.preview(scene.state, self.unit_id, target, w, 0) if self.advantage else None
        if isinstance(p, str):
            return None
        return p, (None if isinstance(base, str) else base)

    def path_view(self, scene: BattleScene) -> PathView | None:
        target = self._hover_target(scene)
        if target is None:
            return None
        me = scene.state.units[self.unit_id]
        pv = self.preview(scene)
        chance = f" · {draw.percent(pv[0].odds.hit_chance)} to hit" if pv is not None else ""
        return PathView([me.hex, scene.state.units[target].hex], draw.TARGET_COLOUR,
                        f"{self._weapon(scene)}{chance}", target=target)

    def click(self, scene: BattleScene, h: Hex) -> Result:
        state = scene.state
        other = scene.unit_at(h)
        if other is None:
            return None
        if other.side == state.units[self.unit_id].side:
            if scene.is_mine(other.id) and other.id != self.unit_id:
                scene.selected = other.id
                return AttackMode(other.id)
            return None
        w = self._weapon(scene)
        if w is None:
            return None
        kind, _ = self._kind(scene)
        return ail.Attack(attacker_id=self.unit_id, target_id=other.id, weapon=w,
                          advantage=self.advantage if kind else 0,
                          advantage_kind=kind if self.advantage else None)  # type: ignore[arg-type,unused-ignore]

    def cancel(self, scene: BattleScene) -> Mode | None:
        scene.selected = None
        return SelectMode()

    def buttons(self, scene: BattleScene) -> list[ActionButton]:
        state = scene.state
        t = state.unit_type(self.unit_id)
        w = self._weapon(scene)
        out = [ActionButton(f"weapon:{x.name}", x.name + (" (melee)" if x.melee else ""), selected=x.name == w,
                            tooltip=f"FP {x.fp}") for x in t.weapons]
        kind, avail = self._kind(scene)
        if avail:
            out.append(ActionButton("adv:-", "−1 Advantage", enabled=self.advantage > 0))
            out.append(ActionButton("adv:+", f"+1 Advantage ({self.advantage}/{avail})",
                                    enabled=self.advantage < avail, selected=self.advantage > 0,
                                    tooltip=f"Spend {kind} Advantage points (+1 each) on the hit roll."))
            if len(self.pools(scene)) > 1:
                out.append(ActionButton("adv:kind", f"Pool: {kind}"))
        ranged = w is not None and not next(x for x in t.weapons if x.name == w).melee
        adv = f" +{self.advantage} Adv." if self.advantage and kind else ""
        named = (f" The {self.advantage} {kind} Advantage chosen is named now and spent on that shot."
                 if adv else " The +1 Advantage buttons name Advantage for that shot.")
        out.append(ActionButton("stance:overwatch", f"Overwatch{adv}", enabled=ranged,
                                tooltip="Hold a ranged shot for the first enemy that dashes or charges in range."
                                + named))
        has_melee = any(x.melee for x in t.weapons)
        out.append(ActionButton("stance:guard", f"Guard{adv}", enabled=has_melee,
                                tooltip="Strike first with a melee counter at the first unit that charges it."
                                + named.replace("shot", "counter") if has_melee else "Guard needs a melee weapon."))
        out.append(ActionButton("stance:defensive", "Defensive stance", tooltip="+5 AC against attacks."))
        return out

    def button(self, scene: BattleScene, button_id: str) -> Result:
        if button_id.startswith("weapon:"):
            return AttackMode(self.unit_id, button_id.split(":", 1)[1], self.advantage, self.advantage_kind)
        kind, avail = self._kind(scene)
        if button_id == "adv:+":
            return AttackMode(self.unit_id, self.weapon, min(avail, self.advantage + 1), kind)
        if button_id == "adv:-":
            return AttackMode(self.unit_id, self.weapon, max(0, self.advantage - 1), kind)
        if button_id == "adv:kind":
            kinds = [k for k, _ in self.pools(scene)]
            nxt = kinds[(kinds.index(kind) + 1) % len(kinds)] if kind in kinds else kinds[0]
            return AttackMode(self.unit_id, self.weapon, 0, nxt)
        if button_id.startswith("stance:"):
            stance = button_id.split(":", 1)[1]
            weapon = self._weapon(scene) if stance == "overwatch" else None
            # overwatch and guard name the Advantage chosen for their triggered shot
            spend = self.advantage if kind and stance != "defensive" else 0
            return ail.EnterStance(unit_id=self.unit_id, stance=stance, weapon=weapon,  # type: ignore[arg-type,unused-ignore]
                                   advantage=spend, advantage_kind=kind if spend else None)  # type: ignore[arg-type,unused-ignore]
        return None
