"""Words the player reads in the panels: units, terrain, rolls, attack previews, phases.

Returns styled pieces (game/shell/toolkit/richtext.py: lines of `Span`s, each a text in one style),
never markup: a name or sentence from a scenario is shown as it is, with nothing to escape and
nothing parsed again. `Lines` builds a text a line at a time. Reads the rules state and data;
computes nothing of the rules itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import game.systems.tactical.rules as ail  # its queries and descriptions load when first used (the facade)
from game.core.hexgrid import Hex
from game.shell.toolkit.richtext import Span, Styled
from game.systems.tactical.rules.models import RulesData, UnitType

Colour = tuple[int, int, int]
Piece = Span | str  # a plain string: the box's own style
Line = tuple[Span, ...]

GOLD: Colour = (0xe0, 0xb8, 0x64)
DIM: Colour = (0x9c, 0x96, 0x8a)
GOOD: Colour = (0x8f, 0xd1, 0x8a)
BAD: Colour = (0xff, 0x7a, 0x6a)
WARN: Colour = (0xff, 0xc8, 0x57)
STANCE: Colour = (0x9f, 0xd0, 0xff)  # a unit's stance on its card
FORCED: Colour = (0xff, 0x9c, 0xf0)  # a roll the GM set
INK: Colour = (0xe8, 0xe2, 0xd6)  # the panels' own text colour, named where a line must say it

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


def rgb(colour: Iterable[int]) -> Colour:
    """A side's colour as the text shows it (each channel kept within 0-255)."""
    r, g, b = (max(0, min(255, int(c))) for c in colour)
    return (r, g, b)


def words(s: object) -> str:
    """A name or sentence as one line of text: a line break in it is a space, and the arrow the
    UI font has no glyph for is written ">"."""
    return str(s).replace("\n", " ").replace("→", ">")


def bold(s: object, colour: Colour | None = None) -> Span:
    return Span(words(s), bold=True, colour=colour)


def ink(s: object, colour: Colour | None, *, bold: bool = False, italic: bool = False) -> Span:
    """`s` in a colour (None: the box's own)."""
    return Span(words(s), bold=bold, italic=italic, colour=colour)


def line(*pieces: Piece | None) -> Line:
    """One line of pieces, in reading order: neighbouring pieces of one style are one span (a word
    is never split between two), empty ones and None dropped. A plain string is taken as it is:
    pass what a scenario names through `words`."""
    out: list[Span] = []
    for piece in pieces:
        if piece is None:
            continue
        span = Span(piece) if isinstance(piece, str) else piece
        if not span.text:
            continue
        if out and out[-1][1:] == span[1:]:
            out[-1] = out[-1]._replace(text=out[-1].text + span.text)
        else:
            out.append(span)
    return tuple(out)


def joined(sep: Piece, parts: Iterable[Iterable[Piece]]) -> list[Piece]:
    """The pieces of each part, `sep` between two parts (as `sep.join` does for strings)."""
    out: list[Piece] = []
    for n, part in enumerate(parts):
        if n:
            out.append(sep)
        out.extend(part)
    return out


class Lines:
    """A styled text built a line at a time; `text` is what it holds so far."""

    def __init__(self, lines: Iterable[Line] = ()) -> None:
        self.rows: list[Line] = list(lines)

    def add(self, *pieces: Piece | None) -> Lines:
        """A line of pieces (none: a blank line)."""
        self.rows.append(line(*pieces))
        return self

    def extend(self, text: Iterable[Line]) -> Lines:
        self.rows.extend(text)
        return self

    @property
    def text(self) -> Styled:
        return tuple(self.rows)

    def __bool__(self) -> bool:
        return bool(self.rows)


def signed(v: int) -> str:
    return f"+{v}" if v >= 0 else str(v)


