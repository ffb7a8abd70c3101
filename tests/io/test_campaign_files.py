"""The campaign layer's files: shipped data loads, bad input names file, line and field, the map
generator is reproducible, order files' fingerprints catch any change, the teaching script
plays, and the week report carries orders, salts, dice and tables in Markdown and BBCode."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.__main__ import main
from game.core.errors import GameFileError
from game.io.sniff import sniff_kind
from game.systems.campaign.io.files import (
    OrderEntry,
    check_fingerprint,
    load_campaign,
    load_campaign_catalogue,
    load_campaign_rules,
    make_orders_file,
    read_orders_file,
    read_script,
    write_orders_file,
)
from game.table import TABLE

ROOT = Path(__file__).resolve().parents[2]
CAMPAIGN = ROOT / "maps" / "campaign"


def test_the_shipped_rules_and_catalogue_load_with_the_four_powers() -> None:
    rules = load_campaign_rules()
    assert rules.terrain["sea"].cost is None and rules.dice.success_on == 6
    cat = load_campaign_catalogue()
    assert set(cat.powers) == {"zones", "resistance", "zenith", "jibril"}
    jai = cat.powers["jibril"].units["jibril_armoured_infantry"]
    assert (jai.attack, jai.defense, jai.mobility, jai.line) == (5, 6, 2, True)
    durabilities = {t.durability.split()[0] for t in cat.unit_types().values()}
    assert durabilities == {"plain", "Armour", "Large"}


def test_the_campaign_map_is_an_island_of_at_least_40_by_30_with_every_operational_terrain() -> None:
    loaded = load_campaign(CAMPAIGN / "ascension-isle.yaml")
    m = loaded.setup.map
    assert m.width >= 40 and m.height >= 30
    assert set(m.terrain.values()) == {"plains", "road", "town", "fortress", "forest", "hills", "river", "marsh",
                                       "mountains", "sea"}
    edge = [m.terrain[(c, 0)] for c in range(m.width)] + [m.terrain[(0, r)] for r in range(m.height)]
    assert set(edge) == {"sea"}
    assert len(loaded.setup.players) >= 3 and len(loaded.setup.generals) >= 3


def test_the_map_generator_writes_the_shipped_map_exactly(tmp_path: Path) -> None:
    from game.tools.make_campaign_map import main as make

    out = tmp_path / "isle.tmx"
    make(["--out", str(out)])
    assert out.read_text(encoding="utf-8") == (CAMPAIGN / "ascension-isle.tmx").read_text(encoding="utf-8")


def _scenario(tmp_path: Path, text: str) -> Path:
    (tmp_path / "ascension-isle.tmx").write_text((CAMPAIGN / "ascension-isle.tmx").read_text(encoding="utf-8")
                                                 .replace("../../assets", str(ROOT / "assets")), encoding="utf-8")
    p = tmp_path / "s.yaml"
    p.write_text(text, encoding="utf-8")
    return p


BASE = """system: campaign
name: t
map: ascension-isle.tmx
players:
  - {id: a, name: A, power: zones}
  - {id: b, name: B, power: jibril}
armies:
  - {id: x, owner: a, at: [16, 9], units: [zone_rifle_division]}
  - {id: y, owner: b, at: [38, 25], units: [%s]}
