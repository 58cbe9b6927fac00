"""``adjudicate(request) -> response``: the one entry point of the contract.

It reads the request, judges the phase, settles centre ownership and victory, and works out
the next phase, skipping retreat and adjustment phases that have nothing to do.
"""

from __future__ import annotations

from functools import cache

from . import adjustments, retreats
from .answer_json import Written, reply_parts
from .board import Board, RequestError, Unit, read, units_json
from .movement import Movement, overrides
from .orders import HOLD, MOVE, SPECIAL, SUPPORT, Order, OrderError, order_data, parse, tokenize
from .readonly import ReplyData
from .reasons import only_units
from .registry import Rule
from .variant import Variant, load, province_of

# ``typing`` only for the type checker (and mypyc): importing it cost every batch's start-up a
# few milliseconds, and these annotations are never evaluated.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Final


def opening(variant_id: str, seed: int = 0) -> dict:
    """State a new game carries besides its units (Chinese Diplomacy: gold and the factions'
    first orders), so the server can publish it before the first deadline."""
    variant = load(variant_id)
    state: dict = {}
    for rule in variant.plugins:
        state.update(rule.opening(variant, seed))
    return state


def error(message: str, details: list | None = None) -> dict:
    return {"error": message, "details": details or []}


def adjudicate(request: object) -> dict:
    """Judge one phase. Malformed requests come back as ``{"error": ..., "details": [...]}``.

    A request with ``"mode": "check"`` is answered by ``check`` instead."""
    return _adjudicate(request, False)


def adjudicate_to_write(request: object) -> dict:
    """``adjudicate`` for a caller that only writes the answer as JSON with ``answer_json``
    (the command line, one request or a batch): a movement phase's replies come already
    written (``answer_json.reply_parts``), not as dicts, unless a rule of the variant reads
    them to finish the response."""
    return _adjudicate(request, True)


def _adjudicate(request: object, written: bool) -> dict:
    if isinstance(request, dict) and "mode" in request:
        mode = request["mode"]
        if mode == "check":
            return check(request)
        if mode != "adjudicate":
            return error(f'unknown mode {mode!r}; use "adjudicate" (the default) or "check"')
    try:
        board, entries = read(request)
        orders = _order_entries(board, entries)
        for rule in board.variant.plugins:
            orders += rule.extra_orders(board, orders)
        return _judge(board, orders, written)
    except RequestError as e:
        return error(str(e), e.details)
    except RecursionError:
        return error("the position is too large to adjudicate")


def check(request: object) -> dict:
    """Check orders as they are sent, before the other powers' orders are known.

    Same request as ``adjudicate``; nothing is judged. Each order is ``invalid`` (with its
    reason) only for what the map, the position and the phase decide: no such unit, not the
    power's, out of reach by land, sea, convoy route, railroad or canal, the wrong phase, a
    second order for one unit. Anything that rests on other powers' orders (a canal permit, a
    convoy, the move a support is for) leaves the order ``valid``, with ``needs`` saying what
    it waits for; the adjudication of all orders together then decides it.
    The answer: ``{"orders": [{"power", "order", "canonical", "result", "reason"?,
    "needs"?}]}``, one reply per request order, in order.
    """
    try:
        board, entries = read(request)
        return {"orders": _check(board, _order_entries(board, entries))}
    except RequestError as e:
        return error(str(e), e.details)
    except RecursionError:
        return error("the position is too large to check")


def _check(board: Board, entries: list[tuple[str, str]]) -> list[dict]:
    """``check``'s replies, each with its ``data``."""
    if board.phase_type != "movement":
        replies = _Replies(entries)
        if board.phase_type == "retreats":
            retreats.adjudicate_retreats(board, entries, replies)
        else:
            adjustments.adjudicate_adjustments(board, entries, replies)
        for item in replies.items:
            if item["result"] != "invalid":
                item["result"] = "valid"  # a bounce or a disband is the phase's outcome
                item.pop("reason", None)
        return _with_data(board, replies.items)
    m = movement_class(board.variant)(board)
    items, unit_of = _add_orders(m, entries)
    m.prepare()
    answers = _answers(m, entries, items, unit_of, checking=True)
    m.release()
    return answers


