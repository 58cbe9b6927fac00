"""Orders: reading the forgiving notation players type, and writing the canonical one.

Parsing only understands the words; whether an order is legal on the current board is decided
later (``movement.Movement.add_order``), so that a parse can be cached by its text and reused.

An order is read exactly as written or refused with a reason, never silently as another order.
How names are read (``Variant.phrases`` holds the forms, built by ``variant._names``):

- A name matches when the tokens are that name's own words, or the words of one of its other
  spellings (abbreviation, aliases), in any case, dots ignored (``St. Petersburg``,
  ``st petersburg``, ``NTH``), or when one token is a whole spelling run together
  (``andamansea``, ``and.s``). Words are never glued across a space or a hyphen: ``SWE - DEN``
  is Sweden to Denmark, never Sweden; ``CAN - TON`` is never Canton, ``KYO to`` never Kyoto.
- A hyphen is a move, except inside a name whose own spelling has one (``Mid-Atlantic Ocean``,
  ``Indo-China``), where it may also be written as a space or left out, and between the words
  of a name spelt with spaces (``North-Pacific-Ocean``, ``New-Guinea``), where it cannot be a
  move between two names (``variant._names``). An underscore is a space; ``the`` before a
  name is no word of it (``F the North Pacific``).
- A coast follows the name: ``Spain/nc``, ``spa(nc)``, ``Spain (North Coast)``, ``spa nc``.
- Loose forms, tried last: a spelling with a dot inside a word (``AND.S``) written as separate
  words that keep the dot (``And. S.``). Without the dot (``AND S``) the words are read as
  written: the Andaman Sea and a support.
- Keywords (``A``, ``F``, ``S``, ``M``, ``to``...) are no name's words (``tests/test_parser.py``
  checks every variant), so an order's words mostly allow one reading: ``A PER M`` is Persia
  and a move with no destination, refused as such, never Perm holding. Where the words allow
  several (a name inside a longer one, a hyphen inside a name, a loose form), the reading is
  the first that makes a whole order, trying in turn: every name as written (exact forms)
  before any loose form, then at each name from left to right the longest name first. So of
  two readings that both make an order, the one with every name token read as written wins;
  ``F And. S. - Bay of Bengal`` is read loosely only because ``And.`` then ``S.`` (support)
  makes no order. (No variant has a hyphenated name whose parts are names themselves, where
  ``A - B`` would be a hold or a move; the tests check that too.)
- When no reading makes an order, the error is that of the reading that got furthest. A
  name that is none is named as the player wrote it, whole (``Pacific-Ocean``), with the
  names that hold its words when a few do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from .readonly import ReplyData
from .reasons import Reason, listed, reason_template, why
from .variant import INNER_DOT, Variant, compass_halves, normalise, province_of

# ``typing`` only for the type checker (and mypyc): importing it cost every batch's start-up a
# few milliseconds, and these annotations are never evaluated.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

# The kinds of order (Final: compiled, constants rather than globals looked up at every use).
HOLD: Final = "hold"
MOVE: Final = "move"
SUPPORT: Final = "support"
CONVOY: Final = "convoy"
RETREAT: Final = "retreat"
DISBAND: Final = "disband"
BUILD: Final = "build"
REMOVE: Final = "remove"
WAIVE: Final = "waive"
SPECIAL: Final = "special"  # a rule's own order (a canal permit)


# What a reading expected where an order ends too soon ("expected {what}"), made once: a
# reason is an object, and parsing made several for every order it read.
PROVINCE: Final = why("a province")
UNIT_PROVINCE: Final = why("the unit's province")
DESTINATION: Final = why("a destination")
SUPPORTED_PROVINCE: Final = why("the supported unit's province")
SUPPORTED_DESTINATION: Final = why("the supported move's destination")
CONVOYED_PROVINCE: Final = why("the convoyed army's province")
CONVOYED_DESTINATION: Final = why("the convoyed army's destination")
RETREAT_DESTINATION: Final = why("a retreat destination")
BUILD_PLACE: Final = why("where to build")
REMOVE_PLACE: Final = why("the unit to remove")
NUMBERED_FROM_1: Final = reason_template(
    "there is no unit {typed}: the units a power has in one space are numbered from 1 "
    "({unit}1, {unit}2, ...)"
)
NO_SUCH_COAST: Final = {
    "nc": reason_template("{province} has no north coast"),
    "sc": reason_template("{province} has no south coast"),
    "ec": reason_template("{province} has no east coast"),
    "wc": reason_template("{province} has no west coast"),
}
ADJUSTMENT_ONLY: Final = {
    "movement": reason_template(
        "{order} orders belong in an adjustment phase, not a movement phase"
    ),
    "retreats": reason_template(
        "{order} orders belong in an adjustment phase, not a retreat phase"
    ),
}


class OrderError(ValueError):
    """An order that cannot be understood or given; its ``reason`` says what is wrong, as
    words a server can translate (``adjudication.reasons``)."""

    def __init__(self, template: str, **args: object) -> None:
        self.reason = template if isinstance(template, Reason) else why(template, **args)
        super().__init__(str(self.reason))


# Sets a field of a frozen Order, as a frozen dataclass's own ``__init__`` does.
_set_field: Final = object.__setattr__
# Compiled by mypyc (the optional build), this module is an extension, not a .py file. There an
# Order's own methods store its fields directly, which the class's frozen ``__setattr__`` never
# sees: ``object.__setattr__`` went through a generic lookup and call for each of the 13 fields
# (some 5 % of a compiled batch phase). Run as Python, the same stores would be refused.
_NATIVE: Final = not __file__.endswith(".py")


@dataclass(frozen=True, slots=True, init=False)
class Order:
    """One parsed order. Locations are canonical names (``Spain/nc`` for coasts)."""

    kind: str
    unit: str | None = None  # "A" or "F" as written; None when the order omits it
    location: str | None = None
    target_unit: str | None = None  # supported or convoyed unit's kind
    target: str | None = None  # supported or convoyed unit's location
    destination: str | None = None  # move, retreat, or the supported/convoyed move's end
    via: str | None = None  # "convoy", or a plug-in's route name such as "TSR"
    number: int | None = None  # F1, F2: several fleets of one power in one space
    extra: tuple = ()  # plug-in specific words, e.g. ("permit",) for the Suez canal
    # text() worked out in advance by shared_order (its unit is always known); not compared.
    canonical: str | None = field(default=None, compare=False, repr=False)
    # Whose unit a support names, and its number there (``S Japan F2 Mid-Pacific - Guam``):
    # only where one space holds several units.
    target_power: str | None = None
    target_number: int | None = None
    # The order as data (``order_data``) of its canonical text, made with it by shared_order:
    # each reply carries it, read from the order it already holds, where a table by text was a
    # lookup in memory the processor's caches no longer held. Not compared.
    data: ReplyData | None = field(default=None, compare=False, repr=False)
    # The answer of this order's last legality check and what it was checked against
    # (``movement.Movement.check_*``): the same order for a unit like the last one is not
    # checked again. Not compared.
    checked: tuple | None = field(default=None, init=False, compare=False, repr=False)

    def __init__(
        self,
        kind: str,
        unit: str | None = None,
        location: str | None = None,
        target_unit: str | None = None,
        target: str | None = None,
        destination: str | None = None,
        via: str | None = None,
        number: int | None = None,
        extra: tuple = (),
        canonical: str | None = None,
        target_power: str | None = None,
        target_number: int | None = None,
        data: ReplyData | None = None,
    ) -> None:
        """The dataclass's own ``__init__``, written out: the generated one stays interpreted
        in the compiled engine and looked ``object.__setattr__`` up for every field, and a
        fresh phase builds some ten orders (about a tenth of a compiled batch phase)."""
        if _NATIVE:
            self.kind = kind  # type: ignore[misc]
            self.unit = unit  # type: ignore[misc]
            self.location = location  # type: ignore[misc]
            self.target_unit = target_unit  # type: ignore[misc]
            self.target = target  # type: ignore[misc]
            self.destination = destination  # type: ignore[misc]
            self.via = via  # type: ignore[misc]
            self.number = number  # type: ignore[misc]
            self.extra = extra  # type: ignore[misc]
            self.canonical = canonical  # type: ignore[misc]
            self.target_power = target_power  # type: ignore[misc]
            self.target_number = target_number  # type: ignore[misc]
            self.data = data  # type: ignore[misc]
            self.checked = None  # type: ignore[misc]
            return
        s = _set_field
        s(self, "kind", kind)
        s(self, "unit", unit)
        s(self, "location", location)
        s(self, "target_unit", target_unit)
        s(self, "target", target)
        s(self, "destination", destination)
        s(self, "via", via)
        s(self, "number", number)
        s(self, "extra", extra)
        s(self, "canonical", canonical)
        s(self, "target_power", target_power)
        s(self, "target_number", target_number)
        s(self, "data", data)
        s(self, "checked", None)

    def _complete(self, canonical: str, data: ReplyData) -> None:
        """Gives a new shared order its text and data before anyone sees it (``shared_order``)."""
        if _NATIVE:
            self.canonical = canonical  # type: ignore[misc]
            self.data = data  # type: ignore[misc]
        else:
            _set_field(self, "canonical", canonical)
            _set_field(self, "data", data)

    def remember_check(self, checked: tuple) -> None:
        """Keeps a legality check's answer with what it was checked against (``checked``)."""
        if _NATIVE:
            self.checked = checked  # type: ignore[misc]
        else:
            _set_field(self, "checked", checked)

    def target_text(self) -> str:
        """The supported or convoyed unit as written in the canonical order."""
        power = f"{self.target_power} " if self.target_power else ""
        number = self.target_number or ""
        if self.target_unit is None:  # refused for want of a unit there: echoed as typed
            return f"{power}{self.target}"
        return f"{power}{self.target_unit}{number} {self.target}"

    def text(self, unit: str | None = None) -> str:
        """The canonical notation of the contract; a unit's number (``F2``, in a space several
        units share) is kept, so the text names the same unit when it is sent again."""
        u = unit or self.unit or ""
        if self.number is not None:
            u = f"{u}{self.number}"
        # A unit of no known kind (a refused order that named none, for a space where none
        # stands) is left out of the echo, as typed (``Armenia - Sevastopol``), rather than
        # shown as a placeholder the player never wrote.
        here = f"{u} {self.location}" if u else f"{self.location}"
        kind = self.kind
        if kind == HOLD:
            return f"{here} H"
        if kind == MOVE:
            via = f" via {_via_word(self.via)}" if self.via else ""
            return f"{here} - {self.destination}{via}"
        if kind == SUPPORT:
            if self.destination is None:
                return f"{here} S {self.target_text()}"
            return f"{here} S {self.target_text()} - {self.destination}"
        if kind == CONVOY:
            # A power named stays (``C France A Brest``): a refused order's echo, sent again,
            # is refused again; a legal convoy's canonical order names none.
            return f"{here} C {self.target_text()} - {self.destination}"
        if kind == RETREAT:
            return f"{here} R {self.destination}"
        if kind == DISBAND:
            return f"{here} D"
        if kind in (BUILD, REMOVE):
            verb = "Build" if kind == BUILD else "Remove"
            # One that names no unit kind is refused; its echo leaves the kind out too
            # (``Build Paris``), as typed, rather than showing a placeholder.
            return f"{verb} {here}"
        if kind == WAIVE:
            return "Waive"
        return " ".join(str(x) for x in self.extra)


