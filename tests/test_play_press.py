"""Press on the game page: a private thread's recipients stay ticked after a message is sent
in it (a follow-up stays private; public is a deliberate choice), and unread counts are kept
on the account, not in one browser's session."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import models

pytestmark = pytest.mark.django_db


@pytest.fixture
def colonial(make_game):
    return make_game("colonial")


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def ticked(html: str) -> list[str]:
    """The recipients ticked in the press form."""
    form = re.search(r'<form[^>]*class="press-form".*?</form>', html, re.S).group(0)
    return sorted(re.findall(r'<input[^>]*value="(\w+)"[^>]*checked', form))


def unread(html: str) -> dict[str, int]:
    return {
        title: int(count)
        for title, count in re.findall(
            r'>([^<]+)</a> <span class="unread" title="unread">(\d+)</span>', html
        )
    }


def test_recipients_stay_ticked_after_a_private_message(colonial, seat):
    """Found by a UI tester: after the first private message every box was unticked, so the
    follow-up typed in the same thread went to everyone."""
    russia = seat(colonial, "Russia")
    c = client_for(russia.user)
    send = reverse("send-press", args=[colonial.pk])
    response = c.post(send, {"phase": "0", "body": "Peace in Manchuria?", "recipients": ["China"]})
    html = c.get(response.url).content.decode()
    assert "Peace in Manchuria?" in html  # the thread is shown...
    assert ticked(html) == ["China"]  # ...and the next message goes to China alone again
    assert "untick everyone for a public message" in html
    response = c.post(send, {"phase": "0", "body": "A follow-up", "recipients": ticked(html)})
    assert list(colonial.messages.order_by("pk").values_list("recipients", flat=True)) == [
        ["China"],
        ["China"],
    ]
    # Three powers in one thread: all of them stay ticked.
    response = c.post(send, {"phase": "0", "body": "All three?", "recipients": ["China", "Japan"]})
    assert ticked(c.get(response.url).content.decode()) == ["China", "Japan"]
    # A public message leaves nobody ticked: the public thread is shown.
    response = c.post(send, {"phase": "0", "body": "Hello all"})
    assert "thread=public" in response.url
    assert ticked(c.get(response.url).content.decode()) == []
    # Opening a thread to reply ticks its members too.
    html = c.get(reverse("game", args=[colonial.pk]) + "?thread=China|Russia").content.decode()
    assert ticked(html) == ["China"]


def test_a_thread_with_a_power_named_in_two_words_comes_back_ticked(make_game, seat):
    game = make_game("chinese")
    us = seat(game, "England")
    c = client_for(us.user)
    response = c.post(
        reverse("send-press", args=[game.pk]),
        {"phase": "0", "body": "Hi", "recipients": ["United States"]},
    )
    assert " " not in response.url
    assert ticked_names(c.get(response.url).content.decode()) == ["United States"]


def ticked_names(html: str) -> list[str]:
    form = re.search(r'<form[^>]*class="press-form".*?</form>', html, re.S).group(0)
    return sorted(re.findall(r'<input[^>]*value="([^"]+)"[^>]*checked', form))


def test_unread_counts_follow_the_account_to_another_browser(colonial, seat):
    russia, china = seat(colonial, "Russia"), seat(colonial, "China")
    send = reverse("send-press", args=[colonial.pk])
    client_for(russia.user).post(send, {"phase": "0", "body": "One", "recipients": ["China"]})
    client_for(russia.user).post(send, {"phase": "0", "body": "Two", "recipients": ["China"]})
    client_for(russia.user).post(send, {"phase": "0", "body": "To all"})
    page = reverse("game", args=[colonial.pk])
    laptop = client_for(china.user)
    # The thread opened shows what was new as it opened; from then on it counts as read.
    first = unread(laptop.get(page + "?thread=public").content.decode())
    assert first == {"China, Russia": 2, "Everyone": 1}
    assert unread(laptop.get(page + "?thread=public").content.decode()) == {"China, Russia": 2}
    laptop.get(page + "?thread=China|Russia")  # read on the laptop
    phone = client_for(china.user)  # a new session: nothing in it
    assert unread(phone.get(page + "?thread=public").content.decode()) == {}
    assert models.PressRead.objects.filter(user=china.user, game=colonial).count() == 2


def test_a_read_marker_never_moves_back(colonial, seat):
    china = seat(colonial, "China")
    models.PressRead.mark(china.user, colonial, "public", 10)
    models.PressRead.mark(china.user, colonial, "public", 4)
    assert (
        models.PressRead.objects.get(user=china.user, game=colonial, thread="public").last_read
        == 10
    )


def test_a_double_click_sends_one_message(colonial, seat, api, monkeypatch):
    """The same words to the same readers at once are one message, through the page and the
    API; sent again later, or to someone else, they are a new one."""
    from games import services

    russia = seat(colonial, "Russia")
    page = client_for(russia.user)
    form = {"phase": "0", "body": "Shall we share Persia?", "recipients": ["Britain"]}
    url = reverse("send-press", args=[colonial.pk])
    page.post(url, form)
    page.post(url, form)
    client = api(russia.user)
    api_url = f"/api/games/{colonial.pk}/messages/"
    first = client.post(api_url, {"body": "Agreed?", "recipients": ["Britain"]}, format="json")
    again = client.post(api_url, {"body": "Agreed?", "recipients": ["Britain"]}, format="json")
    # The repeat says it made nothing (200, as a repeated payment does), the first one 201.
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.data["id"] == again.data["id"]
    client.post(api_url, {"body": "Agreed?", "recipients": ["China"]}, format="json")
    bodies = list(colonial.messages.order_by("pk").values_list("body", flat=True))
    assert bodies == ["Shall we share Persia?", "Agreed?", "Agreed?"]
    monkeypatch.setattr(services, "REPEATED_PRESS", services.timedelta(0))
    client.post(api_url, {"body": "Agreed?", "recipients": ["Britain"]}, format="json")
    assert colonial.messages.count() == 4


def test_press_to_an_unknown_power_names_the_powers(colonial, seat, api):
    """Press to no power of the game says which powers there are, as a join does."""
    russia = api(seat(colonial, "Russia").user)
    url = f"/api/games/{colonial.pk}/messages/"
    answer = russia.post(url, {"body": "hi", "recipients": ["Narnia"]}, format="json")
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("unknown powers Narnia; choose from Britain")


def flashed(response) -> list[str]:
    from django.contrib.messages import get_messages

    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ({"body": "hi", "recipients": ["Russia"]}, "someone other than yourself"),
        ({"body": "hi", "recipients": ["Atlantis"]}, "Atlantis is not one of the available"),
        ({"body": "", "recipients": []}, "This field is required"),
    ],
)
def test_a_refused_message_says_why(colonial, seat, form, said):
    """The press form said "A message needs some text." of every refusal, a message with a
    body to nobody but oneself or to an unknown power too (a tester's finding). Said beside
    the press form, not at the top of the page, off a phone's screen (an adversary's)."""
    page = client_for(seat(colonial, "Russia").user)
    response = page.post(reverse("send-press", args=[colonial.pk]), {**form, "phase": "0"})
    assert response.status_code == 302
    assert not flashed(response)
    shown = refused_beside_the_form(page, response)
    assert len(shown) == 1 and said in shown[0], shown
    assert not colonial.messages.exists()


def refused_beside_the_form(page: Client, response) -> list[str]:
    """The refusals the game page shows in its press form, after the redirect."""
    html = page.get(response["Location"]).content.decode()
    form = html[html.index('class="press-form"') :]
    found = re.search(r'<div class="errorlist" role="alert">(.*?)</div>', form, re.S)
    return re.findall(r"<p>(.*?)</p>", found.group(1), re.S) if found else []


def test_a_blank_message_keeps_its_recipients_and_its_thread(colonial, seat):
    """Found by an adversary: a message of spaces to Japan came back to the public thread
    with Japan no longer ticked, and the refusal 2,800 px above at the top of the page."""
    page = client_for(seat(colonial, "Russia").user)
    form = {"phase": "0", "body": "   ", "recipients": ["Japan"]}
    response = page.post(reverse("send-press", args=[colonial.pk]), form)
    assert "thread=Japan%7CRussia" in response["Location"]
    assert refused_beside_the_form(page, response)
    html = page.get(reverse("game", args=[colonial.pk])).content.decode()
    assert not re.search(r'value="Japan"[^>]*checked', html)  # given back once, not for ever


def test_the_press_form_writes_to_others_beside_oneself(colonial, seat):
    """As the API does: one's own power among the recipients is dropped, the others read it."""
    page = client_for(seat(colonial, "Russia").user)
    form = {"phase": "0", "body": "hi", "recipients": ["Russia", "Britain"]}
    page.post(reverse("send-press", args=[colonial.pk]), form)
    assert list(colonial.messages.values_list("recipients", flat=True)) == [["Britain"]]


