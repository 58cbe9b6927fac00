"""Chinese Diplomacy (seed 003): faction sizes, the economy, entry spaces, the die table."""

from __future__ import annotations

import pytest

from adjudication import adjudicate, load
from adjudication.board import Unit
from variants.rules import chinese

# The seed's Tau Ceti table (years 1901-1950): Imperial, Kuomintang, Communist armies.
# "6+" from 1929 means "adjusted to their centres", so those years are checked separately.
TAU_CETI = {
    **{y: (17, 0, 0) for y in range(1901, 1911)},
    1911: (0, 1, 0), 1912: (0, 1, 0), 1913: (0, 1, 0), 1914: (0, 2, 0), 1915: (0, 2, 0),
    1916: (0, 2, 0), 1917: (0, 3, 0), 1918: (0, 3, 0), 1919: (0, 3, 0), 1920: (0, 4, 0),
    1921: (0, 4, 0), 1922: (0, 4, 0), 1923: (0, 5, 0), 1924: (0, 5, 0), 1925: (0, 5, 0),
    1926: (0, 6, 0), 1927: (0, 6, 1), 1928: (0, 6, 1),
}  # fmt: skip
COMMUNISTS_FROM_1929 = [
    2,
    3,
    4,
    4,
    5,
    6,
    7,
    7,
    8,
    9,
    10,
    11,
    11,
    12,
    13,
    14,
    14,
    15,
    16,
    17,
    17,
    18,
]


def test_tau_ceti_table_from_the_formulas():
    for year, (imperials, kuomintang, communists) in TAU_CETI.items():
        assert chinese.imperial_armies(year, 17) == imperials, year
        assert chinese.kuomintang_armies(year, 0) == kuomintang, year
        assert chinese.communist_armies(year) == communists, year
    for year, expected in zip(range(1929, 1951), COMMUNISTS_FROM_1929, strict=True):
        assert chinese.communist_armies(year) == expected, year


def test_kuomintang_follow_their_centres_from_1929():
    assert chinese.kuomintang_armies(1929, 9) == 9
    assert chinese.kuomintang_armies(1950, 2) == 2
    assert chinese.imperial_armies(1905, 11) == 11  # shrink to the centres they still hold


def request(units, orders=(), year=1900, **extra):
    body = {
        "variant": "chinese",
        "phase": {"season": "year", "year": year, "type": "movement"},
        "units": [{"power": p, "unit": "A", "location": loc} for p, loc in units],
        "orders": [{"power": p, "order": o} for p, o in orders],
        "random_seed": 11,
        "faction_orders": [],
    }
    body.update(extra)
    return body


def ledger(response, power):
    return {e["item"]: e["amount"] for e in response["economy"]["ledger"] if e["power"] == power}


def test_entering_costs_entry_and_maintenance():
    r = adjudicate(request([], [("England", "Enter A Pacific Ocean")]))
    assert r["orders"][0]["result"] == "succeeds"
    assert {"power": "England", "unit": "A", "location": "Pacific Ocean"} in r["units"]
    assert ledger(r, "England") == {"maintenance": -10, "entry": -5}
    assert r["economy"]["balances"]["England"] == -15


def test_leaving_costs_exit_and_the_years_maintenance():
    r = adjudicate(request([("Japan", "Pacific Ocean")], [("Japan", "A Pacific Ocean Leave")]))
    assert r["orders"][0]["result"] == "succeeds"
    assert not [u for u in r["units"] if u["power"] == "Japan"]
    assert ledger(r, "Japan") == {"maintenance": -10, "exit": -5}


