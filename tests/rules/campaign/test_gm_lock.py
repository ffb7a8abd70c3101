"""The GM's passphrase as the campaign keeps it (rules/gm_lock.py, docs/campaign.md "The GM's
passphrase"): a salted PBKDF2-HMAC-SHA256 digest, set once by the `gm_lock` command while no
orders are sealed, kept in the state (only once set), and a state whose lock does not fit is
refused naming the field and what was expected."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from game.core.record import Record
from game.core.system import Accepted, Rejection, StateDataError
from game.systems.campaign.cli.campaign import replay
from game.systems.campaign.io.files import load_campaign
from game.systems.campaign.rules import SYSTEM
from game.systems.campaign.rules.commands import GiveOrders, parse_command
from game.systems.campaign.rules.gm_lock import ITERATIONS, GmLock, digest_of, lock_of, opens, too_short
from tests.hostile.campaignfix import SCENARIO, WEEK_ORDERS, head_before_orders

SALT = "00112233445566778899aabbccddeeff"
FAST = 1_000  # rounds for the tests that are not about the default's cost


def _teaching() -> Any:
    loaded = load_campaign(str(SCENARIO))
    return loaded, SYSTEM.initial_state(loaded.setup, loaded.seed)


def _lock_command(passphrase: str = "owl and oak", salt: str = SALT, iterations: int = FAST) -> Any:
    return parse_command({"kind": "gm_lock", **lock_of(passphrase, salt, iterations).model_dump()})


# ---------------------------------------------------------------------------- the digest


def test_the_digest_is_pbkdf2_hmac_sha256_as_rfc_7914_gives_it() -> None:
    # RFC 7914 section 11, PBKDF2-HMAC-SHA256 (the first 32 bytes of its 64)
    assert digest_of("passwd", b"salt".hex(), 1) == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
    assert digest_of("Password", b"NaCl".hex(), 80_000) == (
        "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56")


def test_a_lock_opens_with_its_passphrase_and_with_no_other() -> None:
    lock = lock_of("owl and oak", SALT, FAST)
    assert opens(lock, "owl and oak")
    for wrong in ("owl and oak ", "Owl and oak", "owl", ""):
        assert not opens(lock, wrong), wrong


def test_the_same_passphrase_typed_composed_or_decomposed_opens_the_lock() -> None:
    lock = lock_of("caf\u00e9", SALT, FAST)  # é as one character
    assert opens(lock, "cafe\u0301")  # e and a combining accent


def test_the_salt_and_the_rounds_change_the_digest() -> None:
    base = lock_of("owl and oak", SALT, FAST).digest
    assert lock_of("owl and oak", "ff" * 16, FAST).digest != base
    assert lock_of("owl and oak", SALT, FAST + 1).digest != base


def test_the_default_rounds_are_the_documented_600000_and_one_check_takes_under_two_seconds() -> None:
    assert ITERATIONS == 600_000  # docs/campaign.md: 0.14-0.15 s on the 2-core build machine
    lock = lock_of("owl and oak", SALT)
    assert lock.iterations == ITERATIONS
    start = time.perf_counter()
    assert opens(lock, "owl and oak")
    took = time.perf_counter() - start
    assert 0.01 < took < 2.0, took  # slow on purpose (a guess costs as much), never a long wait


def test_a_passphrase_needs_three_characters_besides_spaces() -> None:
    assert too_short("  ab  ") is not None
    assert too_short("abc") is None


# ---------------------------------------------------------------------------- the command


def test_the_gm_lock_command_puts_the_digest_in_the_state_and_logs_no_passphrase() -> None:
    _, state = _teaching()
    rec = Record(SYSTEM, state)
    out = rec.apply(_lock_command(), gm=True)
    assert isinstance(out, Accepted)
    assert rec.state.gm_lock == lock_of("owl and oak", SALT, FAST)
    assert SYSTEM.is_gm_command(rec.steps[-1].command)
    data = SYSTEM.state_to_data(rec.state)
    assert data["gm_lock"] == {"salt": SALT, "iterations": FAST, "digest": digest_of("owl and oak", SALT, FAST)}
    text = repr(data) + repr(SYSTEM.command_to_data(rec.steps[-1].command))
    text += " ".join(SYSTEM.describe_event(state, e) for e in out.events)
    assert "owl and oak" not in text
    assert "passphrase is set" in SYSTEM.describe_event(state, out.events[0])


def test_the_gm_lock_is_set_once_for_the_whole_campaign() -> None:
    _, state = _teaching()
    rec = Record(SYSTEM, state)
    assert isinstance(rec.apply(_lock_command("first"), gm=True), Accepted)
    again = rec.apply(_lock_command("second", salt="ab" * 16), gm=True)
    assert isinstance(again, Rejection) and "already set" in again.reason
    assert opens(rec.state.gm_lock, "first")


def test_the_gm_lock_is_refused_once_orders_are_sealed(tmp_path: Path) -> None:
    _, rec, refusals = replay(str(SCENARIO), str(head_before_orders(tmp_path, 1)))
    assert not refusals
    player, orders = next(iter(WEEK_ORDERS[1].items()))
    assert not isinstance(rec.apply(GiveOrders(player=player, **orders[0].model_dump())), Rejection)
    out = rec.apply(_lock_command(), gm=True)
    assert isinstance(out, Rejection) and "sealed" in out.reason
    assert rec.state.gm_lock is None


def test_a_player_cannot_undo_the_gm_lock() -> None:
    _, state = _teaching()
    rec = Record(SYSTEM, state)
    rec.apply(_lock_command(), gm=True)
    assert not SYSTEM.undoable(rec.steps[-1])


def test_a_state_without_a_lock_is_written_without_the_key_as_before() -> None:
    _, state = _teaching()
    data = SYSTEM.state_to_data(state)
    assert "gm_lock" not in data  # older saves' states and checksums are unchanged
    assert SYSTEM.state_from_data(data, state.cs).gm_lock is None


# ---------------------------------------------------------------------------- malformed locks


@pytest.mark.parametrize(("lock", "field", "expected"), [
    ({"salt": "zz" * 16, "iterations": FAST, "digest": "0" * 64}, "salt", "32 hexadecimal digits"),
    ({"salt": SALT[:-2], "iterations": FAST, "digest": "0" * 64}, "salt", "32 hexadecimal digits"),
    ({"iterations": FAST, "digest": "0" * 64}, "salt", "missing"),
    ({"salt": 12345, "iterations": FAST, "digest": "0" * 64}, "salt", "valid string"),
    ({"salt": SALT, "iterations": "many", "digest": "0" * 64}, "iterations", "valid integer"),
    ({"salt": SALT, "iterations": 10, "digest": "0" * 64}, "iterations", "greater than or equal to 1000"),
    ({"salt": SALT, "iterations": 10**12, "digest": "0" * 64}, "iterations", "less than or equal to"),
    ({"salt": SALT, "iterations": FAST, "digest": "0" * 63}, "digest", "64 hexadecimal digits"),
    ({"salt": SALT, "iterations": FAST, "digest": "0" * 64, "passphrase": "x"}, "passphrase", "unknown key"),
    ("owl and oak", None, "valid dictionary"),
])
def test_a_state_whose_lock_does_not_fit_is_refused_naming_the_field_and_what_was_expected(
        lock: Any, field: str | None, expected: str) -> None:
    _, state = _teaching()
    data = {**SYSTEM.state_to_data(state), "gm_lock": lock}
    with pytest.raises(StateDataError) as err:
        SYSTEM.state_from_data(data, state.cs)
    assert err.value.loc[0] == "gm_lock"
    if field is not None:
        assert field in err.value.loc
    assert expected in err.value.message, err.value.message


def test_a_lock_model_takes_exactly_salt_iterations_and_digest() -> None:
    assert set(GmLock.model_fields) == {"salt", "iterations", "digest"}
