"""The jumps every replay view makes (a round, a Wave, a week or a phase), worked out once in the
core's Record: where each period starts, the next start, and back to this period's start or the
one before."""

from __future__ import annotations

from typing import Any

from game.core.record import Record
from game.core.system import Step


def _record(weeks: list[int]) -> Record:
    """A history whose states are week numbers: `weeks[0]` before the first command, then one a step."""
    steps = [Step(a, f"c{i}", (), b) for i, (a, b) in enumerate(zip(weeks, weeks[1:], strict=False))]
    return Record(system=None, initial=weeks[0], steps=steps)  # type: ignore[arg-type]


def _week(state: Any) -> int:
    return int(state)


def test_a_period_starts_at_the_start_and_wherever_its_value_changes() -> None:
    r = _record([1, 1, 1, 2, 2, 3])  # positions 0..5
    assert r.period_starts(_week) == [(1, 0), (2, 3), (3, 5)]
    assert r.period_start(_week, 2) == 3 and r.period_start(_week, 9) is None


def test_next_start_goes_to_the_next_period_or_the_end() -> None:
    r = _record([1, 1, 1, 2, 2, 2])
    assert [r.next_start(i, _week) for i in range(6)] == [3, 3, 3, 5, 5, 5]


def test_previous_start_goes_back_to_this_periods_start_then_to_the_one_before() -> None:
    r = _record([1, 1, 1, 2, 2, 3])
    assert [r.previous_start(i, _week) for i in range(6)] == [0, 0, 0, 0, 3, 3]