def _order_entries(board: Board, entries: list) -> list[tuple[str, str]]:
    variant = board.variant
    out = []
    for n, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise RequestError(f"order {n + 1} must be an object with power and order")
        named, text = entry.get("power"), entry.get("order")
        if isinstance(named, str):
            power = named if named in variant.powers else variant.power(named)
        else:
            power = None
        if named is None:
            raise RequestError(f'order {n + 1} must name its power in "power"', [entry])
        if power is None:
            raise RequestError(f"order {n + 1} names unknown power {named!r}", [entry])
        if not isinstance(text, str):
            raise RequestError(f'order {n + 1} must have its text in "order"', [entry])
        out.append((power, text))
    return out


class _Replies:
    """The ``orders`` part of the response, filled in as orders are judged."""

    def __init__(self, entries: list[tuple[str, str]]) -> None:
        self.items = [
            {"power": p, "order": t, "canonical": None, "result": None} for p, t in entries
        ]

    def __call__(self, index: int, result: str, reason: str | None = None, canonical=None) -> None:
        item = self.items[index]
        item["result"] = result
        if canonical is not None:
            item["canonical"] = canonical
        if reason:
            item["reason"] = reason
        elif "reason" in item and result != "invalid":
            del item["reason"]


def _judge(board: Board, entries: list[tuple[str, str]], written: bool = False) -> dict:
    response: dict = {"orders": []}
    if board.phase_type == "movement":
        written = written and not _replies_read_again(board.variant)
        units, dislodged, contested = _movement(board, entries, response, written)
        civil: list[Unit] = []
    elif board.phase_type == "retreats":
        replies = _Replies(entries)
        response["orders"] = replies.items
        # A dislodged unit its power gave no retreat order is disbanded: removed by default,
        # so listed with the adjustments' default removals in ``civil_disorder``.
        units, civil = retreats.adjudicate_retreats(board, entries, replies)
        _with_data(board, replies.items)
        dislodged, contested = [], set()
    else:
        replies = _Replies(entries)
        response["orders"] = replies.items
        units, civil = adjustments.adjudicate_adjustments(board, entries, replies)
        _with_data(board, replies.items)
        dislodged, contested = [], set()
    response["units"] = units_json(units)
    pending = [d for d in dislodged if d["retreats"]]
    response["dislodged"] = dislodged
    response["contested"] = sorted(contested)
    centres = dict(board.centres)
    next_phase, winner = _advance(board, units, centres, bool(pending))
    response["supply_centers"] = _centres_json(board.variant, centres)
    response["civil_disorder"] = units_json(civil)
    response["next_phase"] = next_phase
    response["winner"] = winner
    for rule in board.variant.plugins:
        rule.finish_response(board, response)
    return response


@cache
def _replies_read_again(variant: Variant) -> bool:
    """Whether a rule of the variant reads the replies once they are made, to change them or
    the response: its resolver's ``annotate`` (the railroad's stops) or ``finish_response``
    (the Chinese year's end)."""
    resolver: type = movement_class(variant)  # as a plain type: mypy finds it unhashable
    if overrides(resolver, "annotate"):
        return True
    return any(type(r).finish_response is not Rule.finish_response for r in variant.plugins)


def _with_data(board: Board, items: list[dict]) -> list[dict]:
    """Give each reply with a canonical text its order as data (``data``), so that nobody
    outside the engine has to read order text: the server, the board and the rules alike."""
    table = _data_table(board.variant, board.phase_type)
    for item in items:
        _give_data(item, table, board.variant, board.phase_type)
    return items


def _give_data(item: dict, table: dict, variant: Variant, phase_type: str) -> None:
    """One reply's ``data`` from its canonical text, if it has one that parses."""
    canonical = item.get("canonical")
    if canonical:
        data = table.get(canonical, _UNKNOWN)
        if data is _UNKNOWN:
            data = _new_data(table, variant, canonical, phase_type)
        if data is not None:
            item["data"] = data


