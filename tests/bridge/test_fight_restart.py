"""A campaign battle fought out and begun again (the tactical Restart, the mass New battle) keeps
its way back to the campaign map, and the way back writes the battle begun again, not the one
thrown away, to the battle save the campaign links to (game/bridge/client/fight.py `_back`)."""

from __future__ import annotations

from pathlib import Path

from game.io.saves import read_header
from game.shell.contracts import live_game
from tests.bridge.test_fight_client import _back_later, _play, _started, saves  # noqa: F401 - fixture
from tests.client.clientfix import press_button, top_name


def test_a_campaign_battle_restarted_goes_back_to_the_campaign_with_the_new_battles_play(
        saves: Path) -> None:  # noqa: F811
    app, scene, battle = _started(saves)
    _play(battle, 4)
    battle.dialogs.ask_restart(battle)  # the end summary's Restart
    # the campaign has a GM passphrase (open_gm set it): only the GM begins its battle again
    gate = app.scenes.top
    assert top_name(app) == "gm_lock" and gate.ok.text == "Begin it again (Enter)"  # type: ignore[union-attr]
    assert gate.submit("gm-secret")  # type: ignore[union-attr]
    assert top_name(app) == "restart_question"
    press_button(app, "Restart")
    fresh = live_game(app)
    assert fresh is not None and fresh is not battle and fresh.session.return_to is not None
    for _ in range(4):
        if top_name(app) not in ("battle",):
            app.pop()  # the briefing, a hand-off
    _play(fresh, 2)
    _back_later(app)
    assert top_name(app) != "battle" and all(s is not fresh for s in app.scenes)
    linked = scene.session.save_path.parent / scene.state.battles["B1"].battle_save
    assert read_header(linked).commands == 2  # the battle begun again, not the 4 commands thrown away
