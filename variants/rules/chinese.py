"""Chinese Diplomacy (T.A. McCloud, 1975): great powers buy armies with gold to milk China.

One movement turn a year. The great powers' armies come on and off the board through the entry
spaces (Siberia for Russia only; Indo-China and the Pacific Ocean for the others), which hold
any number of armies and are never fought over. The Chinese factions (Imperials, Kuomintang,
Communists) are moved by the server as gamesmaster, by the seed's die table. Retreats are made
at random. Every year ends with a profit-and-loss statement.

All chance comes from a ``random.Random`` seeded with the game's seed and the year, and every
draw is reported, so any year can be replayed and audited.
"""

from __future__ import annotations

import re
from collections import Counter

from adjudication.board import Board, Dislodged, RequestError, Unit
from adjudication.orders import (
    HOLD,
    NUMBERED_FROM_1,
    ORDER_WORDS,
    SPECIAL,
    Order,
    OrderError,
    refuse_abbreviation,
)
from adjudication.reasons import listed, why
from adjudication.registry import Rule
from adjudication.variant import Variant, normalise, province_of
from variants.rules.oceans import Movement as _Stacking
from variants.rules.words import gettext_noop

ENTRY = "entry"
IMPERIALS, KUOMINTANG, COMMUNISTS = "Imperials", "Kuomintang", "Communists"
FACTIONS = (IMPERIALS, KUOMINTANG, COMMUNISTS)
FIRST_YEAR, LAST_YEAR = 1900, 1950
# One movement turn a year: the gamesmaster retreats at random and the factions' builds come
# with the year's end, so no request is for a retreat or adjustment phase.
PHASE_TYPES = ("movement",)

# Gold, in thousands of ounces (rule 3 and 4).
ENTRY_COST = EXIT_COST = 5
UPKEEP = 10
ANNIHILATION = 50
CENTRE_PROFIT = 20
DEPOSED_BELOW = -1000

# The seed's die table: a ten-sided die plus modifiers gives 1..12; columns per faction.
STA, MOV, ATT, SUP, ATS = "Sta", "Mov", "Att", "Sup", "A&S"
DIE_TABLE = {
    COMMUNISTS: (STA, STA, STA, MOV, ATT, ATT, ATT, SUP, SUP, SUP, ATS, ATS),
    KUOMINTANG: (STA, STA, STA, MOV, MOV, ATT, ATT, ATT, SUP, SUP, SUP, ATT),
    IMPERIALS: (STA, STA, STA, MOV, MOV, MOV, ATT, ATT, SUP, SUP, SUP, ATT),
}


# -- the faction sizes of the seed's formulas -------------------------------------------------


def imperial_armies(year: int, centres_held: int) -> int:
    """Imperials start in every centre, shrink to the centres they hold, and go in 1911."""
    return 0 if year >= 1911 else centres_held


def kuomintang_armies(year: int, centres_held: int) -> int:
    """K = (Y - 1911)/3 + 1 for 1911-1928, fraction ignored; then their centres."""
    if year < 1911:
        return 0
    if year <= 1928:
        return (year - 1911) // 3 + 1
    return centres_held


def communist_armies(year: int) -> int:
    """C = (Y - 1927)/1.3 + 1, fraction ignored (exact: 10/13 of the years since 1927)."""
    if year < 1927:
        return 0
    return (year - 1927) * 10 // 13 + 1


# -- names and the map ------------------------------------------------------------------------


def _entries(variant: Variant) -> dict[str, list[str]]:
    return variant.rule_data["chinese"]["entry"]


def allows_stacking(variant: Variant, province: str) -> bool:
    return ENTRY in variant.provinces[province].flags


def may_retreat_to_attacker(variant: Variant, dislodged: Dislodged, province: str) -> bool:
    return False


def is_faction(power: str) -> bool:
    return power in FACTIONS


# The words of this rule's own orders, as written in their canonical text and in their data.
ENTER_WORDS, LEAVE_WORD = "Enter A", "Leave"


_ENTER = ("enter", "enters")
_LEAVE = ("leave", "leaves", "exit", "exits")
_ARMY = re.compile(r"a(?:rmy)?(\d{0,2})")  # A, army, or A2 (army 2 of several in a space)
_FLEET = re.compile(r"f(leet)?\d{0,2}")
_INITIAL = re.compile(r"[a-z]\.?")  # one letter of initials (``p.`` of ``P.A.C.``)


