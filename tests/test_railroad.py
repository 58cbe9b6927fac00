"""Issue #13 items 2-5 and issue #14 item 2 (validation in context), through the engine's entry
points only (``adjudication.adjudicate`` and ``adjudication.check``).

Railroad rule followed (issue #13 item 3, from seed 000 rule 8): the railroad army never
bounces, and is never bounced by, a Russian unit, whether it holds on the line, moves along it
either way or moves onto it. When it must stop short it stops on the last space before the
block that is empty at the end of the turn: a space a Russian unit stays in or moves into is
not empty, one it leaves is. Foreign units keep every effect they had.
"""

from __future__ import annotations

import itertools

import pytest

try:
    from tests.colonial_cases import judge, order_entry, request, unit_entry
except ImportError:  # tests/ is not a package: pytest put tests/ on sys.path
    from colonial_cases import judge, order_entry, request, unit_entry

from adjudication import adjudicate, check

TSR_MOS_IRK = "A Moscow - Irkutsk via TSR"


# =============================================================================================
# Item 3: Russian units never bounce the railroad army, and are never bounced by it
# =============================================================================================

VLA = "A Moscow - Vladivostok via TSR"


def outcome(result: str, at: str | None = None, mention: str = "") -> tuple:
    """What one order must come to: its result, where a railroad army stopped, and words
    its reason must contain."""
    return result, at, mention


# name -> (units, orders, {order: outcome}, units after, contested)
RAILROAD_CASES = {
    "E1": (
        ["Russia A Moscow", "Russia A Krasnoyarsk"],
        [f"Russia: {TSR_MOS_IRK}", "Russia: A Krasnoyarsk - Omsk"],
        {TSR_MOS_IRK: outcome("succeeds"), "A Krasnoyarsk - Omsk": outcome("succeeds")},
        {"Russia A Irkutsk", "Russia A Omsk"},
        [],
    ),
    "E2": (
        ["Russia A Moscow", "Russia A Semipalatinsk"],
        [f"Russia: {TSR_MOS_IRK}", "Russia: A Semipalatinsk - Krasnoyarsk"],
        {TSR_MOS_IRK: outcome("succeeds"), "A Semipalatinsk - Krasnoyarsk": outcome("succeeds")},
        {"Russia A Irkutsk", "Russia A Krasnoyarsk"},
        [],
    ),
    "E3": (
        ["Russia A Moscow", "Russia A Akmolinsk", "China A Irkutsk"],
        [f"Russia: {TSR_MOS_IRK}", "Russia: A Akmolinsk - Krasnoyarsk", "China: A Irkutsk H"],
        {
            TSR_MOS_IRK: outcome("stopped", "Omsk", "Irkutsk"),
            "A Akmolinsk - Krasnoyarsk": outcome("succeeds"),
        },
        {"Russia A Omsk", "Russia A Krasnoyarsk", "China A Irkutsk"},
        [],
    ),
    "E4": (
        ["Russia A Moscow", "Russia A Krasnoyarsk", "China A Irkutsk"],
        [f"Russia: {TSR_MOS_IRK}", "Russia: A Krasnoyarsk - Mongolia", "China: A Irkutsk H"],
        {
            TSR_MOS_IRK: outcome("stopped", "Krasnoyarsk", "Irkutsk"),
            "A Krasnoyarsk - Mongolia": outcome("succeeds"),
        },
        {"Russia A Krasnoyarsk", "Russia A Mongolia", "China A Irkutsk"},
        [],
    ),
    "E5": (
        ["Russia A Moscow", "Russia A Perm"],
        ["Russia: A Moscow - Krasnoyarsk via TSR", "Russia: A Perm - Omsk"],
        {
            "A Moscow - Krasnoyarsk via TSR": outcome("succeeds"),
            "A Perm - Omsk": outcome("succeeds"),
        },
        {"Russia A Krasnoyarsk", "Russia A Omsk"},
        [],
    ),
    # A Russian unit moving onto the destination takes it; the army stops on the last empty
    # space before it.
    "russian-takes-destination": (
        ["Russia A Moscow", "Russia A Mongolia"],
        [f"Russia: {TSR_MOS_IRK}", "Russia: A Mongolia - Irkutsk"],
        {
            TSR_MOS_IRK: outcome("stopped", "Krasnoyarsk", "Irkutsk is taken by Russia's"),
            "A Mongolia - Irkutsk": outcome("succeeds"),
        },
        {"Russia A Krasnoyarsk", "Russia A Irkutsk"},
        [],
    ),
    # A Russian army moving along the line the other way crosses the railroad army.
    "russian-crosses": (
        ["Russia A Moscow", "Russia A Irkutsk"],
        [f"Russia: {VLA}", "Russia: A Irkutsk - Krasnoyarsk"],
        {VLA: outcome("succeeds"), "A Irkutsk - Krasnoyarsk": outcome("succeeds")},
        {"Russia A Vladivostok", "Russia A Krasnoyarsk"},
        [],
    ),
    # Foreign units keep their effect and no more: China, beaten into Krasnoyarsk by a
    # supported Russian army (not by the railroad army), does not block; the army passes the
    # space (not empty: it cannot stop there) and reaches Irkutsk.
    "foreign-beaten-by-russian": (
        ["Russia A Moscow", "Russia A Akmolinsk", "Russia A Semipalatinsk", "China A Mongolia"],
        [
            f"Russia: {TSR_MOS_IRK}",
            "Russia: A Akmolinsk - Krasnoyarsk",
            "Russia: A Semipalatinsk S A Akmolinsk - Krasnoyarsk",
            "China: A Mongolia - Krasnoyarsk",
        ],
        {
            TSR_MOS_IRK: outcome("succeeds"),
            "A Akmolinsk - Krasnoyarsk": outcome("succeeds"),
            "A Mongolia - Krasnoyarsk": outcome("fails", None, "bounced with A Akmolinsk"),
        },
        {"Russia A Irkutsk", "Russia A Krasnoyarsk", "Russia A Semipalatinsk", "China A Mongolia"},
        [],
    ),
    # China entering Krasnoyarsk alone is bounced by the railroad army (it keeps that effect);
    # the army stops before Krasnoyarsk, but not in Omsk, which a Russian army enters: Perm.
    "foreign-standoff-russian-queue": (
        ["Russia A Moscow", "Russia A Akmolinsk", "China A Mongolia"],
        [f"Russia: {VLA}", "Russia: A Akmolinsk - Omsk", "China: A Mongolia - Krasnoyarsk"],
        {
            VLA: outcome("stopped", "Perm", "stood off with China's A Mongolia at Krasnoyarsk"),
            "A Akmolinsk - Omsk": outcome("succeeds"),
            "A Mongolia - Krasnoyarsk": outcome("fails", None, "railroad"),
        },
        {"Russia A Perm", "Russia A Omsk", "China A Mongolia"},
        ["Krasnoyarsk"],
    ),
}


