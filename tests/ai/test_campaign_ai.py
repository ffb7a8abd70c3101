"""The campaign's computer powers (game/systems/campaign/ai.py): honest (the same decisions
whatever the hidden fields hold: the generator's state, the GM's forced dice, the other powers'
sealed orders), every command accepted, orders drawn from the battle's equilibrium."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from game.core.ai import Budget, choose, play_out
from game.systems.campaign.ai import exchange, player, side_of_command
from game.systems.campaign.plugin import PLUGIN
from game.systems.campaign.rules.equilibrium import equilibrium

MAPS = Path(__file__).resolve().parents[2] / "maps" / "campaign"


def _initial(name: str, seed: int) -> Any:
    loaded = PLUGIN.load(MAPS / f"{name}.yaml")
    return PLUGIN.system.initial_state(PLUGIN.setup_of(loaded), seed)


def _game(level: str, seed: int, weeks: int = 4) -> Any:
    state = _initial("ascension-isle", seed)
    seats = {p: player(level if i % 2 == 0 else "random", random.Random(f"{seed}{p}"))
             for i, p in enumerate(state.players)}
    return play_out(PLUGIN.system, state, seats, max_rounds=weeks), seats


def _hidden_changed(state: Any) -> Any:
    battles = {}
    for bid, b in state.battles.items():
        battles[bid] = b  # the other powers' orders: the view strips them; the state keeps its own
    return state.model_copy(update={"rng": (state.rng * 31 + 17) % (2 ** 62) or 5, "forced": (1, 2, 3, 10),
                                     "battles": battles, "scouting_secret": "a scouting secret the GM keeps"})


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_campaign_decisions_are_identical_whatever_the_hidden_fields_hold(level: str) -> None:
    game, seats = _game(level, 3)
    system = PLUGIN.system
    checked = 0
    for step in game.record.steps:
        state = step.before
        side = system.to_move(state)[0]
        if seats[side].level == "random":
            continue
        a = choose(system, state, side, player(level, random.Random(9)), Budget(60))
        b = choose(system, _hidden_changed(state), side, player(level, random.Random(9)), Budget(60))
        assert a.decision.command == b.decision.command and a.decision.why == b.decision.why
        checked += 1
    assert checked >= 10


def test_orders_do_not_depend_on_the_enemys_sealed_orders() -> None:
    from tests.rules.campaign.campfix import to_orders

    system = PLUGIN.system
    s = to_orders(["zone_rifle_division"] * 3, ["jibril_armoured_infantry"])
    outs = []
    for manoeuvre in ("block", "attack"):
        sealed = system.apply(s, system.parse_command({"kind": "orders", "player": "blue", "battle": "B1",
                                                       "manoeuvre": manoeuvre, "vanguard": "b.1"})).state
        outs.append(choose(system, sealed, "red", player("hard", random.Random(4)), Budget(60)).decision.command)
    assert outs[0] == outs[1]


def test_orders_are_drawn_from_the_equilibrium_mix() -> None:
    from tests.rules.campaign.campfix import to_orders

    system = PLUGIN.system
    s = to_orders(["zone_rifle_division"] * 3, ["jibril_armoured_infantry"])
    eq = equilibrium(system.view(s, "red"), "B1", "red", with_stratagems=False)
    support = {st.manoeuvre for st, p in eq.best_rows()}
    drawn = [choose(system, s, "red", player("easy", random.Random(i)), Budget(60)).decision for i in range(40)]
    assert {d.command.manoeuvre for d in drawn} <= support
    assert len({d.command.manoeuvre for d in drawn}) == len(support)  # a mix, not one pure answer
    assert all("equilibrium" in d.why for d in drawn)


def test_every_command_a_campaign_power_chooses_is_accepted_and_its_own() -> None:
    game, seats = _game("hard", 5, weeks=3)  # play_out raises RefusedCommand on a refused command
    assert game.commands > 20
    system = PLUGIN.system
    kinds = set()
    for step in game.record.steps:
        side = system.to_move(step.before)[0]
        # the rules list a sample of each army's moves and orders (queries.legal_commands): the
        # power may choose beyond it, always a command of its own that apply accepted
        assert side_of_command(step.before, step.command) == side
        assert system.apply(step.before, step.command).accepted
        kinds.add(step.command.kind)
    assert {"move_army", "end_turn"} <= kinds


def test_exchange_counts_every_unit_destroyed_in_battle_against_the_other_side() -> None:
    game, _ = _game("hard", 2, weeks=8)
    tally = exchange(game.record.steps)
    destroyed = sum(1 for u in game.record.state.units.values() if u.destroyed)
    assert destroyed > 0 and sum(tally.values()) == destroyed
    assert all(destroyer != victim for destroyer, victim in tally)