def test_press_names_its_phase_and_null_is_no_phase(colonial, seat, api, moderator):
    """The API's ``phase`` is optional, but when given it is the current phase's index: null
    is a 400 that says so (it was read as no phase at all, and sent), an old one a 409."""
    from games import services

    client = api(seat(colonial, "Russia").user)
    url = f"/api/games/{colonial.pk}/messages/"
    null = client.post(url, {"body": "Now?", "phase": None}, format="json")
    assert null.status_code == 400
    assert "Null names no phase" in null.json()["phase"][0]
    assert client.post(url, {"body": "Now?", "phase": "0"}, format="json").status_code == 400
    services.process_now(colonial, moderator)
    assert client.post(url, {"body": "Now?", "phase": 0}, format="json").status_code == 409
    assert not colonial.messages.exists()
    assert client.post(url, {"body": "Now?", "phase": 1}, format="json").status_code == 201
    assert client.post(url, {"body": "Later"}, format="json").status_code == 201


def test_press_from_a_page_of_a_phase_since_processed_comes_back_unsent(colonial, seat, moderator):
    """The press form sends the phase it was shown in: written before the phase was processed
    and sent after, the message is not sent in the next phase unseen; it comes back in the
    box with its recipients, and the page says why. A form naming no phase is an old page's."""
    from games import services

    page = client_for(seat(colonial, "Russia").user)
    game_url = reverse("game", args=[colonial.pk])
    form = re.search(
        r'<form[^>]*class="press-form".*?</form>', page.get(game_url).content.decode(), re.S
    )
    assert '<input type="hidden" name="phase" value="0">' in form.group(0)
    services.process_now(colonial, moderator)
    sent = {"phase": "0", "body": "Support me into Persia", "recipients": ["Britain"]}
    response = page.post(reverse("send-press", args=[colonial.pk]), sent, follow=True)
    html = response.content.decode()
    assert not colonial.messages.exists()
    assert "it was not sent" in html
    form = re.search(r'<form[^>]*class="press-form".*?</form>', html, re.S).group(0)
    assert "Support me into Persia</textarea>" in form and ticked(html) == ["Britain"]
    assert '<input type="hidden" name="phase" value="1">' in form
    del sent["phase"]
    page.post(reverse("send-press", args=[colonial.pk]), sent)
    assert not colonial.messages.exists()
    page.post(reverse("send-press", args=[colonial.pk]), {**sent, "phase": "1"})
    assert colonial.messages.get().body == "Support me into Persia"


