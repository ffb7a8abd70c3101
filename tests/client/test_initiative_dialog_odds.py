"""The initiative dialog gives each option's exact chance to win the initiative whatever the
other side chooses: the least of the rules' `initiative_win_chances` over its choices."""

from __future__ import annotations

import pygame

import game.systems.tactical.rules as ail
from tests.client.clientfix import battle, key, make_app, make_session, settle, top_name


def test_each_initiative_option_shows_its_least_exact_chance_to_win_and_the_roll_it_is_against() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))])
    app = make_app(session, blackout=False)
    assert top_name(app) == "initiative"
    dialog = app.scenes.top
    side = session.state.pending.sides[0]
    body = dialog.body_text  # type: ignore[union-attr]
    for option in ("tactics", "leadership", "deception"):
        chances = ail.queries.initiative_win_chances(session.state, side, option)
        assert chances
        row = next(r for r in body.splitlines() if r.startswith(option.capitalize() + " — "))
        assert row.endswith(f"· wins at least {round(100 * min(chances.values()))}%"), row
    assert "whatever" in body and "ties roll again" in body


def test_enter_in_the_turn_place_dialog_takes_the_lit_first_place() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (9, 6))],
                           forced=[10, 1])  # blue wins the initiative
    app = make_app(session, blackout=False)
    for _ in range(4):  # each side takes its first option (Tactics)
        if top_name(app) == "turn_place":
            break
        key(app, pygame.K_1)
        settle(app, 3)
    assert top_name(app) == "turn_place" and battle(app).state.pending.sides == ("blue",)
    key(app, pygame.K_RETURN)
    assert session.history[-1].command == ail.ChooseTurnPlace(side="blue", position=0)