@lru_cache(maxsize=16384)
def shared_order(
    kind: str,
    unit: str | None = None,
    location: str | None = None,
    target_unit: str | None = None,
    target: str | None = None,
    destination: str | None = None,
    via: str | None = None,
) -> Order:
    """An Order with these fields, built once and then reused.

    Orders are immutable and the legality checks make the same canonical orders every phase;
    a frozen dataclass is slow to build, a cache hit is not. Its text is worked out here too.
    """
    order = Order(kind, unit, location, target_unit, target, destination, via)
    text = order.text()
    # Given its text and data before anyone sees it: building the order again with them cost
    # as much as the rest of a new shared order.
    order._complete(text, ReplyData(order_data(order, text)))
    return order


def order_data(order: Order, canonical: str) -> dict:
    """An order as the structured data of the contract (``kind`` and the fields it uses, in
    this order). Each field read by name: compiled, a read of its slot, where ``getattr`` by a
    name in a list went the generic way for each."""
    data: dict = {"kind": order.kind, "order": canonical}
    if order.unit is not None:
        data["unit"] = order.unit
    if order.location is not None:
        data["location"] = order.location
    if order.target_power is not None:
        data["target_power"] = order.target_power
    if order.target_unit is not None:
        data["target_unit"] = order.target_unit
    if order.target_number is not None:
        data["target_number"] = order.target_number
    if order.target is not None:
        data["target"] = order.target
    destination = order.destination
    if destination is not None:
        data["destination"] = destination
    if order.via is not None:
        data["via"] = order.via
    if destination and "/" in destination:
        data["coast"] = destination.split("/", 1)[1]
    if order.extra:
        data["words"] = list(order.extra)
    return data


def _via_word(via: str) -> str:
    return "Convoy" if via == "convoy" else via


# Longer than any order of any map written out in full (the server takes at most 200).
MAX_ORDER_LENGTH: Final = 400


# -- tokenising -------------------------------------------------------------------------------

# Arrows and the dashes pasted text brings: en and em dash, minus sign, hyphens, full-width,
# and the dashes a Japanese keyboard types for one: the horizontal bar and the long-vowel
# mark (ー, also its half-width form, which NFKC makes the same).
_ARROWS: Final = re.compile("=>|→|[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u30fc\ufe63\uff0d]")
# Characters drawn as nothing that pasting brings: a byte-order mark, zero-width joiners, a
# word joiner, a soft hyphen and the direction marks are no character at all; a zero-width
# space is a space (``A\u200bMoscow`` is A Moscow).
_INVISIBLE: Final = {
    **dict.fromkeys(map(ord, "\ufeff\u200c\u200d\u2060\u00ad\u200e\u200f")),
    ord("\u200b"): " ",
}
# Chinese and Japanese punctuation that NFKC leaves as it is: the ideographic full stop and
# comma, and the corner-bracket quotes, read as the ASCII marks they are ("A Mos H。").
_CJK_PUNCTUATION: Final = str.maketrans("\u3002\u3001\u300c\u300d\u300e\u300f", '.,""""')
_ARROWHEAD: Final = re.compile("(?<![-=])>")
_TOKEN: Final = re.compile(r"[.']*[a-z0-9][a-z0-9.']*|[-/(),:]")  # a word has a letter or digit
# Besides the tokens' characters only spaces and punctuation that ends or quotes a phrase may
# be dropped; any other character (``Par$``, ``Par\ufffd``, ``Mün``) would silently leave a
# different word, ``Par`` for Paris, so an order holding one is refused.
_UNREADABLE: Final = re.compile("[^\\sa-z0-9.'/(),:;!?>\"\u2018\u2019\u201c\u201d-]")

UNIT_WORDS: Final = {"a": "A", "army": "A", "f": "F", "fleet": "F"}
HOLD_WORDS: Final = {"h", "hold", "holds", "stand", "stands"}
MOVE_WORDS: Final = {"-", "m", "move", "moves", "to", "attack", "attacks"}
SUPPORT_WORDS: Final = {"s", "support", "supports"}
CONVOY_WORDS: Final = {"c", "convoy", "convoys"}
RETREAT_WORDS: Final = {"r", "retreat", "retreats"}
DISBAND_WORDS: Final = {"d", "disband", "disbands"}
BUILD_WORDS: Final = {"build", "builds", "b"}
REMOVE_WORDS: Final = {"remove", "removes"}
WAIVE_WORDS: Final = {"waive", "waives", "pass"}
COAST_WORDS: Final = {
    "nc": "nc", "north": "nc", "n": "nc", "sc": "sc", "south": "sc",
    "ec": "ec", "east": "ec", "e": "ec", "wc": "wc", "west": "wc", "w": "wc",
}  # fmt: skip
_UNIT_NUMBER: Final = re.compile(r"^(?:(a)(?:rmy)?|(f)(?:leet)?)(\d+)$")  # A2, Army2, Fleet2
_NUMBER_STARTS: Final = frozenset("0123456789-")  # the first characters of a unit's number apart
# The words a coast after a name may start with (``/nc``, ``(sc)``, ``nc``, ``north coast``):
# any other next word skips looking for one.
_COAST_STARTS: Final = frozenset(("/", "(", *COAST_WORDS))
_VIA_WORDS: Final = {"via", "by"}
_CLOSING: Final = {")"}
_COAST_WORD: Final = {"coast"}
_COAST_C: Final = {"c"}


_PUNCTUATION: Final = frozenset("-/(),:")
# The words of the grammar (no name's words: ``tests/test_parser.py``), for reasons: one of them
# where a name belongs is named as what it is, never as a province that does not exist.
ORDER_WORDS = frozenset().union(
    UNIT_WORDS, HOLD_WORDS, MOVE_WORDS, SUPPORT_WORDS, CONVOY_WORDS, RETREAT_WORDS,
    DISBAND_WORDS, BUILD_WORDS, REMOVE_WORDS, WAIVE_WORDS, _VIA_WORDS, _PUNCTUATION,
)  # fmt: skip
_ARROW_TAIL = frozenset(("-", "to"))
_ONLY = (0, 1)  # a place with one candidate name, taken


def blank(text: object) -> bool:
    """Whether an order line is nothing at all: only spaces and the characters drawn as
    nothing that pasting brings (a zero-width space or joiner, a byte-order mark, a word
    joiner), which reading drops. A server drops such a line from a list of orders, as it
    drops an empty one."""
    if not isinstance(text, str):
        return False
    # Every invisible character is outside ASCII (isascii is a flag, not a scan): most lines
    # skip the translation, which had become a fifth of reading a new order.
    return not (text if text.isascii() else text.translate(_INVISIBLE)).strip()


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens, with a hyphen kept as its own token; stray dots are dropped."""
    return _tokens(_lowered(text))


def _tokens(lowered: str) -> list[str]:
    """``_TOKEN``'s tokens of lowered text."""
    if _plain(lowered):
        return lowered.replace("-", " - ").split()
    return _TOKEN.findall(lowered)