@pytest.mark.parametrize(
    ("phase", "said"),
    [
        *(
            (p, "names a phase no page of this game writes")
            for p in ["x", "-1", "1e3", "7", "\uff10"]
        ),
        ("", "This form came incomplete"),
        (None, "This form came incomplete"),
    ],
)
def test_press_naming_a_phase_the_game_lacks_says_so(colonial, seat, phase, said):
    """Found by an adversary: ``phase=x``, a phase never reached or none at all was said to be
    "written for a phase that has been processed since"; it says, as the orders form does,
    that the form names a phase no page writes or came incomplete; the words stay in the box."""
    poster = client_for(seat(colonial, "Russia").user)
    sent = {"phase": phase, "body": "Hello, Britain", "recipients": ["Britain"]}
    if phase is None:
        del sent["phase"]
    page = poster.post(reverse("send-press", args=[colonial.pk]), sent)
    html = poster.get(page["Location"]).content.decode()
    form = html[html.index('class="press-form"') :]
    assert said in form and "Your message is still in the box." in form
    assert "processed since" not in form
    assert "Hello, Britain</textarea>" in form and ticked(html) == ["Britain"]
    assert not colonial.messages.exists()


def test_press_far_too_long_comes_back_in_the_box_cut(colonial, seat):
    """Found by an adversary: press over twice the size cap (a box's limit removed, or a
    script) was refused with an empty box; it comes back cut at twice the cap, with why."""
    poster = client_for(seat(colonial, "Russia").user)
    body = "Dear Britain, " + "x" * 20_000
    sent = {"phase": "0", "body": body, "recipients": ["Britain"]}
    page = poster.post(reverse("send-press", args=[colonial.pk]), sent)
    html = poster.get(page["Location"]).content.decode()
    form = html[html.index('class="press-form"') :]
    assert "at most 5000 characters" in form
    # (a newline just after <textarea> is no part of its text)
    kept = re.search(r"<textarea[^>]*>\n?(.*?)</textarea>", form, re.S).group(1)
    assert kept.startswith("Dear Britain, xxx") and len(kept) == 10_000
    assert ticked(html) == ["Britain"]
    assert not colonial.messages.exists()


