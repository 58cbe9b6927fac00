"""Reasons as structured data: the English sentence, and the template and names it was made
from, so that a server can say the same reason in its reader's language.

Every reason the engine gives is written as ``why("template with {names}", names=...)``;
each name is a province, power, unit or order as the variant spells it (never translated), or
another reason (a reason may quote one). Servers extract the templates with the keyword
``why`` (and ``OrderError``) and look them up in their own translations.
"""

from __future__ import annotations

from ._mypyc import mypyc_attr

TYPE_CHECKING = False  # not typing's: importing typing costs start-up time
if TYPE_CHECKING:
    from typing import Any, Final


@mypyc_attr(native_class=False)  # a str: mypyc makes no native class of one
class Reason(str):
    """An English reason that remembers its template and its names; it is a plain ``str`` for
    everything that only wants the words."""

    __slots__ = ("template", "args")
    template: str
    args: dict[str, object]

    def __new__(cls, template: str, **args: object) -> Reason:
        return why(template, **args)

    def words(self) -> dict:
        """The JSON form: ``{"template": ..., "args": {...}}``, quoted reasons nested alike."""
        return {"template": self.template, "args": {k: words_of(v) for k, v in self.args.items()}}


_new_str: Final = str.__new__


def why(template: str, **args: object) -> Reason:
    """A reason from its template (English, ``str.format`` fields) and the names it quotes.

    Made with ``str.__new__`` directly rather than by calling the class: reasons are made in
    the resolver's answers, and the class call cost a quarter of a reason's time. A reason
    is never changed once made, so the same reason is made once and shared: one without names
    by its template, one whose names are all plain text or whole numbers by template and
    names (the same few bounces and cuts come back phase after phase; ``str.format_map`` cost
    four times an f-string)."""
    if not args:
        self = _plain.get(template)
        if self is not None:
            return self
    else:
        # The shared reasons are a tree: template, then each name and its value in the order
        # given, then None. Walking it reads only dicts by text and whole numbers, the
        # interpreter's busiest code: a key tuple made, hashed and compared for each reason
        # ran code of its own, which the processor's instruction cache no longer held.
        node: Any = _tree.get(template)
        for name, value in args.items():
            if node is None:
                break
            kind = type(value)
            if kind is not str and kind is not int:  # 1 and True, a reason and its words
                node = None
                break
            node = node.get(name)
            if node is not None:
                node = node.get(value)
        else:
            if node is not None:
                node = node.get(None)  # the reason, where the names end
                if node is not None:
                    return node  # type: ignore[return-value]
    self = _new_str(Reason, template.format_map(args) if args else template)
    self.template = template
    self.args = args
    if args:
        _share(template, args, self)
    elif len(_plain) < _PLAIN_SIZE:
        _plain[template] = self
    return self


def _share(template: str, args: dict, reason: Reason) -> None:
    """Put a reason in the tree, unless a name is not plain text or a whole number, or is a
    long text (an order a player typed is not worth keeping)."""
    global _shared_count
    for value in args.values():
        kind = type(value)
        if (kind is not str and kind is not int) or (kind is str and len(value) > 100):
            return
    if _shared_count >= _SHARED_SIZE:
        _tree.clear()
        _shared_count = 0
    node: dict = _tree.setdefault(template, {})
    for name, value in args.items():
        node = node.setdefault(name, {}).setdefault(value, {})
    node[None] = reason  # under None: the same template may be given more names elsewhere
    _shared_count += 1


# Reasons without names, by template; bounded in case a caller makes templates at run time.
_plain: Final[dict[str, Reason]] = {}
_PLAIN_SIZE: Final = 4096
# Reasons with names, by template, then each name and value (``_share``); started afresh when
# full.
_tree: Final[dict[str, dict]] = {}
_shared_count = 0
_SHARED_SIZE: Final = 16384


# Reasons the resolver's busiest call sites keep themselves, under a key each site makes: the
# template, then the values of its names in the order the site always passes them (str and int
# only, so 1 and True never meet). ``why`` takes its names as keywords, and a call with
# keywords builds a dict every time, which cost more than the rest of the reason; a tuple and
# one lookup cost a fifth of it. Started afresh when full.
kept: Final[dict[tuple, Reason]] = {}