def _plain(lowered: str) -> bool:
    """Whether lowered text is only ASCII letters, digits, spaces and hyphens, as most orders
    are: every character readable, and the tokens the words once each hyphen stands apart
    (split so, a third of what the patterns cost)."""
    return lowered.isascii() and lowered.replace(" ", "").replace("-", "").isalnum()


def _described(char: str) -> str:
    """A character for a reason: itself and its Unicode name (a combining mark or a stray
    byte shows as nothing much on its own)."""
    from unicodedata import name  # only on this rare path

    return f"{char!r} ({name(char, f'U+{ord(char):04X}')})"


def _as_typed_char(text: str, found: str) -> str:
    """The character of ``text`` the player typed that lowering made ``found`` from: ``İ``
    lowers to ``i`` and a combining dot above, which the player never typed."""
    for char in text:
        if _UNREADABLE.search(_lowered(char)):
            return char
    return found  # a mark that only the whole text's normalisation left unreadable


def _lowered(text: str) -> str:
    # Every arrow but "=>" is outside ASCII (isascii is a flag, not a scan): most orders
    # skip the search, which was half the cost of reading one.
    if not text.isascii():
        from unicodedata import normalize  # only for text outside ASCII

        # Full-width letters and digits (ＭＯＳ, as Chinese and Japanese keyboards type
        # them) read as the letters they are, and their full stop (。) as a full stop.
        # A byte-order mark or a zero-width space that pasting brings is no character at all.
        text = normalize("NFKC", text.translate(_INVISIBLE)).translate(_CJK_PUNCTUATION)
        text = _ARROWS.sub(" - ", text.lower())
    else:
        text = text.lower()
        if "=>" in text:
            text = text.replace("=>", " - ")
    if "_" in text:  # ``North_Pacific_Ocean``: an underscore parts words as a space does
        text = text.replace("_", " ")
    if ">" in text:  # ``A Par > Bur``: a lone arrowhead is a move's dash too (``->`` is one)
        text = _ARROWHEAD.sub(" - ", text)
    return text