@pytest.mark.parametrize("body", ["\u200b", "\u202e\u2066", " \u200d\u3164 ", "\u2028\u00ad"])
def test_press_that_shows_nothing_is_refused(colonial, seat, api, body):
    """Game names refuse invisible characters; press made of nothing else was sent, an empty
    message in everyone's list."""
    russia = seat(colonial, "Russia").user
    answer = api(russia).post(
        f"/api/games/{colonial.pk}/messages/", {"body": body, "recipients": []}, format="json"
    )
    assert answer.status_code == 400, answer.content
    assert "something to read" in answer.json()["detail"]
    poster = client_for(russia)
    page = poster.post(
        reverse("send-press", args=[colonial.pk]), {"phase": "0", "body": body, "recipients": []}
    )
    said = refused_beside_the_form(poster, page)
    assert any("something to read" in m for m in said), said
    assert not colonial.messages.exists()
    # Such characters within words are press as any other: a right-to-left line, an emoji.
    for fine in ("\u2067\u05e9\u05dc\u05d5\u05dd\u2069 hi", "\U0001f468\u200d\U0001f469"):
        sent = api(russia).post(
            f"/api/games/{colonial.pk}/messages/", {"body": fine, "recipients": []}, format="json"
        )
        assert sent.status_code == 201, sent.content


def _author(user, game) -> str:
    """The ``author`` field of the game page's forms, as shown to ``user``."""
    html = client_for(user).get(reverse("game", args=[game.pk])).content.decode()
    return re.search(r'name="author" value="([^"]+)"', html).group(1)


def _signed_out_browser(user) -> Client:
    user.set_password("pw")
    user.save()
    return Client()


def test_press_sent_after_signing_out_elsewhere_waits_in_the_box_for_signing_in(colonial, seat):
    """Found by an adversary: signed out in another tab, a message sent from the game page
    went to the sign-in page, which then led to the press form's address (a GET there: 405,
    "Not allowed here"), and the message was gone. Now the sign-in leads back to the game
    page, the message in its box, its recipients ticked."""
    russia = seat(colonial, "Russia").user
    author = _author(russia, colonial)
    page = _signed_out_browser(russia)
    sent = {"phase": "0", "body": "Still allies?", "recipients": ["Britain"], "author": author}
    response = page.post(reverse("send-press", args=[colonial.pk]), sent)
    game_url = reverse("game", args=[colonial.pk])
    assert response.status_code == 302
    assert response.url.startswith(reverse("login")) and f"next={game_url}" in response.url
    assert not colonial.messages.exists()
    signed_in = page.post(
        response.url, {"username": russia.username, "password": "pw"}, follow=True
    )
    assert signed_in.redirect_chain[-1][0] == game_url
    html = signed_in.content.decode()
    assert "You were signed out" in html
    form = re.search(r'<form[^>]*class="press-form".*?</form>', html, re.S).group(0)
    assert "Still allies?</textarea>" in form and ticked(html) == ["Britain"]