def unit_text(state: Any, unit_id: str, side_colour: Colour | None = None) -> Styled:
    """A unit's card: its name and side, strength, move, stats and skills, weapons, defences,
    stance and markers, what it has done this turn, the Advantage it may spend."""
    u = state.units[unit_id]
    t: UnitType = state.unit_type(unit_id)
    colour = rgb(side_colour) if side_colour else GOLD
    out = Lines()
    out.add(bold(state.unit_name(unit_id), colour), " ",
            ink(f"{words(state.side_name(u.side))} · {words(t.faction)} {words(t.unit_class)}"
                f"{'' if t.living else ' (vehicle)'}", DIM))
    if u.destroyed:
        out.add(bold("Annihilated" if u.annihilated else "Destroyed", BAD))
    card = {sl.label: sl.text for sl in ail.queries.stat_lines(state, unit_id)}  # the rules' own numbers
    out.add("Strength ", bold(card["strength"]), f" · durability {words(card['durability'])} · "
            f"morale {words(card['morale'])}")
    adren = (" · Adrenaline ", bold(card["adrenaline"])) if "adrenaline" in card else ()
    out.add("Move ", bold(card["move"]), *adren, f" · size {words(card['size'])}")
    out.add(ink(card["stats"], DIM))
    if "skills" in card:
        out.add(ink(card["skills"], DIM))
    for w in t.weapons:
        out.add(bold(w.name), f" {words(card[w.name])}")
    for d in t.defences:
        out.add(ink(f"{words(d.name)}: {words(card[d.name])}", DIM))
    if "special move" in card:
        out.add(ink(f"special move: {words(card['special move'])}", DIM))
    status: list[list[Piece]] = []
    if u.stance != "none":
        held = f" ({words(u.stance_weapon)})" if u.stance_weapon else ""
        named = ""
        if u.stance_advantage and u.stance_advantage_kind:
            what = "shot" if u.stance == "overwatch" else "counter"
            named = f", +{u.stance_advantage} {u.stance_advantage_kind} Advantage on its {what}"
        status.append([ink(f"{u.stance}{held}{named}", STANCE)])
    if u.pinned:
        status.append([ink("pinned", WARN)])
    if u.out_of_action:
        status.append([ink("out of action", BAD)])
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
            status.append([ink(", ".join(done), DIM)])
    if status:
        out.add(*joined(" · ", status))
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
        out.add(ink(f"Advantage to spend: {', '.join(pools)}", GOLD))
    if u.casualty_advantage and u.casualty_advantage_kind and not u.destroyed:
        out.add(ink(f"Casualty rolls: +{u.casualty_advantage} {u.casualty_advantage_kind} "
                    "Advantage on each (standing order)", GOLD))
    return out.text


def terrain_text(board: Any, rules: RulesData, h: Hex, state: Any = None) -> Styled:
    """A hex: its terrain and where it is, its move cost, cover and flags, its road."""
    name = board.terrain.get(h)
    if name is None:
        return (line(ink("off the map", DIM)),)
    t = rules.terrain.get(name)
    col, row = board.offset_of(h)
    road = board.is_road(h)
    title = name.replace("_", " ").capitalize() + (" + road" if road and name != "road" else "")
    out = Lines().add(bold(title), " ", ink(f"hex {col},{row}", DIM))
    if t is not None:
        if t.impassable:
            cost = "impassable" + (" (hover may cross)" if t.hover_passable else "")
        else:
            cost = f"move cost {rules.road_move_cost if road else t.move_cost}"
        flags = [f for f, on in (("difficult", t.difficult), ("blocks line of sight", t.blocks_los)) if on]
        out.add(f"{cost} · cover {t.cover}" + (f" · {', '.join(flags)}" if flags else ""))
    if road:
        out.add(ink("road: a move that stays on road gains a bonus", GOLD))
    return out.text


