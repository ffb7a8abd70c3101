"""The tables' odds for one campaign battle this week (the forecast the GM sees before choosing
how to resolve it, docs/scales.md): the exact chance of every result band and the expected
casualties each way, from the same pools and `verdict` resolution uses (planner.cell).

Orders already sealed are used as sealed (the GM's view sees them). A side that has not sealed
yet is assumed [decision] to pick each of its possible manoeuvres with equal chance, with its
strongest vanguard for it and no stratagems; the result is then the average over those picks,
still exact for that assumption. The assumption is stated in `notes`.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.systems.campaign.rules.battle import side_facts
from game.systems.campaign.rules.models import MANOEUVRE_NAMES, MANOEUVRES, Manoeuvre
from game.systems.campaign.rules.planner import OUTCOMES, best_vanguard, cell
from game.systems.campaign.rules.state import CampaignState


@dataclass(frozen=True)
class Pick:
    manoeuvre: Manoeuvre
    stratagems: tuple[str, ...]
    vanguard: str


@dataclass(frozen=True)
class BattleOdds:
    battle: str
    sides: tuple[str, str]  # the point of view is sides[0]
    chances: dict[str, float]  # OUTCOMES ("win crushing", "draw", "lose minor", ...) for sides[0]
    casualties: dict[str, float]  # player -> expected casualties it takes
    dice: dict[str, tuple[int, int]]  # player -> (fewest, most) dice it may roll
    sealed: tuple[str, ...]  # the players whose sealed orders were used
    notes: tuple[str, ...]

    def win(self, player: str) -> float:
        """The chance `player` wins (any band)."""
        word = "win" if player == self.sides[0] else "lose"
        return sum(v for k, v in self.chances.items() if k.startswith(word))

    @property
    def draw(self) -> float:
        return self.chances["draw"]

    def band_chances(self, player: str) -> dict[str, float]:
        """minor / major / crushing / legendary -> the chance `player` wins by exactly that band."""
        word = "win" if player == self.sides[0] else "lose"
        return {k.split(" ", 1)[1]: v for k, v in self.chances.items() if k.startswith(word)}


def _picks(state: CampaignState, battle_id: str, player: str) -> list[Pick]:
    b = state.battles[battle_id]
    o = b.orders.get(player)
    if o is not None:
        return [Pick(o.manoeuvre, tuple(o.stratagems), o.vanguard)]
    facts = side_facts(state, b, player)
    out = []
    for m in MANOEUVRES:
        v = best_vanguard(facts, m)
        if v is not None:
            out.append(Pick(m, (), v))
    return out


def battle_odds(state: CampaignState, battle_id: str) -> BattleOdds:
    """The exact odds of the tables for an open battle this week; `state` as the GM sees it."""
    b = state.battles.get(battle_id)
    if b is None or b.over:
        raise KeyError(f"there is no open battle {battle_id}")
    a, z = b.sides
    fa, fz = side_facts(state, b, a), side_facts(state, b, z)
    pa, pz = _picks(state, battle_id, a), _picks(state, battle_id, z)
    rules = state.cs.rules
    first = b.started_week == state.week
    chances = dict.fromkeys(OUTCOMES, 0.0)
    taken = {a: 0.0, z: 0.0}
    dice_a: list[int] = []
    dice_z: list[int] = []
    weight = 1.0 / (len(pa) * len(pz)) if pa and pz else 0.0
    for x in pa:
        for y in pz:
            c = cell(rules, fa, x.manoeuvre, x.stratagems, x.vanguard, fz, y.manoeuvre, y.stratagems, y.vanguard,
                     first)
            for k, v in c.chances.items():
                chances[k] += weight * v
            taken[a] += weight * c.casualties_taken
            taken[z] += weight * c.casualties_inflicted
            dice_a.append(c.my_dice)
            dice_z.append(c.their_dice)
    notes = []
    for p, picks in ((a, pa), (z, pz)):
        name, its = state.player_name(p), state.player_agrees(p, "its")
        if p in b.orders:
            notes.append(f"{name}: {its} sealed orders ({MANOEUVRE_NAMES[picks[0].manoeuvre]})")
        else:
            notes.append(f"{name}: not sealed yet; each of {its} {len(picks)} manoeuvres equally likely, "
                         f"strongest vanguard, no stratagems")
    return BattleOdds(b.id, (a, z), chances, taken,
                      {a: (min(dice_a, default=0), max(dice_a, default=0)),
                       z: (min(dice_z, default=0), max(dice_z, default=0))},
                      tuple(p for p in (a, z) if p in b.orders), tuple(notes))
