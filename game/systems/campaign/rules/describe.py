"""Events as one line for a person (names, not ids; hexes as the map's column,row)."""

from __future__ import annotations

import re
from typing import Any

from game.core.system import possessive
from game.systems.campaign.rules.models import BAND_NAMES, MANOEUVRE_NAMES, display_name
from game.systems.campaign.rules.state import PHASE_NAMES, CampaignState


def _h(c: Any) -> str:
    return f"{c[0]},{c[1]}"


def event_text(state: CampaignState, e: Any) -> str:
    k = str(getattr(e, "kind", ""))
    pn = state.player_name
    says = state.player_says
    if k == "army_moved":
        how = {"move": "moves", "withdraw": "withdraws", "fall_back": "falls back", "rout": "routs",
               "breakthrough": "breaks through", "gm": "is placed by the GM", "fought_out": "moves"}[e.reason]
        return (f"{state.army_says(e.army, how)} to {_h(e.path[-1])}" + (f" (cost {e.cost})" if e.cost else "")
                + (f", as {state.army_agrees(e.army, 'its')} battle fought out ended" if e.reason == "fought_out" else "")
                + (f", stopped by {'an enemy army' if e.stopped_by == 'enemy' else 'a battle'}" if e.stopped_by else ""))
    if k == "turn_passed":
        return f"{PHASE_NAMES.get(e.phase, e.phase)}: " + (f"{possessive(pn(e.player))} turn" if e.player else "everyone is done")
    if k == "phase_began":
        return f"week {e.week}: {PHASE_NAMES.get(e.phase, e.phase)}"
    if k == "declared":
        return f"{pn(e.player)} {'will fight' if e.fight else state.player_agrees(e.player, 'declines') + ' to fight'} at {_h(e.hex)}"
    if k == "battle_started":
        return f"battle {e.battle} begins at {_h(e.hex)}: {pn(e.sides[0])} against {pn(e.sides[1])}"
    if k == "army_joined":
        return f"{state.army_says(e.army, 'joins')} battle {e.battle}"
    if k == "general_moved":
        g = state.generals.get(e.general)
        return f"{g.name if g else e.general} joins {state.army_name(e.army) if e.army else 'no army'}"
    if k == "posted":
        return f"{says(e.player, 'posts')} about battle {e.battle}"
    if k == "narrative_finished":
        return f"{says(e.player, 'has')} finished posting"
    if k == "orders_sealed":
        return f"{says(e.player, 'seals')} orders for battle {e.battle}"
    if k == "orders_revealed":
        s = ", ".join(display_name(x) for x in e.stratagems)
        played = f" (plays as {MANOEUVRE_NAMES[e.plays_as]})" if e.plays_as != e.manoeuvre else ""
        return (f"{e.battle}: {pn(e.player)} ordered {MANOEUVRE_NAMES[e.manoeuvre]}{played}"
                + (f" with {s}" if s else "") + f", vanguard {_unit(state, e.vanguard)}"
                + ("; " + " ".join(e.dropped) if e.dropped else ""))
    if k == "pool_built":
        parts = "; ".join(f"{what}" for what, _ in e.parts)
        return f"{e.battle}: {says(e.player, 'rolls')} {e.dice} dice ({parts})"
    if k == "dice_rolled" and e.purpose.startswith("casualties"):
        return f"{e.battle}: {e.purpose}: {_range_roll(e.purpose, e.dice)}" + (" (forced by the GM)" if e.forced else "")
    if k == "dice_rolled":
        return f"{e.battle}: {e.purpose}: {list(e.dice)} -> {_successes(e.successes)}" + (
            f" ({e.forced} forced by the GM)" if e.forced else "")
    if k == "result_read":
        who = f" for {pn(e.winner)}" if e.winner else ""
        return f"{e.battle}: {BAND_NAMES[e.band]}{who} (margin {e.margin}); " + "; ".join(e.rows)
    if k == "casualties_placed":
        placed = ", ".join(f"{_unit(state, u)} x{n}" for u, n in e.placed) or "none"
        spare = e.count - sum(n for _u, n in e.placed)
        if spare > 0:  # more casualties than the forces had units left to take them
            placed += f"; {spare} more with no unit left to take {'it' if spare == 1 else 'them'}"
        return (f"{e.battle}: {says(e.player, 'takes')} {_casualties(e.count)} ({placed})"
                + (f"; destroyed {', '.join(_unit(state, u) for u in e.destroyed)}" if e.destroyed else ""))
    if k == "routed":
        return f"{e.battle}: {says(e.player, 'routs')}; every unit takes one more casualty"
    if k == "army_locked":
        return f"{state.army_says(e.army, 'is')} pinned by the Block: no withdrawal in week {e.week}"
    if k == "army_destroyed":
        return f"{state.army_says(e.army, 'is')} destroyed"
    if k == "battle_ended":
        return f"battle {e.battle} ends: {e.how}"
    if k == "week_ended":
        return f"end of week {e.week}: armour damage is repaired"
    if k == "battle_chosen":
        how = "is resolved by the tables" if e.scale == "tables" else f"is fought out as a {e.scale} battle"
        return (f"battle {e.battle} {how}" + (f" (battle save {e.save})" if e.save else "")
                + (f": {e.note}" if e.note else ""))
    if k == "battle_abandoned":
        return (f"the {e.scale} battle for {e.battle} is abandoned" + (f" ({e.save})" if e.save else "")
                + "; the tables resolve it" + (f": {e.note}" if e.note else ""))
    if k == "gm_did":
        forced = _FORCED.match(e.what)
        if forced is not None:  # every player's log: the faces of dice still to come are the GM's alone
            n = len([v for v in forced.group(1).split(",") if v.strip()])
            return f"GM: forced the next {n} {'roll' if n == 1 else 'rolls'}"
        return f"GM: {e.what}"
    return k


def _unit(state: CampaignState, uid: str) -> str:
    return state.unit_name(uid) if uid in state.units else uid


_FORCED = re.compile(r"^forced the next rolls: \[(.*)\]$")
_RANGE = re.compile(r"\((\d+)-(\d+)\)$")


def _range_roll(purpose: str, dice: tuple[int, ...]) -> str:
    """A casualty range roll in words: the die read as its place in the range, "rolled 2 on a d2:
    1 (of 0-1)" (the die's face alone read as the count: a QA reader took [2] for 2 casualties)."""
    m = _RANGE.search(purpose)
    if m is None or len(dice) != 1:
        return f"rolled {list(dice)}"
    lo, hi = int(m.group(1)), int(m.group(2))
    return f"rolled {dice[0]} on a d{hi - lo + 1}: {lo + dice[0] - 1} (of {lo}-{hi})"


def _casualties(n: int) -> str:
    return f"{n} casualty" if n == 1 else f"{n} casualties"


def _successes(n: int) -> str:
    return f"{n} success" if n == 1 else f"{n} successes"