def parse_order(variant: Variant, tokens: list[str], phase_type: str) -> Order | None:
    """``Enter A Siberia`` brings an army on; ``A Siberia Leave`` (or ``Leave A Siberia``)
    takes one off. Words are compared as the core grammar compares them (``Leave.``)."""
    keys = [normalise(t) or t for t in tokens]
    if not keys:
        return None
    if keys[0] in _ENTER:
        where, number = _where(variant, tokens[1:], keys[1:], ENTER_WORDS)
        if where is None:
            raise OrderError("say where the army enters, e.g. 'Enter A Pacific Ocean'")
        if number is not None:  # a number names an army on the board; this one is not yet
            raise OrderError(
                "an army that enters has no number yet: write '{order}'",
                order=f"{ENTER_WORDS} {where}",
            )
        return Order(SPECIAL, "A", where, extra=(ENTER_WORDS, where))
    if keys[-1] in _LEAVE or (keys[0] in _LEAVE and len(keys) > 1):
        rest = (tokens[:-1], keys[:-1]) if keys[-1] in _LEAVE else (tokens[1:], keys[1:])
        where, number = _where(variant, *rest, LEAVE_WORD)
        if where is None:
            raise OrderError("say which army leaves, e.g. 'A Pacific Ocean Leave'")
        # ``A2 Pacific Ocean Leave``: army 2 there leaves, as ``A2`` names it in any order.
        army = "A" if number is None else f"A{number}"
        return Order(SPECIAL, "A", where, number=number, extra=(army, where, LEAVE_WORD))
    return None


def _where(
    variant: Variant, tokens: list[str], keys: list[str], form: str
) -> tuple[str | None, int | None]:
    """The space these words name, after an army word (``A``, ``army``, ``A2``), and the
    army's number if it has one; None when they name none at all. A fleet, or a name that is
    no space's, is refused for that."""
    if keys and _FLEET.fullmatch(keys[0]):
        raise OrderError("Chinese Diplomacy has no fleets: only armies enter and leave the board")
    number = None
    army = _ARMY.fullmatch(keys[0]) if keys else None
    if army:
        digits, typed = army.group(1), tokens[0]
        if not digits and len(keys) > 2 and keys[1].isdigit() and len(keys[1]) <= 2:
            # "A 2 Pacific Ocean Leave", as A2
            digits, typed, tokens = keys[1], f"{tokens[0]} {tokens[1]}", tokens[1:]
        below_one = not digits and len(keys) > 3 and keys[1] == "-" and keys[2].isdigit()
        if below_one or (digits and int(digits) == 0):  # A-1, A 0: as the core refuses F-1, F0
            typed = "".join(tokens[:3]) if below_one else typed
            raise OrderError(NUMBERED_FROM_1, typed=typed, unit="A")
        number = int(digits) if digits else None
        tokens = tokens[1:]
    if len(tokens) > 1 and normalise(tokens[0]) == "the" and "the" not in variant.name_starts:
        tokens = tokens[1:]  # "Enter A the Pacific Ocean", as in any order before a name
    if not tokens:
        return None, None
    where = variant.lookup(" ".join(tokens))
    if where is None:  # the parser gives ``typed`` back as the player typed the words
        _more_than_a_space(variant, tokens, form, number)
        # ``Enter A PAC`` or ``Enter A P.A.C.``: full names only, refused as the abbreviation.
        if len(tokens) == 1 or all(_INITIAL.fullmatch(t) for t in tokens):
            word = "".join(tokens)
            refuse_abbreviation(variant, normalise(word), word)
        raise OrderError("there is no province called '{typed}'", typed=" ".join(tokens))
    return where, number


def _more_than_a_space(
    variant: Variant, tokens: list[str], form: str, number: int | None = None
) -> None:
    """An Enter or Leave written with more than its space, a move (``A Siberia - Leave``,
    ``Enter A - Siberia``) or an order's word (``Enter A Siberia H``): refused with the form
    it takes, where the words on one side of the order's word name a space. Only on the way
    to an error; returns when they name none."""
    marks = [k for k, token in enumerate(tokens) if (normalise(token) or token) in ORDER_WORDS]
    # The longest words before an order's word first, then the longest after one.
    parts = [tokens[:k] for k in reversed(marks)] + [tokens[k + 1 :] for k in marks]
    for part in parts:
        if part and _ARMY.fullmatch(normalise(part[0]) or part[0]):
            part = part[1:]
        where = variant.lookup(" ".join(part)) if part else None
        if where is not None:
            break
    else:
        return
    entry = allows_stacking(variant, where)
    if form == LEAVE_WORD:
        if not entry:
            raise OrderError(
                "armies leave the board only from an entry space, not {space}", space=where
            )
        raise OrderError(
            "a Leave order names only the army that leaves: write '{order}'",
            order=f"A{number or ''} {where} {LEAVE_WORD}",
        )
    if not entry:
        spaces = listed(list(_entries(variant)))
        raise OrderError("armies enter the board only at {spaces}", spaces=spaces)
    raise OrderError(
        "an Enter order names only the army that enters: write '{order}'",
        order=f"{ENTER_WORDS} {where}",
    )


