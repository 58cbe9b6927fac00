"""The API's JSON renderer: DRF's, always able to write its answer.

DRF writes JSON as UTF-8 text, and a string holding a lone surrogate (``"\\ud800"``, which
Python's JSON decoder reads from a request) has no UTF-8 form: echoed in an error message it
made the answer a 500. The parsers refuse such a body (``games.parsers``); should one reach an
answer some other way, the answer is written in ASCII, the character as its JSON escape.
"""

from __future__ import annotations

from rest_framework import renderers


class JSONRenderer(renderers.JSONRenderer):
    def render(self, data, accepted_media_type=None, renderer_context=None):
        try:
            return super().render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            # DRF makes a renderer for each request: this one alone writes escapes.
            self.ensure_ascii = True
            return super().render(data, accepted_media_type, renderer_context)
