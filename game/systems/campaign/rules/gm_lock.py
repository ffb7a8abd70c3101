"""The GM's passphrase as the campaign keeps it: a salted, deliberately slow digest. Pure.

The GM view of the window (every power's sealed orders) opens only with the GM's passphrase
(client/gm_lock.py). The passphrase is set once, by the `gm_lock {salt, iterations, digest}`
command (the handler is engine._gm_lock), and from then on it is part of the campaign's state:
every save, quick save, autosave and recovery save carries it, and `replay --verify` checks it
like any other command. A save never holds the passphrase itself, only

    digest = PBKDF2-HMAC-SHA256(NFC(passphrase) as UTF-8, salt, iterations)

with a random 16-byte salt of the campaign's own (so two campaigns with the same passphrase
have different digests, and no table made in advance helps) and `ITERATIONS` rounds, so that
each guess of someone who reads the save file costs them as long as a check costs the window
(docs/campaign.md "The GM's passphrase").
"""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
import hashlib
import hmac
import re
import unicodedata
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError

# Measured on the shared 2-core build machine: one check of 600,000 rounds takes 0.14-0.16 s when it
# is quiet, about 0.25 s when it is busy (docs/campaign.md). A save may say fewer or more rounds (a
# test's, a later default) within these bounds (the upper one, about 5 s: a hand-edited save must
# not hang the window for minutes).
ITERATIONS = 600_000
MIN_ITERATIONS = 1_000
MAX_ITERATIONS = 20_000_000
SALT_BYTES = 16
DIGEST_BYTES = 32  # SHA-256
MIN_LENGTH = 3  # characters of a passphrase, spaces at either end not counted
# what a save's `gm_lock` holds, for messages about one that does not fit
EXPECTED = (f"salt: {2 * SALT_BYTES} hexadecimal digits, iterations: a whole number from {MIN_ITERATIONS} to "
            f"{MAX_ITERATIONS}, digest: {2 * DIGEST_BYTES} hexadecimal digits")


def _hex_of(n_bytes: int, what: str) -> AfterValidator:
    pattern = re.compile(f"[0-9a-f]{{{2 * n_bytes}}}")

    def check(value: str) -> str:
        if not pattern.fullmatch(value):
            shown = f"{len(value)} characters" + ("" if len(value) > 80 else f" ({value!r})")
            raise PydanticCustomError("gm_lock_hex", "expected the {what} as {n} hexadecimal digits (0-9, a-f), "
                                      "got {shown}", {"what": what, "n": 2 * n_bytes, "shown": shown})
        return value

    return AfterValidator(check)


Salt = Annotated[str, Field(strict=True), _hex_of(SALT_BYTES, "salt")]
Digest = Annotated[str, Field(strict=True), _hex_of(DIGEST_BYTES, "digest")]
Iterations = Annotated[int, Field(strict=True, ge=MIN_ITERATIONS, le=MAX_ITERATIONS)]


class GmLock(BaseModel):
    """The GM's passphrase as a campaign keeps it (the state's `gm_lock`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    salt: Salt
    iterations: Iterations
    digest: Digest


def digest_of(passphrase: str, salt: str, iterations: int) -> str:
    """The hex digest of `passphrase` under `salt` (hex) and `iterations` rounds. The passphrase is
    taken in Unicode's composed form (NFC), so the same text typed on another keyboard matches."""
    text = unicodedata.normalize("NFC", passphrase).encode("utf-8")
    return hashlib.pbkdf2_hmac("sha256", text, bytes.fromhex(salt), iterations, DIGEST_BYTES).hex()


def lock_of(passphrase: str, salt: str, iterations: int = ITERATIONS) -> GmLock:
    """The lock a passphrase makes with this salt (hex; the client draws it with `secrets`)."""
    return GmLock(salt=salt, iterations=iterations, digest=digest_of(passphrase, salt, iterations))


def opens(lock: GmLock, passphrase: str) -> bool:
    """Whether `passphrase` is the one the lock was made with (compared in constant time)."""
    return hmac.compare_digest(digest_of(passphrase, lock.salt, lock.iterations), lock.digest)


def too_short(passphrase: str) -> str | None:
    """Why a passphrase cannot be set (None: it can)."""
    if len(passphrase.strip()) < MIN_LENGTH:
        return f"The passphrase needs at least {MIN_LENGTH} characters."
    return None
