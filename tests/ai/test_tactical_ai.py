"""The tactical computer players (game/systems/tactical/ai.py): honest (they decide the same
whatever the hidden fields hold), legal (every command they choose is accepted by apply) and
better than chance; and the `arena` command that plays them against each other."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.__main__ import main
from game.core.ai import Budget, RandomPlayer, choose, play_out
from game.core.hexgrid import Hex, distance, line, neighbours
from game.replay import verify_save
from game.systems.tactical import ai as tactical_ai
from game.systems.tactical.ai import (
    CLOSING,
    KILL,
    ON_OBJECTIVE,
    WIN,
    Ctx,
    Memo,
    best_shot,
    clearing_bonus,
    commands_of,
    danger_at,
    kill_bonus,
    player,
    side_of_command,
    threat_cut,
    threat_of,
    toward,
)
from game.systems.tactical.plugin import PLUGIN
from game.systems.tactical.rules.commands import AssignLeadership, Attack
from game.systems.tactical.rules.queries import AttackPreview, attack_preview
from game.table import TABLE

MAPS = Path(__file__).resolve().parents[2] / "maps"


def _initial(name: str, seed: int) -> Any:
    loaded = PLUGIN.load(MAPS / f"{name}.yaml")
    return PLUGIN.system.initial_state(PLUGIN.setup_of(loaded), seed)


def _decision_states(name: str, seed: int, limit: int) -> list[Any]:
    """States of a game (hard against random) where a side had to decide."""
    game = play_out(PLUGIN.system, _initial(name, seed),
                    {"zone": player("hard", random.Random(1)), "zenith": player("random", random.Random(2))},
                    work=800, max_commands=limit)
    return [s.before for s in game.record.steps]


def _without_advantage(command: Any) -> Any:
    """The command as `legal_commands` lists it: with no Advantage spent on its roll."""
    if getattr(command, "advantage", 0):
        return command.model_copy(update={"advantage": 0, "advantage_kind": None})
    return command


def _hide_differently(state: Any) -> Any:
    """The same battle with every hidden field changed: the generator's state (the dice seed), the
    GM's forced rolls and the other sides' sealed initiative choices."""
    update: dict[str, Any] = {"rng": (state.rng * 7919 + 12345) % (2 ** 63) or 99, "forced_rolls": (6, 1, 6, 1)}
    p = state.pending
    if p is not None and p.kind == "initiative_choice":
        sides = {sid: s.model_copy(update={"initiative_option": "deception" if s.initiative_option != "deception"
                                           else "tactics"}) for sid, s in state.sides.items()}
        update["sides"] = sides
    return state.model_copy(update=update)


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_decisions_are_identical_whatever_the_hidden_fields_hold(level: str) -> None:
    system = PLUGIN.system
    states = _decision_states("demo-movement", 3, 60)
    assert len(states) >= 40
    for state in states:
        side = system.to_move(state)[0]
        other = _hide_differently(state)
        assert other.rng != state.rng
        a = choose(system, state, side, player(level, random.Random(5)), Budget(60, work=800))
        b = choose(system, other, side, player(level, random.Random(5)), Budget(60, work=800))
        assert a.decision.command == b.decision.command, f"round {state.round} {state.phase}"
        assert a.decision.why == b.decision.why


def test_sealed_initiative_choice_of_the_other_side_is_not_seen() -> None:
    """While the initiative choice is open, the view hides what the other side chose, so the
    computer's choice cannot depend on it."""
    system = PLUGIN.system
    state = _initial("default", 4)
    first = system.to_move(state)[0]
    rest = [s for s in state.pending.sides if s != first]
    assert rest
    chosen = system.apply(state, next(c for c in system.legal_commands(state)
                                      if getattr(c, "side", None) == first and c.option == "deception")).state
    other = system.apply(state, next(c for c in system.legal_commands(state)
                                     if getattr(c, "side", None) == first and c.option == "tactics")).state
    for level in ("easy", "hard"):
        a = choose(system, chosen, rest[0], player(level, random.Random(1)), Budget(60, work=800))
        b = choose(system, other, rest[0], player(level, random.Random(1)), Budget(60, work=800))
        assert a.decision.command == b.decision.command


