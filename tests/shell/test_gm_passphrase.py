"""The shell's GM passphrase and GM mode's trace as data and in saves (game/core/gm_lock.py,
game/shell/savegame.py, game/io/saves.py): the campaign's scheme (a salted PBKDF2 digest, never
the text), optional header fields written only when there is something to write, so every save
without them reads and writes exactly as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.core import gm_lock
from game.io import saves
from game.shell import savegame
from game.shell.gm_seat import hotseat, opened_text
from game.systems.campaign.rules import gm_lock as campaign_lock
from game.table import TABLE

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "saves"


def _body(text: str) -> str:
    """A save's text from its header on (the comment lines above it name the rule system)."""
    return text[text.index("--- # header"):]


def test_the_shells_digest_is_the_campaigns_scheme_and_never_the_text() -> None:
    salt = "00112233445566778899aabbccddeeff"
    lock = gm_lock.lock_of("Caf\u00e9 au lait", salt, 1_000)
    assert lock.digest == campaign_lock.digest_of("Caf\u00e9 au lait", salt, 1_000)
    assert gm_lock.opens(lock, "Cafe\u0301 au lait")  # the same text typed decomposed
    assert not gm_lock.opens(lock, "cafe au lait") and "Caf" not in lock.digest
    assert gm_lock.lock_of("x y z").salt != gm_lock.lock_of("x y z").salt  # a fresh salt each time
    assert gm_lock.too_short("  ab ") and gm_lock.too_short("abc") is None


@pytest.mark.parametrize("fixture", sorted(p.name for p in FIXTURES.glob("*.yaml")))
def test_older_saves_read_with_no_lock_and_no_trace_and_write_back_byte_for_byte(fixture: str) -> None:
    text = (FIXTURES / fixture).read_text(encoding="utf-8")
    save = saves.parse_save(text, fixture)
    assert save.header.gm_lock is None and save.header.gm_opened == ()
    again = saves.dump_save(save)
    assert "gm_lock" not in again and "gm_opened" not in again
    if fixture.startswith("v4"):  # a save of the current format: the same text from its header on
        assert _body(again) == _body(text)


def test_a_save_without_a_passphrase_is_byte_identical_to_before(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    session = savegame.load_session(TABLE, FIXTURES / "v4-demo-overwatch.yaml")
    assert session is not None
    data = savegame.session_save(session, title="t")
    plain = savegame.with_seats(savegame._encode(  # what session_save wrote before the GM's fields
        session.system, session.state, tuple(session.history), session.path, session.seed, "t", False,
        session.seats.by_place(tuple(session.history))), session.seats.levels)
    assert saves.dump_save(data) == saves.dump_save(plain)
    assert "gm_" not in saves.dump_save(data).split("--- # state")[0].replace("gm_mode", "")


def test_a_save_with_a_passphrase_keeps_its_digest_and_the_trace_only_in_the_header(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    session = savegame.load_session(TABLE, FIXTURES / "v4-demo-overwatch.yaml")
    assert session is not None
    kept = gm_lock.keeping(session)
    kept.lock = gm_lock.lock_of("hedge and ditch", iterations=1_000)
    kept.opened = [2, 3]
    path = savegame.save_session(session, tmp_path / "locked.yaml", title="t")
    text = path.read_text(encoding="utf-8")
    assert "hedge and ditch" not in text
    header = saves.read_header(path)
    assert header.gm_lock is not None and header.gm_lock.digest == kept.lock.digest
    assert header.gm_opened == (2, 3)
    # state and log as without them: the passphrase is not part of the game's replay
    kept.lock, kept.opened = None, []
    plain = savegame.save_session(session, tmp_path / "plain.yaml", title="t")
    assert _body(plain.read_text(encoding="utf-8")).split("--- # state")[1] == _body(text).split("--- # state")[1]
    assert savegame.verify(TABLE, path).commands == savegame.verify(TABLE, plain).commands


@pytest.mark.parametrize("lock", [
    {"salt": "zz" * 16, "iterations": 1000, "digest": "0" * 64},
    {"salt": "0" * 32, "iterations": 10, "digest": "0" * 64},
    {"salt": "0" * 32, "iterations": 1000, "digest": "0" * 63},
    {"salt": "0" * 32, "iterations": 1000, "digest": "0" * 64, "passphrase": "oops"},
])
def test_a_save_header_refuses_a_gm_lock_that_is_not_one(lock: dict[str, object]) -> None:
    text = (FIXTURES / "v4-demo-overwatch.yaml").read_text(encoding="utf-8")
    head, rest = text.split("--- # state", 1)
    broken = head + "gm_lock: " + saves.canonical_json(lock) + "\n--- # state" + rest
    with pytest.raises(saves.SaveError) as err:
        saves.parse_save(broken, "broken.yaml")
    assert "gm_lock" in str(err.value)


def test_hotseat_is_two_or_more_sides_at_the_screen_and_the_trace_reads_by_the_clock() -> None:
    session = savegame.load_session(TABLE, FIXTURES / "v4-demo-overwatch.yaml")
    assert session is not None
    session.seats.levels = {}
    assert hotseat(session)
    sides = list(session.system.summary(session.state)["sides"])
    session.seats.levels = {sides[0]: "easy"}
    assert not hotseat(session)
    assert opened_text(session.system, [3, 3, 5]) == "round 3 (twice), round 5"


def test_the_autosave_and_the_recovery_save_keep_the_passphrase_digest_too(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    session = savegame.load_session(TABLE, FIXTURES / "v4-demo-overwatch.yaml")
    assert session is not None
    kept = gm_lock.keeping(session)
    kept.lock = gm_lock.lock_of("hedge and ditch", iterations=1_000)
    kept.opened = [1]
    session.autosaved_round = -1  # the next look sees a new round: an autosave is started
    assert savegame.autosave_if_new_round(session) is not None
    assert savegame.AUTOSAVES.wait(30) and not savegame.AUTOSAVES.problems()
    (auto,) = sorted((tmp_path / "saves" / savegame.AUTOSAVE_DIR).glob("*.yaml"))
    recovery = savegame.write_recovery(session)
    assert recovery is not None
    for path in (auto, recovery):
        header = saves.read_header(path)
        assert header.gm_lock is not None and header.gm_lock.digest == kept.lock.digest, path
        assert header.gm_opened == (1,) and "hedge and ditch" not in path.read_text(encoding="utf-8")
