"""The campaign's score, for comparing powers (the arena, docs/ai.md "The arena"): a campaign has
no victory condition, so a game stopped after some weeks is judged by the units each power
destroyed and lost.

[decision] What counts, for each power, since the campaign's start:

- a unit destroyed in a battle counts -1 for the power that lost it (the `player` of the
  `casualties_placed` or `routed` event that lists it: the tables' casualties, a last stand's
  loss, a rout's extra casualty, or the result of a battle fought out and carried back) and +1
  for the other side of that battle (its `sides`, the two powers that fight it);
- a unit the GM marks destroyed (or restores) with `gm_edit_unit` counts for nobody: a GM's edit
  is not a fight;
- score = enemy units destroyed - own units lost. Every destroyed unit counts once each way, so
  the scores of all the powers add up to 0.

The state does not keep which battle destroyed a unit (an army fights one battle after another,
and a destroyed army is removed), so the score is read from the history: the events of every
step from the campaign's start, and the battles' sides from the state at its end (a battle is
never removed from the state). Pure: a fold over events, nothing rolled, no state changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from game.systems.campaign.rules.events import CasualtiesPlaced, Routed
from game.systems.campaign.rules.state import CampaignState

__all__ = ["Tally", "pairs", "tally"]


@dataclass(frozen=True)
class Tally:
    """Units destroyed in battle over a campaign, per power (every player of the campaign has an
    entry, 0 when it destroyed or lost nothing)."""

    destroyed: dict[str, int]  # power -> units of the other side it destroyed in its battles
    lost: dict[str, int]  # power -> its own units destroyed in battle
    battles: int  # battles begun, those still going on included

    @property
    def score(self) -> dict[str, int]:
        """power -> enemy units destroyed - own units lost."""
        return {p: self.destroyed[p] - self.lost[p] for p in self.destroyed}


def pairs(state: CampaignState, events: Iterable[Any]) -> dict[tuple[str, str], int]:
    """(destroyer, victim) -> units destroyed in battle, over the history that produced `events`
    and ended in `state` (what counts: the module's docstring; a unit lost in a battle whose
    sides are not known counts in `tally` as lost, here not at all)."""
    sides = {b.id: b.sides for b in state.battles.values()}
    out: dict[tuple[str, str], int] = {}
    for ev in events:
        if not isinstance(ev, CasualtiesPlaced | Routed) or not ev.destroyed:
            continue
        pair = sides.get(ev.battle)
        if pair is not None and ev.player in pair:
            foe = pair[1] if pair[0] == ev.player else pair[0]
            out[(foe, ev.player)] = out.get((foe, ev.player), 0) + len(ev.destroyed)
    return out


def tally(state: CampaignState, events: Iterable[Any]) -> Tally:
    """The tally of the campaign whose history from its start produced `events` (in order) and
    ended in `state`."""
    events = list(events)
    destroyed = {p: 0 for p in state.players}
    lost = {p: 0 for p in state.players}
    for ev in events:
        if isinstance(ev, CasualtiesPlaced | Routed) and ev.destroyed:
            lost[ev.player] = lost.get(ev.player, 0) + len(ev.destroyed)
    for (foe, _), n in pairs(state, events).items():
        destroyed[foe] = destroyed.get(foe, 0) + n
    for p in lost:
        destroyed.setdefault(p, 0)
    for p in destroyed:
        lost.setdefault(p, 0)
    return Tally(destroyed, lost, len(state.battles))