@pytest.mark.parametrize("case", list(RAILROAD_CASES))
def test_railroad_and_russian_units(case):
    """Issue #13 item 3: table E1-E5 ("right" column), and more around Russian units."""
    units, orders, expected, after, contested = RAILROAD_CASES[case]
    r = judge(units, orders)
    for order, (result, at, mention) in expected.items():
        reply = r.reply(order)
        assert reply["result"] == result, r.explain()
        assert reply.get("stopped_at") == at, r.explain()
        assert mention in reply.get("reason", ""), r.explain()
    assert r.units == after
    assert r.response["contested"] == contested


# =============================================================================================
# Item 4: supports for a railroad move, in any sequence and from any power
# =============================================================================================

ITEM4_UNITS = ["Russia A Moscow", "Britain A Orenburg", "China A Akmolinsk"]
ITEM4_ORDERS = [
    "Britain: A Orenburg S A Moscow - Omsk",
    "Russia: A Moscow - Omsk via TSR",
    "China: A Akmolinsk - Omsk",
]


@pytest.mark.parametrize("sequence", list(itertools.permutations(range(3))))
def test_issue13_item4_foreign_support_in_every_sequence(sequence):
    """Issue #13 item 4: Britain's support counts for Russia's railroad move whatever the
    order of the list: the army takes Omsk 2 to 1."""
    r = judge(ITEM4_UNITS, [ITEM4_ORDERS[n] for n in sequence])
    r.assert_succeeds("A Orenburg S A Moscow - Omsk")
    r.assert_succeeds("A Moscow - Omsk via TSR")
    r.assert_fails("A Akmolinsk - Omsk", mention="railroad")
    assert r.units == {"Russia A Omsk", "Britain A Orenburg", "China A Akmolinsk"}


@pytest.mark.parametrize("support_first", [True, False])
def test_support_for_a_move_the_railroad_does_not_make_is_void_not_invalid(support_first):
    """A support for a railroad move that Russia does not order is legal (the map allows the
    move) and simply has no effect, in either sequence."""
    orders = ["Britain: A Orenburg S A Moscow - Omsk", "Russia: A Moscow - Perm"]
    r = judge(["Russia A Moscow", "Britain A Orenburg"], orders if support_first else orders[::-1])
    assert r.result("A Orenburg S A Moscow - Omsk") == "succeeds"
    assert "no effect" in r.reason("A Orenburg S A Moscow - Omsk")
    assert r.units == {"Russia A Perm", "Britain A Orenburg"}