def keep(key: tuple, reason: Reason) -> Reason:
    """Keep a reason under the key its call site made (``kept``), and return it."""
    if len(kept) >= _SHARED_SIZE:
        kept.clear()  # cleared, not replaced: the call sites hold this dict
    kept[key] = reason
    return reason


def words_of(value: object) -> object:
    """A name as JSON: a quoted reason as its words, anything else as its text."""
    return value.words() if isinstance(value, Reason) else str(value)


def reason_words(reason: str) -> dict:
    """The words of any reason: a plain string (from a rule that gave no template) is its own
    template, with no names."""
    if isinstance(reason, Reason):
        return reason.words()
    return {"template": reason, "args": {}}


def add_words(reply: object) -> object:
    """Give every reason in an answer (an order's ``reason`` or ``needs``, a ledger line's
    ``detail``) its words beside it, as ``reason_words`` and so on: the structured form a
    server translates. The JSON the CLI writes leaves them out; this is for in-process use."""
    if isinstance(reply, dict):
        for key, value in list(reply.items()):
            if isinstance(value, Reason):
                reply[f"{key}_words"] = value.words()
            elif isinstance(value, (dict, list)):
                add_words(value)
    elif isinstance(reply, list):
        for value in reply:
            add_words(value)
    return reply


def reason_template(text: str) -> str:
    """Marks a template kept in a table (chosen at run time) so that servers gather it."""
    return text


def either(names: list[str]) -> object:
    """Names offered as alternatives (``Convoy or TSR``, ``A, B or C``), quoted in a reason as
    words of their own, so that a server says the "or" in its reader's language too (the
    names stay as the variant spells them). One name is itself."""
    if len(names) < 2:
        return names[0] if names else ""
    if len(names) == 2:
        return why("{first} or {last}", first=names[0], last=names[1])
    return why("{first}, {rest}", first=names[0], rest=either(names[1:]))


def listed(names: list[str]) -> object:
    """Names in a list (``A, B, C``), quoted in a reason as words of their own, so that a server
    writes the list as its reader's language does (``A、B、C`` in Chinese and Japanese). One
    name is itself."""
    if len(names) < 2:
        return names[0] if names else ""
    return why("{first}, {rest}", first=names[0], rest=listed(names[1:]))


# Templates several phases share.
# A unit number (F2) beyond the power's units in a shared space, in any phase: worded for
# none, one and several (``no_number``).
_NO_NUMBER: Final = {
    0: reason_template("{power} has no unit in {province}, so there is no number {number}"),
    1: reason_template("{power} has one unit in {province}, so there is no number {number}"),
}
_NO_NUMBERS: Final = reason_template(
    "{power} has {count} units in {province}, so there is no number {number}"
)


def no_number(power: str, count: int, province: str, number: int) -> Reason:
    """Why a power's unit ``number`` in a shared space does not exist: it has ``count``."""
    template = _NO_NUMBER.get(count, _NO_NUMBERS)
    return why(template, power=power, count=count, province=province, number=number)


# More orders for a power's units in a shared space (an entry space, an ocean) than it has
# units there: the last written are refused with this (``only_units``).
_ONLY_ONE: Final = {
    "A": reason_template(
        "{power} has only one army in {province}, and an earlier order commands it"
    ),
    "F": reason_template(
        "{power} has only one fleet in {province}, and an earlier order commands it"
    ),
}
_ONLY_SOME: Final = {
    "A": reason_template(
        "{power} has only {count} armies in {province}, and earlier orders command them all"
    ),
    "F": reason_template(
        "{power} has only {count} fleets in {province}, and earlier orders command them all"
    ),
}


def only_units(power: str, kind: str, count: int, province: str) -> Reason:
    """Why an order for a power's unit in a shared space is one too many: the power has
    ``count`` units of ``kind`` there, each commanded by an order written before this one."""
    template = (_ONLY_ONE if count == 1 else _ONLY_SOME).get(kind, _ONLY_SOME["A"])
    return why(template, power=power, count=count, province=province)


UNIT_IS: Final = {
    "A": reason_template("the unit in {province} is an army"),
    "F": reason_template("the unit in {province} is a fleet"),
}
DISLODGED_IS: Final = {
    "A": reason_template("the dislodged unit in {province} is an army"),
    "F": reason_template("the dislodged unit in {province} is a fleet"),
}
WHICH_COAST: Final = reason_template("say which coast of {province}: {coasts}")
