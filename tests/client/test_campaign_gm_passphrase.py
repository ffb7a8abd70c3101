"""The campaign GM's passphrase survives save and load (docs/campaign.md "The GM's passphrase"):
set once on the GM's seat, it is kept in every save the window writes as a salted slow digest
(never the text); after a load the GM's seat asks for that passphrase (the right one opens the GM
view and unlocks the players dialog, a wrong one is refused, nobody can set another); a save
without it (older, or none set) loads as before; a malformed one is refused naming the file,
the place and what was expected, and the file is kept."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game import paths  # noqa: E402
from game.cli.play import open_window  # noqa: E402
from game.io.saves import SaveError  # noqa: E402
from game.shell import savegame  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.shell.launch import open_game, scene_for  # noqa: E402
from game.systems.campaign.client.gm_lock import GmSeat  # noqa: E402
from game.systems.campaign.rules.gm_lock import ITERATIONS, opens  # noqa: E402
from game.table import TABLE  # noqa: E402
from tests.client.test_campaign_client import key, play_to_orders, through_handoff  # noqa: E402

TEACHING = "maps/campaign/teaching.yaml"
PASSPHRASE = "owl and oak"
FAST = 1_000  # rounds of the locks set in the tests not about the default (rules/gm_lock.py ITERATIONS)


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def _window(session: Any, iterations: int = FAST) -> tuple[App, Any]:
    app = App(TABLE, size=(1280, 800), headless=True, settings=Settings(animation="instant"))
    scene = scene_for(app, session)
    scene.gm_seat.iterations = iterations
    app.push(scene)
    through_handoff(app)
    return app, scene


def _fresh(iterations: int = FAST) -> tuple[App, Any]:
    return _window(open_game(TABLE, TEACHING), iterations)


def _gms_seat(app: App) -> Any:
    key(app, pygame.K_g)
    lock = app.scenes.top
    assert lock is not None and lock.name == "gm_lock"
    return lock


def _set_passphrase(app: App, scene: Any, passphrase: str = PASSPHRASE) -> None:
    """G, set the passphrase (nothing sealed yet), then leave the GM view again."""
    lock = _gms_seat(app)
    assert lock.mode == "set"
    assert lock.submit(passphrase), lock.message
    assert scene.gm
    key(app, pygame.K_g)
    through_handoff(app)
    assert not scene.gm


def _seal_the_zones_orders(app: App, scene: Any) -> None:
    play_to_orders(app, scene)
    through_handoff(app)
    assert scene.viewer == "zones"
    key(app, pygame.K_1)
    key(app, pygame.K_RETURN)
    through_handoff(app)
    assert any(b.orders for b in scene.state.open_games())


def _loaded(path: Path) -> tuple[App, Any]:
    session = savegame.load_session(TABLE, path)
    assert session is not None
    return _window(session)


def test_the_passphrase_set_before_a_save_is_asked_for_after_the_load_and_only_it_opens_the_gm_view(
        tmp_path: Path) -> None:
    app, scene = _fresh(iterations=ITERATIONS)  # the real default, once
    _set_passphrase(app, scene)
    path = savegame.save_session(scene.session, tmp_path / "campaign.yaml")

    app, scene = _loaded(path)
    assert scene.session.state.gm_lock.iterations == ITERATIONS
    lock = _gms_seat(app)
    assert lock.mode == "unlock" and not lock.seat.can_set(False)
    assert not lock.submit("anyone's guess") and not scene.gm
    assert "not the GM's passphrase" in lock.message
    app.render()
    assert "not the GM's passphrase" in " ".join(lock.drawn_strings)
    assert lock.submit(PASSPHRASE) and scene.gm


def test_after_a_load_with_orders_sealed_the_saved_passphrase_still_opens_the_gm_view(tmp_path: Path) -> None:
    app, scene = _fresh()
    _set_passphrase(app, scene)
    _seal_the_zones_orders(app, scene)
    path = savegame.quick_save(scene.session)

    app, scene = _loaded(path)
    lock = _gms_seat(app)
    assert lock.mode == "unlock"  # (before: "closed", the GM view shut until the reveal)
    assert not lock.submit("owl and pine") and not scene.gm
    assert lock.submit(PASSPHRASE) and scene.gm
    assert scene.seen.battles["B1"].orders["zones"].manoeuvre == "withdraw"  # the GM sees sealed orders


def test_a_loaded_campaign_with_a_passphrase_lets_nobody_set_another() -> None:
    app, scene = _fresh()
    _set_passphrase(app, scene)
    session = savegame.load_session(TABLE, savegame.save_session(scene.session, savegame.saves_dir() / "c.yaml"))
    assert session is not None
    app, scene = _window(session)
    before = scene.session.state.gm_lock
    why = scene.gm_seat.set("mine now")
    assert why is not None and "already set" in why
    assert scene.session.state.gm_lock == before
    assert not scene.gm_seat.opens("mine now") and scene.gm_seat.opens(PASSPHRASE)


def test_the_save_text_holds_the_salted_digest_and_never_the_passphrase(tmp_path: Path) -> None:
    app, scene = _fresh()
    _set_passphrase(app, scene)
    path = savegame.save_session(scene.session, tmp_path / "campaign.yaml")
    text = path.read_text(encoding="utf-8")
    lock = scene.session.state.gm_lock
    assert lock.salt in text and lock.digest in text and f"iterations: {FAST}" in text
    for form in (PASSPHRASE, PASSPHRASE.encode().hex(), PASSPHRASE.replace(" ", "")):
        assert form not in text


def test_two_campaigns_with_the_same_passphrase_keep_different_salts_and_digests() -> None:
    locks = []
    for _ in range(2):
        app, scene = _fresh()
        _set_passphrase(app, scene)
        locks.append(scene.session.state.gm_lock)
    assert locks[0].salt != locks[1].salt and locks[0].digest != locks[1].digest


def test_quick_saves_recovery_saves_and_autosaves_carry_the_passphrase() -> None:
    app, scene = _fresh()
    _set_passphrase(app, scene)
    session = scene.session
    written = [savegame.quick_save(session), savegame.write_recovery(session)]
    session.autosaved_round = 0  # as if week 1 had just begun: the autosave of a new week
    folder = savegame.autosave_if_new_round(session)
    assert folder is not None and savegame.AUTOSAVES.wait(30)
    assert savegame.AUTOSAVES.problems() == []
    written += sorted(folder.glob("*.yaml"))
    assert len(written) == 3
    for path in written:
        assert path is not None
        back = savegame.load_session(TABLE, path)
        assert back is not None and back.state.gm_lock == session.state.gm_lock, path


def test_an_older_save_without_the_passphrase_loads_and_the_gm_sets_one_as_before(tmp_path: Path) -> None:
    app, scene = _fresh()
    key(app, pygame.K_RETURN)  # the Zones end their move: something to save, no passphrase
    path = savegame.save_session(scene.session, tmp_path / "old.yaml")
    assert "gm_lock" not in path.read_text(encoding="utf-8")  # the state as saves had it before

    app, scene = _loaded(path)
    assert scene.session.state.gm_lock is None
    lock = _gms_seat(app)
    assert lock.mode == "set"
    assert lock.submit("a new passphrase") and scene.gm
    assert opens(scene.session.state.gm_lock, "a new passphrase")


def test_an_older_save_with_orders_sealed_and_no_passphrase_keeps_the_gm_view_closed(tmp_path: Path) -> None:
    app, scene = _fresh()
    _seal_the_zones_orders(app, scene)
    path = savegame.save_session(scene.session, tmp_path / "old.yaml")
    app, scene = _loaded(path)
    lock = _gms_seat(app)
    assert lock.mode == "closed" and lock.entry is None
    assert not lock.submit("anything") and not scene.gm


def _edit(text: str, old: str, new: str) -> str:
    assert text.count(old) >= 1, old
    return text.replace(old, new, 1)  # the first: the state document's, not the log's


@pytest.mark.parametrize(("change", "place", "expected"), [
    ("bad hex", "gm_lock.salt", "32 hexadecimal digits"),
    ("no salt", "gm_lock.salt", "missing (this field is required); the GM's passphrase entry holds salt: 32"),
    ("iterations a word", "gm_lock.iterations", "valid integer"),
    ("digest a list", "gm_lock.digest", "valid string"),
])
def test_a_malformed_passphrase_entry_is_refused_naming_the_file_the_place_and_what_was_expected(
        tmp_path: Path, change: str, place: str, expected: str) -> None:
    app, scene = _fresh()
    _set_passphrase(app, scene)
    path = savegame.save_session(scene.session, tmp_path / "campaign.yaml")
    text = path.read_text(encoding="utf-8")
    lock = scene.session.state.gm_lock
    edited = {
        "bad hex": lambda t: _edit(t, f"salt: {lock.salt}", "salt: " + "xy" * 16),
        "no salt": lambda t: _edit(t, f"  salt: {lock.salt}\n", ""),
        "iterations a word": lambda t: _edit(t, f"iterations: {FAST}", "iterations: many"),
        "digest a list": lambda t: _edit(t, f"digest: {lock.digest}", "digest: [1, 2]"),
    }[change](text)
    path.write_text(edited, encoding="utf-8")
    with pytest.raises(SaveError) as err:
        savegame.load_session(TABLE, path)
    message = str(err.value)
    assert str(path) in message and place in message and expected in message, message
    assert "line " in message  # the line of the state document it is on
    assert path.read_text(encoding="utf-8") == edited  # nothing written over it, nothing lost


def test_play_on_a_save_with_a_malformed_entry_says_what_is_wrong_and_opens_no_game(tmp_path: Path) -> None:
    app, scene = _fresh()
    _set_passphrase(app, scene)
    path = savegame.save_session(scene.session, tmp_path / "campaign.yaml")
    lock = scene.session.state.gm_lock
    path.write_text(_edit(path.read_text(encoding="utf-8"), f"salt: {lock.salt}", "salt: nope"), encoding="utf-8")
    with pytest.raises(SaveError, match="gm_lock.salt"):
        open_window(TABLE, str(path), (1280, 800), Settings(animation="instant"), headless=True)


def test_after_a_load_the_players_dialog_is_unlocked_by_the_saved_passphrase_only(tmp_path: Path) -> None:
    app, scene = _fresh()
    _set_passphrase(app, scene)
    key(app, pygame.K_RETURN)  # the Zones end their move: play has begun
    path = savegame.save_session(scene.session, tmp_path / "campaign.yaml")

    app, scene = _loaded(path)
    key(app, pygame.K_p)
    dialog = app.scenes.top
    assert dialog.name == "seats" and "only the GM changes who plays a side" in dialog.body_text
    dialog.choose_label("GM: unlock (G)")
    lock = app.scenes.top
    assert lock.name == "gm_lock" and lock.purpose == "seats" and lock.mode == "unlock"
    assert not lock.submit("not it") and "not the GM's passphrase" in lock.message
    assert lock.submit(PASSPHRASE)
    unlocked = app.scenes.top
    assert unlocked.name == "seats" and "Play has begun:" not in unlocked.body_text
    assert not scene.gm


def test_setting_the_passphrase_before_the_first_move_does_not_lock_the_players_dialog() -> None:
    app, scene = _fresh()
    _set_passphrase(app, scene)
    assert len(scene.session.history) == 1  # the gm_lock command, nothing played
    key(app, pygame.K_p)
    dialog = app.scenes.top
    assert dialog.name == "seats" and "only the GM changes who plays a side" not in dialog.body_text
    dialog.choose_label("Jibril: Human")
    assert scene.session.seats.level("jibril") is not None


def test_a_seat_of_its_own_keeps_the_same_salted_digest_and_opens_only_with_its_passphrase() -> None:
    seat = GmSeat(iterations=FAST)
    assert seat.can_set(False) and not seat.can_set(True) and not seat.opens(PASSPHRASE)
    assert seat.set("ab ") is not None and seat.lock is None  # too short
    assert seat.set(PASSPHRASE) is None
    assert seat.lock is not None and seat.lock.iterations == FAST and opens(seat.lock, PASSPHRASE)
    assert not seat.can_set(False)
    assert seat.opens(PASSPHRASE) and not seat.opens("owl and pine")


def test_the_passphrase_is_set_only_when_typed_twice_the_same_in_the_gms_seat() -> None:
    app, scene = _fresh()
    lock = _gms_seat(app)
    assert lock.mode == "set" and lock.again is not None  # two boxes
    app.render()
    assert any("then the same again below" in t for t in lock.drawn_strings)
    lock.entry.set_text(PASSPHRASE)
    lock.again.set_text(PASSPHRASE + "x")  # a typo in the second
    assert not lock._submit_boxes()
    assert not lock.seat.is_set and not scene.gm and "differ" in lock.message
    assert lock.entry.get_text() == "" and lock.again.get_text() == ""
    lock.entry.set_text(PASSPHRASE)
    lock.again.set_text(PASSPHRASE)
    assert lock._submit_boxes() and lock.seat.is_set and scene.gm


def test_tab_moves_between_the_two_passphrase_boxes_of_the_gms_seat() -> None:
    """Seen under Xvfb: the GM typed the passphrase, pressed Tab for the box below, and the second
    typing went on in the upper box. Tab goes to the other box, and back."""
    app, _scene = _fresh()
    lock = _gms_seat(app)
    app.step([])  # (the seat focuses its upper box from the next frame)
    assert lock.entry.is_focused and not lock.again.is_focused
    app.step([pygame.event.Event(pygame.TEXTINPUT, text="a")])
    key(app, pygame.K_TAB)
    assert lock.again.is_focused and not lock.entry.is_focused
    app.step([pygame.event.Event(pygame.TEXTINPUT, text="b")])
    assert (lock.entry.get_text(), lock.again.get_text()) == ("a", "b")
    key(app, pygame.K_TAB)
    assert lock.entry.is_focused and not lock.again.is_focused