def test_support_for_a_railroad_move_of_a_non_russian_army_is_invalid():
    """The railroad carries only Russia's armies, so nobody may support a Chinese army
    along it: the map and position refuse that support."""
    r = judge(
        ["China A Moscow", "Britain A Orenburg"],
        ["Britain: A Orenburg S A Moscow - Omsk"],
    )
    r.assert_invalid("A Orenburg S A Moscow - Omsk", "could not move")


ORDER_SETS = {
    "E3": RAILROAD_CASES["E3"][:2],
    "item4": (ITEM4_UNITS, ITEM4_ORDERS),
    "queue": (
        ["Russia A Moscow", "Russia A Akmolinsk", "China A Mongolia", "Britain A Urumchi"],
        [
            "Russia: A Moscow - Vladivostok via TSR",
            "Russia: A Akmolinsk - Omsk",
            "China: A Mongolia - Krasnoyarsk",
            "Britain: A Urumchi S A Mongolia - Krasnoyarsk",
        ],
    ),
}


@pytest.mark.parametrize("name", sorted(ORDER_SETS))
def test_railroad_answers_do_not_depend_on_the_order_sequence(name):
    """Every permutation of the order list gives the same answer, order by order."""
    units, orders = ORDER_SETS[name]

    def answer(sequence):
        r = judge(units, list(sequence))
        replies = {(o["power"], o["order"]): o for o in r.response["orders"]}
        return replies, r.units, r.response["contested"]

    first = answer(orders)
    for sequence in itertools.permutations(orders):
        assert answer(sequence) == first, sequence


# =============================================================================================
# Item 5: reasons come from the decision that failed the move
# =============================================================================================


def test_reason_names_the_head_to_head_not_the_passing_railroad():
    """Issue #13 item 5: the railroad army passes on to Vladivostok; China is stopped by a
    head-to-head with Russia's A Krasnoyarsk, and the reason says so."""
    order = "A Moscow - Vladivostok via TSR"
    r = judge(
        ["Russia A Moscow", "Russia A Krasnoyarsk", "China A Mongolia"],
        [f"Russia: {order}", "Russia: A Krasnoyarsk - Mongolia", "China: A Mongolia - Krasnoyarsk"],
    )
    r.assert_succeeds(order)
    reason = r.reason("A Mongolia - Krasnoyarsk")
    assert "head-to-head" in reason and "A Krasnoyarsk" in reason, r.explain()
    assert "railroad" not in reason


def test_reason_names_the_unit_holding_not_the_passing_railroad():
    """Issue #13 item 5: China is stopped by the Russian unit holding in Krasnoyarsk."""
    order = "A Moscow - Vladivostok via TSR"
    r = judge(
        ["Russia A Moscow", "Russia A Krasnoyarsk", "China A Mongolia"],
        [f"Russia: {order}", "Russia: A Krasnoyarsk H", "China: A Mongolia - Krasnoyarsk"],
    )
    r.assert_succeeds(order)
    reason = r.reason("A Mongolia - Krasnoyarsk")
    assert reason.startswith("A Krasnoyarsk stays in Krasnoyarsk"), r.explain()


def test_reason_names_the_railroad_when_it_bounced_the_move():
    r = judge(
        ["Russia A Moscow", "China A Mongolia"],
        ["Russia: A Moscow - Vladivostok via TSR", "China: A Mongolia - Irkutsk"],
    )
    assert r.reason("A Mongolia - Irkutsk") == (
        "bounced with A Moscow (railroad) in Irkutsk (1 against 1)"
    ), r.explain()


def test_cut_support_names_the_unit_that_cut_it():
    r = judge(
        ["Britain A Orenburg", "Russia A Moscow", "China A Akmolinsk"],
        [
            "Britain: A Orenburg S A Moscow - Perm",
            "Russia: A Moscow - Perm",
            "China: A Akmolinsk - Orenburg",
        ],
    )
    r.assert_fails("A Orenburg S A Moscow - Perm", mention="support cut by A Akmolinsk")


# =============================================================================================
# Item 2: a support is not cut from the province it is directed at, whatever the coast
# =============================================================================================