def reply_data(variant: Variant, canonical: str, phase_type: str) -> dict | None:
    """The structured form of one canonical order (``orders.order_data``), and for an
    order of a rule of the variant the rule's name as ``rule`` and its ``form`` (the rule's
    ``order_form``); None if the text does not parse. The caller gets its own copy."""
    table = _data_table(variant, phase_type)
    data = table.get(canonical, _UNKNOWN)
    if data is _UNKNOWN:
        data = _new_data(table, variant, canonical, phase_type)
    return None if data is None else dict(data)


# Each order text's reply data, and each movement order text as ``parse`` reads it, worked out
# once per (variant, phase type): the same orders come back phase after phase. A plain dict
# read in the loop costs far less than a cached function call per order (``parse``'s own
# cache); a table that outgrows _TABLE_SIZE is started afresh, so memory stays bounded.
_tables: Final[dict[tuple[str, Variant, str], dict]] = {}
_TABLE_SIZE: Final = 65536
_UNKNOWN: Final[Any] = object()  # typed Any: a sentinel that stands for any value of a table


def _table(what: str, variant: Variant, phase_type: str) -> dict:
    table = _tables.get((what, variant, phase_type))
    if table is None or len(table) >= _TABLE_SIZE:
        table = _tables[(what, variant, phase_type)] = {}
    return table


def _data_table(variant: Variant, phase_type: str) -> dict[str, ReplyData | None]:
    return _table("data", variant, phase_type)


def _new_data(
    table: dict, variant: Variant, canonical: str, phase_type: str, order: Order | None = None
) -> ReplyData | None:
    """The data of an order text not yet in the table, put there; None if it does not parse.

    ``order``: the order the text was written from, if known. A shared canonical order
    (``shared_order``, its own text) reads back as itself (tests/test_order_roundtrip.py),
    so its data is taken from it without parsing the text again: a new order's second parse
    was most of a batch's first sight of it."""
    if order is None or order.canonical != canonical or order.kind == SPECIAL:
        try:
            order = parse(variant, canonical, phase_type)
        except OrderError:
            table[canonical] = None
            return None
    data = order_data(order, canonical)
    if order.kind == SPECIAL:
        tokens = tokenize(canonical)
        for rule in variant.plugins:
            if rule.parse_order(variant, tokens, phase_type) is not None:
                data["rule"] = rule.name
                form = rule.order_form(order)
                if form is not None:
                    data["form"] = form
                break
    table[canonical] = shared = ReplyData(data)
    return shared


def _invalid(power: str, text: str, canonical: str | None, e: OrderError) -> dict:
    item = {"power": power, "order": text, "canonical": canonical, "result": "invalid"}
    if e.reason:
        item["reason"] = e.reason
    return item


@cache
def movement_class(variant: Variant) -> type[Movement]:
    """The core resolver with the mixins of the variant's rules in front of it."""
    mixins = tuple(rule.Movement for rule in variant.plugins if rule.Movement is not None)
    if not mixins:
        return Movement
    return type(f"{variant.id.title()}Movement", (*mixins, Movement), {})


