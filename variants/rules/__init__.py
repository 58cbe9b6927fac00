"""The rule objects of this project's variants, one module per rule.

Each module holds everything about its rule: the orders it reads, the options it adds, its
resolver mixin with its reason texts, and its words for the rules page, gathered in one
``adjudication.registry.Rule`` object (``RULE``). A variant switches a rule on by listing its
``name`` in its ``rules``; ``variants.register()`` registers every object listed here.
"""

from __future__ import annotations

from . import chinese, oceans, suez_canal, trans_siberian_railroad

RULES = (oceans.RULE, suez_canal.RULE, trans_siberian_railroad.RULE, chinese.RULE)