# name -> (units, orders, {order: result}, dislodged units with where the attacker came from)
COAST_CASES = {
    # Issue #13 item 2: the support is not cut by the army it is aimed at.
    "aimed-at-province": (
        ["Austria A Moscow", "Germany A St Petersburg", "Russia F Barents Sea"],
        [
            "Austria: A Moscow S F Barents Sea - St Petersburg/nc",
            "Germany: A St Petersburg - Moscow",
            "Russia: F Barents Sea - St Petersburg/nc",
        ],
        {
            "A Moscow S F Barents Sea - St Petersburg/nc": "succeeds",
            "F Barents Sea - St Petersburg/nc": "succeeds",
            "A St Petersburg - Moscow": "fails",
        },
        {"St Petersburg": "Barents Sea"},
    ),
    # The exception is for the aimed-at province only: Livonia cuts the same support.
    "other-province": (
        [
            "Austria A Moscow",
            "Germany A Livonia",
            "Russia F Barents Sea",
            "Germany A St Petersburg",
        ],
        [
            "Austria: A Moscow S F Barents Sea - St Petersburg/nc",
            "Germany: A Livonia - Moscow",
            "Russia: F Barents Sea - St Petersburg/nc",
            "Germany: A St Petersburg H",
        ],
        {
            "A Moscow S F Barents Sea - St Petersburg/nc": "fails",
            "F Barents Sea - St Petersburg/nc": "fails",
        },
        {},
    ),
    # An army moves into the province, so a coast named in its support changes nothing.
    "army-move": (
        ["France A Gascony", "France F Mid-Atlantic Ocean", "Italy A Marseilles"],
        [
            "France: A Gascony - Spain",
            "France: F Mid-Atlantic Ocean S A Gascony - Spain/nc",
            "Italy: A Marseilles - Spain",
        ],
        {"A Gascony - Spain": "succeeds", "A Marseilles - Spain": "fails"},
        {},
    ),
}


@pytest.mark.parametrize("case", list(COAST_CASES))
def test_supports_naming_a_coast_on_the_standard_map(case):
    units, orders, expected, dislodged = COAST_CASES[case]
    response = adjudicate(
        {
            "variant": "standard",
            "phase": {"season": "spring", "year": 1901, "type": "movement"},
            "units": [unit_entry(u) for u in units],
            "orders": [order_entry(o) for o in orders],
        }
    )
    results = {o["order"]: o["result"] for o in response["orders"]}
    assert {order: results[order] for order in expected} == expected, response["orders"]
    assert {d["location"]: d["attacker_from"] for d in response["dislodged"]} == dislodged


# =============================================================================================
# Issue #14 item 2: checking orders when sent, judging them together at the deadline
# =============================================================================================

CANAL_UNITS = ["Britain A Egypt", "Turkey F Mediterranean Sea", "Russia A Moscow"]
CANAL_UNITS += ["Britain A Orenburg"]


def _check(units: list[str], orders: list[str], **kw) -> list[dict]:
    response = check(request(units, orders, **kw))
    assert "error" not in response, response
    assert len(response["orders"]) == len(orders)
    return response["orders"]


def test_canal_move_sent_alone_is_valid_and_says_what_it_needs():
    (reply,) = _check(CANAL_UNITS, ["Turkey: F Mediterranean Sea - Red Sea"])
    assert reply["result"] == "valid", reply
    assert reply["canonical"] == "F Mediterranean Sea - Red Sea"
    assert "Suez permit" in reply["needs"] and "Britain" in reply["needs"]
    assert "reason" not in reply


def test_canal_move_sent_separately_moves_on_the_permit_of_egypts_holder():
    """Issue #14: Britain holds Egypt and permits; Turkey's move, checked on its own when
    sent, is accepted, and moves when all orders are judged together."""
    turkey = ["Turkey: F Mediterranean Sea - Red Sea"]
    britain = ["Britain: Suez permit F Mediterranean Sea"]
    assert [o["result"] for o in _check(CANAL_UNITS, turkey)] == ["valid"]
    assert [o["result"] for o in _check(CANAL_UNITS, britain)] == ["valid"]
    for orders in (turkey + britain, britain + turkey):
        r = judge(CANAL_UNITS, orders)
        r.assert_succeeds("F Mediterranean Sea - Red Sea")
        assert "Turkey F Red Sea" in r.units


def test_canal_move_without_the_permit_fails_at_adjudication_and_the_fleet_holds():
    r = judge(
        [*CANAL_UNITS, "France F Red Sea"],
        ["Turkey: F Mediterranean Sea - Red Sea", "France: F Red Sea - Mediterranean Sea"],
    )
    r.assert_fails("F Mediterranean Sea - Red Sea", mention="no Suez permit")
    r.assert_fails("F Red Sea - Mediterranean Sea", mention="no Suez permit")
    assert {"Turkey F Mediterranean Sea", "France F Red Sea"} <= r.units
    assert r.response["dislodged"] == []


def test_permitted_fleet_is_not_met_head_on_by_a_fleet_without_permit():
    """The fleet without a permit never leaves: the permitted one, 2 against its 1, takes
    its sea and dislodges it rather than meeting it half way."""
    r = judge(
        ["Britain F Egypt", "Turkey F Mediterranean Sea", "France F Red Sea", "Turkey F Aden"],
        [
            "Britain: Suez permit F Mediterranean Sea",
            "Turkey: F Mediterranean Sea - Red Sea",
            "Turkey: F Aden S F Mediterranean Sea - Red Sea",
            "France: F Red Sea - Mediterranean Sea",
        ],
    )
    r.assert_succeeds("F Mediterranean Sea - Red Sea")
    r.assert_fails("F Red Sea - Mediterranean Sea", mention="no Suez permit")
    assert set(r.dislodged) == {"France F Red Sea"}