def test_each_leave_takes_one_army_off_and_is_charged_once():
    """Seed 003 (3): armies move off the board from an entry space at 5 k oz each. An entry
    space holds several of a power's armies: one Leave took every one of them off (those
    moving out, supporting or bounced back too) and charged one exit for all."""
    ocean = "Pacific Ocean"
    armies = [("England", ocean)] * 3
    orders = [
        ("England", f"A {ocean} - Shamtung"),
        ("England", f"A {ocean} S England A {ocean} - Shamtung"),
        ("England", f"A {ocean} Leave"),
    ]
    r = adjudicate(request(armies, orders))
    assert [o["result"] for o in r["orders"]] == ["succeeds"] * 3
    assert sorted(u["location"] for u in r["units"] if u["power"] == "England") == [
        ocean,
        "Shamtung",
    ]
    assert ledger(r, "England") == {"maintenance": -30, "exit": -5}
    r = adjudicate(request(armies, [("England", f"A {ocean} Leave")] * 3))
    assert not [u for u in r["units"] if u["power"] == "England"]
    assert ledger(r, "England") == {"maintenance": -30, "exit": -15}
    assert r["economy"]["balances"]["England"] == -45
    r = adjudicate(request(armies[:2], [("England", f"A {ocean} Leave")]))
    assert [u["location"] for u in r["units"] if u["power"] == "England"] == [ocean]


def test_centre_pays_in_the_year_of_exit_not_of_entrance():
    units = [("France", "Yunan"), ("France", "Indo-China")]
    orders = [("France", "A Yunan - Szechan"), ("France", "A Indo-China - Kwangsi")]
    r = adjudicate(request(units, orders))
    # Held Yunan at the start (paid, though it left); took Szechan and Kwangsi (not paid yet).
    assert ledger(r, "France") == {"profit": 20, "maintenance": -20}
    assert set(r["supply_centers"]["France"]) == {"Szechan", "Kwangsi"}
    # Possession is lost when the army leaves.
    assert "Yunan" not in r["supply_centers"]["France"]
    after = adjudicate(
        request(
            [("France", "Szechan"), ("France", "Kwangsi")],
            year=1901,
            supply_centers=r["supply_centers"],
        )
    )
    assert ledger(after, "France")["profit"] == 40


def test_payments_and_balances_carry_over():
    r = adjudicate(
        request(
            [],
            economy={
                "balances": {"England": 100, "Russia": 3},
                "payments": [{"from": "England", "to": "Russia", "amount": 30}],
            },
        )
    )
    assert r["economy"]["balances"]["England"] == 70
    assert r["economy"]["balances"]["Russia"] == 33
    assert r["economy"]["payments"] == [{"from": "England", "to": "Russia", "amount": 30}]


def test_a_net_loss_over_1000_deposes_and_the_new_leader_starts_at_zero():
    r = adjudicate(
        request(
            [("Germany", "Pacific Ocean")],
            economy={"balances": {"Germany": -995, "Japan": -1000}},
        )
    )
    assert r["economy"]["deposed"] == ["Germany"]
    assert r["economy"]["balances"]["Germany"] == 0
    assert r["economy"]["balances"]["Japan"] == -1000  # exactly 1000 is not "more than"


def test_annihilation_costs_50():
    # The Russian army in Kirin is dislodged with nowhere to go: Gungkiang, Idaopeh and
    # Lioning are held and Siberia is where the attack came from.
    units = [
        ("Russia", "Kirin"),
        ("Japan", "Lioning"),
        ("Japan", "Idaopeh"),
        ("Japan", "Gungkiang"),
        ("Russia", "Siberia"),
    ]
    orders = [("Japan", "A Lioning - Kirin"), ("Japan", "A Idaopeh S A Lioning - Kirin")]
    r = adjudicate(request(units, orders))
    gone = [d for d in r["dislodged"] if d["power"] == "Russia"]
    assert gone and gone[0]["retreated_to"] in (None, "Siberia")
    if gone[0]["retreated_to"] is None:
        assert ledger(r, "Russia")["annihilation"] == -50