def order_form(order: Order) -> str:
    """``enter`` (an army brought on) or ``leave`` (an army taken off)."""
    return "enter" if order.extra[:1] == (ENTER_WORDS,) else "leave"


# -- the request ------------------------------------------------------------------------------


def _bad(field: str, problem: str) -> RequestError:
    """A malformed part of the request: the message and its details name the field."""
    return RequestError(f"{field} {problem}", [{"field": field, "problem": problem}])


def read_request(board: Board, request: dict) -> None:
    if board.year > LAST_YEAR:  # rule 7: the game ends with the year 1950; none follows
        raise _bad("phase.year", f"is after {LAST_YEAR}, when the game ended")
    economy = request.get("economy")
    economy = {} if economy is None else economy
    if not isinstance(economy, dict):
        raise _bad("economy", "must be an object with balances and payments")
    balances = economy.get("balances")
    balances = {} if balances is None else balances
    if not isinstance(balances, dict):
        raise _bad("economy.balances", "must map each power to its gold (k oz)")
    powers = [p for p in board.variant.powers if not is_faction(p)]
    clean: dict[str, int] = dict.fromkeys(powers, 0)
    for name, amount in balances.items():
        power = board.variant.power(name) if isinstance(name, str) else None
        if power is None or is_faction(power):
            raise _bad("economy.balances", f"names unknown power {str(name)[:40]!r}")
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise _bad(f"economy.balances.{power}", "must be a whole number of k oz")
        clean[power] = amount
    given = economy.get("payments")
    given = [] if given is None else given
    if not isinstance(given, list):
        raise _bad("economy.payments", "must be a list of {from, to, amount}")
    payments = []
    for n, entry in enumerate(given):
        field = f"economy.payments[{n}]"
        if not isinstance(entry, dict):
            raise _bad(field, "must be {from, to, amount}")
        payer, payee = (_great_power(board, entry.get(end)) for end in ("from", "to"))
        amount = entry.get("amount")
        if payer is None or payee is None:
            raise _bad(field, "must be between great powers")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise _bad(f"{field}.amount", "must be a positive whole number of k oz")
        payments.append({"from": payer, "to": payee, "amount": amount})
    seed = request.get("random_seed", board.options.get("seed", 0))
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise _bad("random_seed", "must be a whole number")
    published = request.get("faction_orders")
    if published is not None and not isinstance(published, list):
        raise _bad("faction_orders", "must be a list of {power: faction, order: text}")
    for n, entry in enumerate(published or ()):
        if (
            not isinstance(entry, dict)
            or not is_faction(str(entry.get("power")))
            or not isinstance(entry.get("order"), str)
        ):
            raise _bad(f"faction_orders[{n}]", "must be {power: faction, order: text}")
    leaders = economy.get("new_leaders")
    leaders = [] if leaders is None else leaders
    if not isinstance(leaders, list):
        raise _bad("economy.new_leaders", "must be a list of great powers")
    new_leaders = []
    for n, name in enumerate(leaders):
        power = _great_power(board, name)
        if power is None:
            raise _bad(f"economy.new_leaders[{n}]", "must be a great power")
        new_leaders.append(power)
    board.extra["balances"] = clean
    board.extra["new_leaders"] = list(dict.fromkeys(new_leaders))
    board.extra["payments"] = payments
    board.extra["seed"] = seed
    board.extra["given_faction_orders"] = published


def _great_power(board: Board, name: object) -> str | None:
    power = board.variant.power(name) if isinstance(name, str) else None
    return None if power is None or is_faction(power) else power