def _add_orders(
    m: Movement, entries: list[tuple[str, str]]
) -> tuple[list[dict | None], list[int | None]]:
    """Give each order to its unit: the replies of the invalid ones, and each entry's unit."""
    variant = m.variant
    # The replies, one per entry; each is made once, when its order's answer is known.
    items: list[dict | None] = [None] * len(entries)
    orders: list[Order | None] = [None] * len(entries)
    specials: list[int] = []
    ordinary: list[int] = []
    numbered = False  # an order names a unit by number (F2 Mid-Pacific)
    parsed = _table("orders", variant, "movement")
    stacking = variant.stacking
    # Orders each power gives in each space that holds several units (Far East oceans,
    # Chinese entry spaces): more than it has units there, and some are one too many.
    shared: dict[tuple[str, str], int] | None = {} if stacking else None
    for index, (power, text) in enumerate(entries):
        order: Order | None = parsed.get(text)  # typed: read natively, compiled
        if order is None:
            try:
                order = parsed[text] = parse(variant, text, "movement")
            except OrderError as e:
                items[index] = _invalid(power, text, None, e)
                continue
        orders[index] = order
        if order.number is not None or order.target_number is not None:
            numbered = True
        alike = False  # an order for one of the alike units of a shared space
        if shared is not None and order.location is not None:
            where = province_of(order.location)
            if where in stacking:
                alike = True
                key = (power, where)
                shared[key] = shared.get(key, 0) + 1
        # A plug-in's order in a shared space (a Chinese army leaving) is given its unit as the
        # others there are, numbered ones first; its other orders go first (below).
        (specials if order.kind == SPECIAL and not alike else ordinary).append(index)
    refused = _one_a_turn(m, entries, orders)
    if shared:
        refused.update(_one_too_many(m, entries, orders, refused, shared))
    # A plug-in's own orders (a canal permit) go first: one may give a unit its order, and
    # the answer must not depend on where the player listed it. So do numbered ones (F2
    # Mid-Pacific, A2 Pacific Ocean Leave) before those that take any free unit of a shared space,
    # and of those first the ones that name a numbered unit they must not be (``F Indian Ocean
    # S F2 Indian Ocean - Java`` leaves fleet 2 to ``F Indian Ocean - Java``, listed before it
    # or not).
    if numbered:
        ordinary.sort(key=lambda index: _choice_rank(orders[index], stacking))  # type: ignore[arg-type]
    unit_of: list[int | None] = [None] * len(entries)  # entry index -> unit index
    for index in specials + ordinary:
        order = orders[index]
        try:
            if index in refused:
                raise refused[index]
            unit_of[index] = m.add_order(entries[index][0], order)  # type: ignore[arg-type]
        except OrderError as e:
            # Echoed as read: the kind the player wrote (``F Brest - Picardy`` for an army is
            # refused, and so is its echo sent again), the unit's own only where none was
            # written. An echo with the real kind would be a legal order the server stores.
            kind = None if order.unit else m.kind_at(order.location)  # type: ignore[union-attr]
            items[index] = _invalid(*entries[index], order.text(kind), e)  # type: ignore[union-attr]
    return items, unit_of


def _one_too_many(
    m: Movement,
    entries: list[tuple[str, str]],
    orders: list[Order | None],
    refused: dict[int, OrderError],
    shared: dict[tuple[str, str], int],
) -> dict[int, OrderError]:
    """More orders for a power's units in a shared space than it has units there: the ones
    in excess are the last written, refused as such, whatever their kinds. (Orders are given
    their units in another sequence, a rule's own and numbered ones first, so without this
    which order was left without a unit hung on the kinds and places of the others: a Leave
    written last took an army from a move written first.)

    Each order there is tried alone on a resolver of its own, in the order written. One the
    map and the position refuse keeps its own reason; one that takes no unit (an Enter brings
    one on) is no claim; a number named again takes no other unit (``F2`` twice: the second is
    refused as a second order for F2). Returns entry index -> the error it is refused with."""
    out: dict[int, OrderError] = {}
    for (power, province), given in shared.items():
        mine = [i for i, u in enumerate(m.units) if u.power == power and u.province == province]
        if given <= len(mine) or not mine:
            continue
        kind = m.units[mine[0]].kind
        claims = 0
        numbers: set[int] = set()
        for index, order in enumerate(orders):
            if order is None or index in refused or entries[index][0] != power:
                continue
            if order.location is None or province_of(order.location) != province:
                continue
            trial = type(m)(m.board)
            try:
                trial.add_order(power, order)
            except OrderError as e:
                out[index] = e  # its own reason, not a lack of units
                continue
            if all(trial.order[i] is None for i in mine):
                continue  # took no unit of the space (an Enter)
            if order.number is not None:
                if order.number in numbers:
                    continue  # refused as a second order for that unit
                numbers.add(order.number)
            claims += 1
            if claims > len(mine):
                out[index] = OrderError(only_units(power, kind, len(mine), province))
    return out


def _choice_rank(order: Order, stacking: frozenset[str]) -> int:
    """When an order is given its unit (``_add_orders``): its own number first, then a number
    it names of another unit, then none. Only a number in a space several units share counts:
    elsewhere ``F1 Tokyo`` is ``F Tokyo``, and of two orders for it the first listed is the
    one given, whichever is numbered."""
    if order.number is not None and province_of(order.location) in stacking:  # type: ignore[arg-type]
        return 0
    target = order.target
    if order.target_number is not None and target is not None and province_of(target) in stacking:
        return 1
    return 2


