"""The scouting dice's own commitment (docs/campaign.md "The dice", rules/dice_seed.py): the GM's
`gm_scouting_seed {week, commitment, secret}` is taken in the week's movement or declare phase,
before its battles start; each battle started that week then rolls its scouting dice from a
generator of its own (the secret, the battle's hex and the armies in it), never the campaign's,
and no forced die reaches them. Weeks without it roll as they always did."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from game.core.dice import Rng
from game.core.record import Record
from game.core.system import Rejection
from game.systems.campaign.io.files import load_campaign, read_script
from game.systems.campaign.rules import SYSTEM
from game.systems.campaign.rules.commands import parse_command
from game.systems.campaign.rules.dice_seed import SCOUTING_SCHEME, commitment_of, scouting_seed
from game.systems.campaign.rules.queries import view
from tests.hostile.campaignfix import NAME, SCENARIO, SCRIPT

SECRET = "9f8e7d6c5b4a39281706f5e4d3c2b1a0ffeeddccbbaa99887766554433221100"
OTHER = "0123456789abcdef" * 4
DICE_SECRET = "5be1c0a7e2d94f6b8a3c1e0d7f2a4b69c8e1d3f5a7b9c0e2d4f6a8b0c2e4f6a8"
# the teaching script, replayed before the scouting seed existed: its state checksum and every die
TEACHING_STATE_SHA = "a66e57ae607a798c5fc81640d7f1f5a1c44ff4a0dcce1526f353115a10c3bd92"
TEACHING_DICE_SHA = "5f5b2a08fdcc2462217241a435d28f92a1904f8d7bb5a14ddb229ed962599b52"


def _commands() -> list[Any]:
    return read_script(SCRIPT)


def _first_declare() -> int:
    return next(i for i, c in enumerate(_commands()) if c.kind == "declare")


def _seed_cmd(secret: str = SECRET, **kw: Any) -> Any:
    return parse_command({"kind": "gm_scouting_seed", "week": 1, "commitment": commitment_of(secret),
                          "secret": secret, **kw})


def _play(inserts: dict[int, list[Any]] | None = None, stop: int | None = None, seed: int | None = None) -> Record:
    """The teaching script with commands inserted before the given indexes, up to `stop`."""
    loaded = load_campaign(str(SCENARIO))
    rec = Record(SYSTEM, SYSTEM.initial_state(loaded.setup, loaded.seed if seed is None else seed))
    cmds = _commands()
    for i, cmd in enumerate(cmds[:stop]):
        for extra in (inserts or {}).get(i, []):
            out = rec.apply(extra)
            assert not isinstance(out, Rejection), out.reason
        out = rec.apply(cmd)
        assert not isinstance(out, Rejection), out.reason
    return rec


def _scouting(rec: Record) -> list[tuple[str, str, tuple[int, ...], int]]:
    return [(e.battle, e.purpose, e.dice, e.forced) for s in rec.steps for e in s.events
            if e.kind == "dice_rolled" and e.purpose.startswith("scouting roll")]


def _start_step(rec: Record) -> Any:
    return next(s for s in rec.steps if any(e.kind == "battle_started" for e in s.events))


# ---------------------------------------------------------------------------- the command


def test_a_scouting_seed_is_taken_in_the_movement_phase_and_kept_until_the_weeks_end() -> None:
    rec = _play({0: [_seed_cmd()]}, stop=_first_declare())
    assert rec.state.phase in ("movement", "declare")
    assert rec.state.scouting_secret == SECRET
    assert rec.state.to_dict()["scouting_secret"] == SECRET
    step = next(s for s in rec.steps if s.command.kind == "gm_scouting_seed")
    assert any(SECRET in getattr(e, "what", "") for e in step.events)  # the log shows the secret
    rec = _play({0: [_seed_cmd()]})
    assert rec.state.week > 1 and rec.state.scouting_secret is None
    assert "scouting_secret" not in rec.state.to_dict()


def test_a_scouting_seed_is_taken_in_the_declare_phase_before_the_declaration_that_starts_the_battles() -> None:
    at = _first_declare() + 1  # one declaration given, battles not started yet
    rec = _play(stop=at)
    assert rec.state.phase == "declare"
    out = rec.apply(_seed_cmd())
    assert not isinstance(out, Rejection), out.reason


@pytest.mark.parametrize(("cmd", "reason"), [
    (_seed_cmd(commitment=commitment_of("another secret")), "does not match the commitment"),
    (_seed_cmd(week=2), "for week 2"),
    (parse_command({"kind": "gm_scouting_seed", "week": 1, "commitment": commitment_of(""), "secret": ""}),
     "does not match the commitment"),
])
def test_the_rules_refuse_a_scouting_seed_that_does_not_hold(cmd: Any, reason: str) -> None:
    rec = _play(stop=0)
    out = rec.apply(cmd)
    assert isinstance(out, Rejection) and reason in out.reason
    assert rec.state.scouting_secret is None


def test_the_rules_refuse_a_scouting_seed_once_the_weeks_battles_have_started() -> None:
    rec = _play(stop=_first_declare() + 3)  # the last declaration started B1 and B2
    assert rec.state.phase == "pickup"
    out = rec.apply(_seed_cmd())
    assert isinstance(out, Rejection) and "before its battles start" in out.reason


def test_the_rules_refuse_a_scouting_seed_in_the_orders_phase() -> None:
    at = next(i for i, c in enumerate(_commands()) if c.kind == "orders")
    rec = _play(stop=at)
    assert rec.state.phase == "orders"
    out = rec.apply(_seed_cmd())
    assert isinstance(out, Rejection) and "orders phase" in out.reason


def test_the_rules_refuse_a_second_scouting_seed_in_the_same_week() -> None:
    rec = _play({0: [_seed_cmd()]}, stop=1)
    out = rec.apply(_seed_cmd(OTHER))
    assert isinstance(out, Rejection) and "already seeded" in out.reason
    assert rec.state.scouting_secret == SECRET


def test_a_scouting_seed_is_taken_in_a_later_week_while_older_battles_go_on() -> None:
    week2 = next(i for i, s in enumerate(_play().steps) if s.before.week == 2)
    rec = _play(stop=week2)
    assert rec.state.week == 2 and rec.state.open_games()
    out = rec.apply(_seed_cmd(week=2))
    assert not isinstance(out, Rejection), out.reason


def test_the_weeks_dice_seed_may_not_use_the_scouting_secret() -> None:
    at = next(i for i, c in enumerate(_commands()) if c.kind == "orders")
    rec = _play({0: [_seed_cmd()]}, stop=at)
    salts = {p: f"{p}-salt-0123456789abcdef0123456789" for p in ("zones", "jibril", "resistance", "zenith")}
    out = rec.apply(parse_command({"kind": "gm_dice_seed", "week": 1, "commitment": commitment_of(SECRET),
                                   "secret": SECRET, "salts": salts}))
    assert isinstance(out, Rejection) and "scouting secret" in out.reason
    out = rec.apply(parse_command({"kind": "gm_dice_seed", "week": 1, "commitment": commitment_of(DICE_SECRET),
                                   "secret": DICE_SECRET, "salts": salts}))
    assert not isinstance(out, Rejection), out.reason


# ---------------------------------------------------------------------------- the dice


def test_with_a_scouting_seed_the_scouting_dice_are_the_hash_derived_ones() -> None:
    rec = _play({0: [_seed_cmd()]})
    step = _start_step(rec)
    started = [e for e in step.events if e.kind == "battle_started"]
    assert started
    rolled = _scouting(rec)
    assert rolled
    for b in started:
        armies = {a.id: a.hex for a in step.after.armies.values() if a.battle == b.battle}
        text = json.dumps({"scheme": SCOUTING_SCHEME, "campaign": NAME, "week": 1, "secret": SECRET,
                           "hex": list(b.hex), "armies": [[aid, list(h)] for aid, h in sorted(armies.items())]},
                          sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
        assert seed == scouting_seed(NAME, 1, SECRET, b.hex, armies)
        rng = Rng.from_seed(seed)
        for battle, _purpose, dice, forced in rolled:
            if battle != b.battle:
                continue
            want = []
            for _ in dice:
                v, rng = rng.roll(10)
                want.append(v)
            assert tuple(want) == dice and forced == 0


def test_seeded_scouting_dice_leave_the_campaigns_generator_untouched_and_do_not_depend_on_it() -> None:
    base = _play({0: [_seed_cmd()]})
    step = _start_step(base)
    assert step.after.rng == step.before.rng  # the campaign's generator rolled nothing
    other = _play({0: [_seed_cmd()]}, seed=123456789)
    assert _start_step(other).before.rng != step.before.rng
    assert _scouting(other) == _scouting(base)
    unseeded = _play(stop=_first_declare() + 3)
    assert _scouting(unseeded) != _scouting(base)


def test_another_scouting_secret_changes_the_scouting_dice() -> None:
    assert _scouting(_play({0: [_seed_cmd(OTHER)]})) != _scouting(_play({0: [_seed_cmd()]}))


def test_another_army_hex_or_army_or_battle_hex_changes_the_scouting_seed() -> None:
    armies = {"corps": (21, 27), "rifles": (21, 27)}
    base = scouting_seed(NAME, 1, SECRET, (21, 27), armies)
    assert scouting_seed(NAME, 1, SECRET, (21, 27), {**armies, "corps": (22, 27)}) != base
    assert scouting_seed(NAME, 1, SECRET, (21, 27), {**armies, "lancers": (21, 27)}) != base
    assert scouting_seed(NAME, 1, SECRET, (22, 27), armies) != base
    assert scouting_seed(NAME, 2, SECRET, (21, 27), armies) != base
    assert scouting_seed(NAME, 1, OTHER, (21, 27), armies) != base
    assert scouting_seed(NAME, 1, SECRET, (21, 27), dict(reversed(list(armies.items())))) == base


def test_forced_dice_do_not_reach_seeded_scouting_rolls() -> None:
    forced = parse_command({"kind": "gm_force_rolls", "values": [1, 1, 1, 1, 1, 1]})
    base = _play({0: [_seed_cmd()]}, stop=_first_declare() + 3)
    rec = _play({0: [_seed_cmd()], _first_declare(): [forced]}, stop=_first_declare() + 3)
    assert _scouting(rec) == _scouting(base)
    assert all(f == 0 for *_x, f in _scouting(rec))
    assert rec.state.forced == (1, 1, 1, 1, 1, 1)  # still queued for the campaign's own dice


def test_the_teaching_script_replays_with_the_same_state_and_dice_as_before_the_scouting_seed() -> None:
    rec = _play()
    dice = [list(e.dice) for s in rec.steps for e in s.events if e.kind == "dice_rolled"]
    state = json.dumps(rec.state.to_dict(), sort_keys=True)
    assert hashlib.sha256(json.dumps(dice).encode()).hexdigest() == TEACHING_DICE_SHA
    assert hashlib.sha256(state.encode()).hexdigest() == TEACHING_STATE_SHA
    assert all("scouting_secret" not in s.after.to_dict() for s in rec.steps)



def test_a_sides_view_never_holds_the_weeks_scouting_secret() -> None:
    state = _play(stop=_first_declare()).state
    seeded = state.model_copy(update={"scouting_secret": "kept by the GM"})
    assert all(view(seeded, p).scouting_secret is None for p in seeded.players)
    assert view(seeded, None).scouting_secret == "kept by the GM"  # the GM's
