"""Hostile order files (issue 34): the fingerprint covers every field of an order file, an empty
posted fingerprint matches nothing, forged, foreign and other weeks' files are refused by `report`
and `import`, weak and reused salts are refused by `seal`, and no order-file command writes
through a symbolic link or onto one of its own inputs."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.systems.campaign.io.files import (
    OrderEntry,
    check_fingerprint,
    fingerprint,
    make_orders_file,
    parse_fingerprint,
    read_orders_file,
    salt_problem,
)
from tests.hostile.campaignfix import NAME, SCENARIO, SCRIPT, WEEK_ORDERS, head_before_orders, order_file
from tests.hostile.hostile import cli

S = str(SCENARIO)


def _file() -> object:
    return make_orders_file(NAME, 1, "zones", WEEK_ORDERS[1]["zones"])


@pytest.mark.parametrize(("field", "value"), [("campaign", "Some other campaign"), ("week", 2),
                                              ("player", "jibril"), ("kind", "campaign-orders-x")])
def test_the_fingerprint_covers_every_field_of_the_order_file(field: str, value: object) -> None:
    f = _file()
    assert check_fingerprint(f)  # type: ignore[arg-type]
    assert not check_fingerprint(f.model_copy(update={field: value}))  # type: ignore[attr-defined]


def test_fields_cannot_run_into_each_other_to_keep_a_fingerprint() -> None:
    orders = WEEK_ORDERS[1]["zones"]
    a = fingerprint(orders, "x" * 32, week=1, player="a|1", campaign="c")
    b = fingerprint(orders, "x" * 32, week=1, player="a", campaign="1|c")
    assert a != b


def test_an_order_file_edited_to_another_campaign_no_longer_matches_its_posted_fingerprint(tmp_path, capsys):
    p = order_file(tmp_path, "zones")
    posted = read_orders_file(p).fingerprint
    p.write_text(p.read_text(encoding="utf-8").replace(f"campaign: {NAME}", "campaign: Some other campaign"),
                 encoding="utf-8")
    code, out, _err, _ = cli(capsys, "campaign", "verify", str(p), "--fingerprint", posted)
    assert code == 1 and "DOES NOT MATCH" in out


@pytest.mark.parametrize("posted", ["", "   ", "sha256:", "sha256:abc", "not a fingerprint"])
def test_verify_with_an_empty_or_malformed_posted_fingerprint_never_says_it_matches(tmp_path, capsys, posted):
    p = order_file(tmp_path, "zones")
    code, out, err, _ = cli(capsys, "campaign", "verify", str(p), "--fingerprint", posted)
    assert code != 0 and "matches" not in out and "fingerprint" in err and "Traceback" not in err
    assert not check_fingerprint(read_orders_file(p), expected=posted)


def test_verify_takes_a_posted_fingerprint_with_or_without_its_prefix(tmp_path, capsys):
    p = order_file(tmp_path, "zones")
    fp = read_orders_file(p).fingerprint
    for posted in (fp, fp.removeprefix("sha256:"), fp.upper().replace("SHA256:", "sha256:")):
        code, out, _err, _ = cli(capsys, "campaign", "verify", str(p), "--fingerprint", posted)
        assert code == 0 and "fingerprint matches" in out
    assert parse_fingerprint(fp.removeprefix("sha256:")) == fp


# --------------------------------------------------------------------------- report --orders


def test_report_refuses_a_refingerprinted_forgery_of_orders_played_otherwise(tmp_path, capsys):
    forged = order_file(tmp_path, "zones", orders=[OrderEntry(battle="B1", manoeuvre="block", vanguard="rifles.2")])
    code, out, err, _ = cli(capsys, "campaign", "report", S, str(SCRIPT), "--week", "1", "--orders", str(forged))
    assert code == 1 and "not the orders zones played in week 1" in err and "Sealed orders" not in out


def test_report_refuses_another_weeks_order_file(tmp_path, capsys):
    week2 = order_file(tmp_path, "zones", week=2)
    code, _out, err, _ = cli(capsys, "campaign", "report", S, str(SCRIPT), "--week", "1", "--orders", str(week2))
    assert code == 1 and "week 2, not week 1" in err


def test_report_refuses_another_campaigns_order_file(tmp_path, capsys):
    other = order_file(tmp_path, "zones", campaign="Some other campaign")
    code, _out, err, _ = cli(capsys, "campaign", "report", S, str(SCRIPT), "--week", "1", "--orders", str(other))
    assert code == 1 and "Some other campaign" in err


def test_report_shows_genuine_order_files_as_checkable(tmp_path, capsys):
    files = [str(order_file(tmp_path, p)) for p in WEEK_ORDERS[1]]
    code, out, err, _ = cli(capsys, "campaign", "report", S, str(SCRIPT), "--week", "1", "--orders", *files)
    assert code == 0, err
    for f in files:
        assert read_orders_file(f).salt in out


# --------------------------------------------------------------------------- import


def test_import_gives_a_verdict_per_file_and_imports_the_good_ones(tmp_path, capsys):
    head = head_before_orders(tmp_path, 1)
    good = [str(order_file(tmp_path, p)) for p in ("zones", "jibril", "resistance")]
    foreign = str(order_file(tmp_path, "zenith", campaign="Some other campaign"))
    out = tmp_path / "full.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), *good, foreign, "--out", str(out))
    assert code == 1
    assert f"REFUSED {foreign}: line 2: campaign" in err and "Some other campaign" in err
    assert all(f"ok {g}" in err for g in good)
    code, o, _e, _ = cli(capsys, "campaign", "play", S, str(out), "--quiet")
    assert code == 0 and "waiting: Zenith Empire" in o  # three imported, the foreign one not


def test_import_refuses_a_tampered_and_a_wrong_week_file_but_not_the_others(tmp_path, capsys):
    head = head_before_orders(tmp_path, 1)
    tampered = order_file(tmp_path, "zones")
    tampered.write_text(tampered.read_text(encoding="utf-8").replace("manoeuvre: withdraw", "manoeuvre: block"), encoding="utf-8")
    week2 = order_file(tmp_path, "jibril", week=2)
    ok = order_file(tmp_path, "zenith")
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), str(tampered), str(week2), str(ok))
    assert code == 1 and "do not match the fingerprint" in err and "orders for week 2" in err
    assert f"ok {ok}" in err


# --------------------------------------------------------------------------- salts


@pytest.mark.parametrize(("salt", "why"), [("p", "characters"), ("pepper", "characters"),
                                           ("ab" * 20, "different characters"),
                                           ("0123456789abcdef" * 3, "repeats a pattern"),
                                           ("é" * 40, "only hex digits")])
def test_seal_refuses_a_weak_salt(tmp_path, capsys, salt, why):
    draft = _draft(tmp_path)
    code, _o, err, _ = cli(capsys, "campaign", "seal", str(draft), "--out", str(tmp_path / "o.yaml"), "--salt", salt)
    assert code != 0 and why in err and "Traceback" not in err
    assert not (tmp_path / "o.yaml").exists()
    assert salt_problem(salt)


def test_seal_refuses_a_salt_it_has_used_before(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    draft = _draft(tmp_path)
    salt = "7f3a9c21e4b86d05f1a2c3e4d5b6a798"
    assert cli(capsys, "campaign", "seal", str(draft), "--out", str(tmp_path / "a.yaml"), "--salt", salt)[0] == 0
    code, _o, err, _ = cli(capsys, "campaign", "seal", str(draft), "--out", str(tmp_path / "b.yaml"), "--salt", salt)
    assert code != 0 and "used before" in err and not (tmp_path / "b.yaml").exists()
    assert salt not in (tmp_path / "saves" / "campaign-salts-used.txt").read_text()  # only its hash is kept


def test_seal_without_a_salt_draws_a_fresh_one_each_time(tmp_path, capsys):
    draft = _draft(tmp_path)
    for name in ("a.yaml", "b.yaml"):
        assert cli(capsys, "campaign", "seal", str(draft), "--out", str(tmp_path / name))[0] == 0
    a, b = read_orders_file(tmp_path / "a.yaml"), read_orders_file(tmp_path / "b.yaml")
    assert a.salt != b.salt and salt_problem(a.salt or "") is None


def _draft(tmp_path: Path) -> Path:
    d = tmp_path / "draft.yaml"
    d.write_text(f"campaign: {NAME}\nweek: 1\nplayer: zones\norders:\n"
                 "  - {battle: B1, manoeuvre: withdraw, vanguard: rifles.6, withdraw_to: [20, 27]}\n",
                 encoding="utf-8")
    return d


# --------------------------------------------------------------------------- where files go


def _victim(tmp_path: Path) -> tuple[Path, Path]:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    link = tmp_path / "link.yaml"
    link.symlink_to(victim)
    return victim, link


def test_seal_import_report_and_brief_never_write_through_a_symbolic_link(tmp_path, capsys):
    victim, link = _victim(tmp_path)
    head = head_before_orders(tmp_path, 1)
    z = order_file(tmp_path, "zones")
    for argv in (["campaign", "seal", str(_draft(tmp_path)), "--out", str(link)],
                 ["campaign", "import", S, str(head), str(z), "--out", str(link)],
                 ["campaign", "report", S, str(SCRIPT), "--week", "1", "--out", str(link)],
                 ["campaign", "brief", S, str(head), "--player", "zones", "--draft", str(link)]):
        code, _o, err, _ = cli(capsys, *argv)
        assert code != 0 and "symbolic link" in err and "Traceback" not in err, (argv, err)
        assert victim.read_text() == "precious\n" and link.is_symlink()


def test_no_order_file_command_writes_onto_its_own_input(tmp_path, capsys):
    head = head_before_orders(tmp_path, 1)
    before = head.read_text()
    z = order_file(tmp_path, "zones")
    draft = _draft(tmp_path)
    draft_text = draft.read_text()
    for argv, victim in ((["campaign", "seal", str(draft), "--out", str(draft)], draft),
                         (["campaign", "import", S, str(head), str(z), "--out", str(head)], head),
                         (["campaign", "import", S, str(head), str(z), "--out", str(z)], z),
                         (["campaign", "report", S, str(head), "--week", "1", "--out", str(head)], head)):
        keep = victim.read_text()
        code, _o, err, _ = cli(capsys, *argv)
        assert code != 0 and "also an input" in err, (argv, err)
        assert victim.read_text() == keep
    assert head.read_text() == before and draft.read_text() == draft_text


@pytest.mark.parametrize("bad", ["", "/", "/dev/null", "x\0y", "{tmp}/no-such/../", "{tmp}/file.txt/sub.yaml",
                                 "{tmp}/" + "n" * 300 + ".yaml"])
def test_bad_out_paths_on_the_campaign_commands_are_one_line_not_a_traceback(tmp_path, capsys, bad):
    (tmp_path / "file.txt").write_text("x")
    out = bad.replace("{tmp}", str(tmp_path))
    for argv in (["campaign", "seal", str(_draft(tmp_path)), "--out", out],
                 ["campaign", "report", S, str(SCRIPT), "--week", "1", "--out", out]):
        code, _o, err, _ = cli(capsys, *argv)
        assert code != 0 and "Traceback" not in err and err.count("\n") == 1, (argv, err)


@pytest.mark.parametrize("field", ["campaign", "player"])
def test_a_control_character_in_an_order_files_names_is_refused_not_printed(tmp_path, capsys, field):
    p = order_file(tmp_path, "zones")
    text = p.read_text(encoding="utf-8")
    old = f"campaign: {NAME}" if field == "campaign" else "player: zones"
    p.write_text(text.replace(old, f'{field}: "x\\e]0;pwned\\a"'), encoding="utf-8")
    code, out, err, _ = cli(capsys, "campaign", "verify", str(p))
    assert code != 0 and "\x1b" not in out + err and "control character" in err and "Traceback" not in err
    d = _draft(tmp_path)
    d.write_text(d.read_text().replace(old, f'{field}: "x\\0y"'), encoding="utf-8")
    code, out, err, _ = cli(capsys, "campaign", "seal", str(d), "--out", str(tmp_path / "s.yaml"))
    assert code != 0 and "control character" in err and "Traceback" not in err


@pytest.mark.parametrize("bad", ["", "/", "/dev/null", "x\0y", "{tmp}/file.txt/sub.yaml", "{tmp}/" + "n" * 300])
def test_bad_out_paths_on_import_and_brief_are_one_line_and_write_nothing(tmp_path, capsys, bad):
    (tmp_path / "file.txt").write_text("x")
    head = head_before_orders(tmp_path, 1)
    z = order_file(tmp_path, "zones")
    out = bad.replace("{tmp}", str(tmp_path))
    for argv in (["campaign", "import", S, str(head), str(z), "--out", out],
                 ["campaign", "brief", S, str(head), "--player", "zones", "--draft", out]):
        code, _o, err, _ = cli(capsys, *argv)
        assert code != 0 and "Traceback" not in err and err.count("\n") == 1, (argv, err)
