"""Fixes from a player's and a GM's QA pass of the tactical window (played under Xvfb at 960x600
and 1280x800): each test names the behaviour it protects."""

from __future__ import annotations

from typing import Any

import pytest

import game.systems.tactical.rules as ail
from tests.client.clientfix import battle, make_app, make_session, press_button, settle, top_name


def test_no_never_ask_stops_the_defensive_action_question_against_the_computer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the computer's two rifle sections attack one militia band in turn; the band's side is the
    # one at the screen (against the computer it always is): 'No, never ask' held only for a side
    # behind the hand-off, and the question came back at the next attack
    session = make_session([("r1", "rifle_section", "blue", (2, 4)), ("r2", "rifle_section", "blue", (2, 5)),
                            ("m1", "militia_band", "red", (5, 4))], phase="attack")
    session.seats.set("blue", "easy")
    app = make_app(session, size=(960, 600))
    scene = battle(app)
    thinking: Any = lambda *args, **kwargs: None  # noqa: E731  (the computer's own moves: still thinking)
    monkeypatch.setattr(scene.thinker, "poll", thinking)
    scene.submit(ail.Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))
    settle(app)
    assert top_name(app) == "defensive" and scene.viewer == "red"
    press_button(app, "No, never ask")
    assert scene.viewer == "red"
    assert not app.settings.ask_defensive
    asked = len([s for s in session.history if s.command.kind == "defensive_action"])
    scene.submit(ail.Attack(attacker_id="r2", target_id="m1", weapon="bolt rifles"))
    settle(app)
    assert top_name(app) != "defensive"
    answers = [s.command for s in session.history if s.command.kind == "defensive_action"]
    assert len(answers) == asked + 1 and answers[-1].accept is False  # answered no, as the table chose
    assert session.state.pending is None
