"""The play-by-post commands as a QA tester found them (docs/campaign.md, "Play by post" and "The
dice"): `campaign status` shows the week's scouting commitment and scouting dice, as `import
--scouting` tells the GM to post them; `import` writes no new script when every order file was
refused; a malformed draft, order file or secret file says what it held; a binary file says
what kind of file was expected."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from game import paths
from tests.hostile.campaignfix import NAME, SCENARIO, head_before_orders, order_file
from tests.hostile.hostile import cli

S = str(SCENARIO)
SECRET = "1b3d5f7a9c0e2d4f6a8b0c2e4f6a8b0d1c3e5f7a9b0d2e4f6a8c0b2d4e6f8a0c"
SCOUTING = "a0c2e4f6b8d0a2c4e6f8b0d2a4c6e8f0b2d4a6c8e0f2b4d6a8c0e2f4b6d8a0c2"


@pytest.fixture(autouse=True)
def saves_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def _c(secret: str) -> str:
    return "sha256:" + hashlib.sha256(secret.encode()).hexdigest()


def _secret_file(path: Path) -> Path:
    path.write_text(f"kind: campaign-dice-secret\ncampaign: {NAME}\nweek: 1\nsecret: {SECRET}\n"
                    f"commitment: {_c(SECRET)}\nscouting_secret: {SCOUTING}\nscouting_commitment: {_c(SCOUTING)}\n",
                    encoding="utf-8")
    return path


def _scouted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    out = tmp_path / "scouted.yaml"
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head_before_orders(tmp_path, 1)), "--scouting",
                           str(_secret_file(tmp_path / "gm-secret-week1.yaml")), "--out", str(out))
    assert code == 0, err
    return out, err


@pytest.mark.parametrize("fmt", ["md", "bbcode"])
def test_status_shows_the_scouting_commitment_and_dice_the_import_says_to_post(tmp_path, capsys, fmt) -> None:
    script, said = _scouted(tmp_path, capsys)
    assert f"campaign status {S} {script} prints them" in said
    code, text, err, _ = cli(capsys, "campaign", "status", S, str(script), "--format", fmt)
    assert code == 0, err
    assert "Scouting dice of week 1" in text and _c(SCOUTING) in text
    assert SCOUTING not in text.replace(_c(SCOUTING), "")  # the commitment, never the secret
    rolls = [ln for ln in text.splitlines() if "scouting roll of" in ln]
    assert len(rolls) == 4 and {r.split(":")[0].lstrip("-[]* ") for r in rolls} == {"B1", "B2"}
    # the same dice as the report's
    _c2, report, _e, _ = cli(capsys, "campaign", "report", S, str(script), "--week", "1", "--format", fmt)
    assert all(r.lstrip("-[]* ").replace("[*]", "") in report for r in rolls)


def test_status_says_when_the_weeks_scouting_dice_have_no_seed(tmp_path, capsys) -> None:
    code, text, err, _ = cli(capsys, "campaign", "status", S, str(head_before_orders(tmp_path, 1)))
    assert code == 0, err
    assert "no scouting seed this week" in text and "NOT CHECKED" in text
    assert len([ln for ln in text.splitlines() if "scouting roll of" in ln]) == 4


def test_import_writes_no_script_when_every_order_file_is_refused(tmp_path, capsys) -> None:
    head = head_before_orders(tmp_path, 1)
    bad = order_file(tmp_path, "zones", campaign="Another campaign")
    out = tmp_path / "next.yaml"
    code, text, err, _ = cli(capsys, "campaign", "import", S, str(head), str(bad), "--out", str(out))
    assert code == 1 and not out.exists()
    assert f"nothing written to {out}: every order file was refused (1 of 1)" in err
    assert "wrote" not in text + err


def test_import_with_one_good_file_still_writes_the_script(tmp_path, capsys) -> None:
    head = head_before_orders(tmp_path, 1)
    good, bad = order_file(tmp_path, "zones"), order_file(tmp_path, "jibril", campaign="Another campaign")
    out = tmp_path / "next.yaml"
    code, text, _err, _ = cli(capsys, "campaign", "import", S, str(head), str(good), str(bad), "--out", str(out))
    assert code == 1 and out.exists() and "1 order from 1 file added, 1 file refused" in text


@pytest.mark.parametrize(("content", "found"), [
    ("- a\n- b\n", "got a list of 2 items"),
    ("abc\n", "got a string 'abc'"),
    ("", "got nothing"),
    ("5\n", "got a number, 5"),
])
def test_a_malformed_draft_says_what_it_held(tmp_path, capsys, content, found) -> None:
    draft = tmp_path / "draft.yaml"
    draft.write_text(content, encoding="utf-8")
    code, _o, err, _ = cli(capsys, "campaign", "seal", str(draft), "--out", str(tmp_path / "sealed.yaml"))
    assert code != 0 and "expected a draft: a mapping" in err and found in err


def test_a_draft_whose_orders_are_not_a_list_says_what_they_were(tmp_path, capsys) -> None:
    draft = tmp_path / "draft.yaml"
    draft.write_text(f"campaign: {NAME}\nweek: 1\nplayer: zones\norders: abc\n", encoding="utf-8")
    code, _o, err, _ = cli(capsys, "campaign", "seal", str(draft), "--out", str(tmp_path / "sealed.yaml"))
    assert code != 0 and "expected a list of orders; got a string 'abc'" in err


def test_a_malformed_order_file_or_secret_file_says_what_it_held(tmp_path, capsys) -> None:
    head = head_before_orders(tmp_path, 1)
    odd = tmp_path / "odd.yaml"
    odd.write_text("just words\n", encoding="utf-8")
    _code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), str(odd), "--out", str(tmp_path / "n.yaml"))
    assert "not an order file" in err and "got a string 'just words'" in err
    code, _o, err, _ = cli(capsys, "campaign", "import", S, str(head), "--scouting", str(odd),
                           "--out", str(tmp_path / "n.yaml"))
    assert code != 0 and "expected the mapping campaign commit writes" in err and "got a string" in err


@pytest.mark.parametrize(("argv", "kind"), [
    (("campaign", "seal", "{bin}", "--out", "{tmp}/s.yaml"), "expected a YAML draft of orders"),
    (("campaign", "import", S, "{head}", "{bin}", "--out", "{tmp}/n.yaml"), "expected a sealed order file (YAML)"),
    (("campaign", "verify", "{bin}"), "expected a sealed order file (YAML)"),
    (("campaign", "import", S, "{head}", "--scouting", "{bin}", "--out", "{tmp}/n.yaml"),
     "expected a GM's dice secret file (YAML)"),
    (("validate", "{bin}"), "expected a text file: a map (.tmx)"),
])
def test_a_binary_file_says_what_kind_of_file_was_expected(tmp_path, capsys, argv, kind) -> None:
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    head = head_before_orders(tmp_path, 1)
    args = [a.format(bin=binary, tmp=tmp_path, head=head) for a in argv]
    code, _o, err, _ = cli(capsys, *args)
    assert code != 0 and "binary data" in err and kind in err
    assert not err.rstrip().endswith("expected a file")
