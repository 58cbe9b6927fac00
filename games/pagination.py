"""The API's pages. A module of its own: DRF imports the pagination class named in the settings
while ``games.api`` is still being imported."""

from __future__ import annotations

import re

from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import PageNumberPagination

from .query import once

_DIGITS = re.compile(r"[0-9]{1,30}")  # ASCII digits only: int() also reads "٥" and " 5"


class Pages(PageNumberPagination):
    """Every list the API answers comes in pages, so that no answer grows with the database:
    ``{"count", "next", "previous", "results"}``; ``?page=n`` (``last`` for the newest of an
    oldest-first list) and ``?page_size=`` (more than 100 gives 100).

    Both are read strictly, as the schema states them: DRF would quietly read ``page_size=abc``
    as the default and ``page=`` as the first page."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100

    def get_page_size(self, request) -> int:
        raw = once(request, self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not _DIGITS.fullmatch(raw) or int(raw) < 1:
            raise ValidationError({self.page_size_query_param: ["a whole number, at least 1"]})
        return min(int(raw), self.max_page_size)

    def get_page_number(self, request, paginator) -> int:
        raw = once(request, self.page_query_param)
        if raw is None:
            return 1
        if raw in self.last_page_strings:
            return paginator.num_pages
        if not _DIGITS.fullmatch(raw):
            raise NotFound(self.invalid_page_message)
        return int(raw)

    def get_schema_operation_parameters(self, view) -> list[dict]:
        return [
            {
                "name": self.page_query_param,
                "required": False,
                "in": "query",
                "description": "The page: 1 (the default) and up, or last.",
                "schema": {
                    "anyOf": [
                        {"type": "integer", "minimum": 1},
                        {"type": "string", "enum": list(self.last_page_strings)},
                    ]
                },
            },
            {
                "name": self.page_size_query_param,
                "required": False,
                "in": "query",
                "description": f"Results a page (default {self.page_size}; more than "
                f"{self.max_page_size} gives {self.max_page_size}).",
                "schema": {"type": "integer", "minimum": 1, "maximum": 10**30 - 1},
            },
        ]
