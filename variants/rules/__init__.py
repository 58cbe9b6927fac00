"""The rule objects of this project's variants, one module per rule.

Each module holds everything about its rule: the orders it reads (``parse_order``,
``order_form``), the options it adds (``option_orders``, ``extra_reach``), its resolver mixin
(``Movement``) with its reason texts, the state it keeps in requests, and its words for the
rules page. Its ``RULE`` gathers them in one ``adjudication.registry.Rule`` object, whose class
documents each hook. A variant switches a rule on by listing its ``name`` in its ``rules``;
``variants.register()`` registers every object listed here.
"""

from __future__ import annotations

from . import chinese, oceans, suez_canal, trans_siberian_railroad

RULES = (oceans.RULE, suez_canal.RULE, trans_siberian_railroad.RULE, chinese.RULE)
