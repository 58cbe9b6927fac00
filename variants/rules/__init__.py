"""Rule plug-ins a variant switches on by name in its ``rules`` list.

A plug-in is a module. Everything in it is optional:

- ``parse_order(variant, tokens, phase_type) -> Order | None``: orders with words of its own;
- ``read_request(board, request)``: state the plug-in keeps in the request;
- ``allows_stacking(variant, province) -> bool``: provinces that hold several units;
- ``may_retreat_to_attacker(variant, dislodged, province) -> bool``;
- ``class Movement``: a mixin over ``adjudication.movement.Movement`` that overrides its
  checks and strengths (calling ``super()``) and may add decisions with ``add_decision``;
- ``finish_response(board, response)``: fields of its own in the response.
"""
