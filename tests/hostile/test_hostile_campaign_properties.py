"""Properties behind the hostile-file fixes (issue 34), over generated input: any one changed
field of an order file breaks its fingerprint, and any text escaped for a report carries no
markup and no control character."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from game.systems.campaign.io.files import OrderEntry, check_fingerprint, make_orders_file
from game.systems.campaign.rules.report import escape

ORDERS = [OrderEntry(battle="B1", manoeuvre="attack", stratagems=("flanking",), vanguard="a.1")]
BASE = make_orders_file("Campaign", 2, "zones", ORDERS, salt="0f1e2d3c4b5a69788796a5b4c3d2e1f0")

FIELDS = st.one_of(
    st.tuples(st.just("campaign"), st.text(max_size=30)),
    st.tuples(st.just("week"), st.integers(-5, 10_000)),
    st.tuples(st.just("player"), st.text(max_size=20)),
    st.tuples(st.just("salt"), st.text(max_size=40)),
    st.tuples(st.just("kind"), st.text(max_size=20)),
    st.tuples(st.just("orders"), st.lists(st.builds(
        OrderEntry, battle=st.sampled_from(["B1", "B2"]),
        manoeuvre=st.sampled_from(["attack", "defend", "withdraw"]),
        vanguard=st.sampled_from(["a.1", "a.2"])), max_size=2)),
)


@settings(max_examples=300, deadline=None)
@given(FIELDS)
def test_changing_any_one_field_of_an_order_file_breaks_its_fingerprint(change):
    field, value = change
    changed = BASE.model_copy(update={field: value})
    if getattr(changed, field) == getattr(BASE, field):
        return  # not a change
    assert not check_fingerprint(changed)


TAG_START = re.compile(r"\[[/*A-Za-z0-9]")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=80) | st.from_regex(
    r"\[(url|b|quote|img|size)(=[^\]]{0,20})?\][^\[]{0,10}\[/\1\]", fullmatch=True))
def test_escaped_text_carries_no_markup_and_no_control_character(text):
    for fmt in ("md", "bbcode"):
        out = escape(text, fmt)
        assert "\n" not in out
        assert not any(unicodedata.category(c) in ("Cc",) for c in out)
        assert "://" not in out and "@" + "everyone" not in out.replace("@\u200b", "")
    bb = escape(text, "bbcode")
    assert not TAG_START.search(bb)
    md = escape(text, "md")
    for i, c in enumerate(md):
        if c in "[]`*_<|~":
            j = i
            while j > 0 and md[j - 1] == "\\":
                j -= 1
            assert (i - j) % 2 == 1, (md, i)  # an odd number of backslashes: escaped


ORDER_FILE = """kind: campaign-orders
campaign: Campaign teaching scenario
week: 1
player: zones
orders:
- {battle: B1, manoeuvre: withdraw, stratagems: [], vanguard: rifles.6, withdraw_to: [20, 27]}
salt: 0f1e2d3c4b5a69788796a5b4c3d2e1f0
fingerprint: sha256:0000000000000000000000000000000000000000000000000000000000000000
"""


def _mangled(folder, at: int, insert: str, cut: int):  # type: ignore[no-untyped-def]
    p = folder / "o.yaml"
    p.write_bytes((ORDER_FILE[:at] + insert + ORDER_FILE[at + cut:]).encode("utf-8", "surrogatepass"))
    return p


def _runs_cleanly(argv: list[str]) -> None:
    """An unexpected exception escapes main() and fails the test; a refusal is exit status 1
    with one error line (or verify's DOES NOT MATCH)."""
    import contextlib
    import io

    from game.__main__ import main

    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        code = main(argv)
    assert code in (0, 1), (argv, err.getvalue())
    assert (code == 0 or err.getvalue().startswith(("error: ", "REFUSED "))
            or "FINGERPRINT DOES NOT MATCH" in out.getvalue()), (argv, err.getvalue(), out.getvalue())


MANGLE = (st.integers(0, len(ORDER_FILE) - 1), st.text(max_size=12), st.integers(0, 8))


@settings(max_examples=150, deadline=None)
@given(*MANGLE)
def test_a_mangled_order_file_is_one_line_never_a_traceback_in_verify(tmp_path_factory, at, insert, cut):
    p = _mangled(tmp_path_factory.mktemp("mangled"), at, insert, cut)
    _runs_cleanly(["campaign", "verify", str(p)])
    _runs_cleanly(["campaign", "verify", str(p), "--fingerprint", "sha256:" + "0" * 64])


@settings(max_examples=12, deadline=None)
@given(*MANGLE)
def test_a_mangled_order_file_is_one_line_never_a_traceback_in_import_and_report(tmp_path_factory, at, insert,
                                                                                cut):
    from tests.hostile.campaignfix import SCENARIO, SCRIPT, head_before_orders

    folder = tmp_path_factory.mktemp("mangled")
    p = _mangled(folder, at, insert, cut)
    _runs_cleanly(["campaign", "import", str(SCENARIO), str(head_before_orders(folder, 1)), str(p)])
    _runs_cleanly(["campaign", "report", str(SCENARIO), str(SCRIPT), "--week", "1", "--orders", str(p)])


def test_a_non_ascii_fingerprint_in_the_file_is_a_mismatch_not_a_crash():
    f = BASE.model_copy(update={"fingerprint": "sha256:\u00e9" + "0" * 63})
    assert not check_fingerprint(f)


DRAFT = """campaign: Campaign teaching scenario
week: 1
player: zones
orders:
- {battle: B1, manoeuvre: withdraw, stratagems: [flee], vanguard: rifles.6, withdraw_to: [20, 27]}
"""


@settings(max_examples=150, deadline=None)
@given(st.integers(0, len(DRAFT) - 1), st.text(max_size=12), st.integers(0, 8))
def test_a_mangled_draft_is_sealed_or_refused_in_one_line_never_a_traceback(tmp_path_factory, at, insert, cut):
    folder = tmp_path_factory.mktemp("draft")
    d = folder / "d.yaml"
    d.write_bytes((DRAFT[:at] + insert + DRAFT[at + cut:]).encode("utf-8", "surrogatepass"))
    _runs_cleanly(["campaign", "seal", str(d), "--out", str(folder / "sealed.yaml")])
