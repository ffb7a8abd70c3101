"""Words the player reads in the panels: units, terrain, rolls, attack previews, phases.

Returns pygame_gui's HTML subset (<b>, <i>, <font color=...>, <br>). Reads the rules state and
data; computes nothing of the rules itself.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from game.core.hexgrid import Hex
from game.systems.tactical.rules.models import RulesData, UnitType

# (the rules' queries and descriptions are imported where used: the first frame needs neither)

GOLD = "#e0b864"
DIM = "#9c968a"
GOOD = "#8fd18a"
BAD = "#ff7a6a"
WARN = "#ffc857"

OPTION_TEXT = {
    "tactics": ("Tactics", "intellect + tactics",
                "Command Advantage: a side pool any unit spends on hit rolls."),
    "leadership": ("Leadership", "intellect + leadership",
                   "Leadership Advantage: hand points to units; they spend them on any roll, "
                   "or 2 points instead of 1 Adrenaline to dash."),
    "deception": ("Deception", "intellect + deception",
                  "Deception Advantage: banked, added to your next initiative roll."),
    "personal": ("Personal", "physique/senses/aether + skill",
                 "Personal Advantage for the commander's own unit, which gets its own slot; "
                 "your other troops act last."),
}

PHASE_NAMES = {"initiative": "Initiative", "movement": "Movement", "attack": "Attack", "ended": "Battle over"}


def hexcol(colour: tuple[int, int, int]) -> str:
    r, g, b = (max(0, min(255, c)) for c in colour)
    return f"#{r:02x}{g:02x}{b:02x}"


def e(s: object) -> str:
    # the UI font has no arrow glyph
    return escape(str(s), quote=False).replace("→", "&gt;")


def signed(v: int) -> str:
    return f"+{v}" if v >= 0 else str(v)


def unit_html(state: Any, unit_id: str, side_colour: tuple[int, int, int] | None = None) -> str:
    from game.systems.tactical.rules.queries import stat_lines

    u = state.units[unit_id]
    t: UnitType = state.unit_type(unit_id)
    colour = hexcol(side_colour) if side_colour else GOLD
    lines = [f"<font color='{colour}'><b>{e(state.unit_name(unit_id))}</b></font> "
             f"<font color='{DIM}'>{e(state.side_name(u.side))} · {e(t.faction)} {e(t.unit_class)}"
             f"{'' if t.living else ' (vehicle)'}</font>"]
    if u.destroyed:
        lines.append(f"<font color='{BAD}'><b>{'Annihilated' if u.annihilated else 'Destroyed'}</b></font>")
    card = {line.label: line.text for line in stat_lines(state, unit_id)}  # the rules' own numbers
    lines.append(f"Strength <b>{e(card['strength'])}</b> · durability {e(card['durability'])} · "
                 f"morale {e(card['morale'])}")
    adren = f" · Adrenaline <b>{e(card['adrenaline'])}</b>" if "adrenaline" in card else ""
    lines.append(f"Move <b>{e(card['move'])}</b>{adren} · size {e(card['size'])}")
    lines.append(f"<font color='{DIM}'>{e(card['stats'])}</font>")
    if "skills" in card:
        lines.append(f"<font color='{DIM}'>{e(card['skills'])}</font>")
    for w in t.weapons:
        lines.append(f"<b>{e(w.name)}</b> {e(card[w.name])}")
    for d in t.defences:
        lines.append(f"<font color='{DIM}'>{e(d.name)}: {e(card[d.name])}</font>")
    if "special move" in card:
        lines.append(f"<font color='{DIM}'>special move: {e(card['special move'])}</font>")
    status = []
    if u.stance != "none":
        held = f" ({e(u.stance_weapon)})" if u.stance_weapon else ""
        named = ""
        if u.stance_advantage and u.stance_advantage_kind:
            what = "shot" if u.stance == "overwatch" else "counter"
            named = f", +{u.stance_advantage} {u.stance_advantage_kind} Advantage on its {what}"
        status.append(f"<font color='#9fd0ff'>{u.stance}{held}{named}</font>")
    if u.pinned:
        status.append(f"<font color='{WARN}'>pinned</font>")
    if u.out_of_action:
        status.append(f"<font color='{BAD}'>out of action</font>")

    if not u.destroyed:
        done = []
        if u.move_done:
            done.append("moved")
        if u.dashed:
            done.append("dashed")
        if u.action_used:
            done.append("acted")
        if u.forfeit_attack:
            done.append("next attack forfeited")
        if done:
            status.append(f"<font color='{DIM}'>{', '.join(done)}</font>")
    if status:
        lines.append(" · ".join(status))
    pools = []
    side = state.sides.get(u.side)
    if side is not None and not u.destroyed:
        if side.advantage.get("command", 0):
            pools.append(f"command {side.advantage['command']}")
        if u.leadership:
            pools.append(f"leadership {u.leadership}")
        if side.advantage.get("personal", 0) and state.personal_units().get(u.side) == u.id:
            pools.append(f"personal {side.advantage['personal']}")
    if pools:
        lines.append(f"<font color='{GOLD}'>Advantage to spend: {', '.join(pools)}</font>")
    if u.casualty_advantage and u.casualty_advantage_kind and not u.destroyed:
        lines.append(f"<font color='{GOLD}'>Casualty rolls: +{u.casualty_advantage} {u.casualty_advantage_kind} "
                     "Advantage on each (standing order)</font>")
    return "<br>".join(lines)


def terrain_html(board: Any, rules: RulesData, h: Hex, state: Any = None) -> str:
    name = board.terrain.get(h)
    if name is None:
        return f"<font color='{DIM}'>off the map</font>"
    t = rules.terrain.get(name)
    col, row = board.offset_of(h)
    road = board.is_road(h)
    title = name.replace("_", " ").capitalize() + (" + road" if road and name != "road" else "")
    lines = [f"<b>{e(title)}</b> <font color='{DIM}'>hex {col},{row}</font>"]
    if t is not None:
        if t.impassable:
            cost = "impassable" + (" (hover may cross)" if t.hover_passable else "")
        else:
            cost = f"move cost {rules.road_move_cost if road else t.move_cost}"
        flags = [f for f, on in (("difficult", t.difficult), ("blocks line of sight", t.blocks_los)) if on]
        lines.append(f"{cost} · cover {t.cover}" + (f" · {', '.join(flags)}" if flags else ""))
    if road:
        lines.append(f"<font color='{GOLD}'>road: a move that stays on road gains a bonus</font>")
    return "<br>".join(lines)


def roll_html(ev: Any, name: Any) -> str:
    """One dice-log line with every part of the roll."""
    parts = []
    if ev.stat_name:
        parts.append(f"{e(ev.stat_name)} {ev.stat}")
    if ev.skill_name:
        parts.append(f"{e(ev.skill_name)} {ev.skill}")
    forced = " <font color='#ff9cf0'>(GM)</font>" if ev.forced else ""
    parts.append(f"<b>d{ev.die_sides}={ev.die}</b>{forced}")
    parts += [f"{e(label)} {signed(v)}" for label, v in ev.modifiers]
    who = f"<font color='{GOLD}'>{e(name(ev.unit_id))}</font> " if ev.unit_id else ""
    line = f"{who}<i>{e(ev.label)}</i>: " + " + ".join(parts) + f" = <b>{ev.total}</b>"
    if ev.target is not None:
        line += f" vs {ev.target}"
        if ev.success is not None:
            line += f" <font color='{GOOD if ev.success else BAD}'>{'success' if ev.success else 'fail'}</font>"
        if ev.margin is not None and ev.success:
            line += f" (margin {signed(ev.margin)})"
    return line


def event_html(ev: Any, name: Any, sides: dict[str, str] | None = None,
               where: Callable[[Hex], str] | None = None) -> str:
    """One log line. `sides` maps side ids to names (the rules' own lines use ids); `where`
    names a hex the way the hex panel does (Tiled column,row)."""
    from game.systems.tactical.rules.describe import (  # (the rules name sides by id in these)
        SIDE_EVENTS,
        name_sides,
    )

    kind = getattr(ev, "kind", "")
    if kind == "roll_made":
        return roll_html(ev, name)
    if where is not None and kind == "unit_moved":
        steps = len(ev.path) - 1
        extra = f", road bonus +{ev.road_bonus}" if ev.road_bonus else ""
        stop = " and is <b>stopped</b> there" if ev.stopped else ""
        verb = {"move": "moves", "dash": "dashes", "charge": "charges", "special_move": "uses its special move",
                "stuck_step": "steps out"}.get(ev.mode, ev.mode)
        return (f"<font color='{DIM}'>{e(name(ev.unit_id))} {verb} {steps} hex{'es' if steps != 1 else ''} "
                f"to {where(ev.path[-1])} (cost {ev.cost}{extra}){stop}</font>")
    if where is not None and kind == "overwatch_fired":
        return (f"<font color='{WARN}'>{e(name(ev.watcher_id))} fires overwatch ({e(ev.weapon)}) at "
                f"{e(name(ev.target_id))} entering {where(ev.at)}</font>")
    if kind == "attack_resolved" and ev.result != "no_hit":
        hits = f"{ev.hits} hit{'s' if ev.hits != 1 else ''}"
        dmg = ", ".join(ev.damages) if ev.damages else "none"
        result = ev.result.replace("_", " ")
        return (f"<font color='{WARN}'>{e(name(ev.attacker_id))} &gt; {e(name(ev.target_id))}: {hits}, "
                f"damage {e(dmg)}, strength lost {ev.strength_lost}: <b>{e(result)}</b></font>")
    if kind == "turn_order_set":  # "side:unit" slots read as the side's name and the unit's
        def slot(label: str) -> str:
            side, _, unit = label.partition(":")
            side_name = (sides or {}).get(side, side)
            return f"{side_name} ({name(unit)} alone)" if unit else side_name
        return f"<font color='{GOLD}'><b>Turn order: {e(' → '.join(slot(x) for x in ev.order))}</b></font>"
    raw = ev.text(name) if hasattr(ev, "text") else str(ev)
    if sides and kind in SIDE_EVENTS:
        raw = name_sides(raw, sides, name)
    text = e(raw)
    if kind in ("phase_changed", "round_ended", "battle_ended", "turn_order_set", "initiative_won"):
        return f"<font color='{GOLD}'><b>{text}</b></font>"
    if kind in ("unit_destroyed", "strength_lost", "marker_added"):
        return f"<font color='{BAD}'>{text}</font>"
    if kind in ("overwatch_fired", "guard_counter"):
        return f"<font color='{WARN}'>{text}</font>"
    return f"<font color='{DIM}'>{text}</font>"


def terrain_colours(rules: RulesData) -> dict[str, tuple[int, int, int]]:
    """Terrain name -> the flat colour the tactical rules data gives it (maps without Tiled art)."""
    return {name: tuple(t.colour) for name, t in rules.terrain.items()}  # type: ignore[misc]