class _Reader:
    """A cursor over one reading of an order's words.

    ``keys`` are the tokens as matching keys (dots and case gone, punctuation kept). Each place
    a name is read may have several candidate names (see the module docstring); ``choices``
    says which candidate this reading takes at each place, and ``made`` records what was taken
    and how many there were, so that ``next_choices`` can step to the next reading.
    """

    __slots__ = ("tokens", "keys", "pos", "variant", "text", "choices", "made", "loose")

    def __init__(
        self,
        variant: Variant,
        text: str,
        tokens: list[str],
        keys: tuple[str, ...],
        choices: tuple[int, ...] = (),
        loose: bool = False,
    ) -> None:
        self.variant = variant
        self.text = text
        self.tokens = tokens
        self.keys = keys
        self.pos = 0
        self.choices = choices
        self.made: list[tuple[int, int]] = []
        self.loose = loose

    def peek(self, offset: int = 0) -> str | None:
        i = self.pos + offset
        return self.keys[i] if i < len(self.keys) else None

    def take(self) -> str | None:
        tok = self.peek()
        if tok is not None:
            self.pos += 1
        return tok

    def _dotted_letters(self, start: int) -> list[int]:
        """Where a run of single letters each with its dot from ``start`` may end, longest
        first: with the letter after them that has none (``K.S.U``, or an order's ``H``)
        where there is one, and without it."""
        end = start
        while end < len(self.tokens) and _DOTTED_LETTER.fullmatch(self.tokens[end]):
            end += 1
        if end > start and end < len(self.tokens) and _LETTER.fullmatch(self.tokens[end]):
            return [end + 1, end]
        return [end]

    def _dotted_abbreviation(self, start: int) -> None:
        """Initials with dots from ``start`` (``K.S.U.``, read as the letters ``k. s. u.``)
        that spell an abbreviation the variant does not take: refused as such, as typed
        (``refuse_abbreviation``), not as a province named by their first letter."""
        for end in self._dotted_letters(start):
            if end - start < 2:
                continue
            letters = [self.keys[i] for i in range(start, end)]
            typed = re.search(r"\.?\s*".join(letters) + r"\.?", self.text, re.IGNORECASE)
            shown = typed.group() if typed else ".".join(letters).upper() + "."
            refuse_abbreviation(self.variant, "".join(letters), shown)

    def _dotted_initials(self, start: int) -> None:
        """Three letters or more each with its dot from ``start`` (``S.E.I.O.``), a name's
        initials: refused naming that name, as its initials without dots are (``SEIO``), not as
        the support their first letter would be. Only on the way to an error."""
        for end in self._dotted_letters(start):
            if end - start < 3:
                continue
            letters = "".join(self.keys[start:end])
            names = _named_by_initials(self.variant).get(letters, [])
            if 0 < len(names) <= _MOST_SUGGESTED:
                self._did_you_mean(_typed_words(self.text, self.tokens[start:end]), names)

    def typed(self, index: int) -> str:
        """The token at ``index`` as the player typed it, for messages."""
        return _original(self.text, self.tokens[index])

    def typed_runs(self, index: int) -> list[tuple[str, tuple[str, ...], bool]]:
        """The words from ``index`` that may be one name the player wrote, longest first: as
        typed, their keys, and whether a plain space parts them. Words join by a hyphen or
        an underscore without a space (``Pacific-Ocean``, ``Pacific_Ocean``) or by a space
        (``Pacific Ocean``), never by a move's spaced dash, and up to an order's word, a
        name's first word or a power: a name that is none is named whole, not by its first
        word. The last is the token alone."""
        first = self.typed(index)
        keys = self.keys
        variant = self.variant
        words: list[tuple[str, bool]] = []  # (a word's pattern, whether a hyphen joins it)
        end = index + 1
        cut = len(keys[index]) <= 2
        while end < len(keys) and len(words) < _LONGEST_NAME:
            step = 2 if keys[end] == "-" else 1
            if end + step > len(keys):
                break
            key = keys[end + step - 1]
            if (
                key in ORDER_WORDS
                or key in _PUNCTUATION
                # A move to a name or a power: not part of this one, unless the run began with
                # a word of one or two letters, a name's word cut short, and a space follows
                # it (``So. China Sea``; ``Mo-Sev`` is a move).
                or (
                    (key in variant.name_starts or key in variant.power_names)
                    and not (cut and step == 1)
                )
            ):
                break
            words.append((re.escape(self.tokens[end + step - 1]), step == 2))
            end += step
        runs = []
        while words:
            pattern = rf"(?<![a-z0-9]){re.escape(first)}" + "".join(
                rf"[-_]{w}" if hyphen else rf"(?:_|\s+){w}" for w, hyphen in words
            )
            found = re.search(pattern + "(?![a-z0-9])", self.text, re.IGNORECASE)
            if found:
                typed = found.group()
                run = tuple(keys[i] for i in range(index, end) if keys[i] != "-")
                runs.append((typed, run, bool(re.search(r"\s", typed))))
            words.pop()
            end -= 2 if end - 2 >= index + 1 and keys[end - 2] == "-" else 1
        runs.append((first, (keys[index],), False))
        return runs

    def _no_such_name(self, start: int) -> None:
        """Where a name belongs and none was found: refused naming the words the player wrote
        as one (``Pacific-Ocean``), and the names that hold them (``Pacific Ocean``: the
        Mid-Pacific, North and South Pacific Oceans), if a few do."""
        runs = self.typed_runs(start)
        for typed, words, _ in runs:
            names = _names_holding(self.variant, words)
            if names:
                self._did_you_mean(typed, names)
        # Letters, three or more, that begin a few names (``Vlad``, ``Ara``, ``Ha Noi``).
        for typed, words, _ in runs:
            joined = "".join(w for w in words if w != "-")
            if len(joined) >= 3 and joined.isalpha():
                names = sorted(
                    {province_of(n) for k, n in self.variant.names.items() if k.startswith(joined)}
                )
                if 0 < len(names) <= _MOST_SUGGESTED:
                    self._did_you_mean(typed, names)
        # Initials (``SEIO``, ``ECS``): the names whose words begin with these letters.
        for typed, words, _ in runs:
            if len(words) == 1 and 3 <= len(words[0]) <= 6 and words[0].isalpha():
                names = _named_by_initials(self.variant).get(words[0], [])
                if 0 < len(names) <= _MOST_SUGGESTED:
                    self._did_you_mean(typed, names)
        typed = next(typed for typed, _, spaced in runs if not spaced)
        raise OrderError("there is no province called '{typed}'", typed=typed)

    def _did_you_mean(self, typed: str, names: list[str]) -> None:
        """Refused: no province is called what the player typed; it may be one of these."""
        if len(names) == 1:
            raise OrderError(
                "there is no province called '{typed}': did you mean {province}?",
                typed=typed,
                province=names[0],
            )
        raise OrderError(
            "there is no province called '{typed}': did you mean one of {provinces}?",
            typed=typed,
            provinces=listed(names),
        )

    def at_end(self) -> bool:
        return self.pos >= len(self.keys)

    def accept(self, words: set[str]) -> str | None:
        tok = self.peek()
        if tok is not None and tok in words:
            self.pos += 1
            return tok
        return None

    def skip_arrow(self) -> None:
        """The rest of an arrow after its first word: ``move to``, ``--``, ``R -``."""
        keys = self.keys
        while self.pos < len(keys) and keys[self.pos] in _ARROW_TAIL:
            self.pos += 1

    def unit(self) -> tuple[str | None, int | None]:
        """The unit word and its number (``F2``, also ``F 2``), if any. A number is any count
        of digits, for the board to refuse (``F9999``: the power has not that many units
        there); a number 0 or below (``F0``, ``F-1``) names no unit anywhere."""
        keys, pos = self.keys, self.pos
        tok = keys[pos] if pos < len(keys) else None
        if tok in UNIT_WORDS:
            # No name's words include a unit word, so "A" here is always the unit.
            kind = UNIT_WORDS[tok]
            # A number apart (``F 1``, ``F -1``) is rare: one look at the next word's start.
            after = keys[pos + 1] if pos + 1 < len(keys) else ""
            if after[:1] in _NUMBER_STARTS:
                if after.isdigit():  # "F 1 Mid-Pacific": apart, as typed
                    self.pos += 2
                    return kind, self._number(kind, after, self.pos - 2)
                if after == "-" and (self.peek(2) or "").isdigit() and self.peek(3) is not None:
                    raise OrderError(
                        NUMBERED_FROM_1,
                        typed=_typed_words(self.text, self.tokens[self.pos : self.pos + 3]),
                        unit=kind,
                    )
            self.pos += 1
            return kind, None
        if tok is not None:
            m = _UNIT_NUMBER.match(tok)
            if m:
                kind = (m.group(1) or m.group(2)).upper()
                self.pos += 1
                return kind, self._number(kind, m.group(3), self.pos - 1)
        return None, None

    def _number(self, kind: str, digits: str, start: int) -> int:
        number = int(digits)
        if number == 0:
            typed = _typed_words(self.text, self.tokens[start : self.pos])
            raise OrderError(NUMBERED_FROM_1, typed=typed, unit=kind)
        return number

    def power(self) -> str | None:
        """A power's name (or abbreviation) before a unit word: whose unit a support names,
        also after ``the`` (``S the Imperial A Hupeh``, ``S the German A Berlin``)."""
        keys = self.keys
        if self.pos >= len(keys) or keys[self.pos] in UNIT_WORDS:  # no power's name is one
            return None
        starts = (self.pos, self.pos + 1) if keys[self.pos] == "the" else (self.pos,)
        for start in starts:
            for size in (1, 2, 3):
                after = keys[start + size] if start + size < len(keys) else None
                if after is None or not (after in UNIT_WORDS or _UNIT_NUMBER.match(after)):
                    continue
                power = self.variant.power_names.get("".join(keys[start : start + size]))
                if power is not None:
                    self.pos = start + size
                    return power
        return None

    def location(self, what: str = PROVINCE) -> str:
        """A name whose words are the next tokens (this reading's candidate), then a coast."""
        variant = self.variant
        keys = self.keys
        start = self.pos
        if (
            start + 1 < len(keys)
            and keys[start] == "the"
            and "the" not in variant.name_starts
            and self._name_starts_at(start + 1)
        ):  # "F the North Pacific": "the" before a name (none begins with it) is no word of it
            start += 1
            self.pos = start
        first = keys[start] if start < len(keys) else ""  # no name's word is empty
        name = None if self.loose else variant.name_alone.get(first)
        if name is not None:  # the common case: the one name this word starts, a word long
            self.made.append(_ONLY)
            self.pos = start + 1
        else:
            # The names whose words all follow, longest first.
            # A hyphen after the first word or not: the names with one there only if so.
            dash = start + 1 < len(keys) and keys[start + 1] == "-"
            starts = variant.name_starts if dash else variant.name_starts_plain
            found = [(w, n) for w, n in starts.get(first, ()) if keys[start : start + len(w)] == w]
            if self.loose:
                found += [
                    (w, n)
                    for w, n in variant.loose_starts.get(first, ())
                    if keys[start : start + len(w)] == w and self._dotted(start, len(w))
                ]
                if first and "." in self.tokens[start]:
                    found += [
                        (w, n)
                        for w, n in variant.compass_starts.get(first, ())
                        if keys[start : start + len(w)] == w
                    ]
            index = len(self.made)
            choice = self.choices[index] if index < len(self.choices) else 0
            self.made.append((choice, len(found)))
            if not found:
                if not first:
                    raise OrderError("expected {what} at the end of the order", what=what)
                self._compass_undotted(start)
                self._dotted_initials(start)
                if _not_a_name(variant, first):  # an order's word, a dash, a number: said so
                    self._first_word_cut(start)  # unless a name's first word cut short: B.
                    raise OrderError(
                        "expected {what}, not '{typed}'", what=what, typed=self.typed(start)
                    )
                self._power_here(start, what)
                refuse_abbreviation(variant, first, self.typed(start))
                self._dotted_abbreviation(start)
                self._first_word_cut(start)
                self._partial(start)
                self._no_such_name(start)
            words, name = found[choice]
            self.pos = start + len(words)
            if "/" in name:
                return name
        coast = None
        if self.pos < len(keys) and keys[self.pos] in _COAST_STARTS:
            coast = self._coast()
        elif self.pos + 1 < len(keys) and keys[self.pos] == "-" and variant.provinces[name].coasts:
            # ``Thailand-ec``, ``Tha-east-coast``: a coast hyphened to its split province (no
            # name is a coast's words, so this is never a move).
            self.pos += 1
            coast = self._coast()
            if coast is None:
                self.pos -= 1
        if coast:
            province = variant.provinces.get(name)
            if province is None or coast not in province.coasts:
                raise OrderError(NO_SUCH_COAST[coast], province=name)
            return f"{name}/{coast}"
        return name

    def _name_starts_at(self, index: int) -> bool:
        """Whether what follows a "the" at ``index - 1`` is to be read as a name: a name's
        first word; in the loose reading a loose form's (``the E. China Sea``, ``the And. S``);
        or a word that is none of the order's own, so that a name misspelt after a "the" is
        refused as itself (``the E China Sea``), not as a province called 'the'."""
        key = self.keys[index]
        variant = self.variant
        if key in variant.name_starts:
            return True
        if self.loose and (
            key in variant.loose_starts
            or ("." in self.tokens[index] and key in variant.compass_starts)
        ):
            return True
        return key not in _PUNCTUATION and key != "the" and not _not_a_name(variant, key)

    def _power_here(self, start: int, what: str) -> None:
        """Where a name belongs and none was found: a power's name there (``S Australia
        Mid-Pacific``, ``France A Paris``) is refused as the power it is. Only on the way to
        an error; returns when the words name no power."""
        keys = self.keys
        for size in (1, 2, 3):
            power = self.variant.power_names.get("".join(keys[start : start + size]))
            if power is not None:
                break
        else:
            return
        # The power's name begins words that names hold (``China Sea``: the East and South
        # China Seas): those are what the player meant, not the power.
        for end in range(min(len(keys), start + _LONGEST_NAME), start + size, -1):
            words = keys[start:end]
            if any(w in ORDER_WORDS for w in words):
                continue
            names = _names_holding(self.variant, words)
            if names:
                self._did_you_mean(_typed_words(self.text, self.tokens[start:end]), names)
        if what is SUPPORTED_PROVINCE or what is CONVOYED_PROVINCE:
            raise OrderError(
                "{power} is a power: name its unit after it, e.g. '{power} A <province>'",
                power=power,
            )
        if what is UNIT_PROVINCE and start == 0:
            raise OrderError(
                "an order begins with its unit: leave out the power's name ({power})",
                power=power,
            )
        raise OrderError("{power} is a power, not a province", power=power)

    def _partial(self, start: int) -> None:
        """Where a name belongs and none was found: words that start a name but stop short of
        it (``north atlantic``) are refused as a name not written in full, naming the names
        they start. Only on the way to an error; returns when the words start no name."""
        keys = self.keys
        longest, names, nexts = 0, [], []
        for words, name in self.variant.name_starts.get(keys[start], ()):
            size = 1
            while (
                size < len(words)
                and keys[start + size : start + size + 1] == words[size : size + 1]
            ):
                size += 1
            if words[size - 1] == "-":  # "North -": the dash is the move, not the name's
                size -= 1
            if _compass_halves_only(words, name, size):
                continue
            after = [w for w in words[size:] if w != "-"][:1]  # the name's next word
            if size > longest:
                longest, names, nexts = size, [name], [after]
            elif size == longest and name not in names:
                names.append(name)
                nexts.append(after)
        if not names:
            return
        # A word cut short glued on (``North-Atl``): the names whose next word it begins.
        at = start + longest + (1 if keys[start + longest : start + longest + 1] == ("-",) else 0)
        cut = keys[at] if at < len(keys) else ""
        if cut and cut not in _PUNCTUATION:
            begun = [n for n, a in zip(names, nexts, strict=True) if a and a[0].startswith(cut)]
            if begun:
                names = begun
            elif (
                at == start + longest
                and cut.isalpha()
                and cut not in ORDER_WORDS
                and cut not in _COAST_STARTS
            ):
                # Another word after them, that no name goes on with (``Gulf of Tonkin``): the
                # player named a place of their own, not these words cut short.
                self._did_you_mean(
                    _typed_words(self.text, self.tokens[start : at + 1]), sorted(names)
                )
        typed = _typed_words(self.text, self.tokens[start : start + longest])
        # The words glued to them by hyphens (``Mid-Pac``): what the player wrote as one name.
        glued = next(t for t, words, spaced in self.typed_runs(start) if not spaced)
        if len(glued) > len(typed) and not re.search(r"\s", glued):
            typed = glued
        self._not_full(typed, sorted(names))

    def _not_full(self, typed: str, names: list[str]) -> None:
        """Refused: what the player typed starts these names but is none of them in full."""
        if len(names) == 1:
            raise OrderError(
                "'{typed}' is not a full name: did you mean {province}?",
                typed=typed,
                province=names[0],
            )
        raise OrderError(
            "'{typed}' is not a full name: did you mean one of {provinces}?",
            typed=typed,
            provinces=listed(names),
        )

    def _first_word_cut(self, start: int) -> None:
        """A name's first word cut short with a dot, the rest of it written out (``B. of
        Bengal``, ``A. Sea``, ``S. Indian Ocean``), where no such cut is read: refused naming
        the names it may stand for, rather than as an order's word (``B.``: a build). Only on
        the way to an error; returns when the words end no name."""
        keys, tokens = self.keys, self.tokens
        if "." not in tokens[start] or start + 1 >= len(keys):
            return
        cut = keys[start]
        best: tuple[int, set[str]] = (0, set())
        for words, name in self.variant.phrases.items():
            size = len(words)
            if (
                size < 2
                or size < best[0]
                or "/" in name
                or "-" in words
                or not words[0].startswith(cut)
                or words[0] == cut
                or tuple(keys[start + 1 : start + size]) != words[1:]
            ):
                continue
            best = (size, {name}) if size > best[0] else (size, best[1] | {name})
        size, names = best
        if names:
            self._did_you_mean(_typed_words(self.text, tokens[start : start + size]), sorted(names))

    def _compass_undotted(self, start: int) -> None:
        """A name with its point of the compass cut short but no dot after it (``S China
        Sea``: ``S`` is a support), or with it but the name's last words left out (``S.
        China``): refused naming the name it stands for. Only on the way to an error; returns
        when the words are no such name."""
        keys = self.keys
        short: list[tuple[int, str]] = []  # (words matched, name) of the names cut short
        for words, name in self.variant.compass_starts.get(keys[start], ()):
            if keys[start : start + len(words)] == words:
                typed = _typed_words(self.text, self.tokens[start : start + len(words)])
                self._did_you_mean(typed, [name])
            size = 1  # the words matched, up to a hyphen (``S China - Canton``: the move's)
            while (
                size < len(words)
                and words[size] != "-"
                and start + size < len(keys)
                and keys[start + size] == words[size]
            ):
                size += 1
            if size > _cut_size(words, name):  # past the cut: a word of the name's rest too
                short.append((size, name))
        if short:
            longest = max(size for size, _ in short)
            names = sorted({name for size, name in short if size == longest})
            self._not_full(_typed_words(self.text, self.tokens[start : start + longest]), names)

    def _dotted(self, start: int, count: int) -> bool:
        """Whether the words of a loose form keep their dots: ``And. S``, not ``AND S``."""
        return all(t.endswith(".") for t in self.tokens[start : start + count - 1])

    def next_choices(self) -> tuple[int, ...] | None:
        """The next reading to try after this one failed, or None when none is left."""
        made = self.made
        for k in range(len(made) - 1, -1, -1):
            choice, count = made[k]
            if choice + 1 < count:
                return (*(c for c, _ in made[:k]), choice + 1)
        return None

    def _coast(self) -> str | None:
        save = self.pos
        tok = self.peek()
        if tok == "/":
            self.pos += 1
            word = self.take()
            if word in COAST_WORDS or word == "s":  # after "/" an "s" is no support
                self._coast_tail(word)
                return COAST_WORDS.get(word, "sc")
            shown = self.typed(self.pos - 1) if word is not None else ""
            raise OrderError("'{typed}' is not a coast (use nc, sc, ec or wc)", typed=shown)
        if tok == "(":
            self.pos += 1
            word = self.take()
            if word in COAST_WORDS or word == "s":  # nor inside brackets: "(s)" is south
                self._coast_tail(word)
                if self.accept(_CLOSING):
                    return COAST_WORDS.get(word, "sc")
            self.pos = save
            return None
        if tok in ("nc", "sc", "ec", "wc"):
            self.pos += 1
            return COAST_WORDS[tok]
        if tok in COAST_WORDS and self.peek(1) == "coast":
            self.pos += 2
            return COAST_WORDS[tok]
        if tok in COAST_WORDS and self.peek(1) == "-" and self.peek(2) == "coast":
            self.pos += 3  # "east-coast"
            return COAST_WORDS[tok]
        return None

    def _coast_tail(self, word: str) -> None:
        """After a coast's word, ``coast`` (``north coast``), or after its letter a ``c``
        (``(e. c.)``, as ``(e.c.)`` written with a space)."""
        if self.peek() == "-" and self.peek(1) == "coast":  # "(east-coast)"
            self.pos += 1
        if not self.accept(_COAST_WORD) and len(word) == 1:
            self.accept(_COAST_C)


