"""A week's battle results as sentences for a results screen and a history browser: both sides'
orders, each pool and every die, the band read, the casualties as totals with the table's range
and the roll, and every movement; then a summary of the week. Built from the events the rules
emitted (the same events a save keeps), so a loaded game shows the same history.

`week_pages(steps)` groups the events of a run of steps by week; each battle fought that week is
a `BattlePage`; each week has its `WeekPage` with the summary lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from game.core.system import counted
from game.systems.campaign.rules.describe import event_text
from game.systems.campaign.rules.models import BAND_NAMES, MANOEUVRE_NAMES, display_name
from game.systems.campaign.rules.state import CampaignState

_RANGE = re.compile(r"\((\d+)-(\d+)\)$")  # "casualties on X (lo-hi)": the purpose battle.py writes


@dataclass
class BattlePage:
    battle: str
    week: int
    hex: tuple[int, int] | None = None
    sides: tuple[str, ...] = ()
    orders: list[str] = field(default_factory=list)
    dice: list[str] = field(default_factory=list)
    result: list[str] = field(default_factory=list)
    casualties: list[str] = field(default_factory=list)
    movement: list[str] = field(default_factory=list)
    taken: dict[str, int] = field(default_factory=dict)  # casualties per side (with routs' extra)
    lost: dict[str, int] = field(default_factory=dict)  # units destroyed per side

    def lines(self) -> list[tuple[str, str]]:
        """(heading or "", text) in reading order."""
        out: list[tuple[str, str]] = []
        for head, part in (("Orders", self.orders), ("Dice", self.dice), ("Result", self.result),
                           ("Casualties", self.casualties), ("Movement", self.movement)):
            if part:
                out.append((head, ""))
                out += [("", t) for t in part]
        return out


@dataclass
class WeekPage:
    week: int
    battles: list[BattlePage] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)


def _grouped(state: CampaignState, items: Iterable[str], counts: dict[str, int] | None = None) -> str:
    """Units by type name, identical ones counted ("Zone Rifle Division 1 x3")."""
    tally: dict[str, int] = {}
    for u in items:
        if u not in state.units:
            continue
        label = state.unit_type(u).name + (f" {counts[u]}" if counts is not None else "")
        tally[label] = tally.get(label, 0) + 1
    return ", ".join(f"{k} x{n}" if n > 1 else k for k, n in tally.items())


def _casualty_line(state: CampaignState, e: Any, die: Any, outside: bool = False) -> str:
    """`outside`: the battle's result was decided outside the tables (gm_battle_result: a battle
    fought out at another scale and carried back, or the GM's word), so no table gave the count."""
    how = f"{state.player_says(e.player, 'takes')} {e.count} casualt{'y' if e.count == 1 else 'ies'}"
    m = _RANGE.search(die.purpose) if die is not None else None
    if outside:
        how += " (decided outside the tables"
    elif die is not None and m:
        lo, hi = int(m.group(1)), int(m.group(2))
        how += f" (the table's range {lo}-{hi}: a d{hi - lo + 1} rolled {die.dice[0]}, so {e.rolled}"
    else:
        how += f" (the table's range is {e.rolled}-{e.rolled}"
    if e.extra:
        how += f"; +{e.extra} extra"
    if e.mitigated:
        how += f"; -{e.mitigated} mitigated"
    how += ")"
    if e.placed:
        how += ": " + _grouped(state, (u for u, _ in e.placed), dict(e.placed))
    if e.destroyed:
        how += ". Destroyed: " + _grouped(state, e.destroyed)
    return how


