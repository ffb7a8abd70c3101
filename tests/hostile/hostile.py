"""Shared pieces of the hostile-file tests: hostile YAML fragments, a copy of the small fixture
scenario to plant them in, and the one check every case makes through the command line: exit
status non-zero, exactly one error line naming the file, no traceback, quickly."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from game.__main__ import main

ROOT = Path(__file__).resolve().parents[2]
FIX = ROOT / "tests" / "fixtures"
TILES = ROOT / "assets" / "tiles"
SCENARIO = FIX / "small.yaml"
COMMANDS = ROOT / "maps" / "demo-movement-commands.yaml"
DEMO = ROOT / "maps" / "demo-movement.yaml"


def alias_bomb(levels: int = 9, width: int = 9, key: str = "lol") -> str:
    """Billion-laughs YAML: `levels` anchored lists, each repeating the previous one `width` times
    (width ** levels values once expanded), as top-level keys k0 .. k<levels>."""
    lines = [f"k0: &a0 [{', '.join([repr(key)] * width)}]"]
    for i in range(1, levels):
        lines.append(f"k{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def deep_list(depth: int) -> str:
    """A list nested `depth` levels deep, in block style (libyaml's own limit is for flow style)."""
    return "".join("  " * i + "-\n" for i in range(depth)) + "  " * depth + "- x\n"


def deep_flow(depth: int) -> str:
    return "[" * depth + "]" * depth + "\n"


def huge_int(digits: int = 5000) -> str:
    return "9" * digits


def small_scenario(tmp_path: Path, extra: str = "", name: str = "scenario.yaml") -> Path:
    """The small fixture scenario (and its map) copied into `tmp_path`, `extra` appended."""
    for f in ("layout-pointy-odd.tmx",):
        text = (FIX / f).read_text(encoding="utf-8")
        text = text.replace('source="../../assets/tiles/', f'source="{TILES.as_posix()}/')
        (tmp_path / f).write_text(text, encoding="utf-8")
    p = tmp_path / name
    p.write_text(SCENARIO.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return p


def map_copy(tmp_path: Path, *edits: tuple[str, str], fixture: str = "layout-pointy-odd.tmx",
             name: str = "map.tmx") -> Path:
    text = (FIX / fixture).read_text(encoding="utf-8")
    text = text.replace('source="../../assets/tiles/', f'source="{TILES.as_posix()}/')
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def cli(capsys, *argv: str) -> tuple[int, str, str, float]:
    """Run `python -m game ARGV` in-process: (exit status, stdout, stderr, seconds)."""
    capsys.readouterr()
    t0 = time.monotonic()
    code = main(list(argv))
    took = time.monotonic() - t0
    out, err = capsys.readouterr()
    return code, out, err, took


def refused(capsys, path: Path | str, *argv: str, expect: str = "", limit: float = 5.0) -> str:
    """The command (default: `validate PATH`) exits non-zero within `limit` seconds with one
    error line naming PATH (containing `expect`); returns that line."""
    args = list(argv) or ["validate", str(path)]
    code, _out, err, took = cli(capsys, *args)
    assert code != 0, err
    assert "Traceback" not in err
    problems = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert len(problems) == 1, err
    line = problems[0]
    assert str(path) in line or Path(path).name in line, line
    assert expect.lower() in line.lower(), line
    assert len(line) < 1000, len(line)
    assert took < limit, took
    return line


def copy_demo(tmp_path: Path) -> Path:
    """maps/demo-movement.yaml and its map copied (so its folder may be changed freely)."""
    for f in ("demo-movement.yaml", "demo-movement.tmx"):
        shutil.copy(ROOT / "maps" / f, tmp_path / f)
    text = (tmp_path / "demo-movement.tmx").read_text(encoding="utf-8")
    text = text.replace('source="../assets/tiles/', f'source="{TILES.as_posix()}/')
    (tmp_path / "demo-movement.tmx").write_text(text, encoding="utf-8")
    return tmp_path / "demo-movement.yaml"