def test_orders_saved_after_signing_out_elsewhere_wait_in_the_box(colonial, seat):
    russia = seat(colonial, "Russia").user
    author = _author(russia, colonial)
    page = _signed_out_browser(russia)
    response = page.post(
        reverse("submit-orders", args=[colonial.pk]), {"orders": "A Moscow H", "author": author}
    )
    page.post(response.url, {"username": russia.username, "password": "pw"})
    html = page.get(reverse("game", args=[colonial.pk])).content.decode()
    assert "A Moscow H</textarea>" in html
    assert not models.Order.objects.filter(phase__game=colonial).exists()


def test_text_kept_after_signing_out_is_shown_to_nobody_else(colonial, seat):
    """Someone else signing in on that browser (a shared computer) is not shown the press or
    orders the first player typed; nor is anyone shown text from a form without its author."""
    russia, china = seat(colonial, "Russia").user, seat(colonial, "China").user
    author = _author(russia, colonial)
    page = _signed_out_browser(china)
    press = {"phase": "0", "body": "Secret plan", "author": author}
    response = page.post(reverse("send-press", args=[colonial.pk]), press)
    page.post(
        reverse("submit-orders", args=[colonial.pk]), {"orders": "A Moscow H", "author": author}
    )
    page.post(response.url, {"username": china.username, "password": "pw"})
    html = page.get(reverse("game", args=[colonial.pk])).content.decode()
    assert "Secret plan" not in html and "A Moscow H" not in html
    page = _signed_out_browser(russia)
    response = page.post(reverse("send-press", args=[colonial.pk]), {**press, "author": "forged"})
    page.post(response.url, {"username": russia.username, "password": "pw"})
    html = page.get(reverse("game", args=[colonial.pk])).content.decode()
    assert "Secret plan" not in html
    assert "Sign in again, then do it again." in html  # nothing kept, nothing promised


def test_the_api_says_how_to_sign_in_again(colonial, client):
    response = client.put(
        f"/api/games/{colonial.pk}/orders/",
        {"orders": ["A Moscow H"]},
        content_type="application/json",
    )
    assert response.status_code in (401, 403)
    assert response.json()["detail"].startswith("You are not signed in: sign in again")


def test_a_signed_out_game_page_is_told_as_a_person(colonial, seat):
    """Found by an adversary: a game page whose player signed out in another tab showed
    "... or send an API token (Authorization: Token …)" beside the orders box."""
    browser = client_for(seat(colonial, "Russia").user)
    browser.get(reverse("game", args=[colonial.pk]))  # the page sets the CSRF cookie
    browser.logout()
    browser.cookies["csrftoken"] = "x" * 32
    response = browser.put(
        f"/api/games/{colonial.pk}/orders/",
        {"orders": ["A Moscow H"]},
        content_type="application/json",
    )
    assert response.status_code in (401, 403)
    detail = response.json()["detail"]
    assert detail.startswith("You have been signed out") and "Token" not in detail


def test_a_public_press_game_asks_for_no_recipients(make_game, seat):
    """Found by an adversary: "Recipients:" and "Tick nobody for a public message." with
    nothing to tick, in a game of public press only."""
    game = make_game("colonial", press=models.Game.Press.PUBLIC)
    page = client_for(seat(game, "Russia").user)
    html = page.get(reverse("game", args=[game.pk])).content.decode()
    form = re.search(r'<form[^>]*class="press-form".*?</form>', html, re.S).group(0)
    assert re.findall(r'name="recipients" value="(\w+)"', form) == ["Moderator"]  # alone
    assert 'name="body"' in form
    page.post(reverse("send-press", args=[game.pk]), {"phase": "0", "body": "Hello, all"})
    assert game.messages.get().recipients == []