@pytest.mark.parametrize(("scenario", "seed"), [("default", 1), ("hollow-ridge", 2), ("demo-overwatch", 3),
                                                  ("riverford-square", 4)])
def test_every_command_a_computer_chooses_is_accepted_by_apply(scenario: str, seed: int) -> None:
    system = PLUGIN.system
    state = _initial(scenario, seed)
    sides = [s.id for s in state.setup.sides]
    seats = {sides[0]: player("hard", random.Random(seed)), sides[1]: player("easy", random.Random(seed + 1))}
    for _ in range(120):
        to_move = system.to_move(state)
        if not to_move:
            break
        side = to_move[0]
        decision = choose(system, state, side, seats[side], Budget(60, work=600)).decision
        listed = commands_of(system, system.view(state, side), side)
        assert side_of_command(state, decision.command) == side
        # the rules list each attack once, without Advantage; the Advantage a player adds to it is
        # its own choice, and apply below is the judge of it
        assert _without_advantage(decision.command) in listed
        outcome = system.apply(state, decision.command)
        assert outcome.accepted, getattr(outcome, "reason", "")
        assert decision.why
        state = outcome.state


def test_random_player_chooses_among_its_own_sides_commands_only() -> None:
    system = PLUGIN.system
    state = _initial("default", 9)
    side = system.to_move(state)[0]
    rnd = RandomPlayer(random.Random(3), commands_of)
    for _ in range(10):
        cmd = choose(system, state, side, rnd).decision.command
        assert cmd in commands_of(system, state, side)


def test_hard_beats_random_on_the_movement_demo_with_sides_swapped() -> None:
    system = PLUGIN.system
    wins = 0
    for g in range(4):
        hard_side = ("zone", "zenith")[g % 2]
        seats = {s: player("hard" if s == hard_side else "random", random.Random(g)) for s in ("zone", "zenith")}
        game = play_out(system, _initial("demo-movement", 100 + g), seats, work=800)
        assert game.over
        wins += game.winner == hard_side
    assert wins >= 3


def test_plugin_offers_the_three_levels() -> None:
    assert set(PLUGIN.players) == {"random", "easy", "hard"}
    made = PLUGIN.players["easy"](random.Random(1))
    assert made.level == "easy"
    with pytest.raises(ValueError, match="no tactical computer level"):
        player("genius", random.Random(1))