def test_canal_move_with_nobody_in_egypt_is_refused_when_sent():
    (reply,) = _check(["Turkey F Mediterranean Sea"], ["Turkey: F Mediterranean Sea - Red Sea"])
    assert reply["result"] == "invalid"
    assert "Egypt" in reply["reason"]


def test_foreign_support_of_a_railroad_move_is_valid_when_sent_alone():
    (reply,) = _check(CANAL_UNITS, ["Britain: A Orenburg S A Moscow - Omsk"])
    assert reply["result"] == "valid", reply
    # The railroad move by name: "A Moscow - Omsk" alone is refused (the two do not touch).
    assert reply["needs"] == "Russia to order A Moscow - Omsk via TSR"


@pytest.mark.parametrize(
    ("orders", "reason"),
    [
        (["Britain: A Orenburg S A Moscow - Irkutsk"], "could not move"),
        (["Turkey: A Moscow - Omsk via TSR"], "belongs to Russia"),
        (["Russia: F Moscow H"], "is an army"),
        (["Britain: A Sudan H"], "no unit in Sudan"),
        (["Turkey: F Mediterranean Sea - Persian Gulf"], "not adjacent"),
        (["Russia: Build A Moscow"], "adjustment phase"),
        (["Britain: Suez permit F Red Sea"], "no fleet"),
        (["Russia: A Moscow - Omsk via TSR", "Russia: A Moscow H"], "already has an order"),
    ],
)
def test_check_refuses_what_map_and_position_decide(orders, reason):
    replies = _check(CANAL_UNITS, orders)
    assert replies[-1]["result"] == "invalid", replies
    assert reason in replies[-1]["reason"], replies


def test_check_of_an_order_whose_target_holds_needs_nothing():
    replies = _check(
        ["Russia A Moscow", "Britain A Orenburg", "Russia A Perm"],
        ["Britain: A Orenburg S A Moscow", "Russia: A Perm S A Moscow - Omsk"],
    )
    assert [r["result"] for r in replies] == ["valid", "valid"]
    assert "needs" not in replies[0]
    assert "needs" not in replies[1]  # Russia's own orders: nothing to wait for


def test_check_mode_field_answers_like_check():
    req = request(CANAL_UNITS, ["Turkey: F Mediterranean Sea - Red Sea"])
    assert adjudicate({**req, "mode": "check"}) == check(req)
    assert "error" in adjudicate({**req, "mode": "guess"})
    assert adjudicate({**req, "mode": "adjudicate"}) == adjudicate(req)


def test_check_of_a_retreat_phase_says_valid_or_invalid_only():
    dislodged = [
        {"power": "China", "unit": "A", "location": "Omsk", "attacker_from": "Perm"},
        {"power": "Britain", "unit": "A", "location": "Krasnoyarsk", "attacker_from": "Irkutsk"},
    ]
    orders = ["China: A Omsk R Akmolinsk", "Britain: A Krasnoyarsk R Akmolinsk", "China: A Omsk D"]
    replies = _check(["Russia A Perm", "Russia A Irkutsk"], orders, kind="retreats",
                     dislodged=dislodged)  # fmt: skip
    assert [r["result"] for r in replies] == ["valid", "valid", "invalid"]
    assert "already has an order" in replies[2]["reason"]


def test_check_answers_a_malformed_request_with_an_error():
    assert "error" in check({"variant": "nowhere"})
    assert "error" in check(["not", "a", "request"])