def test_the_moderator_answers_privately_in_a_public_press_game(make_game, seat, moderator):
    """Found by an adversary: in a public-press game the moderator's form offered no powers,
    so a reply in a player's thread to the moderator went to everyone."""
    game = make_game("colonial", press=models.Game.Press.PUBLIC)
    russia = seat(game, "Russia").user
    send = reverse("send-press", args=[game.pk])
    client_for(russia).post(send, {"phase": "0", "body": "A question", "recipients": ["Moderator"]})
    mod = client_for(moderator)
    html = mod.get(reverse("game", args=[game.pk]) + "?thread=Moderator|Russia").content.decode()
    form = re.search(r'<form[^>]*class="press-form".*?</form>', html, re.S).group(0)
    assert "Russia" in re.findall(r'name="recipients" value="(\w+)"', form)
    assert ticked(html) == ["Russia"]
    mod.post(send, {"phase": "0", "body": "An answer", "recipients": ["Russia"]})
    assert game.messages.get(body="An answer").recipients == ["Russia"]
    china = client_for(seat(game, "China").user).get(reverse("game", args=[game.pk]))
    assert "An answer" not in china.content.decode()


def test_a_signed_out_browser_keeps_one_games_text_at_a_time(colonial, make_game, seat):
    """Found by an adversary: every game a signed-out browser posted to kept up to two boxes
    of text in its session, which grew past a megabyte."""
    russia = seat(colonial, "Russia").user
    author = _author(russia, colonial)
    page = _signed_out_browser(russia)
    for pk in (colonial.pk, 999_001, 999_002):
        page.post(reverse("send-press", args=[pk]), {"body": "x" * 20_000, "author": author})
        page.post(reverse("submit-orders", args=[pk]), {"orders": "y" * 20_000, "author": author})
    kept = [k for k in list(page.session.keys()) if k.startswith("kept-")]
    assert sorted(kept) == ["kept-orders-999002", "kept-press-999002"]


@pytest.mark.parametrize(
    ("name", "back"),
    [("moderate-action", "moderate"), ("sandbox-step", "sandbox"), ("webhook-add", "moderate")],
)
def test_a_signed_out_console_or_sandbox_form_leads_back_to_its_page(colonial, name, back):
    """Found by an adversary: the moderator's console, a sandbox's steps and the webhooks form
    sent after signing out led, once signed in, to the form's address: a 405."""
    args = [colonial.pk] if name == "webhook-add" else [colonial.pk, "process"]
    response = Client().post(reverse(name, args=args), {})
    assert response.status_code == 302
    assert response.url.endswith("?next=" + reverse(back, args=[colonial.pk]))


def test_a_player_writes_to_the_moderator_alone(colonial, seat, api, moderator):
    """Seen by an adversary: "Moderator" was no recipient, so a question for the moderator
    went to every power or to none. Now a player ticks "Moderator" (or sends it to the API,
    in any case); the moderator and the sender read the thread, no other power does, and the
    moderator's reply to the power lands in the same thread."""
    russia = seat(colonial, "Russia")
    page = client_for(russia.user)
    html = page.get(reverse("game", args=[colonial.pk])).content.decode()
    form = re.search(r'<form[^>]*class="press-form".*?</form>', html, re.S).group(0)
    assert 'name="recipients" value="Moderator"' in form
    send = reverse("send-press", args=[colonial.pk])
    response = page.post(
        send, {"phase": "0", "body": "Is Cebu a centre?", "recipients": ["Moderator"]}
    )
    assert "thread=Moderator%7CRussia" in response.url or "thread=Moderator|Russia" in response.url
    assert ticked(page.get(response.url).content.decode()) == ["Moderator"]
    sent = api(russia.user).post(
        f"/api/games/{colonial.pk}/messages/",
        {"body": "And Hong Kong?", "recipients": [" moderator ", "China"]},
        format="json",
    )
    assert sent.status_code == 201, sent.content
    assert sent.json()["recipients"] == ["China", "Moderator"]
    assert list(colonial.messages.order_by("pk").values_list("recipients", flat=True)) == [
        ["Moderator"],
        ["China", "Moderator"],
    ]
    # Japan reads neither; China only the one it was sent.
    for power, count in (("Japan", 0), ("China", 1)):
        read = api(seat(colonial, power).user).get(f"/api/games/{colonial.pk}/messages/")
        assert len(read.json()["results"]) == count, power
    # The moderator reads both, and answers Russia in the same thread.
    mod = client_for(moderator)
    thread = reverse("game", args=[colonial.pk]) + "?thread=Moderator|Russia"
    assert "Is Cebu a centre?" in mod.get(thread).content.decode()
    mod.post(send, {"phase": "0", "body": "It is.", "recipients": ["Russia"]})
    html = page.get(thread).content.decode()
    assert "Is Cebu a centre?" in html and "It is." in html


