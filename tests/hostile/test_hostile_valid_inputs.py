"""Valid input that was refused or misread (issue 34, item 9): a campaign scenario whose `system:`
line comes after its first 64 KiB is still a campaign; `--commands /dev/null` is an empty command
list; a device named as a campaign scenario's map, catalogue or rules file is reported against
the scenario's line that names it."""

from __future__ import annotations

import pytest

from game.io.sniff import peek_system
from tests.hostile.campaignfix import SCRIPT, scenario_copy
from tests.hostile.hostile import DEMO, cli


def test_a_system_line_after_the_first_64_kib_still_names_the_system(tmp_path, capsys):
    sc = scenario_copy(tmp_path)
    text = sc.read_text(encoding="utf-8")
    sc.write_text("".join(f"# a long note, line {i:05d} " + "." * 60 + "\n" for i in range(1200)) + text,
                  encoding="utf-8")
    assert sc.stat().st_size > 65536 and text.index("system:") + 1200 * 80 > 65536
    assert peek_system(sc, "ail-tactical") == "campaign"
    code, out, err, _ = cli(capsys, "run", str(sc), "--commands", str(SCRIPT))
    assert code == 0 and "week 3" in out, err


@pytest.mark.parametrize("scenario", [DEMO, "maps/campaign/teaching.yaml"])
def test_commands_from_dev_null_are_an_empty_command_list(capsys, scenario):
    code, out, err, _ = cli(capsys, "run", str(scenario), "--commands", "/dev/null")
    assert code == 0 and "0 commands accepted, 0 rejected" in out, err


@pytest.mark.parametrize("key", ["map", "catalogue", "rules"])
def test_a_device_named_by_a_campaign_scenario_is_reported_against_the_scenarios_line(tmp_path, capsys, key):
    if key == "map":
        sc = scenario_copy(tmp_path, ("map: ascension-isle.tmx", "map: /dev/zero"))
    else:
        sc = scenario_copy(tmp_path)
        sc.write_text(sc.read_text(encoding="utf-8") + f"{key}: /dev/zero\n", encoding="utf-8")
    code, _out, err, _ = cli(capsys, "validate", str(sc))
    assert code == 1 and f"error: {sc}: line " in err and f"{key}: {key} /dev/zero: is not a regular file" in err


@pytest.mark.parametrize("key", ["map", "catalogue"])
def test_a_device_named_by_a_tactical_scenario_is_reported_against_the_scenarios_line(tmp_path, capsys, key):
    from tests.hostile.hostile import small_scenario

    sc = small_scenario(tmp_path)
    text = sc.read_text(encoding="utf-8")
    if key == "map":
        text = "\n".join("map: /dev/zero" if ln.startswith("map:") else ln for ln in text.splitlines()) + "\n"
    else:
        text += "catalogue: /dev/zero\n"
    sc.write_text(text, encoding="utf-8")
    code, _out, err, _ = cli(capsys, "validate", str(sc))
    assert code == 1 and f"error: {sc}: line " in err and "'/dev/zero' is not a regular file" in err