def _token_key(token: str) -> str:
    """The matching key of one token: ``normalise`` for words, punctuation as it is; kept by
    token (``_token_keys``): the same few words come in order after order."""
    key = _token_keys.get(token)
    if key is None:
        if len(_token_keys) >= 65536:
            _token_keys.clear()
        key = _token_keys[token] = token if token in _PUNCTUATION else normalise(token)
    return key


_token_keys: Final[dict[str, str]] = {}


_DOTTED_PART = re.compile(r"[.']*[a-z0-9]+[.']*")
# Single letters each with its dot (``E.C.``, ``T.S.R``): read as the letters when they spell
# a coast or a route (``_initialisms``).
_DOTTED_LETTER = re.compile(r"[a-z]\.")
_LETTER = re.compile(r"[a-z]")
_INITIALISM = re.compile(r"(?:[a-z]\.)+[a-z]\.?")


def _parted(variant: Variant, tokens: list[str]) -> list[str]:
    """A word with a dot or an apostrophe inside is the words they part (``St.Petersburg`` is
    ``St. Petersburg``), unless it is a spelling of the map's with that dot (``AND.S``) or
    the initials of a coast, a route or a name (``E.C.``, ``T.S.R.``, ``N.P.O.``: ``EC``,
    ``TSR`` and ``NPO``). They never
    glue two names into a third (``YUN.NAN`` is not Yunnan, ``SWE'DEN`` not Sweden), nor an
    order's letters into a word (``S.A Bur`` is a support of an army)."""
    out: list[str] = []
    for token in tokens:
        if (
            INNER_DOT.search(token)
            and token.strip(".'") not in variant.dotted_words
            and not (
                _INITIALISM.fullmatch(token) and token.replace(".", "") in _initialisms(variant)
            )
        ):
            out += _DOTTED_PART.findall(token)
        else:
            out.append(token)
    return out


@lru_cache(maxsize=64)
def _initialisms(variant: Variant) -> frozenset[str]:
    """What initials with dots may spell: a coast (``e.c.``), a one-word route (``T.S.R``) or
    a one-word spelling of a name (``N.P.O.``, ``N.S.W.``: the abbreviation with its dots, as
    the contract accepts it; none where a variant takes full names only), or a point of the
    compass a name starts with (``S.E.`` Indian Ocean: never a support of the East Indian Ocean)."""
    coasts = ("nc", "sc", "ec", "wc")
    routes = (w[0] for w, _ in _route_words(variant) if len(w) == 1)
    names = (w[0] for w in variant.phrases if len(w) == 1 and w[0].isalpha())
    compass = (cut for cut in variant.compass_starts if len(cut) == 2 and cut[1] in "ew")
    return frozenset((*coasts, *routes, *names, *compass))


def _original(text: str, token: str) -> str:
    """The token as the player typed it, for error messages."""
    for word in (token, token.strip(".'")):  # a word a dot parted from the next (YUN.NAN)
        m = re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", text, re.IGNORECASE)
        if m:
            return text[m.start() : m.end()]
    return token


def _cut_size(words: tuple[str, ...], name: str) -> int:
    """How many words a compass form's cut is (``compass_forms``): two for ``S. E.`` of the
    Southeast Indian Ocean, else one."""
    halves = compass_halves(name)
    if halves and words[:2] == (halves[0][0].lower(), halves[1][0].lower()):
        return 2
    return 1


