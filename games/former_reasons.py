"""Reason templates the engine no longer writes, kept in the catalogues.

A judged order keeps the words of its reason (``Order.reason_words``, ``Phase.results``), the
template among them, and ``reason_words.say`` looks that template up when the phase is shown.
When a template's English changes, phases judged before keep the old one: without it here,
their reasons would fall back to English for every other reader.
"""

from django.utils.translation import gettext_noop

# Until 2026-12-02 shared spaces were named with "the" ("an army in the Siberia").
SHARED_SPACES_WITH_THE = (
    gettext_noop("{power} has no unit in the {province}, so there is no number {number}"),
    gettext_noop("{power} has one unit in the {province}, so there is no number {number}"),
    gettext_noop("{power} has {count} units in the {province}, so there is no number {number}"),
    gettext_noop("{power} has only one army in the {province}, and an earlier order commands it"),
    gettext_noop("{power} has only one fleet in the {province}, and an earlier order commands it"),
    gettext_noop(
        "{power} has only {count} armies in the {province}, and earlier orders command them all"
    ),
    gettext_noop(
        "{power} has only {count} fleets in the {province}, and earlier orders command them all"
    ),
    gettext_noop("the units in the {province} belong to {owners}, not {power}"),
    gettext_noop("every unit of {power} in the {province} already has an order"),
    gettext_noop("every army of {power} in the {province} already has an order"),
    gettext_noop("the {province} holds units of {powers}: say whose, e.g. '{example}'"),
    gettext_noop("{power} has no unit in the {province} to support"),
    gettext_noop("there is no other unit in the {province} to support"),
    gettext_noop("the units in the {province} cannot move to {destination}"),
)