"""


@pytest.mark.parametrize(("change", "where", "words"), [
    ("jibril_tank", "line 9: armies[1].units[0]", "unknown unit type"),
    ("{type: jibril_warjack, count: 0}", "line 9: armies[1].units[0].count", "greater than or equal to 1"),
    ("{type: jibril_warjack, colour: red}", "line 9: armies[1].units[0]", "unknown key"),
])
def test_a_bad_scenario_names_the_file_the_line_and_the_field(tmp_path: Path, change: str, where: str,
                                                              words: str) -> None:
    p = _scenario(tmp_path, BASE % change)
    with pytest.raises(GameFileError) as exc:
        load_campaign(p)
    assert str(p) in str(exc.value) and where in str(exc.value) and words in str(exc.value)


def test_an_army_placed_in_the_sea_is_refused_with_its_line(tmp_path: Path) -> None:
    p = _scenario(tmp_path, (BASE % "jibril_warjack").replace("at: [38, 25]", "at: [0, 0]"))
    with pytest.raises(GameFileError, match=r"line 9: armies\[1\]\.at.*sea"):
        load_campaign(p)


def test_a_bad_rules_override_is_reported_against_the_scenario(tmp_path: Path) -> None:
    p = _scenario(tmp_path, (BASE % "jibril_warjack") + "rules_overrides:\n  dice: {success_on: 11}\n")
    with pytest.raises(GameFileError, match="can never be rolled"):
        load_campaign(p)


def test_a_broken_rules_file_names_its_line_and_field(tmp_path: Path) -> None:
    text = (ROOT / "assets" / "rules" / "campaign.yaml").read_text(encoding="utf-8")
    p = tmp_path / "r.yaml"
    p.write_text(text.replace("plains:    {cost: 1,", "plains:    {cost: -1,"), encoding="utf-8")
    with pytest.raises(GameFileError) as exc:
        load_campaign_rules(p)
    assert "terrain.plains.cost" in str(exc.value) and "line 17" in str(exc.value)


def _orders() -> list[OrderEntry]:
    return [OrderEntry(battle="B1", manoeuvre="attack", stratagems=("flanking",), vanguard="front.1"),
            OrderEntry(battle="B2", manoeuvre="withdraw", vanguard="x.3", withdraw_to=(4, 6))]


def test_an_order_file_round_trips_and_its_fingerprint_checks(tmp_path: Path) -> None:
    f = make_orders_file("t", 3, "resistance", _orders(), salt="pepper")
    write_orders_file(tmp_path / "o.yaml", f)
    back = read_orders_file(tmp_path / "o.yaml")
    assert back == f and check_fingerprint(back)
    assert sniff_kind(tmp_path / "o.yaml", TABLE.sniff) == "campaign-orders"


def test_a_changed_order_or_salt_fails_the_fingerprint_check(tmp_path: Path) -> None:
    f = make_orders_file("t", 3, "resistance", _orders(), salt="pepper")
    changed = f.model_copy(update={"orders": [_orders()[0].model_copy(update={"manoeuvre": "defend"}), _orders()[1]]})
    assert not check_fingerprint(changed)
    assert not check_fingerprint(f, salt="salt")
    assert not check_fingerprint(f.model_copy(update={"week": 4}))
    public = f.model_copy(update={"salt": None})
    assert not check_fingerprint(public) and check_fingerprint(public, salt="pepper")


def test_seal_and_verify_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    draft = tmp_path / "draft.yaml"
    draft.write_text("campaign: t\nweek: 1\nplayer: zones\norders:\n"
                     "  - {battle: B1, manoeuvre: withdraw, vanguard: rifles.6}\n", encoding="utf-8")
    out = tmp_path / "sealed.yaml"
    assert main(["campaign", "seal", str(draft), "--out", str(out)]) == 0
    fp = capsys.readouterr().out.split("publicly now: ")[1].split()[0]
    assert main(["campaign", "verify", str(out), "--fingerprint", fp]) == 0
    out.write_text(out.read_text(encoding="utf-8").replace("withdraw", "block"), encoding="utf-8")
    assert main(["campaign", "verify", str(out), "--fingerprint", fp]) == 1


def _teaching():  # type: ignore[no-untyped-def]
    from game.core.record import Record
    from game.systems.campaign.rules import SYSTEM

    loaded = load_campaign(CAMPAIGN / "teaching.yaml")
    assert loaded.seed == 7 and loaded.path.name == "teaching.yaml" and loaded.description
    rec = Record(SYSTEM, SYSTEM.initial_state(loaded.setup, loaded.seed))
    for cmd in read_script(CAMPAIGN / "teaching-commands.yaml"):
        out = rec.apply(cmd)
        assert out.accepted, (cmd, getattr(out, "reason", ""))
    return rec


def test_the_teaching_script_plays_withdraw_block_and_shock_attack_and_stratagems() -> None:
    rec = _teaching()
    revealed = [e for e in rec.all_events() if e.kind == "orders_revealed"]
    b1 = {e.manoeuvre for e in revealed if e.battle == "B1"}
    assert {"withdraw", "block", "shock_attack"} <= b1
    assert any(e.stratagems for e in revealed if e.battle == "B2")
    assert all(b.over for b in rec.state.battles.values()) and rec.state.week == 3


def test_the_week_report_shows_orders_salts_dice_and_tables_in_markdown_and_bbcode() -> None:
    from game.systems.campaign.io.files import canonical_orders
    from game.systems.campaign.rules.report import Seal, week_report

    rec = _teaching()
    steps = [s for s in rec.steps if s.before.week == 1]
    events = [e for s in steps for e in s.events]
    f = make_orders_file("t", 1, "zones", [OrderEntry(battle="B1", manoeuvre="withdraw", vanguard="rifles.6",
                                                      withdraw_to=(20, 27))], salt="s4lt")
    seals = {"zones": Seal("zones", f.fingerprint, "s4lt", canonical_orders(f.orders))}
    md = week_report(steps[0].before, events, 1, "md", seals)
    bb = week_report(steps[0].before, events, 1, "bbcode", seals)
    for text in (md, bb):
        assert "Withdraw" in text and "Block" in text and "s4lt" in text and f.fingerprint in text
        assert "major table" in text and "successes" in text and "casualties" in text
        assert "Jibril Second Corps: 24,27 > 23,26 > 22,27 > 21,27" in text  # from its start
    assert md.startswith("# ") and "[b]" in bb and "[list]" in bb and "**" not in bb


def test_validate_knows_every_campaign_file_kind() -> None:
    assert sniff_kind(CAMPAIGN / "ascension-isle.yaml", TABLE.sniff) == "campaign-scenario"
    assert sniff_kind(CAMPAIGN / "teaching-commands.yaml", TABLE.sniff) == "campaign-commands"
    assert sniff_kind(ROOT / "assets" / "rules" / "campaign.yaml", TABLE.sniff) == "campaign-rules"
    assert sniff_kind(ROOT / "assets" / "units" / "campaign-powers.yaml", TABLE.sniff) == "campaign-catalogue"
    assert main(["validate", str(CAMPAIGN), str(ROOT / "assets" / "rules" / "campaign.yaml"),
                 str(ROOT / "assets" / "units" / "campaign-powers.yaml")]) == 0


def test_the_campaign_is_registered_in_the_composition_root() -> None:
    plugin = TABLE.plugin_named("campaign")
    assert plugin.system.name == "campaign"
    assert TABLE.name_in({"system": "campaign"}) == "campaign"
    assert plugin.load(CAMPAIGN / "teaching.yaml").name == "Campaign teaching scenario"


def test_the_gm_imports_sealed_order_files_into_the_script_and_a_tampered_file_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = CAMPAIGN / "teaching-commands.yaml"
    lines = script.read_text(encoding="utf-8").splitlines()
    orders_at = max(i for i, ln in enumerate(lines) if ln.startswith("- {kind: orders"))
    head = tmp_path / "head.yaml"
    head.write_text("\n".join(line for line in lines[:orders_at - 3] if not line.startswith("# B1:")) + "\n",
                    encoding="utf-8")
    files = []
    for player, battle, man, van in (("zones", "B1", "block", "rifles.2"), ("jibril", "B1", "shock_attack", "corps.1"),
                                     ("resistance", "B2", "skirmish", "front.4"), ("zenith", "B2", "defend", "host.5")):
        f = make_orders_file("Campaign teaching scenario", 2, player, [OrderEntry(battle=battle, manoeuvre=man, vanguard=van)])
        write_orders_file(tmp_path / f"{player}.yaml", f)
        files.append(str(tmp_path / f"{player}.yaml"))
    out = tmp_path / "full.yaml"
    assert main(["campaign", "import", str(CAMPAIGN / "teaching.yaml"), str(head), *files, "--out", str(out)]) == 0
    assert main(["campaign", "play", str(CAMPAIGN / "teaching.yaml"), str(out), "--quiet"]) == 0
    assert "week 3" in capsys.readouterr().out
    bad = tmp_path / "zones.yaml"
    bad.write_text(bad.read_text(encoding="utf-8").replace("block", "attack"), encoding="utf-8")
    assert main(["campaign", "import", str(CAMPAIGN / "teaching.yaml"), str(head), *files]) == 1
    assert "do not match the fingerprint" in capsys.readouterr().err