def _compass_halves_only(words: tuple[str, ...], name: str, size: int) -> bool:
    """Whether ``size`` of a name's words are only its point of the compass written in two
    (``South East`` of the Southeast Indian Ocean, ``_compass_parted``): not the start of that
    name more than of any other beginning ``South`` or ``East``."""
    halves = compass_halves(name)
    if halves is None or words[0] != halves[0].lower():
        return False
    return size <= (3 if words[1:2] == ("-",) else 2)


def _typed_words(text: str, tokens: list[str]) -> str:
    """Tokens in a row as the player typed them (``Sea-of``, ``North  Pacific``), for
    messages; each as typed, spaced, where the text does not hold them so."""
    pattern = r"[\s_]*".join(re.escape(token) for token in tokens)
    found = re.search(rf"(?<![a-z0-9]){pattern}(?![a-z0-9])", text, re.IGNORECASE)
    if found:
        return found.group()
    return " ".join(_original(text, token) for token in tokens)


def _as_typed(e: OrderError, text: str) -> OrderError:
    """A plug-in's refusal, its ``typed`` name (words of the tokens it was given, which are
    lowered) as the player typed them."""
    reason = e.reason
    typed = reason.args.get("typed")
    if not isinstance(typed, str):
        return e
    words = " ".join(_original(text, word) for word in typed.split(" "))
    return OrderError(reason.template, **{**reason.args, "typed": words})


# -- grammar --------------------------------------------------------------------------------


@lru_cache(maxsize=65536)
def parse(variant: Variant, text: object, phase_type: str = "movement") -> Order:
    """Parse one order in the given phase type; raises OrderError with a reason.

    A canonical text is read by its parts (``_canonical``); any other the long way
    (``read``).
    """
    if phase_type == "movement" and type(text) is str and not variant.rules_read_orders:
        order = _canonical(variant, text)
        if order is not None:
            return order
    return read(variant, text, phase_type)


def read(variant: Variant, text: object, phase_type: str = "movement") -> Order:
    """Read one order the long way: tries the readings of the names in order (see the module
    docstring) and returns the first that makes a whole order; when none does, raises the
    error of the reading that got furthest."""
    if not isinstance(text, str) or blank(text):
        raise OrderError("the order is empty")
    if len(text) > MAX_ORDER_LENGTH:  # reading tries names at every word: no essay is read
        raise OrderError(
            "the order is too long: {length} characters, at most {limit}",
            length=len(text),
            limit=MAX_ORDER_LENGTH,
        )
    if len(text.strip().splitlines()) > 1:
        # Two orders pasted as one item would be read as one order with words left over, and
        # a page showing the item would show it as two lines: each order is its own item.
        raise OrderError("an order is one line: send each order on its own")
    lowered = _lowered(text)
    if _plain(lowered):
        tokens = lowered.replace("-", " - ").split()
    else:
        unreadable = _UNREADABLE.search(lowered)
        if unreadable:
            raise OrderError(
                "the order has a character that is not read in orders: {char}",
                char=_described(_as_typed_char(text, unreadable.group())),
            )
        tokens = _TOKEN.findall(lowered)
        if "." in lowered or "'" in lowered:
            tokens = _parted(variant, tokens)
    for rule in variant.plugins:
        try:
            order = rule.parse_order(variant, tokens, phase_type)
        except OrderError as e:
            raise _as_typed(e, text) from None
        if order is not None:
            return order
    keys = tuple([_token_key(token) for token in tokens])
    error: OrderError | None = None
    last: _Reader | None = None  # the reading that made that error
    furthest = -1
    # A second, loose reading only where a loose form may be: a map's dotted spelling, or a
    # point of the compass cut short, which has its dot.
    second = bool(variant.loose_phrases) or (bool(variant.compass_starts) and "." in lowered)
    for loose in (False, True) if second else (False,):
        choices: tuple[int, ...] | None = ()
        while choices is not None:
            r = _Reader(variant, text, tokens, keys, choices, loose)
            try:
                return _order(r, phase_type)
            except OrderError as e:
                if r.pos > furthest:
                    error, furthest, last = e, r.pos, r
                choices = r.next_choices()
    assert error is not None and last is not None
    try:
        if error.reason.template == UNEXPECTED_END:
            _name_cut_short(last)  # only now: a later reading may have read the order
        raise error
    finally:
        # The error's traceback holds this frame, and this frame the error: without this the
        # cycle kept the caller's frames (a whole resolver) until the garbage collector came.
        error = last = None


def _canonical(variant: Variant, text: str) -> Order | None:
    """The movement order ``text`` is the canonical text of (``A Paris S A Picardy - Brest``),
    read by its parts; None for any other text, which is read the long way. Most texts a server
    sends back are an answer's canonical ones, and reading a new one the long way cost a tenth
    of a fresh phase. No name has a word ``S``, ``C`` or ``H`` nor a spaced dash
    (``tests/test_parser.py``), and the reader reads a canonical text as the same order
    (``tests/test_canonical_reading.py`` compares the two on every such order of each map).
    Only where no rule of the variant reads orders of its own: a rule's words come first."""
    if text.startswith("A "):
        unit = "A"
    elif text.startswith("F "):
        unit = "F"
    else:
        return None
    if len(text) > MAX_ORDER_LENGTH:
        return None
    locations = variant.locations
    if text.endswith(" H"):
        location = text[2:-2]
        return Order(HOLD, unit, location) if location in locations else None
    at = text.find(" - ", 2)
    dash = at >= 0
    head, end = (text[2:at], text[at + 3 :]) if dash else (text[2:], "")
    if head in locations:  # a move
        via = None
        if end.endswith(" via Convoy"):
            end, via = end[:-11], "convoy"
        return Order(MOVE, unit, head, destination=end, via=via) if end in locations else None
    if dash and end not in locations:
        return None
    for verb, kind in ((" S ", SUPPORT), (" C ", CONVOY)):
        at = head.find(verb)
        if at > 0:
            if head.startswith("A ", at + 3):
                target_unit = "A"
            elif head.startswith("F ", at + 3):
                target_unit = "F"
            else:
                return None
            location, target = head[:at], head[at + 5 :]
            if location not in locations or target not in locations:
                return None
            if kind == SUPPORT:
                return Order(SUPPORT, unit, location, target_unit, target, end or None)
            return Order(CONVOY, unit, location, target_unit, target, end) if dash else None
    return None


def _order(r: _Reader, phase_type: str) -> Order:
    if phase_type == "adjustments":
        return _adjustment(r)
    first = r.peek()
    if first in BUILD_WORDS or first in REMOVE_WORDS or first in WAIVE_WORDS:
        raise OrderError(
            ADJUSTMENT_ONLY.get(phase_type, "{order} orders belong in an adjustment phase"),
            order=first,
        )
    if phase_type == "retreats" and first in DISBAND_WORDS and r.peek(1) is not None:
        r.pos += 1  # "Disband A Manchuria", the verb first as in an adjustment phase
        unit, number = r.unit()
        location = _place(r, UNIT_PROVINCE)
        _numbered(r, number, location)
        _end(r)
        return Order(DISBAND, unit, location)
    unit, number = r.unit()
    location = _place(r, UNIT_PROVINCE)
    _numbered(r, number, location)
    if phase_type == "retreats":
        return _retreat(r, unit, location)
    return _movement(r, unit, number, location)


def _movement(r: _Reader, unit: str | None, number: int | None, location: str) -> Order:
    word = r.take()
    if word is None or word in HOLD_WORDS:
        _end(r)
        return Order(HOLD, unit, location, number=number)
    if word in MOVE_WORDS:
        r.skip_arrow()
        route = _route_in_arrow(r)  # the errata's A MOS-TSR-VLA
        destination = r.location(DESTINATION)
        via = _via(r)
        if route is not None:
            if via not in (None, route):
                raise OrderError(
                    "the move names two routes, {route} and {via}", route=route, via=via
                )
            via = route
        _end(r)
        return Order(MOVE, unit, location, destination=destination, via=via, number=number)
    if word in SUPPORT_WORDS:
        t_power = r.power()
        t_unit, t_number = r.unit()
        try:
            target = _place(r, SUPPORTED_PROVINCE)
        except OrderError:
            _names_no_unit(r, unit, number, location, t_unit, SUPPORT)
            raise
        _numbered(r, t_number, target)
        if r.accept(MOVE_WORDS):
            r.skip_arrow()
            route = _route_in_arrow(r)  # the move as the errata write it, A MOS-TSR-VLA
            destination = r.location(SUPPORTED_DESTINATION)
            via = _via(r)  # a supporter may repeat the move's route; it changes nothing
            if via is not None and via != "convoy" and via not in _routes(r.variant):
                # The route's words as typed, all of them (``_via`` read them), not the last.
                end = r.pos - (1 if r.keys[r.pos - 1] == ")" else 0)
                typed = _typed_words(r.text, r.tokens[end - len(via.split()) : end])
                raise OrderError("there is no route called '{typed}' on this map", typed=typed)
            if route is not None and via not in (None, route):
                raise OrderError(
                    "the move names two routes, {route} and {via}", route=route, via=via
                )
            _end(r)
            return Order(
                SUPPORT, unit, location, t_unit, target, destination, number=number,
                target_power=t_power, target_number=t_number,
            )  # fmt: skip
        r.accept(HOLD_WORDS)
        _end(r)
        return Order(
            SUPPORT, unit, location, t_unit, target, number=number, target_power=t_power,
            target_number=t_number,
        )  # fmt: skip
    if word in CONVOY_WORDS:
        t_power = r.power()  # "C France A Brest - London", as a support may name it
        t_unit, t_number = r.unit()
        try:
            target = r.location(CONVOYED_PROVINCE)
        except OrderError:
            _names_no_unit(r, unit, number, location, t_unit, CONVOY)
            raise
        _numbered(r, t_number, target)
        if not r.accept(MOVE_WORDS):
            raise OrderError(
                "a convoy order needs the army's move, e.g. 'F North Sea C A London - Belgium'"
            )
        r.skip_arrow()
        destination = r.location(CONVOYED_DESTINATION)
        _end(r)
        return Order(
            CONVOY, unit, location, t_unit, target, destination, number=number, target_power=t_power
        )
    if word in RETREAT_WORDS or word in DISBAND_WORDS:
        raise OrderError(
            "retreats and disbands are ordered in a retreat phase, not a movement phase"
        )
    if word in BUILD_WORDS or word in REMOVE_WORDS:
        raise OrderError("builds and removals are ordered in an adjustment phase")
    raise OrderError(
        "I don't understand '{typed}' here; expected H, -, S or C", typed=r.typed(r.pos - 1)
    )


