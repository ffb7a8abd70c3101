"""Queries for the shell and the soak: legal commands and the per-side view."""

from __future__ import annotations

from typing import Any

from game.systems.campaign.rules import hexes
from game.systems.campaign.rules.battle import side_facts
from game.systems.campaign.rules.combat import orders_refusal
from game.systems.campaign.rules.commands import (
    Cmd,
    Declare,
    EndTurn,
    GiveOrders,
    MoveArmy,
    NarrativeDone,
    Pickup,
    WritePost,
)
from game.systems.campaign.rules.engine import (
    active_player,
    battle_players,
    held_in_battle,
    pending_declarations,
    reach,
    waiting_for,
)
from game.systems.campaign.rules.models import MANOEUVRES, STRATAGEMS
from game.systems.campaign.rules.state import CampaignState, key_hex


def legal_commands(state: CampaignState, max_moves_per_army: int = 12) -> list[Cmd]:
    """A representative set of legal player commands (every kind the phase allows; moves are
    limited to a sample of each army's reach so the list stays short)."""
    out: list[Cmd] = []
    if state.phase == "movement":
        p = active_player(state)
        for a in state.armies.values():
            if a.owner != p or a.moved or held_in_battle(state, a):
                continue
            r = reach(state, a.id)
            picks = sorted(r.items(), key=lambda kv: (kv[1].stops == "", kv[1].cost, kv[0]))[:max_moves_per_army]
            out += [MoveArmy(army=a.id, path=e.path) for _, e in picks]
        out.append(EndTurn())
    elif state.phase == "declare":
        for k, left in pending_declarations(state).items():
            for pl in left:
                out += [Declare(player=pl, hex=key_hex(k), fight=True), Declare(player=pl, hex=key_hex(k), fight=False)]
    elif state.phase == "pickup":
        p = active_player(state)
        rng = state.cs.rules.movement.pickup_range
        for g in state.generals.values():
            if g.owner != p or g.picked_up:
                continue
            for a in state.armies.values():
                if a.owner == p and a.id != g.army and hexes.hex_distance(state.cs.map, g.hex, a.hex) <= rng:
                    out.append(Pickup(general=g.id, army=a.id))
        out.append(EndTurn())
    elif state.phase == "narrative":
        for p in battle_players(state):
            if p in state.narrative_done:
                continue
            for b in state.open_games():
                if p in b.sides:
                    present = {a.id for a in state.forces(b, p)}
                    gens = tuple(g.id for g in state.generals.values() if g.owner == p and g.army in present)
                    out.append(WritePost(player=p, battle=b.id, text=f"{state.player_says(p, 'marches')} to battle.",
                                         generals=gens))
            out.append(NarrativeDone(player=p))
    elif state.phase == "orders":
        out += orders_options(state)
    return out


def orders_options(state: CampaignState, per_side: int = 40) -> list[GiveOrders]:
    out: list[GiveOrders] = []
    rules = state.cs.rules
    for b in state.open_games():
        if b.fought_as != "tables":  # fought out: no orders until the GM abandons it
            continue
        for p in b.sides:
            if p in b.orders:
                continue
            facts = side_facts(state, b, p)
            mine: list[GiveOrders] = []
            for m in MANOEUVRES:
                has_line = any(u.type.line for u in facts.units)
                vans = [u.id for u in facts.units if m == "withdraw" or u.type.line or not has_line][:2]
                for v in vans:
                    if orders_refusal(rules, facts, m, (), v) is None:
                        mine.append(GiveOrders(player=p, battle=b.id, manoeuvre=m, vanguard=v))
                    for s in STRATAGEMS:
                        if orders_refusal(rules, facts, m, (s,), v) is None:
                            mine.append(GiveOrders(player=p, battle=b.id, manoeuvre=m, vanguard=v, stratagems=(s,)))
            out += mine[:per_side] if len(mine) <= per_side else mine[:: max(1, len(mine) // per_side)]
    return out


def view(state: CampaignState, side: str | None) -> CampaignState:
    """The state as `side` may see it: every other side's sealed orders removed, and nothing that
    would tell the dice to come (the generator's state set to 0, the GM's forced rolls emptied,
    the week's scouting secret removed). None: all, for the GM."""
    if side is None:
        return state
    battles = {}
    for bid, b in state.battles.items():
        if any(p != side for p in b.orders):
            b = b.model_copy(update={"orders": {p: o for p, o in b.orders.items() if p == side}})
        battles[bid] = b
    return state.model_copy(update={"battles": battles, "forced": (), "rng": 0, "scouting_secret": None})


def sealed_by(state: CampaignState) -> dict[str, list[str]]:
    """battle -> the players whose orders are sealed in it (who, never what)."""
    return {b.id: sorted(b.orders) for b in state.open_games()}


def describe_command(state: CampaignState, command: Any) -> str:
    k = str(getattr(command, "kind", ""))
    if k == "move_army":
        path = command.path
        return f"move {state.army_name(command.army)} to {path[-1][0]},{path[-1][1]}" if path else "move"
    if k == "orders":
        return f"{state.player_says(command.player, 'seals')} orders for {command.battle}"
    if k == "declare":
        return (state.player_says(command.player, "fights" if command.fight else "declines")
                + f" at {command.hex[0]},{command.hex[1]}")
    if k == "post":
        return f"{state.player_says(command.player, 'posts')} about {command.battle}"
    if k == "pickup":
        g = state.generals.get(command.general)
        return f"{g.name if g else command.general} joins {state.army_name(command.army)}"
    if k == "gm_battle_choice":
        how = "by the tables" if command.scale == "tables" else f"as a {command.scale} battle"
        return f"GM: resolve battle {command.battle} {how}"
    if k == "gm_battle_abandon":
        return f"GM: abandon the fought-out battle {command.battle}; back to the tables"
    if k == "gm_battle_result":
        return f"GM: the result of battle {command.battle}" + (f" from {command.source.save}" if command.source else "")
    if k == "gm_battle_dice":
        return (f"GM: {command.dice:+d} dice for {state.player_name(command.player)} in {command.battle} "
                f"({command.reason})" if command.dice else
                f"GM: clear the dice for {state.player_name(command.player)} in {command.battle}")
    if k == "gm_lock":
        return "GM: set the GM's passphrase"
    if k == "end_turn":
        return f"{state.player_says(active_player(state) or '', 'ends')} the {state.phase} turn"
    player = getattr(command, "player", None)
    if k == "narrative_done" and isinstance(player, str):
        return f"{state.player_says(player, 'has')} finished posting"
    if k == "gm_scouting_seed":
        return f"GM: seed the scouting dice of week {command.week} (commitment protocol)"
    if isinstance(player, str) and player:  # who did it, then what (QA: "narrative done" named nobody)
        return f"{state.player_name(player)}: {k.replace('_', ' ')}"
    return k.replace("_", " ")


__all__ = ["describe_command", "legal_commands", "orders_options", "sealed_by", "view", "waiting_for"]