def test_entry_spaces_belong_to_their_powers():
    r = adjudicate(
        request(
            [("Russia", "Gungkiang"), ("England", "Yunan"), ("Imperials", "Kwangsi")],
            [
                ("Russia", "Enter A Pacific Ocean"),
                ("England", "Enter A Siberia"),
                ("Russia", "A Gungkiang - Siberia"),
                ("England", "A Yunan - Indo-China"),
                ("Imperials", "A Kwangsi - Indo-China"),
            ],
            faction_orders=None,
        )
    )
    results = {o["order"]: o["result"] for o in r["orders"]}
    assert results["Enter A Pacific Ocean"] == "invalid"
    assert results["Enter A Siberia"] == "invalid"
    assert results["A Gungkiang - Siberia"] == "succeeds"
    assert results["A Yunan - Indo-China"] == "succeeds"
    assert results.get("A Kwangsi - Indo-China", "invalid") == "invalid"


def test_options_offer_no_support_of_a_move_into_an_entry_space_its_army_may_not_use():
    """The options leave out supports of moves the supported unit could not make: a Chinese
    army never enters an entry space, nor Russia the Pacific Ocean, nor Japan Siberia. They
    were listed (the check called them valid, waiting for a move that is always refused)."""
    from adjudication import options

    units = [
        ("Japan", "Shamtung"),
        ("Russia", "Kiangsu"),
        ("Kuomintang", "Chekiang"),
        ("Japan", "Mongolia"),
        ("France", "Sinkiang"),
    ]
    listed = [o["order"] for o in options(request(units), "Japan")["orders"]]
    assert "A Shamtung - Pacific Ocean" in listed
    assert "A Shamtung S A Kiangsu - Pacific Ocean" not in listed  # Russia
    assert "A Shamtung S A Chekiang - Pacific Ocean" not in listed  # the Kuomintang
    assert "A Mongolia S A Sinkiang - Siberia" not in listed  # France
    france = [o["order"] for o in options(request(units), "France")["orders"]]
    assert "A Sinkiang S A Mongolia - Siberia" not in france  # Japan
    russia = [o["order"] for o in options(request(units), "Russia")["orders"]]
    assert "A Kiangsu S A Shamtung - Pacific Ocean" in russia  # Japan may go there


def test_entry_spaces_hold_any_number_and_never_cut_support():
    units = [("Japan", "Pacific Ocean"), ("England", "Pacific Ocean"), ("Germany", "Kiangsu")]
    units += [("Imperials", "Shamtung"), ("United States", "Hopeh")]
    orders = [
        ("Germany", "A Kiangsu - Shamtung"),
        ("Japan", "A Pacific Ocean S A Kiangsu - Shamtung"),
        ("United States", "A Hopeh - Pacific Ocean"),
        ("France", "Enter A Pacific Ocean"),
    ]
    r = adjudicate(request(units, orders))
    results = {o["order"]: o["result"] for o in r["orders"]}
    assert results["A Hopeh - Pacific Ocean"] == "succeeds"
    assert results["A Pacific Ocean S A Kiangsu - Shamtung"] == "succeeds"  # not cut
    assert results["A Kiangsu - Shamtung"] == "succeeds"
    in_ocean = sorted(u["power"] for u in r["units"] if u["location"] == "Pacific Ocean")
    assert in_ocean == ["England", "France", "Japan", "United States"]
    assert [d["power"] for d in r["dislodged"]] == ["Imperials"]


def test_full_names_only():
    r = adjudicate(request([("Japan", "Hopeh")], [("Japan", "A HOP - SHA")]))
    assert r["orders"][0]["result"] == "invalid"
    r = adjudicate(request([("Japan", "Hopeh")], [("Japan", "A Hopeh - Shansi")]))
    assert r["orders"][0]["result"] == "succeeds"
    r = adjudicate(request([("JAP", "Hopeh")]))
    assert "error" in r


class Fixed(chinese.Year):
    """A generator whose die always shows the same face."""

    def __init__(self, face: int) -> None:
        super().__init__(0, 1900, "test")
        self.face = face

    def die(self) -> int:
        return self.face