def _random_phase(rng, variant, area: list[str], route: list[str]) -> dict:
    """A random Colonial position around the railroad and the canal with random orders,
    most of them illegal: supports and convoys of anything to anywhere, railroad rides,
    canal moves and Suez permits."""
    powers = ["Russia", "China", "Britain", "Turkey"]
    units: dict[str, tuple[str, str, str]] = {}
    for space in rng.sample(area, rng.randint(3, 9)):
        kind = rng.choice("AF")
        locations = variant.fleet_locations(space) if kind == "F" else [space]
        loc = rng.choice(locations) if locations else space
        if variant.can_stand(kind, loc):
            units[space] = (rng.choice(powers), kind, loc)
    orders = []
    for space, (power, kind, loc) in units.items():
        others = [units[s] for s in units if s != space]
        r = rng.random()
        if r < 0.35:
            orders.append(f"{power}: {kind} {loc} - {rng.choice(area)}")
        elif r < 0.45:
            orders.append(f"{power}: {kind} {loc} - {rng.choice(route)} via TSR")
        elif r < 0.7 and others:
            _, tkind, tloc = rng.choice(others)
            orders.append(f"{power}: {kind} {loc} S {tkind} {tloc} - {rng.choice(area)}")
        elif r < 0.8 and others:
            _, tkind, tloc = rng.choice(others)
            orders.append(f"{power}: {kind} {loc} S {tkind} {tloc}")
        elif r < 0.85:
            orders.append(f"{power}: {kind} {loc} C A {rng.choice(area)} - {rng.choice(area)}")
        else:
            orders.append(f"{power}: {kind} {loc} H")
        if space == "Egypt":
            sea = rng.choice(["Mediterranean Sea", "Red Sea"])
            orders.append(f"{rng.choice(powers)}: Suez permit F {sea}")
    return request([f"{p} {k} {loc}" for p, k, loc in units.values()], orders)


def test_orders_valid_when_sent_alone_are_never_invalid_when_judged_together():
    """#14 item 2 as a property: each power's orders checked on their own get exactly the
    valid/invalid verdicts that the adjudication of every power's orders together gives."""
    import random

    from adjudication import load

    variant = load("colonial")
    route = variant.rule_data["trans_siberian_railroad"]["route"]
    area = set(route) | {"Egypt", "Mediterranean Sea", "Red Sea", "Sudan", "Gulf of Aden"}
    for space in list(area):
        area |= set(variant.army_adj.get(space, ()))
        area |= {loc.split("/")[0] for loc in variant.fleet_adj.get(space, ())}
    area_list = sorted(area)
    rng = random.Random(13)
    seen = {"valid": 0, "invalid": 0}
    for _ in range(400):
        req = _random_phase(rng, variant, area_list, route)
        together = adjudicate(req)["orders"]
        alone: list[dict | None] = [None] * len(req["orders"])
        for power in {o["power"] for o in req["orders"]}:
            index = [n for n, o in enumerate(req["orders"]) if o["power"] == power]
            replies = check({**req, "orders": [req["orders"][n] for n in index]})["orders"]
            for n, reply in zip(index, replies, strict=True):
                alone[n] = reply
        for reply, checked in zip(together, alone, strict=True):
            assert (reply["result"] == "invalid") == (checked["result"] == "invalid"), (
                req,
                reply,
                checked,
            )
            seen[checked["result"]] += 1
    assert min(seen.values()) > 300, seen  # both verdicts were exercised


def _line_and_neighbours():
    """The Colonial variant, the railroad's spaces, and every space on or next to the line."""
    from adjudication import load

    variant = load("colonial")
    route = variant.rule_data["trans_siberian_railroad"]["route"]
    near = set(route)
    for space in route:
        near |= set(variant.army_adj[space])
    return variant, route, sorted(near)


def _answer_key(r) -> tuple:
    """Everything an answer says, in a form that ignores the order of the list."""
    replies = sorted(tuple(sorted(o.items(), key=str)) for o in r.response["orders"])
    return replies, r.units, r.response["contested"], r.response["dislodged"]


def test_random_railroad_positions_keep_the_invariants():
    """Random positions on and beside the line with a railroad move and random orders: the
    answer never depends on the order sequence, no two units end in one space, and no
    Russian order is reported bounced by the railroad army."""
    import random

    variant, route, near_list = _line_and_neighbours()
    rng = random.Random(7)
    key = _answer_key

    stopped = 0
    for _ in range(300):
        origin = rng.choice(route)
        units = {origin: "Russia"}
        for space in rng.sample(near_list, rng.randint(2, 7)):
            units.setdefault(space, rng.choice(["Russia", "China", "Britain"]))
        target = rng.choice([p for p in route if p != origin])
        orders = [f"Russia: A {origin} - {target} via TSR"]
        for space, power in units.items():
            others = [s for s in units if s != space]
            r = rng.random()
            if space == origin or r > 0.9:
                continue
            if r < 0.5:
                orders.append(f"{power}: A {space} - {rng.choice(sorted(variant.army_adj[space]))}")
            elif r < 0.75:
                dest = rng.choice(route)
                orders.append(f"{power}: A {space} S A {rng.choice(others)} - {dest}")
            else:
                orders.append(f"{power}: A {space} H")
        positions = [f"{power} A {space}" for space, power in units.items()]
        first = judge(positions, orders)
        where = [u["location"] for u in first.response["units"]]
        assert len(set(where)) == len(where), first.explain()
        for reply in first.response["orders"]:
            if reply["power"] == "Russia":
                assert "railroad" not in reply.get("reason", ""), first.explain()
        stopped += first.reply(orders[0][len("Russia: ") :])["result"] == "stopped"
        for _ in range(2):
            shuffled = rng.sample(orders, len(orders))
            assert key(judge(positions, shuffled)) == key(first), (positions, orders, shuffled)
    assert stopped > 30  # the railroad army was stopped short often enough to matter


