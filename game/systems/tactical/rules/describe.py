"""Commands as short labels for people: unit names instead of ids, hexes as the map's column,row
(what Tiled shows a GM), e.g. `move Zone Rifles to 5,4`, `attack Lancers at Warjack (rifle)`.

Used by the dice log, the replay panel, the GM undo button and `run`: one notation everywhere.
Events read the same way (`describe_event`): the rules' own event lines name sides by id, and
here every side id (and a Personal slot's "side:unit") becomes the names players know.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from game.core.hexgrid import Hex
from game.core.system import possessive
from game.systems.tactical.rules.events import board_where, event_text
from game.systems.tactical.rules.state import GameState

# The events whose lines name a side (by its id, or "side:unit" for a Personal slot).
SIDE_EVENTS = frozenset({"phase_changed", "initiative_chosen", "initiative_rolled", "initiative_won",
                         "turn_order_set", "advantage_gained", "advantage_spent", "advantage_expired",
                         "leadership_assigned", "defensive_action_offered", "battle_ended"})


def name_sides(line: str, sides: Mapping[str, str], name: Callable[[str], str]) -> str:
    """`line` with every side id replaced by the side's name; a Personal slot's "side:unit"
    reads "Side (Unit alone)". An id's possessive ("blue's", "zones'") becomes the name's
    ("The Zones'", never "The Zones's")."""
    for sid, sname in sides.items():
        pattern = rf"(?<![\w-]){re.escape(sid)}(?::([\w.-]+))?(?![\w-])('s?(?![\w-]))?"

        def repl(m: re.Match[str], sname: str = sname) -> str:
            who = f"{sname} ({name(m.group(1))} alone)" if m.group(1) else sname
            return possessive(who) if m.group(2) else who
        line = re.sub(pattern, repl, line)
    return line


def unit_label(state: GameState, unit_id: str) -> str:
    return state.unit_name(unit_id) if unit_id in state.units else unit_id


def describe_event(state: GameState, event: Any) -> str:
    """An event's line for people: units and sides by name, hexes as the map's column,row."""
    def name(uid: str) -> str:
        return unit_label(state, uid)
    line = event_text(event, name, board_where(state.board))
    if getattr(event, "kind", "") in SIDE_EVENTS:
        line = name_sides(line, {s.id: s.name for s in state.setup.sides}, name)
    return line


def hex_label(state: GameState, value: Any) -> str:
    """`col,row` for a hex of the board; anything else (a hand edit's mistake) as it is."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) for v in value):
        col, row = state.board.offset_of(Hex(int(value[0]), int(value[1])))
        return f"{col},{row}"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _who(state: GameState, d: Mapping[str, Any]) -> str:
    for key in ("unit_id", "attacker_id"):
        uid = d.get(key)
        if isinstance(uid, str) and uid:
            return state.unit_name(uid) if uid in state.units else uid
    side = d.get("side")
    if isinstance(side, str) and side:
        return state.side_name(side)
    return ""


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(n, f"{n}th")


def describe(state: GameState, command: Any) -> str:
    d: Mapping[str, Any] = command if isinstance(command, Mapping) else command.model_dump(mode="json")
    kind = str(d.get("kind", "?"))
    if kind == "enter_stance" and d.get("stance"):  # "Southern Lances takes overwatch with spell bolt"
        weapon = f" with {d['weapon']}" if d.get("weapon") else ""
        stance = {"overwatch": "takes overwatch", "guard": "stands guard",
                  "defensive": "takes a defensive stance"}.get(str(d["stance"]), f"takes {d['stance']}")
        return f"{_who(state, d)} {stance}{weapon}".strip()
    if kind == "choose_initiative" and d.get("option"):  # "Zenith Town Militia picks leadership for the initiative"
        stat = f" ({d['personal_stat']})" if d.get("personal_stat") else ""
        return f"{_who(state, d)} picks {str(d['option']).replace('_', ' ')}{stat} for the initiative".strip()
    if kind == "choose_turn_place" and isinstance(d.get("position"), int):
        return f"{_who(state, d)} takes the {_ordinal(d['position'] + 1)} place in the turn order".strip()
    if kind == "assign_leadership" and d.get("points"):
        points = int(d["points"])
        return (f"{state.side_name(str(d.get('side', '')))} gives {points} Leadership Advantage "
                f"point{'s' if points != 1 else ''} to {_who(state, d)}").strip()
    if kind == "defensive_action":  # "Market Band takes the defensive action" (it said neither yes nor no)
        spend = d.get("casualty_advantage")
        also = (f", spending {spend} Advantage on each casualty roll" if isinstance(spend, int) and spend
                else ", spending no Advantage on its casualty rolls" if spend == 0 else "")
        return (f"{_who(state, d)} {'takes' if d.get('accept') else 'does not take'} the defensive action"
                f"{also}").strip()
    placed = state.setup.catalogue.units.get(str(d.get("type_id", ""))) if kind == "gm_place_unit" else None
    if placed is not None and d.get("at") is not None:  # the unit is not there yet: its type, not its new id
        side = str(d.get("side", ""))
        return f"GM: place {placed.name} ({state.side_name(side)}) at {hex_label(state, d['at'])}"
    extra = ""
    target = d.get("target_id")
    if isinstance(target, str) and target:
        extra = f" at {state.unit_name(target) if target in state.units else target}"
    elif d.get("dash_path") and d.get("move_path"):
        move, dash = d["move_path"], d["dash_path"]
        extra = f" to {hex_label(state, dash[-1])} by {hex_label(state, move[-1])}"
    elif d.get("path"):
        path = d["path"]
        extra = f" to {hex_label(state, path[-1] if isinstance(path, (list, tuple)) and path else path)}"
    elif d.get("to") is not None:
        extra = f" to {hex_label(state, d['to'])}"
    elif d.get("at") is not None:
        extra = f" at {hex_label(state, d['at'])}"
    if d.get("weapon"):
        extra += f" ({d['weapon']})"
    for key in ("option", "stance"):
        if d.get(key):
            extra += f" {str(d[key]).replace('_', ' ')}"
    if kind == "gm_set_next_roll":
        extra += " " + ",".join(str(v) for v in d.get("values", ()))
    label = kind.replace("_", " ").replace("gm ", "GM: ", 1)
    return " ".join(x for x in (label, _who(state, d)) if x) + extra