@pytest.mark.parametrize(
    "face, expected",
    [(1, "Sta"), (4, "Mov"), (5, "Mov"), (6, "Mov"), (7, "Att"), (9, "Sup"), (10, "Sup")],
)
def test_imperial_column_with_a_foreign_army_two_spaces_away(face, expected):
    variant = load("chinese")
    # Hopeh's neighbour Shansi is empty; Shensi (two away) holds a foreign army: no modifier.
    units = [Unit("Imperials", "A", "Hopeh", "Hopeh"), Unit("Japan", "A", "Shensi", "Shensi")]
    assert chinese._action(variant, units[0], {u.province: u for u in units}, Fixed(face)) == (
        expected
    )


def test_die_modifiers():
    variant = load("chinese")
    alone = Unit("Communists", "A", "Tibet", "Tibet")
    at = {"Tibet": alone}
    # Nobody within two spaces: -1, so a 5 (Att) reads as a 4 (Mov).
    assert chinese._action(variant, alone, at, Fixed(5)) == "Mov"
    # A foreign army and an opposing faction adjacent: +2, so a 10 reads as 12 (A&S).
    at["Sikang"] = Unit("England", "A", "Sikang", "Sikang")
    at["Yunan"] = Unit("Kuomintang", "A", "Yunan", "Yunan")
    assert chinese._action(variant, alone, at, Fixed(10)) == "A&S"


def test_factions_never_attack_their_own_and_never_enter_entry_spaces():
    variant = load("chinese")
    units = [Unit("Kuomintang", "A", p, p) for p in ("Hopeh", "Shansi", "Honan", "Shamtung")]
    units.append(Unit("Kuomintang", "A", "Lioning", "Lioning"))
    for seed in range(30):
        for _, text, _ in chinese.faction_orders(variant, units, chinese.Year(seed, 1920, "o")):
            assert "Pacific Ocean" not in text
            if " - " in text and " S " not in text:
                dest = text.split(" - ")[1]
                assert dest not in {u.province for u in units}, text


def test_seeded_replay_is_identical_and_the_seed_matters():
    base = [dict(u) for u in load("chinese").starting_units]
    body = {
        "variant": "chinese",
        "phase": {"season": "year", "year": 1900, "type": "movement"},
        "units": base,
        "orders": [{"power": "England", "order": "Enter A Pacific Ocean"}],
        "random_seed": 1234,
    }
    first, second = adjudicate(body), adjudicate(dict(body))
    assert first == second
    assert first["draws"]["orders"]
    other = adjudicate({**body, "random_seed": 99})
    assert other["orders"] != first["orders"] or other["units"] != first["units"]


def test_a_year_advances_to_the_next_and_publishes_faction_orders():
    base = [dict(u) for u in load("chinese").starting_units]
    r = adjudicate(
        {
            "variant": "chinese",
            "phase": {"season": "year", "year": 1910, "type": "movement"},
            "units": base,
            "orders": [],
            "random_seed": 5,
        }
    )
    assert r["next_phase"] == {"season": "year", "year": 1911, "type": "movement"}
    # 1911: the Imperials are removed and the first Kuomintang army is built.
    powers = {u["power"] for u in r["units"]}
    assert "Imperials" not in powers
    assert sum(1 for u in r["units"] if u["power"] == "Kuomintang") == 1
    # Gone, they hold no centre either (they kept all 16 left, for ever).
    assert not r["supply_centers"]["Imperials"]
    assert r["supply_centers"]["Kuomintang"]
    published = {o["power"]: o["published"] for o in r["factions"]["next_orders"]}
    assert set(published) == {"Kuomintang"}


# The seed's table, rows 1..12, per faction.
TABLE = {
    "Communists": [
        "Sta",
        "Sta",
        "Sta",
        "Mov",
        "Att",
        "Att",
        "Att",
        "Sup",
        "Sup",
        "Sup",
        "A&S",
        "A&S",
    ],
    "Kuomintang": [
        "Sta",
        "Sta",
        "Sta",
        "Mov",
        "Mov",
        "Att",
        "Att",
        "Att",
        "Sup",
        "Sup",
        "Sup",
        "Att",
    ],
    "Imperials": [
        "Sta",
        "Sta",
        "Sta",
        "Mov",
        "Mov",
        "Mov",
        "Att",
        "Att",
        "Sup",
        "Sup",
        "Sup",
        "Att",
    ],
}