def _one_a_turn(m: Movement, entries, orders: list[Order | None]) -> dict[int, OrderError]:
    """Orders a power may give once a turn (a railroad ride, a canal permit: the plug-ins'
    ``one_a_turn``) given twice or more: every one of them is refused, so the answer never
    depends on which the player listed first. Only orders legal on their own count: one that
    is not (no such unit, not the power's, off the line, no fleet to let through) is refused
    for its own reason, whatever else was given, and leaves the others to be judged.
    Returns entry index -> the error it is refused with."""
    hooks = _once_a_turn_hooks(m.variant)
    if not hooks:
        return {}
    groups: dict[tuple[str, str], list[int]] | None = None
    for index, order in enumerate(orders):
        for hook in hooks:
            rule = order and hook(order)
            if rule:
                if groups is None:
                    groups = {}
                groups.setdefault((entries[index][0], rule), []).append(index)
    refused: dict[int, OrderError] = {}
    if groups is None:
        return refused
    for (power, rule), indexes in groups.items():
        if len(indexes) < 2:
            continue
        legal = []
        for index in indexes:
            # Alone on a resolver of its own: what the map and the position say of it.
            try:
                type(m)(m.board).add_order(power, orders[index])  # type: ignore[arg-type]
            except OrderError as e:
                refused[index] = e
            else:
                legal.append(index)
        # The same order twice (a line pasted twice) is one order given twice, as for any
        # unit: the first is taken, the second refused as a second order.
        if len(legal) > 1 and len({orders[index].text() for index in legal}) > 1:  # type: ignore[union-attr]
            given = "; ".join(entries[index][1] for index in legal)
            for index in legal:
                refused[index] = OrderError(
                    "{rule}, and {power} gave {count} ({given}): none is taken",
                    rule=rule,
                    power=power,
                    count=len(legal),
                    given=given,
                )
    return refused


@cache
def _once_a_turn_hooks(variant: Variant) -> tuple:
    return tuple(p.one_a_turn for p in variant.plugins if type(p).one_a_turn is not Rule.one_a_turn)


def _answers(
    m: Movement,
    entries: list[tuple[str, str]],
    items: list,
    unit_of: list[int | None],
    checking: bool,
    written: bool = False,
) -> list[dict]:
    """The replies, each with its ``data``: to the orders given to units, after a check
    ``valid`` and what each needs from other powers, after the adjudication each result and
    its reason; the invalid replies ``_add_orders`` made get their data here too (one pass
    over the replies, the data looked up as each is made). ``written``: each reply to a unit's
    order as its JSON in parts (``reply_parts``) instead of a dict."""
    variant, phase_type = m.variant, m.board.phase_type
    table = _data_table(variant, phase_type)
    # A unit's order's canonical text read here, not through a call a reply, unless a rule's
    # resolver writes its own; and so is the answer of a move or support that worked or a
    # hold that stayed (``Movement.outcome``'s first answers, most replies), unless a rule's
    # resolver gives its own outcomes.
    cls: type = type(m)
    own_canonical = not overrides(cls, "canonical")
    own_outcome = not checking and not overrides(cls, "outcome")
    kinds, results, matches, dislodged_by = m.kind, m.result, m.matches, m.dislodged_by
    orders, count = m.order, len(m.order)
    key = "needs" if checking else "reason"
    for index, i in enumerate(unit_of):
        if i is None:  # refused by _add_orders, which made its reply
            _give_data(items[index], table, variant, phase_type)
            continue
        if checking:
            result, note = "valid", m.needs(i)
        elif (
            own_outcome
            and i < count
            and (
                (results[i] and (kinds[i] == MOVE or (kinds[i] == SUPPORT and matches[i])))
                or (kinds[i] == HOLD and dislodged_by[i] is None)
            )
        ):
            result, note = "succeeds", None
        else:
            result, note = m.outcome(i)  # a method call: compiled, a direct one
        power, text = entries[index]
        order = orders[i] if i < count else None  # None: a rule's own order
        data: Any  # the order's, or _UNKNOWN until looked up
        if own_canonical and order is not None and order.canonical:
            canonical, data = order.canonical, order.data  # the two made together
        else:
            canonical = m.canonical(i)
            data = _UNKNOWN
        if data is _UNKNOWN or data is None:
            data = table.get(canonical, _UNKNOWN)
            if data is _UNKNOWN:
                data = _new_data(table, variant, canonical, phase_type, order)
        if written:
            parts = reply_parts(power, text, canonical, result, note or None, data)
            if parts is not None:
                items[index] = parts
                continue
        # Each reply made whole in one go: a reply given its keys one by one grew its table
        # on the way, which cost a few per cent of a phase.
        if note:
            item = {"power": power, "order": text, "canonical": canonical, "result": result,
                    key: note, "data": data}  # fmt: skip
        else:
            item = {"power": power, "order": text, "canonical": canonical, "result": result,
                    "data": data}  # fmt: skip
        if data is None:
            del item["data"]
        items[index] = item
    return Written(items) if written else items


