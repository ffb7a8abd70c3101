"""Hostile YAML in every kind of file (scenario, catalogue, rules, command list, save): alias
bombs, deep nesting, huge whole numbers, duplicate keys, NUL bytes, and special files where a
file is expected. One fast regression test per class; each is refused with one line, quickly."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from game.core.errors import GameFileError, brief
from game.io import safe_read
from game.table import TABLE
from tests.hostile.hostile import (
    COMMANDS,
    alias_bomb,
    cli,
    copy_demo,
    deep_flow,
    deep_list,
    huge_int,
    refused,
    small_scenario,
)


@pytest.fixture(scope="module")
def demo_save(tmp_path_factory) -> Path:
    """A real save of maps/demo-movement.yaml after its command script."""
    d = tmp_path_factory.mktemp("save")
    scenario = copy_demo(d)
    out = d / "game.yaml"
    from game.__main__ import main

    assert main(["run", str(scenario), "--commands", str(COMMANDS), "--out", str(out)]) in (0, 3)
    return out


def _save_with(tmp_path: Path, demo_save: Path, after: str, insert: str) -> Path:
    text = demo_save.read_text(encoding="utf-8")
    assert after in text
    p = tmp_path / "bad-save.yaml"
    p.write_text(text.replace(after, after + insert, 1), encoding="utf-8")
    return p


# --------------------------------------------------------------------------- expansion bombs


def test_alias_bomb_in_a_scenario_is_refused_quickly_by_validate_run_and_the_loader(tmp_path, capsys):
    sc = small_scenario(tmp_path, alias_bomb())
    refused(capsys, sc, expect="aliases counted")
    refused(capsys, sc, "run", str(sc), "--commands", str(COMMANDS), expect="not valid YAML")
    from game.systems.tactical.io.scenario import load_scenario

    with pytest.raises(GameFileError, match="more than 2,000,000 values"):
        load_scenario(sc)


@pytest.mark.parametrize("kind", ["catalogue", "rules", "commands"])
def test_alias_bomb_in_a_catalogue_rules_file_or_command_list_is_refused(tmp_path, capsys, kind):
    if kind == "commands":
        text = "- &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
            f"- &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 9))
    else:
        text = alias_bomb() + ("units: {x: *a8}\n" if kind == "catalogue" else "terrain: {x: *a8}\n")
    p = tmp_path / f"{kind}.yaml"
    p.write_text(text, encoding="utf-8")
    refused(capsys, p, expect="aliases counted")


def test_alias_bomb_in_a_save_is_refused_with_one_line(tmp_path, capsys, demo_save):
    bad = _save_with(tmp_path, demo_save, "--- # state\n", alias_bomb())
    line = refused(capsys, bad, expect="aliases counted")
    assert "not a save the game wrote" in line


def test_a_bomb_under_the_budget_is_not_expanded_into_the_message(tmp_path, capsys):
    # 9**6 = 531,441 values once expanded: within the budget, but an unknown key; the message
    # shows a short form of it and the whole check stays fast
    sc = small_scenario(tmp_path, "junk:\n" + "".join("  " + ln + "\n" for ln in alias_bomb(levels=6).splitlines()))
    line = refused(capsys, sc, expect="unknown key", limit=5.0)
    assert len(line) < 400


def test_a_recursive_alias_is_refused(tmp_path, capsys):
    sc = small_scenario(tmp_path, "loop: &me [1, *me]\n")
    refused(capsys, sc, expect="recursive alias")


# --------------------------------------------------------------------------- deep nesting


@pytest.mark.parametrize("depth", [150, 10_000])
def test_deep_nesting_gives_one_line_in_validate_not_a_recursion_error(tmp_path, capsys, depth):
    for name, text in (("list.yaml", deep_list(depth)), ("flow.yaml", deep_flow(depth)),
                       ("scenario.yaml", None)):
        if text is None:
            p = small_scenario(tmp_path, "junk:\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(depth))
                               + "  " * (depth + 1) + "v\n")
        else:
            p = tmp_path / name
            p.write_text(text, encoding="utf-8")
        refused(capsys, p, expect="nest")


def test_deep_nesting_in_a_command_list_and_a_save_is_refused(tmp_path, capsys, demo_save):
    cmds = tmp_path / "cmds.yaml"
    cmds.write_text("- {kind: move, unit_id: car, path: " + "[" * 300 + "]" * 300 + "}\n", encoding="utf-8")
    refused(capsys, cmds, expect="nest")
    bad = _save_with(tmp_path, demo_save, "--- # state\n", "junk: " + "[" * 300 + "]" * 300 + "\n")
    refused(capsys, bad, expect="nest")


def test_nesting_at_the_limit_still_loads():
    assert safe_read.load_yaml(deep_flow(safe_read.MAX_DEPTH)) is not None


# --------------------------------------------------------------------------- huge whole numbers


def test_a_5000_digit_number_is_refused_with_one_line_in_every_kind_of_file(tmp_path, capsys, demo_save):
    sc = small_scenario(tmp_path)
    sc.write_text(sc.read_text(encoding="utf-8").replace("seed: 42", f"seed: {huge_int()}"), encoding="utf-8")
    refused(capsys, sc, expect="5,000 characters")
    cmds = tmp_path / "cmds.yaml"
    cmds.write_text(f"- {{kind: gm_set_next_roll, values: [{huge_int()}]}}\n", encoding="utf-8")
    refused(capsys, cmds, expect="5,000 characters")
    text = demo_save.read_text(encoding="utf-8")
    head_seed = next(ln for ln in text.splitlines() if ln.startswith("seed: "))
    bad = tmp_path / "bad-save.yaml"
    bad.write_text(text.replace(head_seed, f"seed: {huge_int()}", 1), encoding="utf-8")
    refused(capsys, bad, expect="5,000 characters")


def test_a_huge_number_in_a_log_line_read_as_json_is_refused_too(tmp_path, capsys, demo_save):
    text = demo_save.read_text(encoding="utf-8")
    bad = tmp_path / "bad-save.yaml"
    bad.write_text(text.replace('"round": 1', f'"round": {huge_int()}', 1), encoding="utf-8")
    refused(capsys, bad, expect="5,000 characters")


def test_brief_shows_a_huge_number_without_converting_it():
    assert "digits" in brief(10 ** 100_000)
    assert len(brief("x" * 10_000_000)) <= 60


def test_a_game_file_error_bounds_every_part_of_its_line():
    err = GameFileError("p" * 10_000, "w" * 10_000, "m" * 1_000_000)
    assert len(str(err)) < 1200 and "\n" not in str(err)


# --------------------------------------------------------------------------- silently accepted


def test_a_duplicate_key_is_refused_naming_both_lines(tmp_path, capsys):
    sc = small_scenario(tmp_path, "seed: 7\n")
    line = refused(capsys, sc, expect="appears twice")
    assert "line 5" in line  # the first `seed:` of the fixture


def test_duplicate_keys_inside_a_command_and_a_json_log_line_are_refused(tmp_path, capsys, demo_save):
    cmds = tmp_path / "cmds.yaml"
    cmds.write_text("- {kind: end_phase, side: zone, side: zenith}\n", encoding="utf-8")
    refused(capsys, cmds, expect="appears twice")
    text = demo_save.read_text(encoding="utf-8")
    bad = tmp_path / "bad-save.yaml"
    bad.write_text(text.replace('"gm": false', '"gm": false, "gm": true', 1), encoding="utf-8")
    refused(capsys, bad, expect="appears twice")


def test_merge_keys_may_still_be_overridden():
    assert safe_read.load_yaml("a: &d {x: 1, y: 2}\nb: {<<: *d, y: 3}\n")["b"] == {"x": 1, "y": 3}


def test_a_nul_byte_gives_one_line_with_its_line_number(tmp_path, capsys):
    sc = small_scenario(tmp_path)
    sc.write_bytes(sc.read_bytes().replace(b"seed: 42", b"seed: 4\x002"))
    line = refused(capsys, sc, expect="NUL byte")
    assert "line 5" in line


# --------------------------------------------------------------------------- special files


def test_dev_zero_or_a_symlink_to_it_as_scenario_command_list_or_save_is_refused(tmp_path, capsys):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    refused(capsys, zero, expect="not a regular file")
    sc = small_scenario(tmp_path)
    refused(capsys, zero, "run", str(sc), "--commands", str(zero), expect="not a regular file")
    refused(capsys, zero, "run", str(zero), "--commands", str(COMMANDS), expect="not a regular file")
    from game.io.saves import load_save

    with pytest.raises(GameFileError, match="not a regular file"):
        load_save(zero)
    from game.shell.launch import open_game

    with pytest.raises(GameFileError, match="not a regular file"):
        open_game(TABLE, zero)  # what `play zero.yaml` opens, before any window


def test_a_fifo_is_refused_without_blocking(tmp_path, capsys):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    refused(capsys, fifo, expect="not a regular file")


@pytest.mark.parametrize("key", ["map", "catalogue"])
def test_a_symlink_loop_as_map_or_catalogue_path_is_one_line(tmp_path, capsys, key):
    loop = tmp_path / "loop.x"
    loop.symlink_to(loop)
    sc = small_scenario(tmp_path, "catalogue: loop.x\n" if key == "catalogue" else "")
    if key == "map":
        sc.write_text(sc.read_text(encoding="utf-8").replace("map: layout-pointy-odd.tmx", "map: loop.x"),
                      encoding="utf-8")
    line = refused(capsys, sc, expect="loop")
    assert "loop.x" in line


def test_a_symlink_loop_given_to_validate_is_one_line(tmp_path, capsys):
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    refused(capsys, loop, expect="loop")


def test_a_file_over_the_size_limit_is_refused_before_reading(tmp_path, capsys):
    big = tmp_path / "big.yaml"
    with open(big, "wb") as fh:
        fh.truncate(safe_read.MAX_LARGE_FILE_BYTES + 1)  # sparse: costs no disk
    refused(capsys, big, expect="too large")


# --------------------------------------------------------------------------- valid inputs still load


def test_valid_files_still_validate(capsys, demo_save):
    from tests.hostile.hostile import DEMO, SCENARIO

    code, out, err, _ = cli(capsys, "validate", str(SCENARIO), str(DEMO), str(COMMANDS), str(demo_save))
    assert code == 0, err
    assert out.count("ok: ") == 4


def test_the_bounded_loader_reads_what_the_safe_loader_reads():
    text = "a: [1, 2.5, yes, null, '0x10', 0x10, 2020-01-02]\nb: {c: &x [1], d: *x}\n"
    assert safe_read.load_yaml(text) == yaml.safe_load(text)
    assert safe_read.load_yaml_all("--- 1\n--- 2\n") == [1, 2]