def extra_orders(board: Board, orders: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The factions' orders: those the request carries (published earlier), else generated."""
    if board.phase_type != "movement":
        return []
    given = board.extra.get("given_faction_orders")
    if isinstance(given, list):
        return [(entry["power"], entry["order"]) for entry in given]  # checked on reading
    rng = Year(board.extra["seed"], board.year, "orders")
    board.extra["order_draws"] = rng.draws
    return [(p, text) for p, text, _ in faction_orders(board.variant, board.units, rng)]


class Year:
    """The year's generator: seeded from the game seed, the year and the purpose; logs draws.
    ``random`` is imported on first use: every engine start-up registers this rule, and few
    answers draw."""

    def __init__(self, seed: int, year: int, purpose: str) -> None:
        from random import Random

        self._draw = Random(f"{seed}:{year}:{purpose}")
        self.draws: list = []

    def random(self) -> float:
        return self._draw.random()

    def die(self) -> int:
        roll = self._draw.randint(1, 10)
        self.draws.append(["d10", roll])
        return roll

    def pick(self, what: str, options: list):
        chosen = self._draw.choice(options)
        self.draws.append([what, chosen])
        return chosen

    def chit(self) -> int:
        number = self._draw.randint(1, 17)
        self.draws.append(["chit", number])
        return number


# -- the gamesmaster's orders for the factions ------------------------------------------------


def faction_orders(variant: Variant, units: list[Unit], rng: Year) -> list[tuple[str, str, str]]:
    """(faction, order text, die-table action) for every Chinese army, by the seed's table."""
    at = {u.province: u for u in units}
    near = variant.army_adj
    entry = {p for p in variant.provinces if allows_stacking(variant, p)}
    plans: dict[str, tuple[str, str | None]] = {}  # province -> (action, target)
    armies = sorted((u for u in units if is_faction(u.power)), key=lambda u: u.province)
    for u in armies:
        action = _action(variant, u, at, rng)
        neighbours = sorted(p for p in near[u.province] if p not in entry)
        empty = [p for p in neighbours if p not in at]
        enemies = [p for p in neighbours if p in at and at[p].power != u.power]
        if action in (ATT, ATS) and not any(p in at for p in neighbours):
            action = MOV  # "Att with no adjacent army is taken as Mov"
        if action == MOV and not empty:
            action = ATT  # "Mov with every neighbour occupied is taken as Att"
        if action in (ATT, ATS) and not enemies:
            action = MOV if empty else STA  # never attacks its own faction
        if action == SUP and not any(p in at for p in neighbours):
            action = STA
        if action == MOV:
            plans[u.province] = (MOV, rng.pick("move", empty))
        elif action in (ATT, ATS):
            plans[u.province] = (action, rng.pick("attack", enemies))
        else:
            plans[u.province] = (action, None)
    _assisting_supports(variant, at, plans, rng)
    out = []
    for u in armies:
        action, target = plans[u.province]
        out.append((u.power, _order_text(variant, u, action, target, at, plans), action))
    return out


def _action(variant: Variant, u: Unit, at: dict[str, Unit], rng: Year) -> str:
    roll = rng.die()
    adjacent = variant.army_adj[u.province]
    foreign = [p for p in adjacent if p in at and not is_faction(at[p].power)]
    rivals = [p for p in adjacent if p in at and is_faction(at[p].power) and at[p].power != u.power]
    roll += bool(foreign) + bool(rivals)
    two = set(adjacent) | {q for p in adjacent for q in variant.army_adj[p]}
    if not any(p in at and at[p].power != u.power for p in two - {u.province}):
        roll -= 1
    roll = max(1, min(12, roll))
    return DIE_TABLE[u.power][roll - 1]


def _assisting_supports(variant: Variant, at, plans, rng: Year) -> None:
    """A&S: a neighbouring army of the same faction supports the attack automatically."""
    for province, (action, target) in list(plans.items()):
        if action != ATS:
            continue
        helpers = sorted(
            p
            for p in variant.army_adj[province]
            if p in plans
            and at[p].power == at[province].power
            and plans[p][0] != ATS
            and target in variant.army_adj[p]
        )
        if helpers:
            helper = rng.pick("assist", helpers)
            plans[helper] = ("assist", province)


def _order_text(variant: Variant, u: Unit, action: str, target, at, plans) -> str:
    if action in (MOV, ATT, ATS):
        return f"A {u.province} - {target}"
    if action == "assist":
        return f"A {u.province} S A {target} - {plans[target][1]}"
    if action == SUP:
        return _support_text(variant, u, at, plans)
    return f"A {u.province} H"


def _support_text(variant: Variant, u: Unit, at, plans) -> str:
    """Support a neighbour's move where the supporter can reach it, otherwise its stand.

    Chinese armies may support any army, their own faction's or not (the seed's note).
    """
    near = {p for p in variant.army_adj[u.province] if not allows_stacking(variant, p)}
    neighbours = sorted(p for p in near if p in at)
    for p in neighbours:
        plan = plans.get(p)
        if plan and plan[0] in (MOV, ATT, ATS) and plan[1] in near:
            return f"A {u.province} S A {p} - {plan[1]}"
    for p in neighbours:
        plan = plans.get(p)
        if plan is None or plan[0] not in (MOV, ATT, ATS):
            return f"A {u.province} S A {p}"
    return f"A {u.province} H"


# -- the resolver ---------------------------------------------------------------------------


class Movement(_Stacking):
    """Entry spaces behave like Far East oceans (any number, no conflict, no cut supports)."""

    def check_move(self, i: int, order: Order) -> Order | None:
        if order.via == "convoy":  # the map's coasts would say why not, as if fleets sailed
            raise OrderError("Chinese Diplomacy has no fleets, so no army is convoyed")
        dest = province_of(order.destination)
        power = self.power[i]
        if allows_stacking(self.variant, dest):
            if is_faction(power):
                raise OrderError("Chinese armies may not enter {space}", space=dest)
            if power not in _entries(self.variant)[dest]:
                raise OrderError("{power} may not use {space}", power=power, space=dest)
        return super().check_move(i, order)

    def add_special(self, power: str, order: Order) -> Order:
        where = order.location
        if order.extra[0] == "Enter A":
            if not allows_stacking(self.variant, where):
                spaces = listed(list(_entries(self.variant)))
                raise OrderError("armies enter the board only at {spaces}", spaces=spaces)
            if is_faction(power) or power not in _entries(self.variant)[where]:
                raise OrderError(
                    "{power} may not enter the board at {space}", power=power, space=where
                )
            return order
        # Leave: the army in an entry space goes off the board this year (and holds till then).
        if not allows_stacking(self.variant, where):
            raise OrderError(
                "armies leave the board only from an entry space, not {space}", space=where
            )
        i = self.unit_for(power, Order(HOLD, "A", where, number=order.number))
        self.order[i] = Order(HOLD, "A", where)
        return order


# -- the year's end ---------------------------------------------------------------------------


def finish_response(board: Board, response: dict) -> None:
    if board.phase_type != "movement":
        return
    variant = board.variant
    rng = Year(board.extra["seed"], board.year, "year-end")
    ledger: list[dict] = []
    # Rule 6: a new player starts at net zero. A power whose leader was deposed and that had
    # none for a while (its armies still cost their upkeep) is given to its new leader at zero.
    for power in board.extra.get("new_leaders", ()):
        carried = board.extra["balances"][power]
        if carried:
            reset = {"power": power, "item": "new leader", "amount": -carried}
            ledger.append({**reset, "detail": why("a new player starts at net zero")})
    units = [_unit(u) for u in response["units"]]
    entered, left = _arrivals_and_departures(response)
    units = _without(units, left) + entered
    annihilated = _random_retreats(variant, response, units, rng)
    _account(board, entered, left, annihilated, ledger)
    year = board.year + 1
    faction_events: list[dict] = []
    held = _possession(variant, units, board.centres)
    if year <= LAST_YEAR:
        units = _faction_adjustments(variant, units, held, year, rng, faction_events, ledger)
        held = _possession(variant, units, held)
    if imperial_armies(year, 1) == 0:  # 1911: the Imperials are gone, and hold nothing more
        held = {c: owner for c, owner in held.items() if owner != IMPERIALS}
    last = _last_year(held, board.year, len(_chit_order(variant)))
    _settle(board, response, ledger, last=last)
    response["units"] = [u.as_json() for u in units]
    response["supply_centers"] = {
        p: sorted(c for c, owner in held.items() if owner == p) for p in variant.powers
    }
    balances = response["economy"]["balances"]
    richest = _richest(balances) if last else None
    response["winner"] = richest[0] if richest and len(richest) == 1 else None
    if richest is not None:  # the game is over, won alone or shared by a tie
        response["game_over"] = True
        response["winners"] = richest
    # Over, no year follows: the game's last phase is this one (no 1951 to open or judge).
    over = richest is not None
    response["next_phase"] = None if over else {"season": "year", "year": year, "type": "movement"}
    response["factions"] = {"events": faction_events, "next_orders": []}
    if not over:
        seed = board.extra["seed"]
        response["factions"]["next_orders"] = plan_orders(variant, units, seed, year)
    response["draws"] = {
        "orders": board.extra.get("order_draws", []),
        "year_end": rng.draws,
    }
    response["economy"]["ledger"] = ledger


def plan_orders(variant: Variant, units: list[Unit], seed: int, year: int) -> list[dict]:
    """The factions' orders for a year, with whether each is shown to the players in advance."""
    orders = faction_orders(variant, units, Year(seed, year, "orders"))
    published = {IMPERIALS: True, COMMUNISTS: False}
    published[KUOMINTANG] = Year(seed, year, "publish").random() < 0.5
    return [
        {"power": p, "order": text, "action": action, "published": published[p]}
        for p, text, action in orders
    ]


def opening(variant: Variant, seed: int) -> dict:
    """A new game: every great power at zero gold, and the Imperials' orders for 1900."""
    units = [_unit(u) for u in variant.starting_units]
    return {
        "economy": {"balances": dict.fromkeys(variant.playable_powers, 0)},
        "faction_orders": plan_orders(variant, units, seed, variant.start_year),
    }


def _unit(data: dict) -> Unit:
    return Unit(data["power"], data["unit"], data["location"], province_of(data["location"]))


def _arrivals_and_departures(response: dict) -> tuple[list[Unit], Counter[tuple[str, str]]]:
    """The armies brought on, and how many of each power leave each entry space: one army
    for each Leave (an entry space holds several of a power's armies; they are alike)."""
    entered: list[Unit] = []
    left: Counter[tuple[str, str]] = Counter()
    for item in response["orders"]:
        data = item.get("data") or {}
        if item.get("result") != "succeeds" or data.get("rule") != "chinese":
            continue
        where = data["location"]
        if data.get("form") == "enter":
            entered.append(Unit(item["power"], "A", where, where))
        elif data.get("form") == "leave":
            left[item["power"], where] += 1
    return entered, left


def _without(units: list[Unit], left: Counter[tuple[str, str]]) -> list[Unit]:
    """The units less one army of its power in its space for each departure."""
    going = Counter(left)
    kept = []
    for u in units:
        if going[u.power, u.province] > 0:
            going[u.power, u.province] -= 1
        else:
            kept.append(u)
    return kept


def _random_retreats(variant: Variant, response: dict, units: list[Unit], rng: Year) -> list[dict]:
    """The gamesmaster retreats every dislodged army at random; no room means annihilation."""
    annihilated = []
    taken = {u.province for u in units}
    for d in response["dislodged"]:
        # Only the entry spaces the power may use; those hold any number of armies (rule 9).
        d["retreats"] = [p for p in d["retreats"] if _may_stand(variant, d["power"], p)]
        options = [p for p in d["retreats"] if p not in taken or allows_stacking(variant, p)]
        if options:
            where = rng.pick("retreat", sorted(options))
            units.append(Unit(d["power"], "A", where, where))
            taken.add(where)
            d["retreated_to"] = where
        else:
            d["retreated_to"] = None
            annihilated.append(d)
    response["contested"] = []
    return annihilated


def _may_stand(variant: Variant, power: str, province: str) -> bool:
    """Entry spaces are only for the great powers allowed to use them."""
    if not allows_stacking(variant, province):
        return True
    return not is_faction(power) and power in _entries(variant)[province]


def _possession(variant: Variant, units: list[Unit], before: dict[str, str]) -> dict[str, str]:
    """Who holds each centre now.

    A great power holds a centre only while its army stands there (rule 4). A Chinese faction
    keeps a centre until another army takes it: the Imperials start owning all seventeen and
    shrink to "their remaining supply centers".
    """
    held = {c: owner for c, owner in before.items() if is_faction(owner)}
    for u in units:
        if variant.provinces[u.province].supply_center:
            held[u.province] = u.power
    return held


def _account(board: Board, entered, left, annihilated, ledger: list[dict]) -> None:
    """The year's profit and loss lines for every great power (the balances come later, from
    the whole ledger, so that the factions' annihilations count too)."""
    powers = [p for p in board.variant.powers if not is_faction(p)]
    start_centres = {p: 0 for p in powers}
    for owner in _possession(board.variant, board.units, board.centres).values():
        if owner in start_centres:
            start_centres[owner] += 1
    armies = {p: 0 for p in powers}
    for u in board.units:
        if u.power in armies:
            armies[u.power] += 1

    def entry(power: str, item: str, amount: int, detail: str) -> None:
        if amount:
            ledger.append({"power": power, "item": item, "amount": amount, "detail": detail})

    for p in powers:
        n = start_centres[p]
        entry(
            p,
            "profit",
            CENTRE_PROFIT * n,
            why("{count} centre held at the start of the year", count=n)
            if n == 1
            else why("{count} centres held at the start of the year", count=n),
        )
        on = armies[p] + sum(1 for u in entered if u.power == p)
        entry(
            p,
            "maintenance",
            -UPKEEP * on,
            why("{count} army on the board this year", count=on)
            if on == 1
            else why("{count} armies on the board this year", count=on),
        )
        n_in = sum(1 for u in entered if u.power == p)
        brought = (
            why("{count} army brought on", count=n_in)
            if n_in == 1
            else why("{count} armies brought on", count=n_in)
        )
        entry(p, "entry", -ENTRY_COST * n_in, brought)
        n_out = sum(count for (power, _), count in left.items() if power == p)
        taken = (
            why("{count} army taken off", count=n_out)
            if n_out == 1
            else why("{count} armies taken off", count=n_out)
        )
        entry(p, "exit", -EXIT_COST * n_out, taken)
        lost = sum(1 for d in annihilated if d["power"] == p)
        entry(
            p,
            "annihilation",
            -ANNIHILATION * lost,
            why("{count} army annihilated", count=lost)
            if lost == 1
            else why("{count} armies annihilated", count=lost),
        )
    for pay in board.extra["payments"]:
        entry(pay["from"], "payment", -pay["amount"], why("to {power}", power=pay["to"]))
        entry(pay["to"], "payment", pay["amount"], why("from {power}", power=pay["from"]))


def _settle(board: Board, response: dict, ledger: list[dict], *, last: bool = False) -> None:
    """The balances are the carried ones plus every ledger line; then deposition (rule 6).

    ``last``: the game ends with this year. A leader deposed then still loses the seat, but no
    new player comes to start at zero: the power ends with the loss it made, which ranks it
    (rule 2: the largest profit wins), rather than at zero above every power that lost less."""
    balances = dict(board.extra["balances"])
    for line in ledger:
        balances[line["power"]] += line["amount"]
    deposed = [p for p, gold in balances.items() if gold < DEPOSED_BELOW]
    for p in deposed if not last else ():
        ledger.append(
            {"power": p, "item": "deposed", "amount": -balances[p], "detail": why("new leader")}
        )
        balances[p] = 0
    response["economy"] = {
        "balances": balances,
        "payments": board.extra["payments"],
        "deposed": deposed,
    }


def _faction_adjustments(variant, units, owners, year, rng, events, ledger) -> list[Unit]:
    """Bring each faction to its size for the new year: removals at random, builds by chit."""
    chits = _chit_order(variant)
    units = list(units)

    def held(faction: str) -> int:
        return sum(1 for owner in owners.values() if owner == faction)

    imperials = sum(1 for u in units if u.power == IMPERIALS)
    targets = {
        # The Imperials never build: they only shrink to their remaining centres.
        IMPERIALS: min(imperials, imperial_armies(year, held(IMPERIALS))),
        KUOMINTANG: kuomintang_armies(year, held(KUOMINTANG)),
        COMMUNISTS: communist_armies(year),
    }
    for faction in FACTIONS:
        mine = [u for u in units if u.power == faction]
        extra = len(mine) - targets[faction]
        for _ in range(max(0, extra)):
            gone = rng.pick(f"remove {faction}", sorted(u.province for u in mine))
            # One army a removal: an entry space may hold several of the faction's.
            victim = next(u for u in mine if u.province == gone)
            mine.remove(victim)
            units.remove(victim)
            events.append({"faction": faction, "event": "removed", "location": gone})
        for _ in range(max(0, -extra)):
            where = _draw_centre(chits, units, faction, rng)
            if where is None:
                break
            for victim in [u for u in units if u.province == where]:
                units.remove(victim)
                events.append(
                    {"faction": faction, "event": "annihilated", "location": where,
                     "power": victim.power}
                )  # fmt: skip
                if not is_faction(victim.power):
                    detail = why(
                        "army in {space} annihilated by the {faction}", space=where, faction=faction
                    )
                    ledger.append(
                        {"power": victim.power, "item": "annihilation",
                         "amount": -ANNIHILATION, "detail": detail}
                    )  # fmt: skip
            units.append(Unit(faction, "A", where, where))
            events.append({"faction": faction, "event": "built", "location": where})
    return units


def _chit_order(variant: Variant) -> list[str]:
    entries = variant.raw["provinces"]
    numbered = [(e.get("chit"), e["name"]) for e in entries if e.get("supply_center")]
    return [name for _, name in sorted(numbered, key=lambda x: (x[0] is None, x[0] or 0))]


def _draw_centre(chits: list[str], units: list[Unit], faction: str, rng: Year) -> str | None:
    """Draw chits until one names a centre the faction may build in."""
    allowed = set(chits) - {u.province for u in units if u.power == faction}
    if faction == KUOMINTANG:
        allowed -= {u.province for u in units if u.power == COMMUNISTS}
    if not allowed:
        return None
    while True:
        where = chits[rng.chit() - 1]
        if where in allowed:
            return where


def _last_year(held: dict[str, str], year: int, centres: int) -> bool:
    """Whether the game ends with this year: 1950, or the Communists hold every centre."""
    communists_all = sum(1 for owner in held.values() if owner == COMMUNISTS) == centres
    return year >= LAST_YEAR or communists_all


def _richest(balances: dict[str, int]) -> list[str]:
    """The richest great powers when the game ends: one wins, several tied share the win (a
    draw)."""
    best = max(balances.values())
    return sorted(p for p, gold in balances.items() if gold == best)


# -- options ----------------------------------------------------------------------------------


def option_orders(board: Board, power: str) -> list[str]:
    """A great power's entries onto the board and its armies' departures from it."""
    if board.phase_type != "movement" or is_faction(power):
        return []
    out = [f"Enter A {space}" for space, who in _entries(board.variant).items() if power in who]
    out += [
        f"A {u.location} Leave"
        for u in board.units
        if u.power == power and allows_stacking(board.variant, u.province)
    ]
    return list(dict.fromkeys(out))  # several armies in one space leave by one order form


def carry(request: dict, response: dict) -> dict:
    """What the next phase's request carries: the balances, and the factions' planned orders
    (after a year's end) or the ones already published (between phases of one year)."""
    out = {}
    if "economy" in response:
        out["economy"] = {"balances": response["economy"]["balances"]}
    elif "economy" in request:
        out["economy"] = {"balances": (request["economy"] or {}).get("balances", {})}
    if "factions" in response:
        out["faction_orders"] = response["factions"].get("next_orders", [])
    elif "faction_orders" in request:
        out["faction_orders"] = request["faction_orders"]
    return out


# -- the rule object ---------------------------------------------------------------------------


class Chinese(Rule):
    """The rule object the engine calls: the economy, the factions and the entry spaces, whose
    hooks are this module's functions above.

    The entry spaces are stacking spaces judged by the oceans' resolver on purpose (``Movement``
    extends ``variants.rules.oceans.Movement``): any number of armies, no conflict, no cut
    supports there; unlike an ocean, nobody retreats into one after an attack from it.
    """

    name = "chinese"
    title = "Chinese Diplomacy"
    # The rules page's words: the figures are this module's constants (a test holds them
    # together), the rest README's "Chinese Diplomacy" in brief.
    summary = gettext_noop(
        "Chinese Diplomacy: the six great powers bring armies on with “Enter A Pacific Ocean” "
        "(Russia through Siberia, the others through Indo-China or the Pacific Ocean) and take "
        "them off with “A Pacific Ocean Leave”. These entry spaces hold any number of armies, are "
        "never fought over, and a move into one never cuts support; Chinese armies never enter "
        "them. Gold, in thousands of ounces: entering or leaving costs 5, each army on the board "
        "10 a year (the years of entry and exit included) and an annihilated army 50; each "
        "supply centre a great power held at the start of the year pays it 20, and it holds a "
        "centre only while one of its armies stands there. Great powers may pay each other any "
        "sum; every year ends with a statement of each power's costs, income and payments. A "
        "power more than 1,000 in debt is deposed: its leader's seat ends, and the power, back "
        "at zero, is open to a new player (in the game's last year it keeps its debt, which "
        "ranks it). The server moves the three Chinese factions as "
        "gamesmaster, by the seed's die table: the Imperials start in all 17 centres, never "
        "build, shrink to the centres they still hold and are gone in 1911; the Kuomintang come "
        "in 1911 and the Communists in 1927, built in centres drawn at random, where any army "
        "standing is annihilated. Retreats are made at random. Imperial orders are published "
        "in advance, Kuomintang orders in some years, Communist orders never."
    )
    deposed_below = DEPOSED_BELOW
    Movement = Movement
    allows_stacking = staticmethod(allows_stacking)
    may_retreat_to_attacker = staticmethod(may_retreat_to_attacker)
    parse_order = staticmethod(parse_order)
    order_form = staticmethod(order_form)
    opening = staticmethod(opening)
    PHASE_TYPES = PHASE_TYPES
    read_request = staticmethod(read_request)
    extra_orders = staticmethod(extra_orders)
    finish_response = staticmethod(finish_response)
    option_orders = staticmethod(option_orders)
    carry = staticmethod(carry)

    def may_enter(self, variant: Variant, unit: Unit, province: str) -> bool:
        return _may_stand(variant, unit.power, province)


RULE = Chinese()
