"""``makemessages`` that also gathers the rules engine's reasons.

The engine is standard-library Python and knows no Django: it writes each reason as
``why("template", ...)``, ``OrderError("template", ...)`` or, for a template kept in a table,
``reason_template("...")`` (``adjudication.reasons``). These keywords let xgettext find them,
so the reasons are translated with the rest of the site (``games.reason_words``).
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=why",
        "--keyword=OrderError",
        "--keyword=reason_template",
    ]
