"""Crash test: a process killed (SIGKILL) at random moments while it saves never leaves a save
that fails to load. The file on disk is always a complete game: the old one or the new one.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.io import saves

# The child rewrites one save over and over, each time with a new generation number in the
# state, and prints the generation *before* each write starts.
_WRITER = r"""
import sys
from game.io import saves
from game.io.saves import LogEntry, SaveData, SaveHeader

path, gen = sys.argv[1], int(sys.argv[2])
units = {f"u{i}": {"at": [i % 40, i // 40], "strength": i % 7, "markers": ["pinned"] * (i % 3)}
         for i in range(1500)}
print("ready", flush=True)
while True:
    gen += 1
    state = {"generation": gen, "units": units}
    check = saves.state_checksum(state)
    log = (LogEntry(command={"kind": "end_phase"}, rolls=(gen % 10,), round=1, after=check),)
    header = SaveHeader(format=saves.FORMAT_VERSION, scenario="s.yaml", scenario_checksum="x", seed=1,
                        saved_at="2026-01-01T00:00:00", round=1, phase="movement", sides=("a", "b"),
                        to_move="a", commands=1, state_checksum=check)
    print(gen, flush=True)
    saves.write_save(path, SaveData(header, state, log))
"""


def _kill_while_saving(path: Path, delay: float, base: int, in_file_phase: bool) -> int:
    """Start the writer (generations base+1, base+2...), kill it after `delay` seconds (or, with
    `in_file_phase`, that long after its temporary file appears, to land in the write, fsync,
    backup or rename); return the last generation it began writing (`base` if none)."""
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root))
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(path), str(base)], stdout=subprocess.PIPE,
                            text=True, env=env, cwd=root)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    if in_file_phase:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not any(p.name.endswith("tmp") for p in path.parent.iterdir()):
            time.sleep(0.0005)
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    out = proc.stdout.read()
    proc.wait()
    begun = [int(x) for x in out.split() if x.isdigit()]
    return begun[-1] if begun else base


def _run(tmp_path: Path, kills: int, seed: int) -> None:
    rnd = random.Random(seed)
    path = tmp_path / "game.yaml"
    previous = None
    for k in range(kills):
        base = k * 1_000_000
        in_file_phase = k % 2 == 1
        delay = rnd.uniform(0.0, 0.004) if in_file_phase else rnd.uniform(0.0, 0.4)
        last_begun = _kill_while_saving(path, delay, base, in_file_phase)
        if not path.exists():
            assert previous is None, "the save vanished after it had been written"
            continue
        loaded = saves.load_save(path)  # must never raise: old or new complete game
        gen = loaded.state["generation"]
        # the write in flight when the process died, the one before it, or (if this process
        # finished no write) the file the previous process left
        allowed = {last_begun, last_begun - 1} - {base}
        if last_begun <= base + 1:
            allowed.add(previous)
        assert gen in allowed, (gen, last_begun, previous)
        bak = saves.backup_path(path)
        if bak.exists():
            saves.load_save(bak)
        previous = gen
        # temporary files left by the killed process are never taken for saves, and are swept
        saves.clean_temp_files(tmp_path)
        assert not [p for p in tmp_path.iterdir() if p.name.endswith("tmp")]


def test_save_killed_at_random_moments_always_loads(tmp_path: Path) -> None:
    _run(tmp_path, kills=12, seed=20261129)


@pytest.mark.slow
def test_save_killed_at_random_moments_always_loads_long_run(tmp_path: Path) -> None:
    _run(tmp_path, kills=150, seed=7)
