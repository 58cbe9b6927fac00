"""Rule plug-ins a variant switches on by name in its ``rules`` list.

A plug-in is a module. Everything in it is optional:

- ``parse_order(variant, tokens, phase_type) -> Order | None``: orders with words of its own;
- ``order_form(order) -> str``: the name of one of those orders' forms (``permit``,
  ``enter``, ``leave``), given in the order's data as ``form`` beside ``rule``, so that no
  reader outside the plug-in has to tell its orders apart by their words;
- ``ROUTES``: words a move may name after ``via`` besides Convoy (``TSR``);
- ``one_a_turn(order) -> str | None``: the rule (in words) of an order a power may give once a
  turn; when a power gives two, all of them are refused with it;
- ``read_request(board, request)``: state the plug-in keeps in the request;
- ``allows_stacking(variant, province) -> bool``: provinces that hold several units;
- ``may_retreat_to_attacker(variant, dislodged, province) -> bool``;
- ``class Movement``: a mixin over ``adjudication.movement.Movement`` that overrides its
  checks and strengths (calling ``super()``) and may add decisions with ``add_decision``;
- ``finish_response(board, response)``: fields of its own in the response;
- ``OPTIONS``: the game options it reads (``board.options``), each declared as
  ``adjudication.game_options`` describes, so that servers check them when a game is set up.
"""