def roll_line(ev: Any, name: Any) -> Line:
    """One dice-log line with every part of the roll."""
    parts: list[list[Piece]] = []
    if ev.stat_name:
        parts.append([f"{words(ev.stat_name)} {ev.stat}"])
    if ev.skill_name:
        parts.append([f"{words(ev.skill_name)} {ev.skill}"])
    forced: list[Piece] = [" ", ink("(GM)", FORCED)] if ev.forced else []
    parts.append([bold(f"d{ev.die_sides}={ev.die}"), *forced])
    parts += [[f"{words(label)} {signed(v)}"] for label, v in ev.modifiers]
    roller = name(ev.unit_id) if ev.unit_id else None
    # the unit rolling leads the line, unless the label names it ("hit: Hill Battery field gun vs ...")
    who: list[Piece] = [ink(roller, GOLD), " "] if roller and roller not in ev.label else []
    pieces: list[Piece] = [*who, ink(ev.label, None, italic=True), ": ", *joined(" + ", parts), " = ",
                           bold(ev.total)]
    if ev.target is not None:
        pieces.append(f" vs {ev.target}")
        if ev.success is not None:
            pieces += [" ", ink("success" if ev.success else "fail", GOOD if ev.success else BAD)]
        if ev.margin is not None and ev.success:
            pieces.append(f" (margin {signed(ev.margin)})")
    return line(*pieces)


def event_line(ev: Any, name: Any, sides: dict[str, str] | None = None,
               where: Callable[[Hex], str] | None = None) -> Line:
    """One log line. `sides` maps side ids to names (the rules' own lines use ids); `where`
    names a hex the way the hex panel does (Tiled column,row)."""
    SIDE_EVENTS, name_sides = ail.describe.SIDE_EVENTS, ail.describe.name_sides  # (loaded on first use, through the facade)
    kind = getattr(ev, "kind", "")
    if kind == "roll_made":
        return roll_line(ev, name)
    if where is not None and kind == "unit_moved":
        steps = len(ev.path) - 1
        extra = f", road bonus +{ev.road_bonus}" if ev.road_bonus else ""
        verb = {"move": "moves", "dash": "dashes", "charge": "charges", "special_move": "uses its special move",
                "stuck_step": "steps out"}.get(ev.mode, ev.mode)
        moved = ink(f"{words(name(ev.unit_id))} {verb} {steps} hex{'es' if steps != 1 else ''} "
                    f"to {where(ev.path[-1])} (cost {ev.cost}{extra})", DIM)
        if ev.stopped:
            return line(moved, ink(" and is ", DIM), ink("stopped", DIM, bold=True), ink(" there", DIM))
        return line(moved)
    if where is not None and kind == "overwatch_fired":
        return line(ink(f"{words(name(ev.watcher_id))} fires overwatch ({words(ev.weapon)}) at "
                        f"{words(name(ev.target_id))} entering {where(ev.at)}", WARN))
    if kind == "attack_resolved" and ev.result != "no_hit":
        hits = f"{ev.hits} hit{'s' if ev.hits != 1 else ''}"
        dmg = ", ".join(ev.damages) if ev.damages else "none"
        result = ev.result.replace("_", " ")
        return line(ink(f"{words(name(ev.attacker_id))} > {words(name(ev.target_id))}: {hits}, "
                        f"damage {words(dmg)}, strength lost {ev.strength_lost}: ", WARN), ink(result, WARN, bold=True))
    if kind == "turn_order_set":  # "side:unit" slots read as the side's name and the unit's
        def slot(label: str) -> str:
            side, _, unit = label.partition(":")
            side_name = (sides or {}).get(side, side)
            return f"{side_name} ({name(unit)} alone)" if unit else side_name
        return line(ink(f"Turn order: {' → '.join(slot(x) for x in ev.order)}", GOLD, bold=True))
    raw = ev.text(name) if hasattr(ev, "text") else str(ev)
    if sides and kind in SIDE_EVENTS:
        raw = name_sides(raw, sides, name)
    if kind in ("phase_changed", "round_ended", "battle_ended", "turn_order_set", "initiative_won"):
        return line(ink(raw, GOLD, bold=True))
    if kind in ("unit_destroyed", "strength_lost", "marker_added"):
        return line(ink(raw, BAD))
    if kind in ("overwatch_fired", "guard_counter"):
        return line(ink(raw, WARN))
    return line(ink(raw, DIM))


def terrain_colours(rules: RulesData) -> dict[str, tuple[int, int, int]]:
    """Terrain name -> the flat colour the tactical rules data gives it (maps without Tiled art)."""
    return {name: tuple(t.colour) for name, t in rules.terrain.items()}  # type: ignore[misc]