def test_arena_prints_win_rates_and_times_and_saves_a_game_replay_verifies(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "arena.yaml"
    code = main(["arena", str(MAPS / "demo-movement.yaml"), "--seat", "zone=ai:easy", "--games", "2",
                 "--seed", "5", "--work", "600", "--save", str(save), "--save-game", "2"])
    out = capsys.readouterr().out
    assert code == 0
    assert "P1 easy:" in out and "P2 random:" in out and "95% CI" in out
    assert "game 2 (seed 6): zone=P2 random, zenith=P1 easy" in out  # sides swapped
    assert "easy:" in out.split("decision time:")[1] and "worst" in out
    report = verify_save(TABLE, str(save))
    assert report.commands > 0


def test_arena_refuses_an_unknown_side_or_level_naming_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", str(MAPS / "demo-movement.yaml"), "--seat", "blue=ai:hard"]) == 1
    assert "no side 'blue'" in capsys.readouterr().err
    assert main(["arena", str(MAPS / "demo-movement.yaml"), "--seat", "zone=ai:genius"]) == 1
    assert "levels: easy, hard, random" in capsys.readouterr().err


def test_an_attack_is_a_command_of_its_attackers_side_so_computer_players_can_shoot() -> None:
    """An attack names its unit as `attacker_id`, not `unit_id`: it belongs to the attacker's side
    (the players once dropped every attack from their commands, and only charged)."""
    state = _initial("default", 1)
    attack = Attack(attacker_id="zone-gun", target_id="zenith-militia-4", weapon="field gun")
    assert side_of_command(state, attack) == "zone"
    system = PLUGIN.system
    states = _decision_states("demo-movement", 3, 200)
    assert any(isinstance(c, Attack) for s in states for side in system.to_move(s)
               for c in commands_of(system, system.view(s, side), side))


def test_destroying_the_last_unit_of_a_side_that_must_be_destroyed_is_worth_the_battle() -> None:
    """demo-overwatch: the Jibril must destroy every garrison unit, which must survive round 3.
    One unit among two is worth a little beyond its worth; in round 3 each is worth half the
    battle; the last one is worth the battle."""
    state = _initial("demo-overwatch", 1)
    watch, guard = state.units["watch"], state.units["guard"]
    assert kill_bonus(state, watch) == KILL
    assert kill_bonus(state.model_copy(update={"round": 3}), watch) == WIN / 2
    units = dict(state.units)
    units["guard"] = guard.model_copy(update={"destroyed": True})
    assert kill_bonus(state.model_copy(update={"units": units}), watch) == WIN
    assert kill_bonus(state, state.units["troopers"]) == 0.0  # the garrison need not destroy the Jibril


def test_hard_hands_its_leadership_points_to_the_attacker_and_spends_them_on_the_hit() -> None:
    system = PLUGIN.system
    states = _decision_states("demo-movement", 3, 400)
    for state in states:
        if state.phase != "attack" or state.pending is not None or system.to_move(state) != ["zone"]:
            continue
        got = choose(system, state, "zone", player("hard", random.Random(1)), Budget(60, work=800)).decision
        if not isinstance(got.command, Attack) or "100% to hit" in got.why:
            continue
        sides = dict(state.sides)
        sides["zone"] = sides["zone"].model_copy(update={"advantage": {"leadership": 2}})
        rich = state.model_copy(update={"sides": sides})
        hand = choose(system, rich, "zone", player("hard", random.Random(1)), Budget(60, work=800)).decision
        assert isinstance(hand.command, AssignLeadership)
        assert (hand.command.unit_id, hand.command.points) == (got.command.attacker_id, 2)
        after = system.apply(rich, hand.command).state
        spend = choose(system, after, "zone", player("hard", random.Random(1)), Budget(60, work=800)).decision
        assert isinstance(spend.command, Attack) and spend.command.advantage_kind == "leadership"
        assert spend.command.advantage >= 1
        assert system.apply(after, spend.command).accepted
        return
    pytest.fail("no attack with a miss chance in the game")


def test_hard_goes_last_in_the_round_hexes_are_held_or_lost_and_first_before_it() -> None:
    """demo-movement: Zone must hold the ford at the end of round 3. Going last in that round,
    the enemy cannot answer the last move; before it, hard moves and shoots first."""
    system = PLUGIN.system
    states = _decision_states("demo-movement", 3, 400)
    prompt = next(s for s in states if s.pending is not None and s.pending.kind == "turn_place")
    side = system.to_move(prompt)[0]
    cmds = commands_of(system, system.view(prompt, side), side)
    first, last = min(c.position for c in cmds), max(c.position for c in cmds)
    assert first != last
    early = choose(system, prompt.model_copy(update={"round": 1}), side, player("hard", random.Random(1))).decision
    due = choose(system, prompt.model_copy(update={"round": 3}), side, player("hard", random.Random(1))).decision
    assert early.command.position == first
    assert due.command.position == last and "last" in due.why
    easy = choose(system, prompt.model_copy(update={"round": 3}), side, player("easy", random.Random(1))).decision
    assert easy.command.position == first


def test_destroying_an_enemy_on_a_hex_to_hold_is_worth_the_hex_and_in_the_last_movement_phase_the_battle() -> None:
    state = _initial("demo-movement", 1)
    ford = next(o for o in state.setup.objectives if o.kind == "hold").hexes[0]
    units = dict(state.units)
    units["band-1"] = units["band-1"].model_copy(update={"hex": ford})
    blocked = state.model_copy(update={"units": units})
    blocker, other = blocked.units["band-1"], blocked.units["band-2"]
    assert clearing_bonus(blocked, "zone", blocker) == pytest.approx(ON_OBJECTIVE * (1 + 1 / 3))  # round 1 of 3
    assert clearing_bonus(blocked, "zone", other) == 0.0
    assert clearing_bonus(blocked, "zenith", blocker) == 0.0
    last = blocked.model_copy(update={"round": 3, "phase": "movement"})
    assert clearing_bonus(last, "zone", blocker) == WIN
    assert clearing_bonus(last.model_copy(update={"phase": "attack"}), "zone", blocker) == 0.0


def test_hard_weighs_an_attack_by_the_part_of_the_enemys_reply_it_cuts() -> None:
    """The reply an attack cuts (the target's best shot at our units in its next turn, expected
    over the attack's exact outcomes) is never negative nor more than the whole reply, and some
    attack of a game cuts some of it."""
    system = PLUGIN.system
    cuts = []
    for state in _decision_states("demo-movement", 3, 400):
        if state.phase != "attack" or state.pending is not None or system.to_move(state) != ["zone"]:
            continue
        view = system.view(state, "zone")
        ctx = Ctx(view, "zone", True, Budget(60, work=4000), Memo(), {})
        for c in commands_of(system, view, "zone"):
            if not isinstance(c, Attack):
                continue
            pv = attack_preview(view, c.attacker_id, c.target_id, c.weapon)
            assert isinstance(pv, AttackPreview)
            target = view.units[c.target_id]
            cut = threat_cut(ctx, target, pv.odds)
            assert -1e-9 <= cut <= threat_of(ctx, target) + 1e-9
            cuts.append(cut)
    assert cuts and max(cuts) > 0.0


def test_hard_counts_the_charge_of_an_enemy_that_must_move_before_it_can_strike() -> None:
    """On the watched street the Shield Lancers (lances only, move 6) stand out of reach of the
    militia band: hard weighs the danger of their charge at the band's hex by the exact odds of
    a lance from beside it (CLOSING of it), easy only by what can strike from where it stands.
    A hex beyond their move counts nothing from them."""
    system = PLUGIN.system
    view = system.view(_initial("demo-overwatch", 1), "garrison")
    band, lancers = view.units["guard"], view.units["lancers"]
    assert best_shot(Ctx(view, "garrison", True, Budget(60), Memo(), {}), view, "lancers", "guard") == 0.0
    hard = Ctx(view, "garrison", True, Budget(60, work=4000), Memo(), {})
    easy = Ctx(view, "garrison", False, Budget(60, work=4000), Memo(), {})
    beside = next(h for h in neighbours(band.hex) if h in view.board and h not in view.occupied())
    units = dict(view.units)
    units["lancers"] = lancers.model_copy(update={"hex": beside, "moved": True})
    lance = best_shot(hard, view.model_copy(update={"units": units}), "lancers", "guard")
    assert lance > 1.0
    assert danger_at(hard, view, "guard", band.hex) >= CLOSING * lance * 0.25
    assert danger_at(hard, view, "guard", band.hex) > danger_at(easy, view, "guard", band.hex)
    # the lancers alone (the troopers gone), beyond a move and a lance from the band: no danger
    far = next(h for h in sorted(view.board.terrain, key=lambda h: -distance(h, band.hex)) if h not in view.occupied())
    assert distance(far, band.hex) > 7
    units = dict(view.units)
    units["lancers"] = lancers.model_copy(update={"hex": far})
    units["troopers"] = units["troopers"].model_copy(update={"strength": 0, "destroyed": True})
    alone = view.model_copy(update={"units": units})
    assert danger_at(Ctx(alone, "garrison", True, Budget(60), Memo(), {}), alone, "guard", band.hex) == 0.0


@given(st.integers(-30, 30), st.integers(-30, 30), st.integers(-30, 30), st.integers(-30, 30), st.integers(0, 12))
def test_the_hex_an_enemy_closes_to_is_the_one_on_the_line_of_sight_line(aq: int, ar: int, bq: int, br: int,
                                                                          steps: int) -> None:
    a, b = Hex(aq, ar), Hex(bq, br)
    if a == b:
        return
    steps = min(steps, distance(a, b))
    assert toward(a, b, steps) == line(a, b)[steps]


def test_a_hard_movement_decision_whose_time_is_up_stops_at_the_next_unit_and_plays_a_legal_move(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The time running out mid-search stops the weighing at the next unit (the work limit stops
    only the weighing of ends): the best move found so far is played, one the rules accept."""
    system = PLUGIN.system
    state = _initial("default", 5)
    while not (state.phase == "movement" and state.pending is None):
        side = system.to_move(state)[0]
        state = system.apply(state, choose(system, state, side, player("easy", random.Random(1))).decision.command).state
    side = system.to_move(state)[0]
    places: list[str] = []
    weigh = tactical_ai.place_value

    def counted(ctx: Any, state: Any, uid: str, h: Any) -> float:
        places.append(uid)
        return weigh(ctx, state, uid, h)

    monkeypatch.setattr(tactical_ai, "place_value", counted)
    player("hard", random.Random(1)).decide(system, system.view(state, side), side, Budget(60.0, work=10_000))
    weighed_in_full = len(set(places))
    places.clear()
    calls = iter(range(1_000_000))
    budget = Budget(1.0, work=10_000, clock=lambda: 0.0 if next(calls) < 40 else 10.0)  # up after 40 looks
    decision = player("hard", random.Random(1)).decide(system, system.view(state, side), side, budget)
    assert budget.out_of_time()
    assert side_of_command(state, decision.command) == side
    assert system.apply(state, decision.command).accepted
    assert weighed_in_full >= 5 and len(set(places)) < weighed_in_full


def test_why_lines_give_reasons_in_strength_points_and_an_attack_weighed_with_the_defensive_action_gives_both_odds() -> None:
    system = PLUGIN.system
    game = play_out(system, _initial("default", 3),
                    {"zone": player("hard", random.Random(1)), "zenith": player("hard", random.Random(2))},
                    seconds=60, work=800, max_commands=120)  # (the work limit alone stops them: the same game on a busy machine)
    seen = {"move": 0, "attack": 0, "answered": 0}
    for i, step in enumerate(game.record.steps):
        why, c, before = game.whys.get(i, ""), step.command, step.before
        if isinstance(c, tactical_ai.Move | tactical_ai.Dash):
            seen["move"] += 1
            to = Hex(*c.path[-1])
            # the window shows the move itself ("move 3rd Rifles to 11,11") beside its why (the toast,
            # the dice log's heading, the hint): the why gives the reasons only, in strength points
            # (QA, tests/ai/test_watch_qa_whys.py), without the move's end hex again
            assert not why.startswith(c.kind.replace("_", " ")), why
            assert f"{before.board.offset_of(to)[0]},{before.board.offset_of(to)[1]}" not in why, why
            assert "strength points" in why and "improve its place" not in why, why
        elif isinstance(c, Attack):
            seen["attack"] += 1
            assert not why.startswith("attack ") and "strength points" in why, why
            if "if it takes the defensive action" in why:
                seen["answered"] += 1
                pv = attack_preview(before, c.attacker_id, c.target_id, c.weapon, c.advantage, c.advantage_kind)
                assert isinstance(pv, AttackPreview) and pv.odds_if_defensive_action is not None
                assert why.startswith(
                    f"{float(pv.odds.hit_chance):.0%} to hit, {float(pv.odds_if_defensive_action.hit_chance):.0%} "
                    "if it takes the defensive action")
    assert seen["move"] and seen["attack"] and seen["answered"], seen


def _vehicle_moves(game: Any) -> list[tuple[Any, str, Any]]:
    """(command, why, state before) of every dash or charge a vehicle made in a played game."""
    out = []
    for i, step in enumerate(game.record.steps):
        c = step.command
        if isinstance(c, tactical_ai.Dash | tactical_ai.Charge) and not step.before.unit_type(c.unit_id).living:
            out.append((c, game.whys.get(i, ""), step.before))
    return out


def test_a_vehicles_dash_is_weighed_by_the_exact_chance_of_its_pilot_check(monkeypatch: pytest.MonkeyPatch) -> None:
    system = PLUGIN.system
    seats = {"zone": player("hard", random.Random(1)), "zenith": player("easy", random.Random(2))}
    game = play_out(system, _initial("default", 3), seats, seconds=60, work=800, max_commands=60)
    moves = _vehicle_moves(game)
    assert moves  # the Resistance Car and the River Skiff dash up the road
    for c, why, before in moves:
        chance = tactical_ai.pilot_check_chance(before, c.unit_id)
        assert chance is not None and f"pilot check {chance:.0%}" in why, why
    real = tactical_ai.pilot_check_chance  # now a check that never passes: a vehicle never dashes
    monkeypatch.setattr(tactical_ai, "pilot_check_chance", lambda view, uid: None if real(view, uid) is None else 0.0)
    seats = {"zone": player("hard", random.Random(1)), "zenith": player("easy", random.Random(2))}
    game = play_out(system, _initial("default", 3), seats, seconds=60, work=800, max_commands=60)
    assert not _vehicle_moves(game)