@pytest.mark.parametrize("faction", sorted(TABLE))
@pytest.mark.parametrize("face", range(1, 11))
def test_every_row_of_the_die_table_without_modifiers(faction, face):
    variant = load("chinese")
    # A foreign army two spaces away (no +1, no -1): the die reads as thrown.
    army = Unit(faction, "A", "Hopeh", "Hopeh")
    at = {"Hopeh": army, "Shensi": Unit("Japan", "A", "Shensi", "Shensi")}
    assert chinese._action(variant, army, at, Fixed(face)) == TABLE[faction][face - 1]


@pytest.mark.parametrize("faction", sorted(TABLE))
def test_rows_11_and_12_need_the_modifiers(faction):
    variant = load("chinese")
    army = Unit(faction, "A", "Hopeh", "Hopeh")
    other = "Kuomintang" if faction != "Kuomintang" else "Communists"
    at = {"Hopeh": army, "Shansi": Unit("Japan", "A", "Shansi", "Shansi")}
    assert chinese._action(variant, army, at, Fixed(10)) == TABLE[faction][10]  # +1: row 11
    at["Honan"] = Unit(other, "A", "Honan", "Honan")
    assert chinese._action(variant, army, at, Fixed(10)) == TABLE[faction][11]  # +2: row 12


def test_the_notes_of_the_table():
    variant = load("chinese")
    # Att with no adjacent army is taken as Mov.
    alone = Unit("Imperials", "A", "Tibet", "Tibet")
    orders = chinese.faction_orders(variant, [alone], Fixed(8))  # 8 - 1 = 7: Att
    assert orders[0][1].startswith("A Tibet - ")
    # Mov with every neighbour occupied is taken as Att (on a foreign army, never its own).
    centre = Unit("Kuomintang", "A", "Kweichow", "Kweichow")
    ring = [Unit("Japan", "A", p, p) for p in variant.army_adj["Kweichow"]]
    orders = chinese.faction_orders(variant, [centre, *ring], Fixed(4))  # +1: 5 = Mov
    assert orders[0][1].split(" - ")[1] in variant.army_adj["Kweichow"]
    # Chinese armies support any army, a foreign one included.
    helper = Unit("Imperials", "A", "Shansi", "Shansi")
    foreign = Unit("Japan", "A", "Hopeh", "Hopeh")
    supports = chinese.faction_orders(variant, [helper, foreign], Fixed(8))  # +1: 9 = Sup
    assert supports[0][1] == "A Shansi S A Hopeh"


def test_the_game_ends_in_1950_and_the_richest_wins():
    r = adjudicate(request([], year=1950, economy={"balances": {"England": 300, "Japan": 120}}))
    assert r["winner"] == "England"
    r = adjudicate(request([], year=1920, economy={"balances": {"England": 300}}))
    assert r["winner"] is None
    assert "game_over" not in r and r["factions"]["next_orders"]


def test_a_tie_in_1950_ends_the_game_shared_by_the_richest():
    """The game ends in 1950 whatever the balances: a tie at the top is a draw among the
    richest (``game_over`` and ``winners``), and no orders are planned for 1951."""
    from adjudication.following import next_request

    balances = {"England": 300, "Japan": 300, "France": 10}
    body = request([], year=1950, economy={"balances": balances})
    r = adjudicate(body)
    assert r["winner"] is None
    assert r["game_over"] is True
    assert r["winners"] == ["England", "Japan"]
    assert r["factions"]["next_orders"] == []
    assert next_request(body, r) is None


