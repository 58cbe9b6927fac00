"""Forms sent by someone signed out meanwhile (in another tab, or their session ended), and
the text they carried: kept in the session, which signing in keeps, for the account the form
was shown to alone."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext

from . import kept_input


def signed_in_to_act(view=None, *, back: str = "game"):
    """``login_required`` for a game's forms (orders, press, Ready, payments, votes, joining;
    with ``back``, a sandbox's or the moderator console's): a form sent by someone signed out
    meanwhile (in another tab, or the session ended) goes to the sign-in page and from there
    back to the page the form was on (``back``: its URL name), not to the form's address,
    which answers a GET with 405; and what was typed in the orders or press box is kept for
    the game page to show again, as any refused form's is."""
    if view is None:
        return lambda view: signed_in_to_act(view, back=back)

    @wraps(view)
    def wrapped(request: HttpRequest, pk: int, *args, **kwargs) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, pk, *args, **kwargs)
        if request.method == "POST" and back != "game":
            messages.error(
                request, gettext("You were signed out. Sign in again, then do it again.")
            )
        elif request.method == "POST":
            if keep_typed(request, pk):
                said = gettext(
                    "You were signed out. Sign in again: what you typed is still in its box."
                )
            else:
                said = gettext("You were signed out. Sign in again, then do it again.")
            messages.error(request, said)
        return redirect_to_login(reverse(back, args=[pk]))

    return wrapped


def keep_typed(request: HttpRequest, pk: int) -> bool:
    """The orders or press a game's form carried, kept in the session (which signing in
    keeps) under the keys the game page reads refused text from: for its signed-in sender
    at once; for a sender signed out meanwhile (``signed_in_to_act``), only for the account
    the form was shown to (its ``author`` field), should another sign in on that browser.
    Whether anything was kept."""
    user = request.user
    if user.is_authenticated:
        owner = user.pk
    else:
        try:
            owner = signing.loads(request.POST.get("author", ""), salt=AUTHOR_SALT)
        except signing.BadSignature:
            return False  # an old page's form, or a forged one: nothing is kept for anyone
    # One game's text at a time: a session holds no more than two boxes' worth, however many
    # games a signed-out browser posts to.
    others = [k for k in list(request.session.keys()) if k.startswith("kept-")]
    for key in [k for k in others if not k.endswith(f"-{pk}")]:
        del request.session[key]
    kept = False
    orders = request.POST.get("orders", "").replace("\x00", "")
    if orders.strip() and len(orders) <= MAX_KEPT_TEXT:
        kept_input.keep(request, "kept-orders", pk, {"by": owner, "text": orders})
        kept = True
    body = request.POST.get("body", "").replace("\x00", "")
    if body.strip() and len(body) <= MAX_KEPT_TEXT:
        recipients = [r[:50] for r in request.POST.getlist("recipients")[:20]]
        text = {"body": body, "recipients": recipients}
        kept_input.keep(request, "kept-press", pk, {"by": owner, "text": text})
        kept = True
    return kept


def take_kept(request: HttpRequest, pk: int) -> None:
    """What ``keep_typed`` kept for this game, given back to the game page's boxes if it was
    typed by the account now signed in, else dropped."""
    for what, shown in (("orders", "unsaved-orders"), ("press", "unsent-press")):
        kept = kept_input.take(request, f"kept-{what}", pk, dict)
        if kept is not None and kept.get("by") == request.user.pk:
            kept_input.keep(request, shown, pk, kept.get("text"))


def author_field(user) -> str:
    """The ``author`` field of a game's orders and press forms: who the form was shown to,
    signed, so that text kept from it after its sender was signed out goes back to them
    alone (``keep_typed``)."""
    return signing.dumps(user.pk, salt=AUTHOR_SALT) if user.is_authenticated else ""


AUTHOR_SALT = "games.web.kept-text"


# The most text of a signed-out form kept for later: more than any box takes.
MAX_KEPT_TEXT = 25_000
