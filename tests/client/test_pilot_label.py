"""A vehicle's dash path on the map gives the exact chance of its pilot check (a failure spends
the dash): the rules' `pilot_check_chance`."""

from __future__ import annotations

import game.systems.tactical.rules as ail
from game.shell import draw
from tests.client.clientfix import battle, click_hex, hover_hex, make_app, make_session


def test_a_vehicles_dash_and_move_and_dash_paths_give_the_exact_chance_of_its_pilot_check() -> None:
    session = make_session([("c1", "armoured_car", "blue", (1, 2)), ("m1", "militia_band", "red", (14, 8))],
                           width=16, phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["c1"].hex)
    chance = ail.queries.pilot_check_chance(session.state, "c1")
    assert chance is not None and 0 < chance < 1
    words = f"pilot check {draw.percent(chance)}"
    st = session.state
    move = ail.move_reach(st, "c1").costs
    far = next(h for h in (st.board.hex_at(c, 2) for c in range(15, 1, -1))
               if h not in move and scene.mode.combo(scene, h) is not None)  # past a move: a move, then a dash
    near = next(iter(move))
    hover_hex(app, far)
    view = scene.mode.path_view(scene)
    assert view is not None and "+ dash" in view.label and view.label.endswith(words), view.label
    hover_hex(app, near)
    view = scene.mode.path_view(scene)
    assert view is not None and view.label.startswith("Move ") and "pilot" not in view.label  # a move: no check