def test_a_leader_deposed_in_1950_keeps_the_loss_and_does_not_win():
    """Seed 003, rules 2 and 6: the largest profit wins; a leader more than 1,000 in the red
    is deposed and a new player would start at zero. In the last year no new player comes:
    the power ends with the loss it made, and never wins by it. Found through the server: a
    power bankrupt in 1950 was put back at zero and won a game where every other power ran
    at a loss."""
    balances = {"England": -995, "France": -990, "Germany": -480, "Russia": -400}
    balances |= {"Japan": -74, "United States": -759}
    units = [("France", "Pacific Ocean"), ("France", "Indo-China")]
    r = adjudicate(request(units, year=1950, economy={"balances": balances}))
    assert r["economy"]["deposed"] == ["France"]
    assert r["economy"]["balances"]["France"] == -1010  # 20 for two armies: not reset to 0
    assert r["game_over"] is True and r["winner"] == "Japan"
    assert "deposed" not in ledger(r, "France")
    # Every ledger line is in the balance, the last year's too.
    for power, gold in r["economy"]["balances"].items():
        start = balances[power]
        lines = sum(e["amount"] for e in r["economy"]["ledger"] if e["power"] == power)
        assert gold == start + lines
    # Before the last year the new leader starts at zero, as ever.
    r = adjudicate(request(units, year=1920, economy={"balances": balances}))
    assert r["economy"]["deposed"] == ["France"] and r["economy"]["balances"]["France"] == 0


def test_no_year_follows_1950():
    """Seed 003, rule 7: the game ends in 1950. The engine names no next phase after it (no
    1951 to open), and a request for a later year is refused, never judged."""
    r = adjudicate(request([], year=1950, economy={"balances": {"England": 300}}))
    assert r["winner"] == "England" and r["game_over"] is True
    assert r["next_phase"] is None
    assert adjudicate(request([], year=1920))["next_phase"]["year"] == 1921
    refused = adjudicate(request([], year=1951))
    assert "error" in refused and "1951" not in refused["error"]
    assert refused["details"] == [
        {"field": "phase.year", "problem": "is after 1950, when the game ended"}
    ]


@pytest.mark.parametrize(
    ("season", "kind"),
    [
        ("year", "retreats"),
        ("year", "adjustments"),
        ("winter", "adjustments"),
        ("winter", "movement"),
    ],
)
def test_impossible_phase_pairs_are_refused(season, kind):
    body = request([])
    body["phase"] = {"season": season, "year": 1905, "type": kind}
    r = adjudicate(body)
    if season == "winter":  # no season of this variant (its seasons said it was)
        assert r["error"] == "unknown season 'winter'; this variant has year", r
        return
    assert "phase" in r["error"] or "winter" in r["error"], r
    assert kind in r["error"] or "adjustments" in r["error"]


@pytest.mark.parametrize(
    ("variant", "season", "kind", "words"),
    [
        ("standard", "spring", "adjustments", "adjustments come in winter"),
        ("colonial", "fall", "adjustments", "adjustments come in winter"),
        ("far-east", "winter", "movement", "winter holds only adjustments"),
        ("standard", "winter", "retreats", "winter holds only adjustments"),
    ],
)
def test_impossible_phase_pairs_are_refused_on_every_map(variant, season, kind, words):
    body = {"variant": variant, "phase": {"season": season, "year": 1901, "type": kind}}
    assert words in adjudicate(body)["error"]


def _japan_everywhere(balance: int) -> dict:
    """Year 1910, a Japanese army in each of the 17 centres: the first Kuomintang army of 1911
    is built in one of them, whichever chit is drawn, and annihilates the Japanese army there."""
    centres = [p for p, info in load("chinese").provinces.items() if info.supply_center]
    assert len(centres) == 17
    return adjudicate(
        request(
            [("Japan", c) for c in centres],
            year=1910,
            supply_centers={"Japan": centres},
            economy={"balances": {"Japan": balance}},
        )
    )


def test_annihilation_by_a_faction_build_is_in_the_balance():
    r = _japan_everywhere(0)
    built = [e for e in r["factions"]["events"] if e["event"] == "built"]
    assert [e["faction"] for e in built] == ["Kuomintang"]
    lines = [e for e in r["economy"]["ledger"] if e["power"] == "Japan"]
    detail = f"army in {built[0]['location']} annihilated by the Kuomintang"
    assert {"power": "Japan", "item": "annihilation", "amount": -50, "detail": detail} in lines
    # 17 centres held (+340), 17 armies kept (-170), one annihilated by the build (-50).
    assert r["economy"]["balances"]["Japan"] == 120
    # Every ledger line is in the balance, for every power.
    for power, gold in r["economy"]["balances"].items():
        assert gold == sum(e["amount"] for e in r["economy"]["ledger"] if e["power"] == power)