def test_press_to_the_moderator_in_a_no_press_game_and_when_they_play(make_game, seat, api):
    game = make_game("colonial", press=models.Game.Press.NONE)
    russia = seat(game, "Russia")
    url = f"/api/games/{game.pk}/messages/"
    client = api(russia.user)
    to_china = client.post(url, {"body": "Ally?", "recipients": ["China"]}, format="json")
    assert to_china.status_code == 400
    assert "only the moderator may be written to" in to_china.content.decode()
    both = client.post(url, {"body": "Ally?", "recipients": ["China", "Moderator"]}, format="json")
    assert both.status_code == 400
    alone = client.post(url, {"body": "A question", "recipients": ["Moderator"]}, format="json")
    assert alone.status_code == 201
    html = client_for(russia.user).get(reverse("game", args=[game.pk])).content.decode()
    form = re.search(r'<form[^>]*class="press-form".*?</form>', html, re.S).group(0)
    assert re.findall(r'name="recipients" value="(\w+)"', form) == ["Moderator"]
    assert "write to the moderator alone" in form
    # A moderator who plays reads only their power's press: "Moderator" has no reader.
    played = make_game("colonial")
    from games import services

    seat_of_creator = seat(played, "China")
    seat_of_creator.user = played.creator
    seat_of_creator.save()
    refused = api(seat(played, "Russia").user).post(
        f"/api/games/{played.pk}/messages/",
        {"body": "Hello?", "recipients": ["Moderator"]},
        format="json",
    )
    assert refused.status_code == 400
    assert "the moderator plays in this game" in refused.content.decode()
    assert not services.moderator_reads(played)
    html = client_for(seat(played, "Russia").user).get(reverse("game", args=[played.pk]))
    assert 'value="Moderator"' not in html.content.decode()


def test_press_to_the_moderator_is_pushed_to_the_moderator(colonial, seat, monkeypatch):
    from games import reach, services

    pushed = []
    monkeypatch.setattr(reach, "push_to", lambda users, *rest: pushed.append(list(users)))
    message = services.send_message(
        colonial, seat(colonial, "Russia").user, "A question", ["Moderator"]
    )
    reach.press_sent(message)
    assert pushed == [[colonial.creator]]


def test_a_page_forms_field_given_twice_is_refused_not_half_read(colonial, seat):
    """Found by an adversary: the press form sent ``body=first&body=second`` as "second" and
    the orders form saved ``orders=A+Moscow+H&orders=F+Odessa+H`` as "F Odessa H", the first
    value dropped unseen (Django reads the last), where the API refuses a field given twice."""
    russia = seat(colonial, "Russia")
    page = client_for(russia.user)
    press = page.post(
        reverse("send-press", args=[colonial.pk]),
        {"phase": "0", "body": ["first", "second"]},
    )
    assert response_refuses(page, press, "given 2 times")
    assert not colonial.messages.exists()
    orders = page.post(
        reverse("submit-orders", args=[colonial.pk]),
        {"phase": "0", "orders": ["A Moscow H", "F Odessa H"]},
    )
    assert response_refuses(page, orders, "given 2 times")
    assert not models.Order.objects.filter(power="Russia").exists()
    once = page.post(
        reverse("submit-orders", args=[colonial.pk]),
        {"phase": "0", "orders": "A Moscow H\nF Odessa H"},
    )
    assert once.status_code == 302
    saved = models.Order.objects.filter(power="Russia").values_list("text", flat=True)
    assert sorted(saved) == ["A Moscow H", "F Odessa H"]
    # Several recipients ticked are still several values of one field.
    sent = page.post(
        reverse("send-press", args=[colonial.pk]),
        {"phase": "0", "body": "hello", "recipients": ["Japan", "China"]},
    )
    assert sent.status_code == 302
    assert sorted(colonial.messages.get().recipients) == ["China", "Japan"]


def response_refuses(page: Client, response, words: str) -> bool:
    """Whether the page the form led back to says ``words`` (refused, nothing done)."""
    if response.status_code == 302:
        response = page.get(response["Location"])
    return words in response.content.decode()
