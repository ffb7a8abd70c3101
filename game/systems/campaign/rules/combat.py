"""The arithmetic of one battle-week, shared by resolution (`battle.py`) and the planner: dice
pools with reinforcement dice, the stratagems' requirements, and the judge that turns two
sides' successes into a band, casualty ranges and movement. No dice are rolled here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from game.systems.campaign.rules.models import (
    BAND_NAMES,
    BANDS,
    MANOEUVRE_NAMES,
    Manoeuvre,
    RulesData,
    Stat,
    UnitType,
    display_name,
)

STAT_OF: dict[str, Stat] = {
    "attack": "attack", "shock_attack": "attack", "defend": "defense", "block": "defense",
    "withdraw": "mobility", "skirmish": "mobility",
}
Move = Literal["stay", "arc", "route", "fail", "fall_back", "rout", "breakthrough", "hold"]
GOT_AWAY: frozenset[str] = frozenset({"arc", "route"})


def reinforcement_steps(base: int, total: int, cap: int = 40) -> int:
    """+k dice when the rest of the forces reach base x (2^(k+1) - 2): base 5 -> 10, 30, 70, 150..."""
    if base <= 0:
        return 0
    k = 0
    while k < cap and total >= base * ((1 << (k + 2)) - 2):
        k += 1
    return k


def threshold(base: int, k: int) -> int:
    """The reinforcement total that gives the k-th reinforcement die."""
    return base * ((1 << (k + 1)) - 2)


# --------------------------------------------------------------------------- a side's facts

@dataclass(frozen=True)
class UnitFacts:
    id: str
    type: UnitType


@dataclass(frozen=True)
class SideFacts:
    """What the rules know about one side of a battle before the dice (from the state)."""

    player: str
    units: tuple[UnitFacts, ...]  # alive units of its forces, in army order
    general_level: int = 0  # best fighting General
    general_traits: frozenset[str] = frozenset()
    armies: int = 1
    scouting: int = 0  # this battle's scouting successes
    locked: bool = False  # beaten by a Block last week
    difficult_terrain: bool = False
    gm_dice: int = 0  # §7.12: dice the GM added (negative: removed) for characters' powers
    gm_dice_why: str = ""

    def unit(self, uid: str) -> UnitFacts | None:
        for u in self.units:
            if u.id == uid:
                return u
        return None

    def has_trait(self, trait: str) -> bool:
        return any(trait in u.type.traits for u in self.units)


def stratagem_refusal(rules: RulesData, name: str, manoeuvre: Manoeuvre, side: SideFacts,
                      vanguard: str) -> str | None:
    """None when `side` may declare stratagem `name` with `manoeuvre`, else the reason (a sentence)."""
    spec = rules.stratagems[name]  # type: ignore[index]
    title = display_name(name)
    if spec.with_ != "any" and manoeuvre not in spec.with_:
        allowed = " or ".join(MANOEUVRE_NAMES[m] for m in spec.with_)
        return f"{title} goes with {allowed}, not {MANOEUVRE_NAMES[manoeuvre]}."
    if side.general_level < spec.general_level:
        have = (f"its best fighting General is level {side.general_level}" if side.general_level
                else "no General of it is fighting (present and named in a post this week)")
        return f"{title} needs a fighting General of level {spec.general_level} or more; {have}."
    for need in spec.needs:
        if need == "observer" and not (side.has_trait("observer") or "observer" in side.general_traits):
            return f"{title} needs a unit or General with the observer trait."
        if need == "scout" and not side.has_trait("scout"):
            return f"{title} needs a unit with the scout trait."
        if need == "divisions":
            n = sum(1 for u in side.units if "infantry_division" in u.type.traits)
            if n < rules.continuous_front_divisions:
                return (f"{title} needs {rules.continuous_front_divisions} infantry divisions; "
                        f"these forces have {n}.")
        if need == "two_armies" and side.armies < 2:
            return f"{title} needs two friendly armies in the battle; there is {side.armies}."
        if need == "difficult_terrain" and not side.difficult_terrain:
            return f"{title} needs difficult terrain in the battle's hex."
        if need == "fast" and any(u.type.mobility < 4 for u in side.units):
            slow = next(u for u in side.units if u.type.mobility < 4)
            return f"{title} needs every unit at Mobility 4 or more; {slow.type.name} has {slow.type.mobility}."
        if need == "long_range_vanguard":
            v = side.unit(vanguard)
            if v is None or "long_range" not in v.type.traits:
                return f"{title} needs a long-range unit as the vanguard."
    return None


def orders_refusal(rules: RulesData, side: SideFacts, manoeuvre: Manoeuvre, stratagems: tuple[str, ...],
                   vanguard: str) -> str | None:
    """None when the orders are legal for the side (as far as the enemy's orders do not matter)."""
    v = side.unit(vanguard)
    if v is None:
        return f"{vanguard} is not a unit of these forces."
    harassing = (rules.readings >= 2 and "harassing_fire" in stratagems  # §7.4: it may be the line
                 and "long_range" in v.type.traits)
    if manoeuvre != "withdraw" and not v.type.line and not harassing and any(u.type.line for u in side.units):
        return f"{v.type.name} cannot serve as a line unit, so it cannot be the vanguard (only a Rearguard)."
    if len(set(stratagems)) != len(stratagems):
        return "A stratagem is named twice."
    if side.locked and (manoeuvre == "withdraw" or "flee" in stratagems):
        return "These forces were beaten by a Block last week and cannot withdraw this week."
    for s in stratagems:
        why = stratagem_refusal(rules, s, manoeuvre, side, vanguard)
        if why:
            return why
    return None


# --------------------------------------------------------------------------- plays and pools

@dataclass(frozen=True)
class Play:
    """One side's orders as they play after the reveal."""

    player: str
    ordered: Manoeuvre
    plays_as: Manoeuvre  # after Counter Attack / Feint (Flee: withdraw)
    reads_as: Manoeuvre  # for tables and matchups (Harassing Fire: skirmish)
    stratagems: frozenset[str]
    general_level: int
    vanguard: str
    fled: bool = False
    dropped: tuple[str, ...] = ()

    def has(self, s: str) -> bool:
        return s in self.stratagems


def make_plays(a: SideFacts, a_man: Manoeuvre, a_str: tuple[str, ...], a_van: str,
               b: SideFacts, b_man: Manoeuvre, b_str: tuple[str, ...], b_van: str) -> tuple[Play, Play]:
    """Both sides' plays after the reveal: Counter Attack and Feint switch (or cancel each other),
    Encirclement lapses if its vanguard is not faster, Flee plays as a Withdraw."""
    sa, sb = set(a_str), set(b_str)
    drop_a: list[str] = []
    drop_b: list[str] = []

    def faster(x: SideFacts, xv: str, y: SideFacts, yv: str) -> bool:
        ux, uy = x.unit(xv), y.unit(yv)
        return ux is not None and uy is not None and ux.type.mobility > uy.type.mobility

    if "encirclement" in sa and not faster(a, a_van, b, b_van):
        sa.discard("encirclement")
        drop_a.append("Encirclement lapsed: its vanguard is not faster than the enemy's.")
    if "encirclement" in sb and not faster(b, b_van, a, a_van):
        sb.discard("encirclement")
        drop_b.append("Encirclement lapsed: its vanguard is not faster than the enemy's.")

    def switched(man: Manoeuvre, own: set[str], other_man: Manoeuvre, other: set[str]) -> Manoeuvre:
        if "counter_attack" in own and other_man in ("attack", "shock_attack") and "feint" not in other:
            return "attack"
        if "feint" in own and other_man == "defend" and "counter_attack" not in other:
            return "shock_attack"
        return man

    pa = switched(a_man, sa, b_man, sb)
    pb = switched(b_man, sb, a_man, sa)
    for own, drops, other in ((sa, drop_a, sb), (sb, drop_b, sa)):
        if "counter_attack" in own and "feint" in other:
            drops.append("Counter Attack and the enemy's Feint cancel each other.")
        if "feint" in own and "counter_attack" in other:
            drops.append("Feint and the enemy's Counter Attack cancel each other.")
    fa, fb = "flee" in sa, "flee" in sb
    if fa:
        pa = "withdraw"
    if fb:
        pb = "withdraw"

    def reads(own_play: Manoeuvre, own: set[str], other_play: Manoeuvre) -> Manoeuvre:
        if "harassing_fire" in own and own_play == "defend" and other_play in ("withdraw", "defend", "block"):
            return "skirmish"
        return own_play

    ra, rb = reads(pa, sa, pb), reads(pb, sb, pa)
    return (Play(a.player, a_man, pa, ra, frozenset(sa), a.general_level, a_van, fa, tuple(drop_a)),
            Play(b.player, b_man, pb, rb, frozenset(sb), b.general_level, b_van, fb, tuple(drop_b)))


@dataclass(frozen=True)
class Pool:
    stat: str
    parts: tuple[tuple[str, int], ...]
    reinforcement_total: int
    dice: int
    main_line: tuple[str, ...]  # vanguard, then reinforcing units
    bonus_successes: int = 0  # Deception: the scouting successes


def build_pool(rules: RulesData, side: SideFacts, play: Play, enemy: SideFacts, enemy_play: Play,
               first_week: bool) -> Pool:
    """The dice one side rolls this week, part by part."""
    if play.fled:
        return Pool("none", (("flees before the roll", 0),), 0, 0, (play.vanguard,))
    stat: Stat = STAT_OF[play.plays_as]
    if play.plays_as == "withdraw" and play.has("last_stand"):
        stat = "defense"
    v = side.unit(play.vanguard)
    assert v is not None  # checked when the orders were given
    base = v.type.stat(stat)
    parts: list[tuple[str, int]] = [(f"vanguard {v.type.name} {stat} {base}", base)]
    total = 0
    main = [v.id]
    no_reinforcement = ""
    if play.ordered == "defend" and play.plays_as == "attack":
        no_reinforcement = "Counter Attack: no reinforcement dice"
    if (enemy_play.plays_as == "shock_attack" and enemy_play.has("surprise")
            and enemy.scouting > side.scouting):
        no_reinforcement = "the enemy's Surprise: no reinforcement dice"
    if not no_reinforcement:
        for u in side.units:
            if u.id == v.id:
                continue
            value = 0
            if play.plays_as == "withdraw":
                if "scout" in u.type.traits:  # Last Stand (§7.8): scouts still add their Mobility
                    value = (u.type.mobility if play.has("last_stand") and rules.readings >= 2
                             else u.type.stat(stat))
                if play.has("covering_fire") and "long_range" in u.type.traits:
                    value = max(value, u.type.defense)
            elif play.has("harassing_fire") and play.plays_as == "defend":
                value = u.type.stat(stat) if "long_range" in u.type.traits else 0
            else:
                value = u.type.stat(stat)
            if value > 0:
                total += value
                main.append(u.id)
    k = reinforcement_steps(base, total)
    if no_reinforcement:
        parts.append((no_reinforcement, 0))
    else:
        parts.append((f"reinforcement: {total} from the rest -> +{k}", k))
    extra = 0
    if play.plays_as == "block" and play.has("ambush") and first_week and side.scouting > enemy.scouting:
        extra += rules.stratagems["ambush"].dice
        parts.append(("Ambush", rules.stratagems["ambush"].dice))
    if play.plays_as == "attack" and play.has("flanking") and enemy_play.plays_as in ("defend", "block"):
        extra += rules.stratagems["flanking"].dice
        parts.append(("Flanking", rules.stratagems["flanking"].dice))
    if play.plays_as == "shock_attack" and play.has("speed"):
        extra += v.type.mobility // 2
        parts.append(("Speed: half the vanguard's Mobility", v.type.mobility // 2))
    if side.gm_dice:
        extra += side.gm_dice
        parts.append((f"GM: {side.gm_dice_why}", side.gm_dice))
    dice = max(0, min(rules.dice.max_pool, base + k + extra))
    bonus = side.scouting if (play.plays_as == "withdraw" and play.has("deception")) else 0
    if bonus:
        parts.append(("Deception: scouting successes added", 0))
    return Pool(stat, tuple(parts), total, dice, tuple(main), bonus)


# --------------------------------------------------------------------------- the judge

@dataclass(frozen=True)
class Taken:
    """What one side suffers and does after the roll."""

    lo: int = 0  # casualty range rolled against it
    hi: int = 0
    extra: int = 0
    extra_supporting_first: bool = False
    mitigation: int = 0
    move: Move = "stay"
    rout: bool = False
    locked: bool = False
    last_stand_loss: bool = False


@dataclass(frozen=True)
class Verdict:
    band: int  # 0 draw, 1 minor .. 4 legendary
    winner: str | None
    margin: int
    shift: int
    rows: tuple[str, ...]
    taken: dict[str, Taken] = field(default_factory=dict)


def band_of(rules: RulesData, margin: int) -> int:
    b = rules.bands
    if margin >= b.legendary:
        return 4
    if margin >= b.crushing:
        return 3
    if margin >= b.major:
        return 2
    if margin >= b.minor:
        return 1
    return 0


def beats(rules: RulesData, x: Manoeuvre, y: Manoeuvre) -> bool:
    return y in rules.matchups.get(x, ())


def _n(m: str) -> str:
    return MANOEUVRE_NAMES[m]


def judge(rules: RulesData, a: Play, b: Play, sa: int, sb: int, a_facts: SideFacts | None = None,
          b_facts: SideFacts | None = None) -> Verdict:
    """Two plays and their successes -> the band, the table rows and what each side takes."""
    rows: list[str] = []
    if a.fled and b.fled:
        return Verdict(0, None, 0, 0, ("both sides flee before the roll",),
                       {a.player: Taken(move="route"), b.player: Taken(move="route")})
    shift = 0
    if a.fled or b.fled:
        w, los = (b, a) if a.fled else (a, b)
        band, margin = 1, 0
        rows.append(f"{los.player} flees: read as a losing Withdraw at minor")
    else:
        margin = abs(sa - sb)
        band = band_of(rules, margin)
        w, los = (a, b) if sa >= sb else (b, a)
        if band:
            if beats(rules, w.reads_as, los.reads_as):
                shift = 1
            elif beats(rules, los.reads_as, w.reads_as):
                guerrilla = w.has("guerrilla") and w.reads_as == "skirmish" and los.reads_as in ("defend", "block")
                shift = 0 if guerrilla else -1
            raw = band
            legendary = w.general_level >= rules.bands.legendary_general_level
            if rules.readings >= 2:  # §7.5: legendary is capped first (only a level-3 General), then the shift
                capped = min(band, 4 if legendary else 3)
                band = max(0, min(4 if legendary else 3, capped + shift))
            else:  # the first reading: the shift, then the cap
                capped = raw
                band = max(0, min(4, band + shift))
                if band == 4 and not legendary:
                    band = 3
            rows.append(f"margin {margin}: {BAND_NAMES[raw]}"
                        + (f", {BAND_NAMES[capped]} without a level-3 General" if capped != raw else "")
                        + (f", shifted {shift:+d} by the matchup" if shift else "") + f" -> {BAND_NAMES[band]}")
    if band == 0:
        return _draw(rules, a, b, margin, shift, rows)
    name = BANDS[band - 1]
    table = rules.victory[name]
    w_lo, w_hi = table.winner[w.reads_as][los.reads_as]
    if rules.readings < 2 and w.reads_as == "withdraw":  # the first reading: a winning Withdraw inflicts too
        lo, hi = rules.draw_table["withdraw"][los.reads_as].casualties or (0, 0)
        w_lo, w_hi = lo + band, hi + 2 * band
    rows.append(f"{name} table, winner row {_n(w.reads_as)} vs {_n(los.reads_as)}: {w_lo}-{w_hi}")
    hammer = w.plays_as == "block" and w.has("hammer_and_anvil")
    if hammer:
        h_lo, h_hi = table.winner["attack"][los.reads_as]
        rows.append(f"Hammer and Anvil also reads row Attack: {h_lo}-{h_hi}")
        if (h_hi, h_lo) > (w_hi, w_lo):
            w_lo, w_hi = h_lo, h_hi
    defend_mitigates = (w.reads_as == "defend" and not w.has("hold_the_line")
                        and los.reads_as in ("skirmish", "attack"))
    if defend_mitigates and rules.readings >= 2:  # §7.10: against a winning Defend the loser's draw-table row, at any band
        l_lo, l_hi = rules.draw_table[los.reads_as][w.reads_as].casualties or (0, 0)
        rows.append(f"against a winning Defend, loser row {_n(los.reads_as)} vs {_n(w.reads_as)} of the draw table: "
                    f"{l_lo}-{l_hi}")
    else:
        l_lo, l_hi = table.loser[los.reads_as][w.reads_as]
        rows.append(f"{name} table, loser row {_n(los.reads_as)} vs {_n(w.reads_as)}: {l_lo}-{l_hi}")
    extra = 0
    supporting_first = False
    if w.reads_as == "skirmish" and w.has("raid"):
        extra += rules.extra_casualty
        supporting_first = True
    if w.reads_as == "skirmish" and los.reads_as == "withdraw":
        extra += rules.extra_casualty
    if w.plays_as == "block" and w.has("encirclement"):
        extra += rules.extra_casualty
    # mitigation of what each side takes
    w_mit = 0
    if defend_mitigates:
        w_mit += margin
    ws, ls = (sa, sb) if w is a else (sb, sa)
    if w.plays_as == "block" and w.has("delay"):
        w_mit += ws // 2
    l_mit = ls // 2 if (los.plays_as == "block" and los.has("delay")) else 0
    # movement
    w_move: Move = "stay"
    l_move: Move = "stay"
    rout = False
    if w.reads_as == "withdraw":
        w_move = _cf("arc", los)
    elif w.plays_as in ("attack", "shock_attack") and w.has("breakthrough") and band >= 2:
        w_move = "breakthrough"
    if los.reads_as == "withdraw":
        if w.reads_as == "skirmish" or (w.reads_as == "defend" and rules.readings >= 2):  # §5.1, §7.2
            l_move = "arc"
        elif w.reads_as == "block" or band >= 2:
            l_move = "fail"
        else:
            cell = rules.draw_table["withdraw"][w.reads_as]
            l_move = cell.withdraw or "arc"
        l_move = _cf(l_move, w)
    else:
        pushes = w.reads_as in ("attack", "shock_attack") or hammer
        need = 1 if w.reads_as == "shock_attack" else 2
        if pushes and band >= need:
            l_move = "fall_back"
            if w.reads_as == "shock_attack" and band >= 3:
                l_move = "rout"
                rout = True
            if los.has("hold_the_line"):  # §7.6: the whole fall back is cancelled, rout casualty too
                l_move = "hold"
                rout = rout and rules.readings < 2
    locked = w.plays_as == "block" and l_move not in GOT_AWAY
    taken = {
        w.player: Taken(l_lo, l_hi, 0, False, w_mit, w_move, False, False,
                        w.has("last_stand") and w_move in GOT_AWAY),
        los.player: Taken(w_lo, w_hi, extra, supporting_first, l_mit, l_move, rout, locked,
                        los.has("last_stand") and l_move in GOT_AWAY),
    }
    return Verdict(band, w.player, margin, shift, tuple(rows), taken)


def _cf(move: Move, enemy: Play) -> Move:
    """Continuous Front: a Withdraw against it may only go back up its route."""
    if move == "arc" and enemy.plays_as == "defend" and enemy.has("continuous_front"):
        return "route"
    return move


def _draw(rules: RulesData, a: Play, b: Play, margin: int, shift: int, rows: list[str]) -> Verdict:
    rows.append("draw table")
    taken: dict[str, Taken] = {}
    for me, other in ((a, b), (b, a)):
        cell_other = rules.draw_table[other.reads_as][me.reads_as]  # what the other inflicts on me
        lo, hi = cell_other.casualties or (0, 0)
        rows.append(f"draw, row {_n(other.reads_as)} vs {_n(me.reads_as)}: "
                    + (f"{lo}-{hi} casualties" if cell_other.casualties else "no casualties"))
        move: Move = "stay"
        if me.reads_as == "withdraw":
            if other.reads_as == "skirmish":
                move = "arc"
            else:
                move = rules.draw_table["withdraw"][other.reads_as].withdraw or "arc"
            move = _cf(move, other)
        taken[me.player] = Taken(lo, hi, 0, False, 0, move, False, False,
                                 me.has("last_stand") and move in GOT_AWAY)
    return Verdict(0, None, margin, shift, tuple(rows), taken)


def with_delay(v: Verdict, a: Play, b: Play, sa: int, sb: int) -> Verdict:
    """Add a Delay's mitigation (half its successes) on a draw, where `judge` has no winner."""
    if v.band != 0 or v.winner is not None:
        return v
    taken = dict(v.taken)
    for p, s in ((a, sa), (b, sb)):
        if p.plays_as == "block" and p.has("delay") and p.player in taken:
            t = taken[p.player]
            taken[p.player] = Taken(t.lo, t.hi, t.extra, t.extra_supporting_first, t.mitigation + s // 2,
                                    t.move, t.rout, t.locked, t.last_stand_loss)
    return Verdict(v.band, v.winner, v.margin, v.shift, v.rows, taken)


def verdict(rules: RulesData, a: Play, b: Play, sa: int, sb: int) -> Verdict:
    """`judge` with every mitigation applied: the one entry point resolution and planner use."""
    return with_delay(judge(rules, a, b, sa, sb), a, b, sa, sb)