# =============================================================================================
# Engine findings (round 2): a cycle through the railroad never puts two units in one space
# =============================================================================================

SWAP_AND_THIRD = (
    ["Russia A Odessa", "Russia A Moscow", "Russia A Perm"],
    ["Russia: A Odessa - Moscow", "Russia: A Moscow - Perm", "Russia: A Perm - Moscow via TSR"],
)


@pytest.mark.parametrize("sequence", list(itertools.permutations(range(3))))
def test_swap_through_the_railroad_with_a_third_russian_move_keeps_one_unit_a_space(sequence):
    """A swap by railroad plus a third Russian move into one of its spaces: circular movement
    would put two armies in Moscow, so the cycle keeps the railroad army where it is and
    nothing moves (the only consistent answer), in every order of the list."""
    units, orders = SWAP_AND_THIRD
    r = judge(units, [orders[n] for n in sequence])
    where = [u["location"] for u in r.response["units"]]
    assert len(set(where)) == len(where), r.explain()
    assert r.units == set(units)
    assert r.result("A Perm - Moscow via TSR") == "fails"
    assert "Moscow" in r.reason("A Perm - Moscow via TSR")
    assert r.result("A Odessa - Moscow") == "fails"
    assert r.result("A Moscow - Perm") == "fails"


def test_swap_through_the_railroad_alone_still_succeeds():
    """Seed 000: two Russian units may swap with the help of the railroad (v12.TSR.E2)."""
    r = judge(SWAP_AND_THIRD[0][1:], SWAP_AND_THIRD[1][1:])
    r.assert_succeeds("A Perm - Moscow via TSR")
    r.assert_succeeds("A Moscow - Perm")
    assert r.units == {"Russia A Moscow", "Russia A Perm"}


@pytest.mark.parametrize("block", [False, True])
def test_two_russian_units_standing_off_on_the_line_do_not_stop_the_army(block):
    """Rule choice (README): two Russian units bouncing each other in Omsk stay where they
    are, so Omsk is empty; the army passes it and, when it must stop short (China holds
    Irkutsk, a Russian army holds Krasnoyarsk), may stop there."""
    units = ["Russia A Moscow", "Russia A Akmolinsk", "Russia A Orenburg", "China A Irkutsk"]
    orders = [
        f"Russia: {TSR_MOS_IRK}",
        "Russia: A Akmolinsk - Omsk",
        "Russia: A Orenburg - Omsk",
        "China: A Irkutsk H",
    ]
    if block:
        units.append("Russia A Krasnoyarsk")
        orders.append("Russia: A Krasnoyarsk H")
    r = judge(units, orders)
    r.assert_fails("A Akmolinsk - Omsk")
    r.assert_fails("A Orenburg - Omsk")
    at = "Omsk" if block else "Krasnoyarsk"
    assert r.reply(TSR_MOS_IRK)["result"] == "stopped", r.explain()
    assert r.reply(TSR_MOS_IRK)["stopped_at"] == at
    assert f"Russia A {at}" in r.units


def test_random_russian_chains_around_the_railroad_keep_one_unit_a_space():
    """Random positions thick with Russian armies moving around, onto and along the line
    while one rides it: never two units in a space, and the answer never depends on the
    order of the orders or of the units (this found the swap-and-third-move case above)."""
    import random

    variant, route, near_list = _line_and_neighbours()
    rng = random.Random(2)
    key = _answer_key

    for _ in range(3000):
        origin = rng.choice(route)
        units = {origin: "Russia"}
        for space in rng.sample(near_list, rng.randint(2, 8)):
            units.setdefault(space, rng.choice(["Russia", "Russia", "Russia", "China"]))
        target = rng.choice([p for p in route if p != origin])
        orders = [f"Russia: A {origin} - {target} via TSR"]
        for space, power in units.items():
            r = rng.random()
            if space == origin or r > 0.85:
                continue
            if r < 0.7:
                adjacent = sorted(variant.army_adj[space])
                taken = [s for s in units if s in variant.army_adj[space]]
                orders.append(f"{power}: A {space} - {rng.choice(adjacent + taken * 3)}")
            else:
                other = rng.choice([s for s in units if s != space])
                orders.append(f"{power}: A {space} S A {other} - {rng.choice(route)}")
        positions = [f"{power} A {space}" for space, power in units.items()]
        first = judge(positions, orders)
        where = [u["location"] for u in first.response["units"]]
        assert len(set(where)) == len(where), first.explain()
        shuffled = rng.sample(orders, len(orders))
        listed = rng.sample(positions, len(positions))
        assert key(judge(listed, shuffled)) == key(first), (positions, orders, listed, shuffled)


