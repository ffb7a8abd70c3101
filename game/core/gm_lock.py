"""The GM's passphrase as a game keeps it when its rule system has none of its own (the tactical
and the mass battle; the campaign keeps its own in its state, game/systems/campaign/rules/
gm_lock.py, whose scheme this is, written again here: the shell and the core import no rule
system), and GM mode's trace. Pure: no window, no files.

    digest = PBKDF2-HMAC-SHA256(NFC(passphrase) as UTF-8, salt, iterations)

with a random 16-byte salt of the game's own and `ITERATIONS` rounds. `keeping(game)` is what one
game (the window's session) holds: its lock and the clock of every opening of GM mode. The shell's
GM seat (game/shell/gm_seat.py) asks for it; the save service writes it in a save's header and
reads it back (game/shell/savegame.py; docs/saves.md).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
import weakref
from dataclasses import dataclass, field

ITERATIONS = 600_000  # as the campaign's (about 0.15-0.25 s a check on the build machine)
MIN_ITERATIONS = 1_000
MAX_ITERATIONS = 20_000_000
SALT_BYTES = 16
DIGEST_BYTES = 32  # SHA-256
MIN_LENGTH = 3  # characters of a passphrase, spaces at either end not counted


@dataclass(frozen=True)
class Lock:
    """The GM's passphrase as a game keeps it: salt (hex), rounds, digest (hex)."""

    salt: str
    iterations: int
    digest: str


def digest_of(passphrase: str, salt: str, iterations: int) -> str:
    """The hex digest of `passphrase` (composed form, UTF-8) under `salt` (hex) and `iterations` rounds."""
    text = unicodedata.normalize("NFC", passphrase).encode("utf-8")
    return hashlib.pbkdf2_hmac("sha256", text, bytes.fromhex(salt), iterations, DIGEST_BYTES).hex()


def lock_of(passphrase: str, salt: str | None = None, iterations: int | None = None) -> Lock:
    """The lock a passphrase makes (a fresh random salt unless one is given)."""
    salt = salt if salt is not None else secrets.token_hex(SALT_BYTES)
    rounds = iterations if iterations is not None else ITERATIONS
    return Lock(salt, rounds, digest_of(passphrase, salt, rounds))


def opens(lock: Lock, passphrase: str) -> bool:
    """Whether `passphrase` is the one the lock was made with (compared in constant time)."""
    return hmac.compare_digest(digest_of(passphrase, lock.salt, lock.iterations), lock.digest)


def too_short(passphrase: str) -> str | None:
    """Why a passphrase cannot be set (None: it can)."""
    if len(passphrase.strip()) < MIN_LENGTH:
        return f"The passphrase needs at least {MIN_LENGTH} characters."
    return None


# --------------------------------------------------------------------------- what a game keeps


@dataclass
class GmKeeping:
    """The shell's GM lock of one game and the clock of every opening of GM mode (oldest first)."""

    lock: Lock | None = None
    opened: list[int] = field(default_factory=list)

    @property
    def is_set(self) -> bool:
        return self.lock is not None

    def opens(self, passphrase: str) -> bool:
        return self.lock is not None and opens(self.lock, passphrase)


_KEPT: dict[int, tuple[weakref.ref[object], GmKeeping]] = {}


def keeping(game: object) -> GmKeeping:
    """The GM lock and trace of `game` (the window's session; made empty the first time it is asked
    for, and kept beside it for as long as it lives: a session is a plain dataclass of the shell's)."""
    key = id(game)
    held = _KEPT.get(key)
    if held is not None and held[0]() is game:
        return held[1]
    kept = GmKeeping()
    _KEPT[key] = (weakref.ref(game, lambda _ref: _KEPT.pop(key, None)), kept)
    return kept