def _via(r: _Reader) -> str | None:
    """``via Convoy``, ``by TSR``, ``via Trans-Siberian Railroad``; also in brackets,
    ``(TSR)`` or ``(via Convoy)``, as rule books write it after the destination."""
    if r.pos >= len(r.keys):  # the order's end, as after most moves
        return None
    bracket = r.peek() == "(" and _opens_a_route(r, r.pos + 1)
    if bracket:
        r.pos += 1
    if not r.accept(_VIA_WORDS) and not bracket:
        return None
    if r.peek() == "the" and (
        r.peek(1) in _bracket_starts(r.variant) - _VIA_WORDS
        or _spaced_initials(r, r.pos + 1) is not None
    ):
        r.pos += 1  # "via the TSR", "by the railroad"
    word = r.peek()
    if word is None:
        routes = _routes(r.variant)
        if routes:  # on a map with a route, that too (``via TSR``)
            raise OrderError(
                "'via' must be followed by Convoy or {routes}", routes=listed(sorted(routes))
            )
        raise OrderError("'via' must be followed by Convoy")
    via: str | None = "convoy" if word in CONVOY_WORDS else _route_phrase(r)
    if via == "convoy":
        r.pos += 1
    elif via is None:  # no route of this map: the move or support says so
        start = r.pos
        r.pos = _letters_end(r, start)  # initials one by one ("via T. S. R. X."): all of them
        if r.pos - start < 2:
            r.pos = start + 1
        while r.pos < len(r.keys) and r.keys[r.pos].isalpha() and r.keys[r.pos] not in ORDER_WORDS:
            r.pos += 1  # the words of one name: "via Suez Canal"
        # In capitals, as a rule's own route is written (a plug-in may check for ``FERRY``).
        via = " ".join(r.keys[start : r.pos]).upper()
    if bracket and not r.accept(_CLOSING):
        raise OrderError("a bracket after {via} is not closed", via=_via_word(via))
    return via


def _opens_a_route(r: _Reader, start: int) -> bool:
    """Whether the words from ``start`` begin a route in brackets: via, by, convoy, a route's
    name or its initials one by one, each also after ``the`` (``(the T. S. R.)``)."""
    if start < len(r.keys) and r.keys[start] == "the":
        start += 1
    word = r.keys[start] if start < len(r.keys) else None
    return word in _bracket_starts(r.variant) or _spaced_initials(r, start) is not None


def _route_phrase(r: _Reader) -> str | None:
    """The route the next words name (the longest name that fits), reading past them."""
    for words, route in _route_words(r.variant):
        if r.keys[r.pos : r.pos + len(words)] == words:
            r.pos += len(words)
            return route
    spelt = _spaced_initials(r, r.pos)
    if spelt is not None:
        route, r.pos = spelt
        return route
    return None


def _letters_end(r: _Reader, start: int) -> int:
    """Where a run of single letters from ``start`` ends (``t s r``, ``T. S. R.``)."""
    end = start
    while end < len(r.keys) and len(r.keys[end]) == 1 and r.keys[end].isalpha():
        end += 1
    return end


def _spaced_initials(r: _Reader, start: int) -> tuple[str, int] | None:
    """A route's initials one by one from ``start``, spaced (``T. S. R.``, ``t s r``; "T.S.R."
    is one word already, read as the route's name is): the route and where its letters end."""
    end = _letters_end(r, start)
    if end - start < 2:
        return None
    initials = ("".join(r.keys[start:end]),)
    for words, route in _route_words(r.variant):
        if words == initials:
            return route, end
    return None


@lru_cache(maxsize=64)
def _route_words(variant: Variant) -> tuple[tuple[tuple[str, ...], str], ...]:
    """Each name of a route of the variant's rules (its own, ``TSR``, or another, ``railroad``
    or ``Trans-Siberian Railroad``) as the words it is read from, longest first; a hyphen
    inside a name may also be a space or left out, as in province names."""
    names = {route: route for route in _routes(variant)}
    for plugin in variant.plugins:
        names.update(plugin.ROUTE_WORDS)
    out = {}
    for name, route in names.items():
        tokens = tuple(_TOKEN.findall(name.lower()))
        forms = {tokens}
        if "-" in tokens:
            forms.add(tuple(t for t in tokens if t != "-"))
            joined = " ".join(tokens).replace(" - ", "")
            forms.add(tuple(joined.split()))
        for form in list(forms):  # a hyphen between words a space parts: Siberian-Railroad
            words = [w for w in form if w != "-"]
            if len(words) == len(form) and len(words) > 1:
                forms.add(tuple(" - ".join(words).split()))
        for form in forms:
            out[form] = route
    return tuple(sorted(out.items(), key=lambda item: -len(item[0])))


@lru_cache(maxsize=64)
def _bracket_starts(variant: Variant) -> frozenset[str]:
    """The words that may open a route in brackets: via, by, convoy and a route's first."""
    return frozenset({"via", "by", *CONVOY_WORDS, *(w[0] for w, _ in _route_words(variant))})


def _numbered(r: _Reader, number: int | None, place: str) -> None:
    """A unit number names one of several units in a shared space (F2 Mid-Pacific); in any
    other space only the one unit there, so ``F7 Brest`` is refused, never read as F Brest."""
    if number not in (None, 1) and province_of(place) not in r.variant.stacking:
        raise OrderError(
            "{province} holds one unit at most, so there is no number {number} there",
            province=province_of(place),
            number=number,
        )


def _place(r: _Reader, what: str) -> str:
    """A unit's province, also as the Far East rules write it in brackets: ``F (Guam) -``."""
    if r.peek() != "(":
        return r.location(what)
    r.pos += 1
    place = r.location(what)
    if not r.accept(_CLOSING):
        raise OrderError("a bracket after {place} is not closed", place=place)
    return place


def _route_in_arrow(r: _Reader) -> str | None:
    """A route written between two dashes, ``MOS-TSR-VLA``: only a route word of this map
    (no name's word) followed by a dash is read so."""
    word, after = r.peek(), r.peek(1)
    if word is not None and len(word) == 1:  # MOS - T. S. R. - VLA: a letter at a time
        spelt = _spaced_initials(r, r.pos)
        route, end = spelt if spelt is not None else ("", r.pos)
        if route in _routes(r.variant) and r.peek(end - r.pos) == "-":
            r.pos = end
            r.skip_arrow()
            return route
    if word is None or after not in ("-",):
        return None
    for route in _routes(r.variant):
        if word == route.lower():
            r.pos += 1
            r.skip_arrow()
            return route
    return None


def _routes(variant: Variant) -> set[str]:
    """Route words the variant's rule plug-ins add to ``via`` (``TSR``)."""
    return {word for plugin in variant.plugins for word in plugin.ROUTES}


# At most this many words after the first are read as one name that is none: more than any
# name has (so that an essay of unknown words costs no more than a long name).
_LONGEST_NAME: Final = 5
# At most this many names are suggested for words inside names (``Pacific``): more say little.
_MOST_SUGGESTED: Final = 4


# Compass words written as one that players abbreviate by their two points (Southeast: SE).
_COMPASS_POINTS: Final = {
    "northeast": "ne",
    "northwest": "nw",
    "southeast": "se",
    "southwest": "sw",
}


