"""The query of who may wrest command now (`wresting.wrest_choices`) against `engine.apply`: on
random battles, every wrest it allows is accepted and every one it refuses is refused, with the
rules' own reason."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.system import Accepted
from game.systems.mass.rules import commands as c
from game.systems.mass.rules.engine import dead_at
from game.systems.mass.rules.state import MassState
from game.systems.mass.rules.system import SYSTEM
from game.systems.mass.rules.wresting import wrest_choices, wrest_effects, wrest_label, wrest_refusal
from tests.rules.mass.massfix import force, ok, refused, setup, start
from tests.rules.mass.test_choices import _walk


def _agree(s: MassState) -> tuple[int, int]:
    """Every individual of every force: the query's answer is apply's. Returns (allowed, refused)."""
    allowed = refusals = 0
    for fid, f in s.forces.items():
        answers = wrest_choices(s, fid)
        assert [a.command.person for a in answers] == list(f.people)
        for a in answers:
            out = SYSTEM.apply(s, a.command)
            if a.allowed:
                assert isinstance(out, Accepted), (s.stage, a.command, getattr(out, "reason", ""))
                allowed += 1
                continue
            assert not isinstance(out, Accepted), (s.stage, a.command)
            refusals += 1
            p = f.people[a.command.person]
            if "unable to take command" in str(a.refusal):  # apply names the id; the query the level
                assert p.name in str(a.refusal) and "able to take command" in out.reason
            else:
                assert a.refusal == out.reason
    return allowed, refusals


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_every_wrest_the_query_allows_is_accepted_and_every_one_it_refuses_is_refused_with_the_reason(
        seed: int) -> None:
    for s in _walk(seed, 80):
        _agree(s)


def test_the_query_meets_both_answers_on_walked_battles() -> None:
    """The property above is not empty: random battles reach allowed and refused wrests, the
    stages where command cannot change hands and an ended battle."""
    allowed = refusals = 0
    stages: set[str] = set()
    for seed in range(6):
        for s in _walk(seed, 120):
            a, r = _agree(s)
            allowed += a
            refusals += r
            if not any(w.allowed for fid in s.forces for w in wrest_choices(s, fid)):
                stages.add(s.stage)
    assert allowed > 100 and refusals > 100
    assert "ended" in stages


def test_a_duel_waiting_for_its_answer_or_a_commander_to_name_refuses_every_wrest() -> None:
    s = start()
    s = s.model_copy(update={"stage": "duel_answer"})
    assert wrest_refusal(s, "red") == "command cannot change hands now: a duel waits for its answer"
    assert not any(w.allowed for w in wrest_choices(s, "red"))
    assert refused(s, c.WrestCommand(force="red", person="red-mage")) == wrest_refusal(s, "red")
    s = s.model_copy(update={"stage": "commander"})
    assert "name a new commander" in str(wrest_refusal(s, "red"))
    assert refused(s, c.WrestCommand(force="red", person="red-mage")) == wrest_refusal(s, "red")


def test_only_a_member_able_to_fight_who_is_not_the_commander_may_wrest() -> None:
    s = start()
    s, _ = ok(s, c.GmSetPerson(person="blue-mage", wounds=dead_at(s.rules, s.person("blue-mage"))))
    red = {w.command.person: w for w in wrest_choices(s, "red")}
    blue = {w.command.person: w for w in wrest_choices(s, "blue")}
    assert red["red-mage"].allowed and red["red-mage"].name == "Red-Mage"
    assert red["red-cmd"].refusal == "Red-Cmd already commands Red"
    assert not blue["blue-mage"].allowed and "Blue-Mage is" in str(blue["blue-mage"].refusal)
    assert wrest_choices(s, "nobody") == []


def test_the_wrest_is_said_with_who_takes_command_from_whom_and_its_cost_in_glory() -> None:
    s = start()
    cmd = c.WrestCommand(force="red", person="red-mage")
    assert wrest_label(s, cmd) == "Red: Red-Mage wrests command from Red-Cmd (an Act of Vice)"
    effects = " ".join(wrest_effects(s, cmd))
    assert "Red-Mage becomes the real commander of Red" in effects
    assert "Red-Cmd stays the appointed leader" in effects
    assert f"Glory -{s.rules.ledger.vice}" in effects
    s2, _ = ok(s, cmd)
    assert s2.ledger[-1].glory == -s.rules.ledger.vice  # the cost said is the cost taken
    # a second wrest: from the real commander now, the appointed leader still the first one
    back = c.WrestCommand(force="red", person="red-cmd")
    assert "from Red-Mage" in wrest_label(s2, back)
    assert "Red-Cmd stays the appointed leader" in " ".join(wrest_effects(s2, back))


def test_a_force_off_the_field_may_not_wrest() -> None:
    s = start(setup(force("red"), force("blue"), force("green")))
    s, _ = ok(s, c.Surrender(force="red", to="blue"))
    assert s.stage != "ended"
    assert wrest_refusal(s, "red") == "Red is no longer on the field (surrendered)"
    assert not any(w.allowed for w in wrest_choices(s, "red"))
    assert any(w.allowed for w in wrest_choices(s, "blue"))


def test_the_log_and_the_replay_say_a_wrest_with_who_takes_command_from_whom() -> None:
    s = start()
    cmd = c.WrestCommand(force="red", person="red-mage")
    assert SYSTEM.describe_command(s, cmd) == "Red: Red-Mage wrests command from Red-Cmd (an Act of Vice)"