# =============================================================================================
# Errata 9.241: a centre on the line owned by another power cuts it, even when empty
# =============================================================================================

CHINA_OWNS_OMSK = {"Russia": ["Moscow", "Odessa", "Port Arthur", "Vladivostok"], "China": ["Omsk"]}


@pytest.mark.parametrize(
    ("dest", "result", "at"),
    [("Perm", "stopped", "Omsk"), ("Moscow", "stopped", "Omsk"), ("Omsk", "succeeds", None)],
)
def test_errata_9_241_an_empty_centre_china_owns_cuts_the_line(dest, result, at):
    """The errata's example: China owns Omsk but has left it; the army from Vladivostok may
    ride to Omsk, but no further that turn."""
    order = f"A Vladivostok - {dest} via TSR"
    r = judge(["Russia A Vladivostok"], [f"Russia: {order}"], supply_centers=CHINA_OWNS_OMSK)
    reply = r.reply(order)
    assert reply["result"] == result, r.explain()
    assert reply.get("stopped_at") == at
    if at:
        assert "cut at Omsk" in reply["reason"] and "China" in reply["reason"]
    assert r.units == {"Russia A Omsk"}


def test_errata_9_241_supports_do_not_carry_the_army_past_the_cut_and_the_option_turns_it_off():
    units = ["Russia A Vladivostok", "Russia A Orenburg"]
    orders = ["Russia: A Vladivostok - Perm via TSR", "Russia: A Orenburg S A Vladivostok - Perm"]
    r = judge(units, orders, supply_centers=CHINA_OWNS_OMSK)
    assert r.units == {"Russia A Omsk", "Russia A Orenburg"}
    r = judge(
        units,
        orders,
        supply_centers=CHINA_OWNS_OMSK,
        options={"tsr_captured_centres_cut": False},
    )
    assert r.units == {"Russia A Perm", "Russia A Orenburg"}
    from adjudication.game_options import option_schema

    assert option_schema("colonial")["properties"]["tsr_captured_centres_cut"]["type"] == "boolean"


def test_errata_9_241_a_russian_centre_does_not_cut_the_line():
    r = judge(["Russia A Vladivostok"], ["Russia: A Vladivostok - Perm via TSR"])
    r.assert_succeeds("A Vladivostok - Perm via TSR")


def test_errata_9_241_a_cut_line_ending_in_a_russian_held_space_says_both():
    """Found by an adversary: the army stopped short of a cut line whose last space a Russian
    army held was told only "Omsk is held by Russia's A Omsk", though Russian units never block
    the line: the cut is why it could go no further, the Russian army why it could not end there."""
    units = ["Russia A Vladivostok", "Russia A Omsk", "Russia A Krasnoyarsk"]
    move = "A Vladivostok - Moscow via TSR"
    orders = [f"Russia: {move}", "Russia: A Omsk H", "Russia: A Krasnoyarsk H"]
    r = judge(units, orders, supply_centers=CHINA_OWNS_OMSK)
    assert r.reply(move)["result"] == "stopped"
    assert r.reply(move)["stopped_at"] == "Irkutsk"
    assert r.reason(move) == (
        "the line is cut at Omsk, a centre China owns (errata 9.241), and Omsk is held by "
        "Russia's A Omsk"
    )


@pytest.mark.parametrize(
    ("power", "text", "hint"),
    [
        ("Russia", "A Moscow - Vladivostok", "write 'A Moscow - Vladivostok via TSR'"),
        ("Russia", "A Moscow - Irkutsk", "write 'A Moscow - Irkutsk via TSR'"),
        ("Russia", "A Moscow - Peking", None),  # Peking is off the line
        ("China", "A Manchuria - Moscow", None),  # only Russia rides
    ],
)
def test_a_plain_move_the_railroad_would_take_says_how_to_write_it(power, text, hint):
    """Found by an adversary: "A Moscow - Vladivostok" was refused as not adjacent, with no
    word of the railroad that goes there."""
    units = [{"power": "Russia", "unit": "A", "location": "Moscow"}]
    units.append({"power": "China", "unit": "A", "location": "Manchuria"})
    body = {
        "variant": "colonial",
        "phase": {"season": "spring", "year": 1870, "type": "movement"},
        "units": units,
        "orders": [{"power": power, "order": text}],
    }
    answer = check(body)["orders"][0]
    assert answer["result"] == "invalid"
    assert "is not adjacent to" in answer["reason"]
    if hint is None:
        assert "railroad" not in answer["reason"]
    else:
        assert answer["reason"].endswith(f"; by the railroad, {hint}")
