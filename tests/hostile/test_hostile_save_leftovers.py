"""Save files (issues 28 and 34): the comment a save starts with names its own rule system (it
said "a saved tactical battle" for a campaign and a mass battle), and making the same backup twice
at once (two processes saving the same file) leaves no stray `.baktmp` beside the save: when the
backup is already another name of the very same file, the rename does nothing and the temporary
name used to stay."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from game.__main__ import main
from game.io import saves
from game.table import TABLE

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("scenario", "commands", "system"), [
    ("maps/campaign/teaching.yaml", "maps/campaign/teaching-commands.yaml", "campaign"),
    ("maps/mass/borderland-valley.yaml", "maps/mass/borderland-valley-commands.yaml", "mass-battle"),
    ("maps/demo-movement.yaml", "maps/demo-movement-commands.yaml", "ail-tactical"),
])
def test_a_saves_first_comment_names_its_own_rule_system(tmp_path, capsys, scenario, commands, system):
    out = tmp_path / "save.yaml"
    main(["run", str(ROOT / scenario), "--commands", str(ROOT / commands), "--out", str(out)])
    capsys.readouterr()
    text = out.read_text(encoding="utf-8")
    header = saves.parse_save(text, out).header
    assert header.system == system
    plugin = TABLE.plugin_named(system)
    first = text.splitlines()[0]
    assert first.startswith("# ") and plugin.system.title in first, first
    if header.system != "ail-tactical":
        assert "tactical" not in first, first
    # the comment is only a comment: the save still reads and verifies
    assert main(["replay", "--verify", str(out)]) == 0


def test_a_save_read_back_and_written_again_names_the_headers_system_on_one_line(tmp_path):
    src = ROOT / "tests" / "fixtures" / "saves" / "v4-demo-overwatch.yaml"
    data = saves.parse_save(src.read_text(encoding="utf-8"), src)
    text = saves.dump_save(data)
    assert text.splitlines()[0] == f"# Ascension Isle: Legacy - a saved game: rule system {data.header.system}. " \
                                   "Plain YAML, safe to read."
    assert saves.parse_save(text, "again.yaml").header == data.header


def test_a_title_with_a_line_break_stays_one_comment_line():
    src = ROOT / "tests" / "fixtures" / "saves" / "v4-demo-overwatch.yaml"
    data = saves.parse_save(src.read_text(encoding="utf-8"), src)
    from dataclasses import replace

    text = saves.dump_save(replace(data, system_title="Evil\nformat: 99"))
    assert text.splitlines()[0].startswith("# ") and "format: 99" in text.splitlines()[0]
    assert saves.parse_save(text, "x.yaml").header.format == data.header.format


def _strays(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith((".baktmp", ".tmp")))


def test_backing_up_the_same_file_twice_leaves_no_stray_baktmp(tmp_path):
    save = tmp_path / "game.yaml"
    save.write_text("one\n", encoding="utf-8")
    saves._keep_backup(save)  # noqa: SLF001 - what two processes do before either replaces the save
    saves._keep_backup(save)  # noqa: SLF001
    assert _strays(tmp_path) == []
    assert saves.backup_path(save).read_text(encoding="utf-8") == "one\n"
    assert save.read_text(encoding="utf-8") == "one\n"


def test_many_threads_saving_the_same_file_at_once_leave_one_save_one_backup_and_no_temporary_file(tmp_path):
    save = tmp_path / "game.yaml"
    save.write_text("start\n", encoding="utf-8")
    gate = threading.Barrier(8)
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            gate.wait()
            for k in range(20):
                saves.atomic_write_text(save, f"writer {n} save {k}\n")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert _strays(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.yaml", "game.yaml.bak"]
    assert save.read_text(encoding="utf-8").startswith("writer ")
