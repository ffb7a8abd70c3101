"""F1 on the defensive-action question names the keys its buttons take: Y (take it), N (no) and
C (cycle the casualty Advantage; docs/playing.md, "Attack": "Casualty: ... (or C) cycles the
choice"), besides H, P and the number keys. It named only H, P and 1-4, while Y, N and C worked."""

from __future__ import annotations

import pygame

from game.shell.scenes.dialog import DialogScene
from tests.client.clientfix import click_hex, continue_handoff, key, make_app, make_session, top_name


def test_f1_on_the_defensive_question_names_y_n_and_c_and_c_cycles_the_casualty_choice() -> None:
    session = make_session([("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (5, 2))],
                           phase="attack")
    st = session.state
    units = dict(st.units)
    units["m1"] = units["m1"].model_copy(update={"leadership": 2})  # so the question offers casualty Advantage
    session.state = st.model_copy(update={"units": units})
    app = make_app(session)
    continue_handoff(app)
    click_hex(app, session.state.units["r1"].hex)
    click_hex(app, session.state.units["m1"].hex)
    continue_handoff(app)  # red looks at the question
    assert top_name(app) == "defensive"
    question = app.scenes.top
    assert isinstance(question, DialogScene)
    labels = {b.label: b.what for b in question.key_map()}
    assert labels["Y"] == "Take it (+5 AC)" and labels["N"] == "No"
    assert labels["C"].startswith("Casualty: ")
    assert "H" in labels and "P" in labels and "1-4" in labels
    key(app, pygame.K_F1)
    help_text = app.scenes.top.body_text
    assert "Y: Take it (+5 AC)" in help_text and "N: No" in help_text and "C: Casualty: " in help_text
    key(app, pygame.K_F1)
    assert top_name(app) == "defensive"
    before = [c.label for c in app.scenes.top.choices]
    key(app, pygame.K_c)
    assert top_name(app) == "defensive"
    after = [c.label for c in app.scenes.top.choices]
    assert before[-1] != after[-1] and after[-1].startswith("Casualty: ")  # the next casualty choice
