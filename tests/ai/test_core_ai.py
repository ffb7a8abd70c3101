"""The core's computer-player interface (game.core.ai): what a player is shown, its budget, the
random yardstick, the seat syntax and the confidence interval the arena prints."""

from __future__ import annotations

import random
from typing import Any

import pytest

from game.core.ai import Budget, Decision, RandomPlayer, choose, parse_seat, wilson


class _Spy:
    level = "spy"

    def __init__(self) -> None:
        self.seen: list[Any] = []

    def decide(self, system: Any, view: Any, side: str, budget: Budget) -> Decision:
        self.seen.append(view)
        return Decision("pass", "spying")


class _System:
    name = "test"

    def view(self, state: Any, side: str | None) -> Any:
        return {"side": side, "public": state["public"]}


def test_choose_hands_the_player_the_sides_view_never_the_state() -> None:
    spy = _Spy()
    state = {"public": 3, "secret": "the next die is a 6"}
    timed = choose(_System(), state, "red", spy)  # type: ignore[arg-type]
    assert spy.seen == [{"side": "red", "public": 3}]
    assert timed.decision.command == "pass" and timed.seconds >= 0


def test_budget_runs_out_on_work_or_on_time() -> None:
    ticks = iter([0.0, 0.1, 0.2, 5.0])
    budget = Budget(1.0, work=3, clock=lambda: next(ticks))
    assert not budget.expired()
    budget.spend(3)
    assert budget.expired()  # the work limit
    slow = Budget(1.0, work=100, clock=iter([0.0, 2.0]).__next__)
    assert slow.expired()  # the clock


def test_out_of_time_is_the_clock_alone_not_the_work_spent() -> None:
    ticks = iter([0.0, 0.1, 0.2, 5.0])
    budget = Budget(1.0, work=3, clock=lambda: next(ticks))
    budget.spend(3)
    assert budget.expired() and not budget.out_of_time()  # 0.1 s: the work is spent, not the time
    assert not budget.out_of_time()  # 0.2 s
    assert budget.out_of_time()  # 5 s


def test_budget_refuses_nonsense_limits() -> None:
    with pytest.raises(ValueError, match="more than 0 seconds"):
        Budget(0)
    with pytest.raises(ValueError, match="at least 1"):
        Budget(1, work=0)


def test_random_player_picks_only_its_sides_commands_and_is_reproducible() -> None:
    def commands_of(system: Any, view: Any, side: str) -> list[str]:
        return [f"{side}-{i}" for i in range(5)]

    a = [RandomPlayer(random.Random(7), commands_of).decide(None, {}, "red", Budget()).command  # type: ignore[arg-type]
         for _ in range(3)]
    b = [RandomPlayer(random.Random(7), commands_of).decide(None, {}, "red", Budget()).command  # type: ignore[arg-type]
         for _ in range(3)]
    assert a == b and all(c.startswith("red-") for c in a)


def test_parse_seat_accepts_side_equals_ai_level_and_names_what_was_expected() -> None:
    assert parse_seat("zone=ai:hard", ["zone", "zenith"], ["easy", "hard"]) == ("zone", "hard")
    assert parse_seat("zone=easy", ["zone", "zenith"], ["easy", "hard"]) == ("zone", "easy")
    with pytest.raises(ValueError, match="no side 'blue'.*zone, zenith"):
        parse_seat("blue=ai:hard", ["zone", "zenith"], ["easy", "hard"])
    with pytest.raises(ValueError, match="no computer level 'genius'"):
        parse_seat("zone=ai:genius", ["zone", "zenith"], ["easy", "hard"])
    with pytest.raises(ValueError, match="expected SIDE=ai:LEVEL"):
        parse_seat("zone", ["zone"], ["easy"])


def test_wilson_interval_brackets_the_rate_and_narrows_with_more_games() -> None:
    lo, hi = wilson(95, 100)
    assert lo < 0.95 < hi and 0.88 < lo < 0.90 and 0.97 < hi < 0.99
    lo2, hi2 = wilson(950, 1000)
    assert hi2 - lo2 < hi - lo
    assert wilson(0, 10)[0] == pytest.approx(0.0) and wilson(10, 10)[1] == pytest.approx(1.0)