def week_pages(steps: Iterable[tuple[CampaignState, Sequence[Any], CampaignState]]) -> list[WeekPage]:
    """The battle weeks found in `steps` ((state before, events, state after) in order), oldest first."""
    weeks: dict[int, WeekPage] = {}
    after_names: dict[str, str] = {}
    for before, events, after in steps:
        after_names = {pl.id: pl.name for pl in before.cs.players}
        st = before
        page: BattlePage | None = None
        die: Any = None
        week = st.week
        outside = {getattr(e, "battle", None) for e in events if getattr(e, "kind", "") == "battle_ended"
                   and str(getattr(e, "how", "")).startswith("resolved outside the tables")}
        for e in events:
            k = getattr(e, "kind", "")
            battle = getattr(e, "battle", None)
            if k == "week_ended":
                wp = weeks.setdefault(week, WeekPage(week))
                wp.summary.append(f"End of week {week}: armour damage is repaired.")
                continue
            if k == "phase_began":
                week = e.week
                continue
            if battle is not None and k in ("orders_revealed", "pool_built", "dice_rolled", "result_read",
                                            "casualties_placed", "routed", "battle_ended"):
                if page is None or page.battle != battle:
                    wp = weeks.setdefault(week, WeekPage(week))
                    page = next((p for p in wp.battles if p.battle == battle), None)
                    if page is None:
                        b = st.battles.get(battle) or after.battles.get(battle)
                        page = BattlePage(battle, week, b.hex if b else None, b.sides if b else ())
                        wp.battles.append(page)
            if k == "orders_revealed" and page is not None:
                s = ", ".join(display_name(x) for x in e.stratagems) or "no stratagems"
                played = f", played as {MANOEUVRE_NAMES[e.plays_as]}" if e.plays_as != e.manoeuvre else ""
                van = st.unit_type(e.vanguard).name if e.vanguard in st.units else e.vanguard
                page.orders.append(f"{st.player_name(e.player)}: {MANOEUVRE_NAMES[e.manoeuvre]}{played}; "
                                   f"vanguard {van}; {s}" + ("; " + " ".join(e.dropped) if e.dropped else ""))
            elif k == "pool_built" and page is not None:
                parts = "; ".join(what for what, _ in e.parts)
                if not page.dice:
                    d = st.cs.rules.dice
                    page.dice.append(f"Each die is a d{d.sides} and succeeds on {d.success_on} or more.")
                page.dice.append(f"{st.player_says(e.player, 'rolls')} {e.dice} dice of {e.stat.title()} ({parts})")
            elif k == "dice_rolled" and page is not None:
                if e.purpose.startswith("casualties"):
                    die = e
                else:
                    forced = f" ({e.forced} set by the GM)" if e.forced else ""
                    page.dice.append(f"{e.purpose}: {' '.join(str(d) for d in e.dice) or 'no dice'}"
                                     f" -> {e.successes} {'success' if e.successes == 1 else 'successes'}{forced}")
            elif k == "result_read" and page is not None:
                who = f" for {st.player_name(e.winner)}" if e.winner else ""
                tallies = ", ".join(f"{st.player_name(p)} {n}" for p, n in e.successes.items())
                page.result.append(f"{BAND_NAMES[e.band].capitalize()}{who}: successes {tallies}, "
                                   f"margin {e.margin}" + (f", matchup shift {e.shift:+d}" if e.shift else ""))
                page.result += list(e.rows)
            elif k == "casualties_placed" and page is not None:
                page.casualties.append(_casualty_line(st, e, die, battle in outside))
                page.taken[e.player] = page.taken.get(e.player, 0) + e.count
                page.lost[e.player] = page.lost.get(e.player, 0) + len(e.destroyed)
                die = None
            elif k == "routed" and page is not None:
                page.casualties.append(f"{st.player_says(e.player, 'routs')}: every unit takes one more casualty")
            elif k == "battle_ended" and page is not None:
                page.movement.append(f"Battle {e.battle} ends: {e.how}.")
            elif k == "army_moved" and page is not None and e.reason != "move":
                page.movement.append(event_text(st, e) + ".")
            elif k in ("army_locked", "army_destroyed") and page is not None:
                page.movement.append(event_text(st, e) + ".")
    out = sorted(weeks.values(), key=lambda w: w.week)
    for wp in out:
        if wp.battles:
            ended = sum(1 for p in wp.battles if any(m.startswith("Battle ") for m in p.movement))
            wp.summary.insert(0, f"Week {wp.week}: {counted(len(wp.battles), 'battle', 'battles')} fought, {ended} ended.")
            for i, p in enumerate(wp.battles):
                if p.result:
                    sides = "; ".join(f"{after_names.get(pl, pl)} took {n}, lost {counted(p.lost.get(pl, 0), 'unit', 'units')}"
                                      for pl, n in p.taken.items())
                    moves = " " + " ".join(p.movement) if p.movement else ""
                    wp.summary.insert(1 + i, f"Battle {p.battle}: {p.result[0]}. {sides}.{moves}")
    return [w for w in out if w.battles]


__all__ = ["BattlePage", "WeekPage", "week_pages"]
