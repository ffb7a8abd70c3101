"""Property tests and fuzzing of the hostile-file classes (slow suite: `make test-slow`).

Each property states exactly when the bounded loader accepts a document, so a budget that
leaks (or refuses valid input) fails here; the fuzz tests plant hostile fragments in the shipped
files and require one clear error or a clean load, and the end-to-end test runs the command
line in a child process to measure its time and memory."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.errors import GameFileError, UserError
from game.io import safe_read
from game.table import TABLE
from tests.hostile.hostile import (
    COMMANDS,
    DEMO,
    ROOT,
    SCENARIO,
    alias_bomb,
    deep_flow,
    huge_int,
    map_copy,
)

pytestmark = pytest.mark.slow
SLOW = settings(max_examples=int(os.environ.get("AIL_FUZZ_SLOW", "300")), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _count(data, seen=None) -> int:
    """Values of `data` with every shared part counted each time it appears (what aliases expand to)."""
    if isinstance(data, dict):
        return 1 + sum(_count(k) + _count(v) for k, v in data.items())
    if isinstance(data, list):
        return 1 + sum(_count(v) for v in data)
    return 1


@SLOW
@given(levels=st.integers(1, 12), width=st.integers(1, 12))
def test_an_alias_pyramid_loads_exactly_when_its_expansion_is_within_the_budget(levels, width):
    text = alias_bomb(levels, width)
    # 1 mapping + per level a key and its list: `width` copies of the level below (or of a scalar)
    expanded, size = 1, 1
    for _ in range(levels):
        size = 1 + width * size
        expanded += 1 + size
    t0 = time.monotonic()
    if expanded <= safe_read.MAX_NODES:
        data = safe_read.load_yaml(text)
        if expanded < 200_000:
            assert _count(data) == expanded
    else:
        with pytest.raises(safe_read.YamlLimitError, match="aliases counted"):
            safe_read.load_yaml(text)
    assert time.monotonic() - t0 < 10


@SLOW
@given(depth=st.integers(1, 3000), style=st.sampled_from(["flow-list", "flow-map", "block-list", "block-map"]))
def test_nesting_loads_exactly_up_to_the_depth_limit_and_never_recurses(depth, style):
    if style == "flow-list":
        text = deep_flow(depth)
    elif style == "flow-map":
        text = "{a: " * depth + "1" + "}" * depth
    elif style == "block-list":
        text = "".join("  " * i + "-\n" for i in range(depth - 1)) + "  " * (depth - 1) + "- x\n"
    else:
        text = "".join("  " * i + "k:\n" for i in range(depth - 1)) + "  " * (depth - 1) + "k: x\n"
    innermost = 1 if style.startswith("flow-list") else 2  # a scalar inside the deepest collection
    if depth + innermost - 1 <= safe_read.MAX_DEPTH:
        safe_read.load_yaml(text)
    else:
        with pytest.raises(yaml.YAMLError):
            safe_read.load_yaml(text)


@SLOW
@given(digits=st.integers(1, 20_000), sign=st.sampled_from(["", "-", "+"]),
       form=st.sampled_from(["dec", "hex", "underscored"]))
def test_a_whole_number_loads_exactly_when_it_is_short_enough(digits, sign, form):
    body = {"dec": "7" * digits, "hex": "0x" + "f" * digits, "underscored": "1_" * digits + "1"}[form]
    text = f"n: {sign}{body}\n"
    if len(sign + body) <= safe_read.MAX_INT_DIGITS:
        assert isinstance(safe_read.load_yaml(text)["n"], int)
    else:
        with pytest.raises(safe_read.YamlLimitError, match="whole number"):
            safe_read.load_yaml(text)


@SLOW
@given(keys=st.lists(st.sampled_from(["a", "b", "c", "1", "01", "yes", "null"]), min_size=1, max_size=8),
       flow=st.booleans())
def test_a_mapping_loads_exactly_when_no_key_repeats(keys, flow):
    text = ("{" + ", ".join(f"{k}: {i}" for i, k in enumerate(keys)) + "}\n") if flow else \
        "".join(f"{k}: {i}\n" for i, k in enumerate(keys))
    # `1` and `01` are one key as YAML reads them; `1` and `yes` (True) one key of the dict built
    resolved = list(yaml.safe_load(f"[{', '.join(keys)}]"))
    if len(set(resolved)) == len(resolved):
        assert len(safe_read.load_yaml(text)) == len(keys)
    else:
        with pytest.raises(safe_read.YamlLimitError, match="appears twice"):
            safe_read.load_yaml(text)


@SLOW
@given(raw=st.binary(max_size=200), at=st.integers(0, 200))
def test_any_bytes_read_as_text_give_text_or_one_line(tmp_path_factory, raw, at):
    p = tmp_path_factory.mktemp("b") / "x.yaml"
    p.write_bytes(raw[:at] + raw[at:])
    try:
        text = safe_read.read_text(p)
    except GameFileError as exc:
        assert "\n" not in str(exc) and str(p) in str(exc)
    else:
        assert "\0" not in text


HOSTILE = [alias_bomb(), "k: " + "[" * 200 + "]" * 200, f"k: {huge_int()}", "k: &x [*x]", "\0",
           "seed: 1", "name: again", "k: !!python/object:os.system ls", "k: " + "x" * 100_000]


def _check_any(path: Path) -> None:
    from game.cli.validate import check_file

    try:
        check_file(TABLE, path)
    except (GameFileError, UserError) as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 1500


@SLOW
@given(fragment=st.sampled_from(HOSTILE), line=st.integers(0, 80),
       which=st.sampled_from(["scenario", "commands", "save"]))
def test_hostile_fragments_planted_anywhere_give_one_line_or_a_clean_load(tmp_path_factory, fragment, line, which,
                                                                            demo_save_text):
    d = tmp_path_factory.mktemp("f")
    src = {"scenario": DEMO.read_text(encoding="utf-8"), "commands": COMMANDS.read_text(encoding="utf-8"),
           "save": demo_save_text}[which]
    lines = src.splitlines(keepends=True)
    at = min(line, len(lines))
    p = d / "x.yaml"
    p.write_bytes(("".join(lines[:at]) + fragment + "\n" + "".join(lines[at:])).encode("utf-8"))
    if which == "scenario":
        (d / "demo-movement.tmx").symlink_to(ROOT / "maps" / "demo-movement.tmx")
    t0 = time.monotonic()
    _check_any(p)
    assert time.monotonic() - t0 < 10


@pytest.fixture(scope="module")
def demo_save_text(tmp_path_factory) -> str:
    from game.__main__ import main

    out = tmp_path_factory.mktemp("s") / "game.yaml"
    main(["run", str(DEMO), "--commands", str(COMMANDS), "--out", str(out)])
    return out.read_text(encoding="utf-8")


@SLOW
@given(kind=st.sampled_from(["zero", "fifo", "folder", "loop", "dangling"]),
       role=st.sampled_from(["scenario", "map", "catalogue", "commands"]))
def test_special_files_in_any_role_are_one_line(tmp_path_factory, kind, role):
    d = tmp_path_factory.mktemp("s")
    special = d / ("special.tmx" if role == "map" else "special.yaml")
    if kind == "zero":
        special.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(special)
    elif kind == "folder":
        special.mkdir()
    elif kind == "loop":
        special.symlink_to(special)
    else:
        special.symlink_to(d / "nowhere")
    from game.cli.run import read_commands
    from game.systems.tactical.io.scenario import load_scenario

    sc = d / "sc.yaml"
    text = SCENARIO.read_text(encoding="utf-8")
    (d / "layout-pointy-odd.tmx").write_text(
        (ROOT / "tests/fixtures/layout-pointy-odd.tmx").read_text(encoding="utf-8").replace(
            'source="../../assets/tiles/', f'source="{(ROOT / "assets/tiles").as_posix()}/'), encoding="utf-8")
    if role == "map":
        text = text.replace("map: layout-pointy-odd.tmx", f"map: {special.name}")
    elif role == "catalogue":
        text += f"catalogue: {special.name}\n"
    sc.write_text(text, encoding="utf-8")
    with pytest.raises(GameFileError) as info:
        if role == "scenario":
            load_scenario(special)
        elif role == "commands":
            read_commands(str(special))
        else:
            load_scenario(sc)
    assert "\n" not in str(info.value)


@SLOW
@given(x=st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(["1e999", "nan", "-inf", "1e308"])),
       y=st.floats(-1e4, 1e4))
def test_any_object_position_gives_a_map_or_one_line(tmp_path_factory, x, y):
    from game.io.tmx import load_map

    d = tmp_path_factory.mktemp("m")
    p = map_copy(d, ('x="224"', f'x="{x}"'), ('y="147"', f'y="{y}"'))
    try:
        load_map(p)
    except GameFileError as exc:
        assert "\n" not in str(exc)


# --------------------------------------------------------------------------- end to end, measured

# (VmHWM is the child's own peak: ru_maxrss would include the parent's, inherited across exec)
CHILD = ("import sys\nfrom game.__main__ import main\ncode = main(sys.argv[1:])\n"
         "hwm = [ln.split()[1] for ln in open('/proc/self/status') if ln.startswith('VmHWM')]\n"
         "print('MAXRSS', hwm[0] if hwm else 0, file=sys.stderr)\nsys.exit(code)\n")


def _child(*argv: str, timeout: float = 60) -> tuple[int, str, float, float]:
    """(exit status, stderr without the measurement, seconds, peak memory in MB) of a child run."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-c", CHILD, *argv], capture_output=True, text=True, timeout=timeout,
                          env=env, cwd=ROOT)
    took = time.monotonic() - t0
    lines = done.stderr.splitlines()
    rss = int(lines[-1].split()[1]) / 1024 if lines and lines[-1].startswith("MAXRSS") else 0.0
    return done.returncode, "\n".join(lines[:-1]), took, rss