def test_the_statement_counts_in_words_not_in_brackets():
    """An adversary's finding: the statement read "2 army(ies) on the board this year"."""
    lines = [e for e in _japan_everywhere(0)["economy"]["ledger"] if e["power"] == "Japan"]
    details = {e["item"]: e["detail"] for e in lines}
    assert details["profit"] == "17 centres held at the start of the year"
    assert details["maintenance"] == "17 armies on the board this year"
    assert not [e for e in lines if "(s)" in e["detail"] or "(ies)" in e["detail"]]
    one = adjudicate(request([], [("England", "Enter A Pacific Ocean")]))
    england = {e["item"]: e["detail"] for e in one["economy"]["ledger"] if e["power"] == "England"}
    assert england == {"maintenance": "1 army on the board this year", "entry": "1 army brought on"}


def test_annihilation_by_a_faction_build_counts_towards_deposition():
    # -1150 + 120 = -1030: deposed; without the annihilation it would be -980, and not.
    r = _japan_everywhere(-1150)
    assert r["economy"]["deposed"] == ["Japan"]
    assert r["economy"]["balances"]["Japan"] == 0


def test_a_second_order_for_the_one_army_in_an_entry_space_names_an_army():
    leave, move = "A Pacific Ocean Leave", "A Pacific Ocean - Kwangtung"
    for orders in ([leave, move], [move, leave]):
        r = adjudicate(request([("England", "Pacific Ocean")], [("England", o) for o in orders]))
        assert [o["result"] for o in r["orders"]][1] == "invalid", r["orders"]
        assert r["orders"][1]["reason"] == (
            "England has only one army in Pacific Ocean, and an earlier order commands it"
        )


def test_orders_beyond_an_entry_spaces_armies_are_the_last_written_whatever_their_kinds():
    """Two armies in the Pacific and three orders for them: the one refused was the one of a
    kind given its army last (a Leave went first, then numbered orders, then the rest), so
    ``move, support, Leave`` refused the support. Now it is the last one written, in every
    order of every kind, and the reason says how many armies there are."""
    from itertools import permutations

    ocean = "Pacific Ocean"
    kinds = [
        f"A {ocean} - Shamtung",
        f"A {ocean} S England A {ocean} - Shamtung",
        f"A {ocean} Leave",
        f"A {ocean} H",
        f"A2 {ocean} - Kiangsu",
    ]
    for written in permutations(kinds, 3):
        r = adjudicate(request([("England", ocean)] * 2, [("England", o) for o in written]))
        results = [o["result"] for o in r["orders"]]
        assert "invalid" not in results[:2] and results[2] == "invalid", (written, r["orders"])
        assert r["orders"][2]["reason"] == (
            "England has only 2 armies in Pacific Ocean, and earlier orders command them all"
        )


@pytest.mark.parametrize("leave", ["A Pacific Ocean Leave", "A2 Pacific Ocean Leave"])
@pytest.mark.parametrize("first", [True, False])
def test_a_leave_takes_no_army_a_numbered_order_names(leave, first):
    """Found by an adversary: ``A1 Pacific Ocean - Chekiang`` with a Leave for the other army
    was refused ("A1 Pacific Ocean already has an order"), listed before it or after: the
    Leave had dropped its number and was given army 1 before any numbered order."""
    move = "A1 Pacific Ocean - Chekiang"
    orders = [move, leave] if first else [leave, move]
    r = adjudicate(request([("Japan", "Pacific Ocean")] * 2, [("Japan", o) for o in orders]))
    assert [o["result"] for o in r["orders"]] == ["succeeds", "succeeds"], r["orders"]
    assert [u["location"] for u in r["units"] if u["power"] == "Japan"] == ["Chekiang"]
    assert leave in [o["canonical"] for o in r["orders"]]  # the number kept, as typed