@lru_cache(maxsize=64)
def _named_by_initials(variant: Variant) -> dict[str, list[str]]:
    """Each name's initials -> the provinces so named (``seio`` and ``sio``: Southeast Indian
    Ocean), a compass word giving its one letter or its two points. Only on the way to an
    error: never read as a name, only suggested."""
    found: dict[str, set[str]] = {}
    for phrase, name in variant.phrases.items():
        words = [w for w in phrase if w != "-"]
        if "/" in name or len(words) < 2:  # a coast's words, or a name of one word
            continue
        spellings = [""]
        for word in words:
            firsts = {word[0], _COMPASS_POINTS.get(word, word[0])}
            spellings = [s + f for s in spellings for f in firsts]
        for initials in spellings:
            found.setdefault(initials, set()).add(province_of(name))
    return {initials: sorted(names) for initials, names in found.items()}


def _names_holding(variant: Variant, words: tuple[str, ...]) -> list[str]:
    """The provinces whose name (or another spelling of it) holds these words, in a row and
    not as its start (``pacific ocean``: Mid-Pacific, North and South Pacific Ocean), or with
    a word of one or two letters for one of the name's (``N. Pacific``: North Pacific Ocean);
    none when more than a few do. Only on the way to an error."""
    size = len(words)
    if not any(len(w) > 2 for w in words):  # a whole word at least: "N" alone says nothing
        return []
    found = set()
    for phrase, name in variant.phrases.items():
        if "/" in name:  # a coast's words (``thailand ec``) are no name's
            continue
        plain = [w for w in phrase if w != "-"]
        for i in range(len(plain) - size + 1):
            part = plain[i : i + size]
            exact = tuple(part) == words
            # A word of one or two letters may begin the name's word (``N. Pacific``).
            cut = all(
                w == p or (len(w) <= 2 and p.startswith(w))
                for w, p in zip(words, part, strict=True)
            )
            if (exact and i > 0) or (cut and not exact):
                found.add(province_of(name))
    return sorted(found) if len(found) <= _MOST_SUGGESTED else []


def _not_a_name(variant: Variant, key: str) -> bool:
    """Whether a word that starts no name is one of the order's own (``S``, ``-``, ``via``),
    a number or a route of the map (``TSR``): read where a name belongs (only once no name
    was found there), it is named as itself, not as a province that does not exist."""
    return (
        key in ORDER_WORDS
        or key.isdigit()
        or _UNIT_NUMBER.match(key) is not None
        or any(words[0] == key for words, _ in _route_words(variant))
    )


def refuse_abbreviation(variant: Variant, key: str, typed: str) -> None:
    """A word (``key``: its matching key) that is an abbreviation the variant does not take
    (Chinese Diplomacy takes full names only): refused as such, naming the name to write. Only
    on the way to an error; returns for any other word."""
    powers, provinces = _abbreviations(variant)
    power = powers.get(key)
    if power is not None:
        raise OrderError(
            "power names are written in full here: write {power}, not '{typed}'",
            power=power,
            typed=typed,
        )
    province = provinces.get(key)
    if province is not None:
        raise OrderError(
            "province names are written in full here: write {province}, not '{typed}'",
            province=province,
            typed=typed,
        )


@lru_cache(maxsize=64)
def _abbreviations(variant: Variant) -> tuple[dict[str, str], dict[str, str]]:
    """The powers and provinces by the abbreviations a variant without them does not read."""
    if variant.raw.get("abbreviations_allowed", True):
        return {}, {}
    powers = {normalise(p.abbreviation): p.name for p in variant.powers.values() if p.abbreviation}
    provinces = {
        normalise(p.abbreviation): p.name for p in variant.provinces.values() if p.abbreviation
    }
    return powers, provinces


def _names_no_unit(
    r: _Reader, unit: str | None, number: int | None, location: str, kind: str | None, order: str
) -> None:
    """A support or convoy whose unit is left out (``F Bul S - Aeg``, ``A Par S H``): the
    word after S or C is the move or the hold, so the order is refused for leaving the unit
    out, with an example of its own. Only on the way to an error; returns when the words
    are something else (the error already raised then says what)."""
    word = r.peek()
    supporter = f"{unit}{number or ''} {location}" if unit else location
    kind = kind or "A"
    if order == SUPPORT and word in HOLD_WORDS:
        raise OrderError(
            "the support does not say which unit it supports: name it after S, "
            "e.g. '{unit} S {kind} <province>'",
            unit=supporter,
            kind=kind,
        )
    if word not in MOVE_WORDS:
        return
    probe = _Reader(r.variant, r.text, r.tokens, r.keys)  # this reading's choices stay as made
    probe.pos = r.pos + 1
    probe.skip_arrow()
    try:
        destination = probe.location(DESTINATION)
    except OrderError:
        return
    if order == SUPPORT:
        raise OrderError(
            "the support does not say which unit it supports: name it after S, "
            "e.g. '{unit} S {kind} <province> - {destination}'",
            unit=supporter,
            kind=kind,
            destination=destination,
        )
    raise OrderError(
        "the convoy does not say which army it convoys: name it after C, "
        "e.g. '{unit} C A <province> - {destination}'",
        unit=supporter,
        destination=destination,
    )


def _retreat(r: _Reader, unit: str | None, location: str) -> Order:
    word = r.take()
    if word in RETREAT_WORDS or word in MOVE_WORDS:
        r.skip_arrow()
        destination = r.location(RETREAT_DESTINATION)
        _end(r)
        return Order(RETREAT, unit, location, destination=destination)
    if word in DISBAND_WORDS:
        _end(r)
        return Order(DISBAND, unit, location)
    if word is None or word in HOLD_WORDS:
        raise OrderError(
            "only dislodged units are ordered in a retreat phase: "
            "they retreat (R) or disband (D), they cannot hold"
        )
    if word in SUPPORT_WORDS or word in CONVOY_WORDS:
        raise OrderError("there are no supports or convoys in a retreat phase")
    raise OrderError("I don't understand '{typed}' here; expected R or D", typed=r.typed(r.pos - 1))


# No province names here: this message is shown on every variant's map.
_ADJUSTMENT_FORMS: Final = reason_template(
    "an adjustment order is 'Build A <home centre>', 'Build F <home centre>', "
    "'Remove A <province>' or 'Waive'"
)


def _adjustment(r: _Reader) -> Order:
    if r.peek() in RETREAT_WORDS:  # ``R F Singapore``: no retreat here; say what is
        raise OrderError(_ADJUSTMENT_FORMS)
    if r.accept(WAIVE_WORDS):
        _end(r)
        return Order(WAIVE)
    if r.accept(BUILD_WORDS):
        unit, number = r.unit()
        location = r.location(BUILD_PLACE)
        _numbered(r, number, location)
        _end(r)
        return Order(BUILD, unit, location)
    if r.accept(REMOVE_WORDS | DISBAND_WORDS):
        unit, number = r.unit()
        location = r.location(REMOVE_PLACE)
        _numbered(r, number, location)
        _end(r)
        return Order(REMOVE, unit, location, number=number)
    unit, number = r.unit()
    location = r.location(PROVINCE)
    _numbered(r, number, location)
    word = r.take()
    if word in BUILD_WORDS:
        _end(r)
        return Order(BUILD, unit, location)
    if word in REMOVE_WORDS or word in DISBAND_WORDS:
        _end(r)
        return Order(REMOVE, unit, location, number=number)
    raise OrderError(_ADJUSTMENT_FORMS)


def _end(r: _Reader) -> None:
    if not r.at_end():
        rest = _typed_tail(r.text, r.tokens[r.pos :])
        if len(rest) > 60:
            rest = rest[:60] + "…"
        raise OrderError(UNEXPECTED_END, rest=rest)


UNEXPECTED_END: Final = "unexpected '{rest}' at the end of the order"


def _name_cut_short(r: _Reader) -> None:
    """Words left over that end a longer name begun by the words read before them, one of
    them cut short (``Jav. Sea``: ``Jav.`` was read as Java): refused naming that name, not
    as words unexpected at the end. Only on the way to an error; returns when there is none."""
    keys, variant = r.keys, r.variant
    for start in range(r.pos - 1, max(-1, r.pos - _LONGEST_NAME), -1):
        if keys[start] in ORDER_WORDS or keys[start] in _PUNCTUATION:
            break
        if len(keys[start]) < 3:  # a letter or two (``T. S. R.``) says too little of a name
            continue
        for end in range(min(len(keys), start + _LONGEST_NAME), r.pos, -1):
            typed = keys[start:end]
            if any(k in _PUNCTUATION for k in typed):
                continue
            names = sorted(
                {
                    province_of(name)
                    for words, name in variant.phrases.items()
                    if "/" not in name
                    and len(words) == len(typed)
                    and words != typed
                    and all(w.startswith(k) for w, k in zip(words, typed, strict=True))
                }
            )
            if 0 < len(names) <= _MOST_SUGGESTED:
                r._did_you_mean(_typed_words(r.text, r.tokens[start:end]), names)


def _typed_tail(text: str, tokens: list[str]) -> str:
    """The end of ``text`` that these last tokens were read from, as the player typed it
    (``(north-coast)``, not the tokens' ``( north - coast )``)."""
    if text.isascii():
        lowered = text.lower()
        start = len(lowered)
        for token in reversed(tokens):
            start = lowered.rfind(token, 0, start)
            if start < 0:
                break
        else:
            return text[start:].strip()
    return " ".join(_original(text, token) for token in tokens)
