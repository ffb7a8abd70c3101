"""The "Sealed orders, checkable" part of a week's report can be copied from the forum post and
hashed again: in BBCode its text is posted as written, inside [code] (phpBB reads no tag there)."""

from __future__ import annotations

from game.systems.campaign.io.files import OrderEntry, canonical_orders, make_orders_file
from game.systems.campaign.rules.report import Seal, week_report
from tests.io.test_campaign_files import _teaching


def test_the_bbcode_report_posts_the_checkable_orders_exactly_as_sealed_for_copying() -> None:
    rec = _teaching()
    steps = [s for s in rec.steps if s.before.week == 1]
    events = [e for s in steps for e in s.events]
    f = make_orders_file("t", 1, "zones", [OrderEntry(battle="B1", manoeuvre="withdraw", vanguard="rifles.6",
                                                      withdraw_to=(20, 27))], salt="s4lt")
    canonical = canonical_orders(f.orders)
    assert "[" in canonical  # a JSON list: the part BBCode escaping broke with zero-width spaces
    bb = week_report(steps[0].before, events, 1, "bbcode", {"zones": Seal("zones", f.fingerprint, "s4lt", canonical)})
    assert f"[code]{canonical}[/code]" in bb and f"[code]{f.fingerprint}[/code]" in bb