def test_a_numbered_leave_is_one_of_the_orders_that_name_its_army():
    """``A2 ... Leave`` names army 2: a second order for army 2 is refused, whichever kind is
    listed second, and a number no army has is refused."""
    two = [("Japan", "Pacific Ocean")] * 2
    for orders in (
        ["A2 Pacific Ocean Leave", "A2 Pacific Ocean - Chekiang"],
        ["A2 Pacific Ocean - Chekiang", "A2 Pacific Ocean Leave"],
    ):
        r = adjudicate(request(two, [("Japan", o) for o in orders]))
        assert [o["result"] for o in r["orders"]][1] == "invalid", r["orders"]
        assert r["orders"][1]["reason"] == "A2 Pacific Ocean already has an order"
    r = adjudicate(request(two, [("Japan", "A3 Pacific Ocean Leave")]))
    assert r["orders"][0]["result"] == "invalid"
    assert "there is no number 3" in r["orders"][0]["reason"]
    r = adjudicate(
        request(two, [("Japan", "Leave A1 Pacific Ocean"), ("Japan", "Army2 Pacific Ocean Leave")])
    )
    assert [o["canonical"] for o in r["orders"]] == [
        "A1 Pacific Ocean Leave",
        "A2 Pacific Ocean Leave",
    ]
    assert not [u for u in r["units"] if u["power"] == "Japan"]


def test_an_order_refused_for_its_own_reason_takes_no_army_of_an_entry_space():
    """Three orders for two armies, the first one the map refuses: it keeps its own reason,
    and the two after it have the two armies."""
    ocean = "Pacific Ocean"
    orders = [f"A {ocean} - Tibet", f"A {ocean} H", f"A {ocean} Leave"]
    r = adjudicate(request([("England", ocean)] * 2, [("England", o) for o in orders]))
    assert [o["result"] for o in r["orders"]][1:] == ["succeeds", "succeeds"], r["orders"]
    assert r["orders"][0]["result"] == "invalid"
    assert "only" not in r["orders"][0]["reason"]


def test_a_faction_with_several_armies_in_an_entry_space_loses_them_one_at_a_time():
    """Two Communist armies in the Pacific Ocean (an entry space holds any number) before the
    Communists have any: each removal takes one army, drawn as the rules draw removals. It
    once took both at the first draw, then had none left to draw from for the second."""
    army = {"power": chinese.COMMUNISTS, "unit": "A", "location": "Pacific Ocean"}
    request = {
        "variant": "chinese",
        "phase": {"season": "year", "year": 1900, "type": "movement"},
        "units": [army, dict(army)],
        "orders": [],
    }
    answer = adjudicate(request)
    assert "error" not in answer, answer
    assert not [u for u in answer["units"] if u["power"] == chinese.COMMUNISTS]
    removed = [e for e in answer["factions"]["events"] if e["event"] == "removed"]
    assert (
        removed
        == [{"faction": chinese.COMMUNISTS, "event": "removed", "location": "Pacific Ocean"}] * 2
    )
    request["phase"]["year"] = 1930  # the Communists may have more by then: both stay
    kept = [u for u in adjudicate(request)["units"] if u == army]
    assert len(kept) == 2


def test_a_convoyed_move_is_refused_for_want_of_fleets_not_of_a_coast():
    """Found by an adversary: "A Hopeh - Shamtung via convoy" was refused as Hopeh having no
    coast, though it borders the Pacific Ocean: the variant has no fleet to carry it."""
    from adjudication import check

    variant = load("chinese")
    request = {
        "variant": "chinese",
        "phase": {"season": "year", "year": 1900, "type": "movement"},
        "units": [dict(u) for u in variant.starting_units],
        "orders": [{"power": "Imperials", "order": "A Hopeh - Shamtung via convoy"}],
    }
    answer = check(request)["orders"][0]
    assert answer["result"] == "invalid"
    assert answer["reason"] == "Chinese Diplomacy has no fleets, so no army is convoyed"
