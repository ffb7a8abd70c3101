"""game.systems.mass.rules.choices: the legal list found directly equals the oracle's (every
candidate tried through apply) on random states; what is secret; the labels and the odds of
every choice."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.system import Accepted
from game.systems.mass.io.files import load_battle
from game.systems.mass.rules import choices, odds
from game.systems.mass.rules import commands as c
from game.systems.mass.rules.state import MassState
from game.systems.mass.rules.system import SYSTEM
from tests.rules.mass.massfix import force, person, rules, setup
from tests.rules.mass.test_soak_and_teaching import ROOT

BATTLE = ROOT / "maps" / "mass" / "borderland-valley.yaml"


def _setup(rng: random.Random) -> tuple[object, int]:
    n = rng.choice([2, 2, 3])
    forces = [force(f"f{i}", people=[person(f"f{i}-a"), person(f"f{i}-b", tags=["shugenja"]),
                                     person(f"f{i}-c", armour="light", tags=["monk"]),
                                     person(f"f{i}-d", tags=["shugenja"], rings={"earth": 1, "water": 2, "fire": 2,
                                                                                 "air": 2, "void": 1})],
                    brutes=[{"armour": "none", "count": rng.randint(10, 500)}]) for i in range(n)]
    if rng.random() < 0.5:  # the first two forces allied (the oracle still tries a cede to every force)
        forces[0]["allies"], forces[1]["allies"] = ["f1"], ["f0"]
    terrain = rng.choice(["accessible", "constricted", "suspended", "stalemated"])
    # now and then a battle begun before allies (readings 2: a cede to any force)
    rules_ = rules(readings=2) if rng.random() < 0.2 else None
    return setup(*forces, terrain=terrain, prepared=rng.random() < 0.5, rules_=rules_), rng.randrange(10_000)


def _stir(s: MassState, rng: random.Random) -> MassState:
    """A GM's touch now and then, so the walk reaches states play reaches rarely: a wounded or
    Void-less individual, a terrain bonus held."""
    people = [p for f in s.forces.values() for p in f.people.values()]
    p = rng.choice(people)
    cmd: object = c.GmSetPerson(person=p.id, wounds=rng.choice([0, p.wounds, p.wounds + 6]),
                                void_left=rng.choice([0, 1, p.void_left]))
    if rng.random() < 0.4:
        f = rng.choice(list(s.forces.values()))
        cmd = c.GmSetAdvantage(force=f.id, way="terrain", value=rng.choice([0, 2]))
    out = SYSTEM.apply(s, cmd)
    return out.state if isinstance(out, Accepted) else s


def _walk(seed: int, steps: int) -> list[MassState]:
    rng = random.Random(seed)
    su, dice_seed = _setup(rng)
    s = SYSTEM.initial_state(su, dice_seed)  # type: ignore[arg-type]
    seen = [s]
    for _ in range(steps):
        if s.stage == "ended":
            break
        if rng.random() < 0.08:
            s = _stir(s, rng)
        legal = odds.legal_commands(s)
        quiet = [x for x in legal if x.kind not in ("surrender", "cede") and getattr(x, "action", "") != "flee"]
        out = SYSTEM.apply(s, rng.choice(quiet if quiet and rng.random() < 0.95 else legal))
        assert isinstance(out, Accepted)
        s = out.state
        seen.append(s)
    return seen


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_the_direct_legal_list_equals_the_list_tried_through_apply_on_random_states(seed: int) -> None:
    for s in _walk(seed, 120):
        assert choices.legal_commands(s) == odds.legal_commands(s), (s.stage, s.phase)


def test_the_direct_legal_list_equals_the_oracle_through_the_example_battle() -> None:
    lb = load_battle(BATTLE)
    s = SYSTEM.initial_state(lb.setup, lb.seed)
    rng = random.Random(4)
    while s.stage != "ended":
        legal = odds.legal_commands(s)
        assert choices.legal_commands(s) == legal
        quiet = [x for x in legal if x.kind not in ("surrender", "cede") and getattr(x, "action", "") != "flee"]
        s = SYSTEM.apply(s, rng.choice(quiet)).state  # type: ignore[union-attr]


def test_the_system_lists_its_legal_commands_through_the_direct_module() -> None:
    lb = load_battle(BATTLE)
    s = SYSTEM.initial_state(lb.setup, lb.seed)
    assert SYSTEM.legal_commands(s) == choices.legal_commands(s)


def test_only_the_appointments_are_secret() -> None:
    lb = load_battle(BATTLE)
    s = SYSTEM.initial_state(lb.setup, lb.seed)
    assert s.stage == "appoint" and choices.secret(s)
    for fid in ("hida", "akira"):
        s = SYSTEM.apply(s, choices.legal_commands(s)[0] if fid == "hida" else
                         next(x for x in choices.legal_commands(s) if x.force == fid)).state  # type: ignore[union-attr]
    assert s.stage == "heaven" and not choices.secret(s)


def _duel_answer_state() -> MassState:
    su = setup(force("red"), force("blue"))
    s = SYSTEM.initial_state(su, 3)
    s = SYSTEM.apply(s, c.RollWay(force=SYSTEM.to_move(s)[0], way="strategy")).state  # type: ignore[union-attr]
    s = SYSTEM.apply(s, c.GmForceRolls(values=(1, 1, 1, 1, 1, 1))).state  # type: ignore[union-attr]
    s = SYSTEM.apply(s, c.RollActionDice(force=SYSTEM.to_move(s)[0])).state  # type: ignore[union-attr]
    mover = SYSTEM.to_move(s)[0]
    duel = next(x for x in choices.legal_commands(s) if getattr(x, "action", "") == "duel"
                and x.option == "iaijutsu" and not x.void)
    assert duel.force == mover
    s = SYSTEM.apply(s, duel).state  # type: ignore[union-attr]
    assert s.stage == "duel_answer"
    return s


def test_the_three_answers_to_a_duel_read_as_what_they_do() -> None:
    s = _duel_answer_state()
    labels = [choices.label(s, x) for x in choices.legal_commands(s)]
    assert len(set(labels)) == 3
    assert "accept" in labels[0] and "iaijutsu" in labels[0]
    assert "skirmish" in labels[1] and "refuse" in labels[2] and "fleeing" in labels[2]
    titles = [choices.preview(s, x).title for x in choices.legal_commands(s)]
    assert len(set(titles)) == 3


def test_every_choice_has_an_odds_pane_with_something_to_read() -> None:
    lb = load_battle(BATTLE)
    s = SYSTEM.initial_state(lb.setup, lb.seed)
    rng = random.Random(9)
    while s.stage != "ended":
        legal = choices.legal_commands(s)
        for cmd in legal:
            p = choices.preview(s, cmd)
            assert p.title and p.lines, (cmd, p)
        quiet = [x for x in legal if x.kind not in ("surrender", "cede") and getattr(x, "action", "") != "flee"]
        s = SYSTEM.apply(s, rng.choice(quiet)).state  # type: ignore[union-attr]


def test_the_appointment_odds_give_each_ways_pool_and_a_range_against_the_sealed_rivals() -> None:
    lb = load_battle(BATTLE)
    s = SYSTEM.initial_state(lb.setup, lb.seed)
    cmd = c.Appoint(force="akira", heaven="akira-shugenja", honor="akira")
    p = choices.preview(s, cmd)
    assert p.title.startswith("Sealed appointment")
    heaven, honor = p.lines
    assert heaven.startswith("Heaven: Isawa Ren (shugenja) rolls 6k3") and "%" in heaven and "sealed" in heaven
    assert honor.startswith("Honor: Akira rolls")


@pytest.mark.parametrize("name, tags, shown", [
    ("Kuni Mai (shugenja)", ["shugenja"], "Kuni Mai (shugenja)"),
    ("Togashi Ken (monk)", ["monk"], "Togashi Ken (monk)"),
    ("Isawa Ren", ["shugenja"], "Isawa Ren (shugenja)"),
    ("Hida Jo", [], "Hida Jo")])
def test_a_persons_tags_are_shown_once(name: str, tags: list[str], shown: str) -> None:
    from game.systems.mass.rules.models import Individual
    from game.systems.mass.rules.state import Person

    ind = Individual.model_validate({**person("x", tags=tags), "name": name})
    assert choices.person_label(Person(stats=ind)) == shown


def test_the_appointments_head_to_head_chance_equals_the_contest_odds() -> None:
    from game.core.rollkeep import Pool, contest_odds, distribution

    for a, b in ((Pool.of(6, 3), Pool.of(4, 2)), (Pool.of(3, 2), Pool.of(5, 3)), (Pool.of(2, 2), Pool.of(2, 2))):
        want = contest_odds([distribution(a), distribution(b)], [9, 9]).win[0]
        assert abs(choices._beats(a, b) - want) < 1e-12


@pytest.mark.parametrize("pools, caps", [
    (((6, 3), (4, 2)), (3, 2)), (((9, 6), (8, 3)), (2, 3)), (((2, 2), (2, 2)), (0, 0)),
    (((5, 3), (7, 2), (4, 4)), (3, 1, 2)), (((3, 1), (10, 10)), (5, 5))])
def test_the_fast_contest_odds_equal_the_dice_modules(pools: tuple[tuple[int, int], ...],
                                                      caps: tuple[int, ...]) -> None:
    from game.core.rollkeep import Pool, contest_odds, distribution

    ps = tuple(Pool.of(r, k) for r, k in pools)
    want = contest_odds([distribution(p) for p in ps], list(caps), 5)
    got = choices.fast_contest_odds(ps, caps, 5)
    for w, g in zip(want.win, got.win, strict=True):
        assert abs(w - g) < 1e-12
    for w, g in zip(want.raises, got.raises, strict=True):
        assert set(w) == set(g) and all(abs(w[k] - g[k]) < 1e-12 for k in w)


def test_every_contest_preview_equals_the_rules_own_odds() -> None:
    lb = load_battle(BATTLE)
    s = SYSTEM.initial_state(lb.setup, lb.seed)
    rng = random.Random(2)
    while s.stage != "ended":
        legal = choices.legal_commands(s)
        for cmd in legal:
            if cmd.kind == "roll_way" or getattr(cmd, "action", "") in ("duel", "contentious_ground"):
                mine, theirs = choices.preview(s, cmd), odds.preview(s, cmd)
                assert mine.lines[-len(theirs.lines):] == theirs.lines
                assert all(abs(mine.win[k] - theirs.win[k]) < 1e-12 for k in theirs.win)
        quiet = [x for x in legal if x.kind not in ("surrender", "cede") and getattr(x, "action", "") != "flee"]
        s = SYSTEM.apply(s, rng.choice(quiet)).state  # type: ignore[union-attr]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_a_what_if_on_the_light_copy_is_what_apply_gives_and_leaves_the_state_alone(seed: int) -> None:
    from game.systems.mass.rules import engine

    for s in _walk(seed, 80)[::3]:
        kept = s.model_copy(deep=True)
        for cmd in choices.legal_commands(s):
            mine, theirs = choices.what_if(s, cmd), engine.apply(s, cmd)
            assert isinstance(mine, Accepted) and isinstance(theirs, Accepted)
            assert mine.state == theirs.state and mine.events == theirs.events
            if isinstance(cmd, c.BattleAction):
                shown, rules = choices.preview(s, cmd), odds.preview(s, cmd)
                assert shown.lines[1:] == rules.lines and shown.title == rules.title
        assert s == kept


def test_the_skirmish_answer_to_a_skirmish_says_it_is_the_same_fight_as_accepting() -> None:
    s = _duel_answer_state()
    assert s.duel is not None
    s = s.model_copy(update={"duel": s.duel.model_copy(update={"style": "skirmish"})})
    labels = {x.choice: choices.label(s, x) for x in choices.legal_commands(s)}
    assert "instead" not in labels["skirmish"] and "the same as accepting" in labels["skirmish"]
    assert "as the skirmish they asked for" in labels["accept"]
