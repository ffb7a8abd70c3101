"""A fought-out battle's end -> a campaign result (docs/scales.md "Back to the campaign").

    losses = tactical_losses(plan.origin, initial_state, final_state)    # or mass_losses(...)
    result = campaign_result(campaign_state, "B1", rules, losses, winner, scale="tactical")
    result.steps      # the translation, step by step, for people
    result.command()  # the gm_battle_result command that applies it to the campaign

Every campaign unit of the battle appears exactly once in `result.casualties`, with at most the
casualties it can still take; no other unit appears.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.bridge.models import BAND_ORDER, ScalesRules
from game.bridge.sides import BridgeError, open_battle, sides_of
from game.core.roller import Roller
from game.systems.campaign.rules import battle as battle_mod
from game.systems.campaign.rules.models import BAND_NAMES, Coord
from game.systems.campaign.rules.state import CampaignState, Orders


@dataclass(frozen=True)
class Loss:
    """What one campaign unit's share of the battle started with and lost (strength or heads)."""

    start: int
    lost: int

    @property
    def share(self) -> float:
        return 0.0 if self.start <= 0 else min(1.0, max(0.0, self.lost / self.start))


@dataclass(frozen=True)
class CampaignResult:
    battle: str
    scale: str
    winner: str | None
    loser: str | None
    band: int  # 0 draw, 1 minor .. 4 legendary (the campaign's BAND_NAMES)
    decisiveness: int  # percentage points
    casualties: dict[str, int]  # campaign unit id -> casualties (every unit of the battle)
    destroyed: tuple[str, ...]
    moves: dict[str, tuple[Coord, ...]]  # army id -> the hexes it enters
    steps: tuple[str, ...]
    shares: dict[str, float] = field(default_factory=dict)  # side -> the share of its forces it lost (0..1)

    @property
    def band_name(self) -> str:
        return BAND_NAMES[self.band]

    def command(self, note: str = "", source: dict[str, str] | None = None) -> dict[str, Any]:
        """The campaign GM command that applies this result (game/systems/campaign/rules/external.py);
        `source`: the battle save it came from ({scale, save, checksum})."""
        cmd: dict[str, Any] = {"kind": "gm_battle_result", "battle": self.battle, "winner": self.winner,
                               "band": self.band, "casualties": {u: n for u, n in self.casualties.items() if n},
                               "moves": {a: [list(c) for c in p] for a, p in self.moves.items()},
                               "note": note or f"fought out as a {self.scale} battle: {self.band_name}"}
        if source is not None:
            cmd["source"] = dict(source)
        return cmd

    def same_as(self, command: Any) -> bool:
        """Whether a gm_battle_result command applies exactly this result."""
        return (command.battle == self.battle and command.winner == self.winner and command.band == self.band
                and dict(command.casualties) == {u: n for u, n in self.casualties.items() if n}
                and {a: tuple(tuple(c) for c in p) for a, p in command.moves.items()} == self.moves)


def tactical_losses(origin: Mapping[str, str], initial: Any, final: Any) -> dict[str, Loss]:
    """Per campaign unit, the strength its tactical units started with and lost (a destroyed
    tactical unit loses all of it). `initial` / `final`: AI:L GameStates."""
    out: dict[str, Loss] = {}
    for tid, cuid in origin.items():
        u0 = initial.units.get(tid)
        if u0 is None:
            raise BridgeError(f"the tactical battle has no unit {tid}: it was not generated from this campaign battle")
        u1 = final.units.get(tid)
        left = 0 if (u1 is None or u1.destroyed) else max(0, u1.strength)
        prev = out.get(cuid, Loss(0, 0))
        out[cuid] = Loss(prev.start + u0.strength, prev.lost + max(0, u0.strength - left))
    return out


def mass_losses(heads: Mapping[str, Mapping[str, int]], armour: Mapping[str, str], initial: Any,
                final: Any) -> dict[str, Loss]:
    """Per campaign unit: its head count and the share of its armour class's division its force
    lost (the division's count dropped by the wounded and killed). `initial` / `final`: MassStates."""
    out: dict[str, Loss] = {}
    for player, units in heads.items():
        f0, f1 = initial.forces.get(player), final.forces.get(player)
        if f0 is None or f1 is None:
            raise BridgeError(f"the mass battle has no force {player}: it was not generated from this campaign battle")
        start = {d.armour: d.count for d in f0.brutes}
        now = {d.armour: d.count for d in f1.brutes}
        by_class: dict[str, list[str]] = {}
        for uid in units:
            by_class.setdefault(armour[uid], []).append(uid)
        for a, uids in by_class.items():
            s = start.get(a, 0)
            share = 0.0 if s <= 0 else (s - now.get(a, 0)) / s
            if f1.status in ("obliterated",):
                share = 1.0
            # the class's heads lost shared out by the largest remainders, so that the units' losses
            # add up to the division's as the battle counts it (rounding each unit apart gave
            # 77 + 77 + 46 = 200 of a division that lost 199)
            total = sum(units[u] for u in uids)
            lost = min(total, max(0, round(total * share)))
            exact = {u: (units[u] * lost / total if total else 0.0) for u in uids}
            got = {u: math.floor(exact[u]) for u in uids}
            for u in sorted(uids, key=lambda u: -(exact[u] - got[u]))[:lost - sum(got.values())]:
                got[u] += 1
            for u in uids:
                out[u] = Loss(units[u], min(units[u], got[u]))
    return out