def test_every_class_end_to_end_exits_non_zero_with_one_line_in_seconds_and_bounded_memory(tmp_path):
    import base64
    import zlib

    cases: dict[str, Path] = {}
    for name, text in {"bomb": alias_bomb(), "deep": "k:\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(10_000)),
                       "int": f"seed: {huge_int()}\n", "dup": "a: 1\na: 2\n", "nul": "a: \0\n"}.items():
        (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
        cases[name] = tmp_path / f"{name}.yaml"
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    cases["zero"] = tmp_path / "zero.yaml"
    bomb = base64.b64encode(zlib.compress(b"\0" * (1 << 30), 9)).decode()
    cases["inflate"] = map_copy(tmp_path, ('<data encoding="csv">', f'<data encoding="base64" compression="zlib">{bomb}'
                                           '</data><!--'), ("</data>\n </layer>\n <layer id=\"2\"", "--></layer>\n <layer id=\"2\""),
                                name="inflate.tmx")
    for name, path in cases.items():
        code, err, took, rss = _child("validate", str(path))
        problems = [ln for ln in err.splitlines() if ln.startswith("error:")]
        assert code == 1 and len(problems) == 1 and "Traceback" not in err, (name, err)
        assert took < 15 and rss < 400, (name, took, rss)


def test_validate_of_a_100000_command_list_takes_at_most_a_few_times_run(tmp_path):
    cmds = [ln for ln in COMMANDS.read_text(encoding="utf-8").splitlines() if ln.startswith("- ")]
    while len(cmds) < 100_000:
        cmds.append("- {kind: move, unit_id: nobody, path: [[1, 2], [2, 2]]}")
    big = tmp_path / "big.yaml"
    big.write_text("\n".join(cmds) + "\n", encoding="utf-8")
    code, err, run_s, _ = _child("run", str(DEMO), "--commands", str(big), timeout=600)
    assert code in (0, 3), err
    code, err, validate_s, rss = _child("validate", str(big), timeout=600)
    assert code == 0, err
    assert validate_s < 3 * run_s + 5, (validate_s, run_s)