def _movement(
    board: Board, entries, response, written: bool = False
) -> tuple[list[Unit], list[dict], set[str]]:
    m = movement_class(board.variant)(board)
    items, unit_of = _add_orders(m, entries)
    m.run()
    response["orders"] = _answers(m, entries, items, unit_of, checking=False, written=written)
    units, dislodged = m.final_units()
    occupied = {u.province for u in units}
    contested = m.contested(occupied)
    out = []
    for d in dislodged:
        entry = d.unit.as_json()
        entry["attacker_from"] = d.attacker_from
        if d.via_convoy:
            entry["via_convoy"] = True
        entry["retreats"] = retreats.retreat_options(board.variant, d, occupied, contested)
        out.append(entry)
    m.annotate(response)
    m.release()
    return units, out, contested


def _advance(board: Board, units: list[Unit], centres: dict[str, str], retreats_pending: bool):
    """The next phase and the winner; updates ``centres`` when ownership changes."""
    variant = board.variant
    season, year, kind = board.season, board.year, board.phase_type
    if kind == "movement" and retreats_pending:
        return {"season": season, "year": year, "type": "retreats"}, None
    winner = None
    if kind != "adjustments" and season == variant.adjustments_after:
        for u in units:
            if u.province in variant.centre_exclusions:  # a supply centre
                if variant.is_centre_for(u.province, u.power):
                    centres[u.province] = u.power
                else:
                    centres.pop(u.province, None)
        counts = adjustments.centre_counts(variant, centres)
        winner = _winner(board, counts)
        after = Board(variant, "winter", year, "adjustments", units, centres)
        if winner is None and adjustments.anything_to_do(after, counts):
            return {"season": "winter", "year": year, "type": "adjustments"}, None
        return _next_movement(variant, season, year), winner
    if kind == "adjustments":
        return {"season": variant.seasons[0], "year": year + 1, "type": "movement"}, None
    return _next_movement(variant, season, year), None


def _next_movement(variant: Variant, season: str, year: int) -> dict:
    seasons = variant.seasons
    i = seasons.index(season) if season in seasons else len(seasons) - 1
    if i + 1 < len(seasons):
        return {"season": seasons[i + 1], "year": year, "type": "movement"}
    return {"season": seasons[0], "year": year + 1, "type": "movement"}


def _winner(board: Board, counts: dict[str, int]) -> str | None:
    """The power that reached the victory threshold; ``counts`` are its centre counts."""
    threshold = board.options.get("victory_centers", board.variant.victory_centers)
    if not isinstance(threshold, int) or threshold <= 0:
        return None
    most = max(counts.values(), default=0)
    leaders = [p for p, n in counts.items() if n >= threshold and n == most]
    return leaders[0] if len(leaders) == 1 else None  # a tie at the top wins nobody


def _centres_json(variant: Variant, centres: dict[str, str]) -> dict[str, list[str]]:
    """Each power's centres, in order: the map's centres are in order already
    (``Variant.centres_in_order``), and sorting those owned took a third of this."""
    out: dict[str, list[str]] = {p: [] for p in variant.powers}
    placed = 0
    for province in variant.centres_in_order:
        power = centres.get(province)
        if power is not None:
            out[power].append(province)
            placed += 1
    if placed == len(centres):
        return out
    out = {p: [] for p in variant.powers}  # a centre that is none of the map's: sorted here
    for province in sorted(centres):
        out[centres[province]].append(province)
    return out
