"""The players dialog (P) of every system asks the GM's passphrase once play has begun when there
is one: a battle fought out from a campaign whose GM set a passphrase asks the campaign's
(gm_seat.seat_unlock, wired once in game/shell/scenes/seats.py for every system); a battle with no
passphrase over it and none of its own keeps the GM's word ("I am the GM")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.shell.gm_seat import PassphraseScene
from game.shell.scene import Scene
from game.shell.scenes.dialog import DialogScene
from tests.shell.harness import Game, open_game, play_some, to_map

BATTLES = ("tactical", "mass")


class _Campaign(Scene):
    """A campaign screen under the battle fought out from it: its GM's seat, passphrase set."""

    name = "campaign"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.gm_seat = type("Seat", (), {"is_set": True, "opens": staticmethod(lambda p: p == "sesame")})()


def _players(game: Game) -> DialogScene:
    to_map(game)
    game.scene.players_dialog()  # type: ignore[attr-defined]
    dialog = game.app.scenes.top
    assert isinstance(dialog, DialogScene) and dialog.name == "seats"
    return dialog


@pytest.mark.parametrize("system", BATTLES)
def test_the_players_dialog_of_a_battle_under_a_campaign_passphrase_unlocks_only_with_it(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    game.app.scenes._scenes.insert(0, _Campaign(game.app))  # type: ignore[attr-defined]
    play_some(game)
    dialog = _players(game)
    labels = [c.label for c in dialog.choices]
    assert "GM: unlock (G)" in labels and "I am the GM (G)" not in labels
    assert "passphrase" in dialog.body_text
    dialog.choose_label("GM: unlock (G)")  # type: ignore[attr-defined]
    lock = game.app.scenes.top
    assert isinstance(lock, PassphraseScene) and any("campaign" in line for line in lock.lines)
    assert not lock.submit("a player's guess")
    assert game.top() == "gm_lock"  # a wrong one opens nothing
    assert lock.submit("sesame")
    opened = game.app.scenes.top
    assert isinstance(opened, DialogScene) and opened.name == "seats" and "Play has begun" not in opened.body_text


@pytest.mark.parametrize("system", BATTLES)
def test_the_players_dialog_of_a_plain_battle_opens_on_the_gms_word(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    dialog = _players(game)
    labels = [c.label for c in dialog.choices]
    assert "I am the GM (G)" in labels and "GM: unlock (G)" not in labels
    dialog.choose_label("I am the GM (G)")  # type: ignore[attr-defined]
    opened = game.app.scenes.top
    assert isinstance(opened, DialogScene) and opened.name == "seats" and "Play has begun" not in opened.body_text