def band_for(rules: ScalesRules, decisiveness: int) -> int:
    band = 1  # [decision] a winner wins at least a minor victory
    for i, name in enumerate(BAND_ORDER, start=1):
        if decisiveness >= rules.back.bands[name]:
            band = i
    return band


def campaign_result(state: CampaignState, battle_id: str, rules: ScalesRules, losses: Mapping[str, Loss],
                    winner: str | None, scale: str) -> CampaignResult:
    battle = open_battle(state, battle_id)
    defender, attacker = sides_of(state, battle)
    steps: list[str] = []
    if winner is not None and winner not in battle.sides:
        raise BridgeError(f"the battle's winner {winner!r} is not a side of campaign battle {battle_id}")
    casualties: dict[str, int] = {}
    destroyed: list[str] = []
    side_share: dict[str, float] = {}
    for side in (defender, attacker):
        tot_start = tot_lost = 0
        steps.append(f"1. casualties of {side.name}:")
        for uid in side.units:
            t = state.unit_type(uid)
            cap = battle_mod.unit_capacity(t, state.units[uid])
            loss = losses.get(uid, Loss(0, 0))
            n = min(cap, math.floor(loss.share * cap + rules.back.round_up))
            casualties[uid] = n
            if n >= cap:
                destroyed.append(uid)
            tot_start += loss.start
            tot_lost += loss.lost
            steps.append(f"   {state.unit_name(uid)}: lost {loss.lost} of {loss.start} ({loss.share:.0%}); "
                         f"capacity {cap} ({t.durability}) -> floor({loss.share:.2f} x {cap} + "
                         f"{rules.back.round_up}) = {n}" + (" : destroyed" if n >= cap else ""))
        side_share[side.player] = 0.0 if tot_start <= 0 else tot_lost / tot_start
        steps.append(f"   {side.name} lost {tot_lost} of {tot_start} ({side_share[side.player]:.2%})")
    loser = None if winner is None else next(p for p in battle.sides if p != winner)
    if winner is None or loser is None:
        band, dec = 0, 0
        steps.append("2. no winner: a draw; nobody is moved")
    else:
        # (rounded to 9 places first: 0.45 - 0.05 is 0.39999999999999997 in floating point, and a
        # floor of that would fall a whole point, across a band's threshold)
        diff = round((side_share[loser] - side_share[winner]) * 100, 9)
        dec = math.floor(diff)
        band = band_for(rules, dec)
        # the shares to a hundredth of a point, so that the subtraction reads right (29.63% - 29.14%,
        # not 30% - 29% = 0), and the difference cut, never rounded up to the next whole point
        shown = round(diff, 2) if math.floor(round(diff, 2)) == dec else math.floor(diff * 100) / 100
        worked = f"{shown:.2f}, rounded down: {dec}" if diff != dec else f"{dec}"
        steps.append(f"2. winner {state.player_name(winner)}; decisiveness = loser's share lost - winner's = "
                     f"{side_share[loser]:.2%} - {side_share[winner]:.2%} = {worked} points -> "
                     f"{BAND_NAMES[band]} (thresholds {dict(rules.back.bands)})")
        if dec < rules.back.bands[BAND_ORDER[0]]:
            why = ("won the battle; both sides lost the same share" if diff == 0 else
                   "won the battle; both sides lost about the same share" if abs(diff) < 1 else
                   "lost the larger share but won the battle" if dec < 0 else
                   "won the battle by fewer points than the lowest threshold")
            steps.append(f"   {state.player_name(winner)} {why}: a winner wins at least a {BAND_NAMES[1]}")
        need = state.cs.rules.bands.legendary_general_level
        wside = defender if defender.player == winner else attacker
        if band == 4 and wside.general_level < need:
            band = 3
            steps.append(f"   a legendary victory needs a General of level {need}; the best is level "
                         f"{wside.general_level}: {BAND_NAMES[band]}")
    moves: dict[str, tuple[Coord, ...]] = {}
    if band and loser is not None:
        move = rules.back.moves[BAND_ORDER[band - 1]]
        steps.append(f"3. {BAND_NAMES[band]}: the loser's move is {move.replace('_', ' ')}")
        if move != "stay":
            w = battle_mod.Work(state, Roller(state.rng, ()))
            dummy = Orders(manoeuvre="defend", vanguard="")
            for a in state.forces(battle, loser):
                if all(casualties.get(u, 0) >= battle_mod.unit_capacity(state.unit_type(u), state.units[u])
                       for u in state.alive_units(a.id)):
                    steps.append(f"   {state.army_says(a.id, 'is')} destroyed; {state.army_agrees(a.id, 'it')} "
                                 f"{state.army_agrees(a.id, 'does')} not move")
                    continue
                path = battle_mod.destinations(state, w, a, move, dummy)
                path = path if move == "rout" else path[:1]
                if not path:
                    steps.append(f"   {state.army_says(a.id, 'has')} no free hex to {move.replace('_', ' ')} to; "
                                 f"{state.army_agrees(a.id, 'it')} {state.army_agrees(a.id, 'stays')}")
                    continue
                moves[a.id] = tuple(path)
                steps.append(f"   {a.name}: " + " -> ".join(f"{c[0]},{c[1]}" for c in (a.hex, *path)))
    else:
        steps.append("3. nobody moves")
    return CampaignResult(battle_id, scale, winner, loser, band, dec, casualties, tuple(destroyed), moves,
                          tuple(steps), dict(side_share))
