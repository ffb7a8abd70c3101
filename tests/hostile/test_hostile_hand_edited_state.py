"""A save whose state was edited by hand so that a number is no longer a number: every rule
system says which file, which line and which field, and what was expected, in one line, from
`validate`, `replay` and the window's loader alike. The mass battle let pydantic's traceback
through (found 2026-12-03: a person's wounds set to 'lots')."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from game.__main__ import main
from game.core.errors import GameFileError
from game.shell import launch
from game.table import TABLE

ROOT = Path(__file__).resolve().parents[2]

GAMES = [
    ("maps/campaign/teaching.yaml", "maps/campaign/teaching-commands.yaml"),
    ("maps/mass/borderland-valley.yaml", "maps/mass/borderland-valley-commands.yaml"),
    ("maps/demo-movement.yaml", "maps/demo-movement-commands.yaml"),
]


def _spoiled_save(tmp_path: Path, scenario: str, commands: str, capsys: pytest.CaptureFixture[str]) -> tuple[Path, int, str]:
    """A save of the scripted game with its state's first whole number (on a line of its own)
    changed to 'lots': (the file, the line's number counted from 1, the field's name)."""
    out = tmp_path / "save.yaml"
    main(["run", str(ROOT / scenario), "--commands", str(ROOT / commands), "--out", str(out)])
    capsys.readouterr()
    lines = out.read_text(encoding="utf-8").splitlines()
    start = lines.index("--- # state")
    for i in range(start + 1, len(lines)):
        m = re.fullmatch(r"(\s+)(\w+): (\d+)", lines[i])
        if m:
            lines[i] = f"{m.group(1)}{m.group(2)}: lots"
            out.write_text("\n".join(lines) + "\n", encoding="utf-8")
            return out, i + 1, m.group(2)
    raise AssertionError("no whole number in the state to spoil")


@pytest.mark.parametrize(("scenario", "commands"), GAMES)
def test_validate_and_replay_name_the_file_line_and_field_of_a_hand_edited_state(tmp_path, capsys, scenario, commands):
    save, line, field = _spoiled_save(tmp_path, scenario, commands, capsys)
    for args in (["validate", str(save)], ["replay", str(save)]):
        assert main(args) != 0
        text = capsys.readouterr()
        said = text.out + text.err
        assert "Traceback" not in said and "pydantic" not in said, said
        assert f"{save}: line {line}:" in said and field in said and "integer" in said, said


@pytest.mark.parametrize(("scenario", "commands"), GAMES)
def test_the_window_refuses_a_hand_edited_state_with_the_same_one_line_error(tmp_path, capsys, scenario, commands):
    save, line, field = _spoiled_save(tmp_path, scenario, commands, capsys)
    with pytest.raises(GameFileError) as caught:
        launch.open_game(TABLE, save)
    message = str(caught.value)
    assert f"line {line}" in message and field in message and "\n" not in message, message
