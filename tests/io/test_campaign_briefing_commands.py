"""Every `python -m game ...` command a campaign scenario shows (its briefing, its comments, the
comments of its command scripts) runs as written: a QA run found the teaching briefing showing
`python -m game run SCENARIO SCRIPT`, which stops at once ("--commands is required")."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import yaml

from game.__main__ import main

CAMPAIGN = Path("maps/campaign")
COMMAND = re.compile(r"python -m game ([^`\n]+)")


def _shown(path: Path) -> list[str]:
    """The commands the file shows: in its briefing (the `description`, wrapped lines joined)
    and in its comment lines."""
    text = path.read_text(encoding="utf-8")
    found = [m.group(1).strip() for line in text.splitlines() if line.lstrip().startswith("#")
             for m in COMMAND.finditer(line)]
    data = yaml.safe_load(text)
    if isinstance(data, dict) and isinstance(data.get("description"), str):
        found += [m.group(1).strip() for m in COMMAND.finditer(data["description"].replace("\n", " "))]
    return found


SHOWN = [(p.name, c) for p in sorted(CAMPAIGN.glob("*.yaml")) for c in _shown(p)]


def test_the_teaching_briefing_shows_how_to_play_its_script() -> None:
    assert ("teaching.yaml", "campaign play maps/campaign/teaching.yaml maps/campaign/teaching-commands.yaml") in SHOWN


@pytest.mark.parametrize(("where", "command"), SHOWN)
def test_every_command_a_campaign_scenario_shows_runs_as_written(
        where: str, command: str, capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(shlex.split(command))
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert " 0 refused" in out.out  # (a script: every command of it applied)
