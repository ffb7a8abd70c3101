"""Dice nobody can bias (docs/campaign.md, "The dice"): the week's dice drawn from the GM's secret
and every sealed order's salt together. Pure.

Before the week's orders the GM posts a commitment, `sha256:` + SHA-256 of a fresh secret. Each
order file already holds a secret salt, fixed by its fingerprint when it is posted. Once every
order is in, the GM's `gm_dice_seed {week, commitment, secret, salts}` (before the first order of
the week is applied) sets the campaign's generator to `week_seed(...)`, and every die the week
then rolls comes from it; the report prints the secret and the salts, so anyone can recompute
the seed, every die and every result.

The scouting rolls come earlier, when the week's battles start (the last declaration), so the
week's seed cannot reach them. [decision] A second commitment covers them: with the first, before
any move of the week, the GM posts `sha256:` + SHA-256 of a second secret (the scouting secret),
and gives `gm_scouting_seed {week, commitment, secret}` in the week's movement or declare phase,
before its battles start. Each battle started that week then rolls its scouting dice from a
generator of its own, `scouting_seed(...)` over the secret, the battle's hex and the armies in it
(the players' moves, made after the commitment), the sides in the battle's order; no forced die
applies and the campaign's generator is untouched.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

from game.core.dice import Rng
from game.core.kernel import Reject
from game.core.roller import Roller
from game.systems.campaign.rules.events import GmDid
from game.systems.campaign.rules.txn import CampaignTxn

SCHEME = "ail-campaign-dice/1"
SCOUTING_SCHEME = "ail-campaign-scouting/1"


def commitment_of(secret: str) -> str:
    """What the GM posts before the orders: `sha256:` + the SHA-256 of the secret."""
    return "sha256:" + hashlib.sha256(secret.encode("utf-8")).hexdigest()


def week_seed(campaign: str, week: int, secret: str, salts: Mapping[str, str]) -> int:
    """The week's seed: 64 bits of SHA-256 over the campaign, the week, the GM's secret and every
    player's salt (sorted by player) as one canonical JSON object. Any one of them changed, and
    every die of the week changes."""
    text = json.dumps({"scheme": SCHEME, "campaign": campaign, "week": week, "secret": secret,
                       "salts": dict(sorted(salts.items()))}, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def week_rng(campaign: str, week: int, secret: str, salts: Mapping[str, str]) -> int:
    """The generator state the week's dice start from."""
    return Rng.from_seed(week_seed(campaign, week, secret, salts)).state


def ordering_players(state: object) -> set[str]:
    """The players who give orders this week: both sides of every open battle the tables resolve."""
    return {p for b in state.open_games() for p in b.sides if b.fought_as == "tables"}  # type: ignore[attr-defined]


def seed_week(txn: CampaignTxn, cmd: object) -> None:
    """The `gm_dice_seed` handler (wired in engine.HANDLERS)."""
    state = txn.state
    week, commitment, secret = cmd.week, cmd.commitment, cmd.secret  # type: ignore[attr-defined]
    salts: dict[str, str] = dict(cmd.salts)  # type: ignore[attr-defined]
    if week != state.week:
        raise Reject(f"The dice seed is for week {week}; this is week {state.week}.")
    if state.phase != "orders":
        raise Reject(f"The week's dice are seeded in the orders phase; this is the {state.phase} phase.")
    if any(b.orders for b in state.open_games()):
        raise Reject("The week's dice are seeded before the first order of the week is given.")
    if not secret or commitment_of(secret) != commitment:
        raise Reject("The secret does not match the commitment.")
    if secret == state.scouting_secret:
        raise Reject("That is the week's scouting secret, public since its scouting seed: the dice need the "
                     "other secret of the file.")
    want = ordering_players(state)
    if set(salts) != want:
        raise Reject(f"The salts must be those of the players giving orders this week: {', '.join(sorted(want))}.")
    if any(not s for s in salts.values()):
        raise Reject("A salt is empty.")
    txn.state = state.model_copy(update={"rng": week_rng(state.cs.name, week, secret, salts), "forced": ()})
    listed = ", ".join(f"{state.player_name(p)} {s}" for p, s in sorted(salts.items()))
    txn.emit(GmDid(what=f"the dice of week {week} are drawn from the GM's secret {secret} (commitment "
                        f"{commitment}) and the salts of {listed}"))


# --------------------------------------------------------------------------- the scouting dice


def scouting_seed(campaign: str, week: int, secret: str, battle_hex: tuple[int, int],
                  armies: Mapping[str, tuple[int, int]]) -> int:
    """One battle's scouting seed: 64 bits of SHA-256 over the campaign, the week, the GM's
    scouting secret, the battle's hex and the id and hex of every army in the battle (sorted by
    id), as one canonical JSON object."""
    text = json.dumps({"scheme": SCOUTING_SCHEME, "campaign": campaign, "week": week, "secret": secret,
                       "hex": [battle_hex[0], battle_hex[1]],
                       "armies": [[aid, [h[0], h[1]]] for aid, h in sorted(armies.items())]},
                      sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def scouting_roller(state: object, battle_hex: tuple[int, int], armies: Mapping[str, tuple[int, int]]) -> Roller | None:
    """The roller of one battle's scouting dice when the week has a scouting seed (no forced
    values: `gm_force_rolls` does not reach them), else None (the campaign's generator rolls)."""
    secret = state.scouting_secret  # type: ignore[attr-defined]
    if secret is None:
        return None
    seed = scouting_seed(state.cs.name, state.week, secret, battle_hex, armies)  # type: ignore[attr-defined]
    return Roller(Rng.from_seed(seed).state)


def seed_scouting(txn: CampaignTxn, cmd: object) -> None:
    """The `gm_scouting_seed` handler (wired in engine.HANDLERS)."""
    state = txn.state
    week, commitment, secret = cmd.week, cmd.commitment, cmd.secret  # type: ignore[attr-defined]
    if week != state.week:
        raise Reject(f"The scouting seed is for week {week}; this is week {state.week}.")
    if state.phase not in ("movement", "declare"):
        raise Reject("The week's scouting dice are seeded in its movement or declare phase, before its battles "
                     f"start; this is the {state.phase} phase.")
    if any(b.started_week == week for b in state.battles.values()):
        raise Reject(f"Battles of week {week} have already started (and rolled their scouting dice).")
    if state.scouting_secret is not None:
        raise Reject(f"The scouting dice of week {week} are already seeded.")
    if not secret or commitment_of(secret) != commitment:
        raise Reject("The scouting secret does not match the commitment.")
    txn.state = state.model_copy(update={"scouting_secret": secret})
    txn.emit(GmDid(what=f"the scouting dice of week {week} are drawn from the GM's scouting secret {secret} "
                        f"(commitment {commitment}), each battle's from its hex and armies"))
