"""What an independent adversary still found after issue #15 (hardening), each tried as a
stranger would: through the API, the pages and the admin, never by calling the services only.

1. a Chinese faction taken as a seat; 2. a NUL in the session cookie; 3. engine reasons past
their column; 4./5./13. processing, deadlines and orders tied to the phase meant; 6. sign-ups
racing for one name; 7./14. payments throttled, capped and idempotent, the audit log paged;
8. the lobby paged; 9. a game nobody plays ends; 10. the press digest bounded and going on past
a failure; 11. the admin's form keeps the API's limits; 12. client errors are warnings, not
mailed errors; 15. JSON only under /api/; 16. admin actions with a non-numeric id.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import timedelta

import pytest
from conftest import deadline_passes
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from rest_framework.test import APIClient

from games import limits, moderation, notifications, services
from games.models import Game, Membership, Message, ModeratorAction, Order, Payment

pytestmark = pytest.mark.django_db


def browser(user=None) -> Client:
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


def token_client(user=None) -> APIClient:
    client = APIClient(raise_request_exception=False)
    if user is not None:
        client.force_authenticate(user)
    return client


def flashed(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def json_4xx(response, *statuses: int) -> dict:
    assert response.status_code in (statuses or range(400, 500)), (
        response.status_code,
        response.content[:300],
    )
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    return json.loads(response.content)


@pytest.fixture
def chinese(make_game) -> Game:
    """A running Chinese game with one great power (the last) nobody took."""
    return make_game("chinese", players=5)


# -- 1. the Chinese factions are not seats -------------------------------------------------


@pytest.mark.parametrize("faction", ["Imperials", "Kuomintang", "Communists"])
def test_a_stranger_cannot_take_a_faction_through_the_api(chinese, make_user, faction) -> None:
    stranger = make_user("stranger")
    response = token_client(stranger).post(
        f"/api/games/{chinese.pk}/join/", {"power": faction}, format="json"
    )
    assert faction in json_4xx(response, 400)["detail"]
    assert not chinese.memberships.filter(user=stranger).exists()


def test_a_stranger_cannot_take_a_faction_through_the_page(chinese, make_user) -> None:
    stranger = make_user("stranger")
    response = browser(stranger).post(
        reverse("join", args=[chinese.pk]), {"take_over": "Imperials"}
    )
    assert response.status_code == 302
    assert not chinese.memberships.filter(user=stranger).exists()
    assert any("Imperials" in m for m in flashed(response))


def test_the_empty_great_power_can_still_be_taken(chinese, make_user) -> None:
    response = token_client(make_user("newcomer")).post(
        f"/api/games/{chinese.pk}/join/", {"power": "United States"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["my_power"] == "United States"


def test_a_faction_seat_from_before_cannot_pay_and_the_game_goes_on(
    chinese, make_user, seat
) -> None:
    """A faction seat taken before the fix (the data exists) pays nothing: a faction's
    payment made every processing of the game fail."""
    squatter = chinese.memberships.create(user=make_user("squatter"), power="Imperials")
    response = token_client(squatter.user).post(
        f"/api/games/{chinese.pk}/payments/", {"to": "England", "amount": 5}, format="json"
    )
    assert "great power" in json_4xx(response, 400)["detail"]
    assert not Payment.objects.filter(game=chinese).exists()
    assert services.process_phase(chinese.pk, chinese.current_phase_id, force=True)


def test_a_concession_to_a_faction_is_refused(chinese, seat) -> None:
    response = token_client(seat(chinese, "France").user).post(
        f"/api/games/{chinese.pk}/draw/", {"concede_to": "Imperials"}, format="json"
    )
    assert "Imperials" in json_4xx(response, 400)["detail"]


# -- 2. a NUL in a cookie --------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/games/new/", "/api/games/", "/accounts/login/"])
def test_a_nul_in_the_session_cookie_is_no_session(path, make_user) -> None:
    client = browser()
    client.cookies.load('sessionid="abcdefgh\\000ijklmnop"; csrftoken="x\\000y"')
    assert "\x00" in client.cookies["sessionid"].value
    response = client.get(path)
    assert response.status_code in (200, 302, 401, 403), response.status_code


def test_a_signed_in_visitor_with_a_spoilt_cookie_is_signed_out(make_user) -> None:
    client = browser(make_user("alice"))
    assert client.get(reverse("lobby")).status_code == 200
    client.cookies["sessionid"] = client.cookies["sessionid"].value + "\x00"
    response = client.get(reverse("lobby"))
    assert response.status_code == 302 and "login" in response["Location"]


# -- 3. long engine reasons fit their columns ---------------------------------------------


def test_a_reason_longer_than_its_column_is_cut() -> None:
    assert limits.clip("x" * 301, 300) == "x" * 299 + "…"
    assert limits.clip("x" * 300, 300) == "x" * 300


def test_junk_orders_with_long_reasons_are_stored_cut(game, seat) -> None:
    france = seat(game, "France")
    junk = [  # the engine quotes junk lower-cased: each "İ" becomes two characters and a space
        "A Paris H " + "İ" * 189,
        "A Paris - " + "Xyzzy" * 38,
        "x" * limits.MAX_ORDER_LENGTH,
        "A Paris S A " + "Qq Rr - " * 23,
        "F Brest C A " + "Zz" * 90,
    ]
    response = token_client(france.user).put(
        f"/api/games/{game.pk}/orders/", {"orders": junk}, format="json"
    )
    assert response.status_code == 200, response.content
    stored = list(Order.objects.filter(phase=game.current_phase))
    assert len(stored) == len(junk) and not any(o.valid for o in stored)
    assert all(0 < len(o.reason) <= 300 for o in stored)
    # "İ" lower-cased is "i" and a combining dot, a character orders do not use: refused as
    # such (it was read as the letters it lower-cases to, with a reason past 300 characters).
    assert "not read in orders" in stored[0].reason
    assert services.process_phase(game.pk, game.current_phase_id, force=True)
    assert all(len(o.result_reason) <= 300 for o in Order.objects.filter(power="France"))


def test_clip_marks_what_it_cut() -> None:
    assert limits.clip("short", 10) == "short"
    cut = limits.clip("y" * 400, 300)
    assert len(cut) == 300 and cut.endswith("…")


# -- 4. the admin's "process now" names its phase ----------------------------------------


@pytest.fixture
def superuser(make_user):
    return get_user_model().objects.create_superuser("root", "root@example.com", "pw")


def test_admin_process_asks_and_a_double_submit_processes_one_phase(game, superuser) -> None:
    client = browser(superuser)
    url = reverse("admin:games_game_changelist")
    chosen = {"action": "process_now", "_selected_action": [game.pk], "index": 0}
    asked = client.post(url, chosen)
    assert asked.status_code == 200 and b'name="phase-' in asked.content
    assert b'name="action" value="process_now"' in asked.content
    assert b'value="Yes, process them"' in asked.content
    game.refresh_from_db()
    assert game.current_phase.index == 0  # asking processed nothing
    confirm = {
        "action": "process_now",
        "_selected_action": [game.pk],
        f"phase-{game.pk}": 0,
        "post": "yes",
    }
    assert client.post(url, confirm).status_code == 302
    second = client.post(url, confirm, follow=True)  # the double click
    game.refresh_from_db()
    assert game.current_phase.index == 1
    assert ModeratorAction.objects.filter(game=game, action="process").count() == 1
    assert b"meant for phase 0" in second.content


# -- 5. a moderator's deadline names its phase ----------------------------------------------


def test_a_past_deadline_must_name_its_phase(game, moderator) -> None:
    past = (timezone.now() - timedelta(minutes=5)).isoformat()
    client = token_client(moderator)
    url = f"/api/games/{game.pk}/moderation/deadline/"
    refused = client.post(url, {"deadline": past}, format="json")
    assert "phase" in json_4xx(refused, 400)["detail"]
    assert client.post(url, {"deadline": past, "phase": 0}, format="json").status_code == 200
    assert services.process_phase(game.pk, game.current_phase_id)  # due now
    game.refresh_from_db()
    deadline = game.current_phase.deadline
    retry = client.post(url, {"deadline": past, "phase": 0}, format="json")
    assert "phase" in json_4xx(retry, 409)["detail"]
    game.refresh_from_db()
    assert game.current_phase.index == 1 and game.current_phase.deadline == deadline


def test_the_console_deadline_names_its_phase(game, moderator) -> None:
    client = browser(moderator)
    page = client.get(reverse("moderate", args=[game.pk])).content.decode()
    assert 'name="phase" value="0"' in page
    services.process_now(game, moderator, phase=0)
    game.refresh_from_db()
    deadline = game.current_phase.deadline
    response = client.post(
        reverse("moderate-action", args=[game.pk, "deadline"]),
        {"minutes": "-100000", "phase": "0", "confirm": "yes"},
    )
    assert response.status_code == 302
    assert any("meant for phase 0" in m for m in flashed(response))
    game.refresh_from_db()
    assert game.current_phase.deadline == deadline


def test_a_deadline_confirmed_ahead_never_processes_the_phase_unsaid(game, moderator) -> None:
    """Two tabs each confirm "30 minutes sooner" of a deadline 40 minutes away, as their
    confirmation showed it: 10 minutes ahead. The second, added to the first's, has passed:
    it is asked about again, not confirmed into processing the phase at once."""
    phase = game.current_phase
    services.change_deadline(game, moderator, deadline=timezone.now() + timedelta(minutes=40))
    url = reverse("moderate-action", args=[game.pk, "deadline"])
    first, second = browser(moderator), browser(moderator)
    asked = {"minutes": "-30", "phase": "0"}
    for tab in (first, second):
        shown = tab.post(url, asked).content.decode()
        assert "confirming processes the phase now" not in shown
    assert first.post(url, {**asked, "confirm": "yes"}).status_code == 302
    again = second.post(url, {**asked, "confirm": "yes"})
    assert again.status_code == 200
    assert "confirming processes the phase now" in again.content.decode()
    phase.refresh_from_db()
    assert phase.deadline > timezone.now() and phase.processed_at is None
    # Confirmed as now shown, it processes the phase: the moderator was told.
    answer = second.post(url, {**asked, "confirm": "yes", "passed": "yes"})
    assert answer.status_code == 302
    phase.refresh_from_db()
    assert phase.deadline <= timezone.now()


# -- 6. two sign-ups for one name ----------------------------------------------------------


@pytest.fixture
def name_taken_meanwhile(monkeypatch):
    """The name is free when the form is checked and taken just before it is saved: what a
    sign-up racing another for the same name sees."""
    from django.contrib.auth.models import UserManager

    create_user = UserManager.create_user

    def racing(manager, username, *args, **kwargs):
        get_user_model().objects.create(username=username)
        return create_user(manager, username, *args, **kwargs)

    monkeypatch.setattr(UserManager, "create_user", racing)


def test_a_signup_racing_for_a_name_is_a_400(name_taken_meanwhile) -> None:
    response = token_client().post(
        "/api/auth/signup/",
        {"username": "twin", "email": "", "password": "a long passphrase 7"},
        format="json",
    )
    assert "already exists" in json_4xx(response, 400)["username"][0]


def test_a_signup_form_racing_for_a_name_says_so(monkeypatch, name_taken_meanwhile) -> None:
    from django.contrib.auth.models import AbstractBaseUser

    save = AbstractBaseUser.save

    def racing_save(user, *args, **kwargs):
        if user.pk is None:  # bulk_create: no save(), so no race with itself
            get_user_model().objects.bulk_create([get_user_model()(username=user.username)])
        return save(user, *args, **kwargs)

    monkeypatch.setattr(AbstractBaseUser, "save", racing_save)
    password = "a long passphrase 7"
    response = browser().post(
        reverse("signup"),
        {"username": "twin", "password1": password, "password2": password},
    )
    assert response.status_code == 200
    assert b"already exists" in response.content


@pytest.mark.django_db
def test_a_signed_in_player_is_sent_from_the_signup_form_to_the_lobby(make_user) -> None:
    """Found by an adversary: signed in, the sign-up form was offered, and sending it made a
    second account and switched the session to it unsaid; sign-in already sent them on."""
    page = browser()
    page.force_login(make_user("already"))
    assert page.get(reverse("signup")).url == reverse("lobby")
    password = "a long passphrase 7"
    sent = page.post(
        reverse("signup"), {"username": "second", "password1": password, "password2": password}
    )
    assert sent.status_code == 302 and sent.url == reverse("lobby")
    assert not get_user_model().objects.filter(username="second").exists()


# -- 7. and 14. payments: throttled, capped, idempotent; the audit log in pages ----------


def _pay(client, game, amount=5, to="England", key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(
        f"/api/games/{game.pk}/payments/", {"to": to, "amount": amount}, format="json", **headers
    )


def test_payments_are_throttled(chinese, seat, settings) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "payments": "2/min",
        },
    }
    from django.core.cache import cache

    cache.clear()
    client = token_client(seat(chinese, "France").user)
    statuses = [_pay(client, chinese).status_code for _ in range(3)]
    assert statuses == [201, 201, 429]
    assert Payment.objects.filter(game=chinese).count() == 2


def test_the_payment_form_shares_the_throttle(chinese, seat, settings) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "payments": "1/min",
        },
    }
    from django.core.cache import cache

    cache.clear()
    france = seat(chinese, "France")
    assert _pay(token_client(france.user), chinese).status_code == 201
    page = browser(france.user).post(
        reverse("pay", args=[chinese.pk]), {"to": "England", "amount": "5"}
    )
    assert page.status_code == 429
    assert Payment.objects.filter(game=chinese).count() == 1


def test_payments_are_capped(chinese, seat) -> None:
    client = token_client(seat(chinese, "France").user)
    too_much = _pay(client, chinese, amount=limits.MAX_PAYMENT + 1)
    assert "amount" in json_4xx(too_much, 400)
    for _ in range(limits.MAX_PAYMENTS_PER_PHASE):
        assert _pay(client, chinese, amount=1).status_code == 201
    over = _pay(client, chinese, amount=1)
    assert str(limits.MAX_PAYMENTS_PER_PHASE) in json_4xx(over, 400)["detail"]
    assert Payment.objects.filter(game=chinese).count() == limits.MAX_PAYMENTS_PER_PHASE


def test_a_payment_key_is_the_players_not_the_seats(chinese, seat, make_user) -> None:
    """Found by an adversary: the seat's new player, sending the key the deposed one had used
    years before (``big1``), got that old payment back as their own, and nothing was paid."""
    from games import services

    france = seat(chinese, "France")
    first = _pay(token_client(france.user), chinese, amount=7, key="big1")
    assert first.status_code == 201
    services.replace_player(chinese, chinese.creator, "France", make_user("successor"))
    successor = token_client(chinese.memberships.in_play().get(power="France").user)
    again = _pay(successor, chinese, amount=7, key="big1")
    assert again.status_code == 201, again.content
    assert again.json()["id"] != first.json()["id"]
    assert Payment.objects.filter(game=chinese, payer="France").count() == 2
    assert _pay(successor, chinese, amount=7, key="big1").status_code == 200  # theirs, again


def test_a_payment_key_stored_before_keys_were_the_players_still_counts(chinese, seat) -> None:
    """Keys were stored as sent before they were kept per player: a retry across that change
    still finds its payment rather than paying again."""
    client = token_client(seat(chinese, "France").user)
    first = _pay(client, chinese, amount=9, key="old-1")
    Payment.objects.filter(game=chinese).update(key="old-1")  # as stored before the change
    again = _pay(client, chinese, amount=9, key="old-1")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    assert Payment.objects.filter(game=chinese).count() == 1


def test_a_repeated_payment_pays_once(chinese, seat) -> None:
    client = token_client(seat(chinese, "France").user)
    first = _pay(client, chinese, key="c0ffee-1")
    again = _pay(client, chinese, key="c0ffee-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["id"] == again.json()["id"]
    assert _pay(client, chinese, key="c0ffee-2").status_code == 201
    assert Payment.objects.filter(game=chinese).count() == 2
    bad = _pay(client, chinese, key="x" * 65)
    assert json_4xx(bad, 400)["Idempotency-Key"] == ["at most 64 characters"]
    # A key of three characters, one a tab, was refused as "at most 64 ASCII characters".
    tabbed = json_4xx(_pay(client, chinese, key="a\tb"), 400)["Idempotency-Key"]
    assert tabbed == ["printable ASCII characters only (no tab, no control character)"]
    for blank in ("", "   "):  # sent but empty is a mistake, not "no key": two would pay twice
        assert "Idempotency-Key" in json_4xx(_pay(client, chinese, key=blank), 400)
    assert Payment.objects.filter(game=chinese).count() == 2


def test_a_double_clicked_payment_form_pays_once(chinese, seat) -> None:
    france = seat(chinese, "France")
    client = browser(france.user)
    page = client.get(reverse("game", args=[chinese.pk])).content.decode()
    key = page.split('name="key" value="', 1)[1].split('"', 1)[0]
    assert len(key) == 32
    form = {"to": "England", "amount": "5", "key": key, "phase": "0"}
    client.post(reverse("pay", args=[chinese.pk]), form)
    second = client.post(reverse("pay", args=[chinese.pk]), form)
    assert Payment.objects.filter(game=chinese).count() == 1
    assert any("already made" in m for m in flashed(second))


def test_the_console_audit_log_comes_in_pages(game, moderator) -> None:
    from games.web import AUDIT_PAGE

    for n in range(AUDIT_PAGE + 5):
        ModeratorAction.objects.create(game=game, user=moderator, action="note", details={"n": n})
    client = browser(moderator)
    first = client.get(reverse("moderate", args=[game.pk])).content.decode()
    assert first.count("n: ") == AUDIT_PAGE and "?log=2" in first
    last = client.get(reverse("moderate", args=[game.pk]) + "?log=2").content.decode()
    assert "n: 0<" in last and "n: 54<" not in last
    assert client.get(reverse("moderate", args=[game.pk]) + "?log=abc").status_code == 200


# -- 8. the lobby comes in pages ---------------------------------------------------------


def test_the_lobby_lists_open_games_in_pages(make_user) -> None:
    from games.web import LOBBY_PAGE

    creator = make_user("creator")
    for n in range(LOBBY_PAGE + 3):
        services.create_game(creator, name=f"Open {n:03}", variant="standard")
    client = browser(make_user("visitor"))
    first = client.get(reverse("lobby")).content.decode()
    assert first.count("Open 0") == LOBBY_PAGE and "?open=2" in first
    second = client.get(reverse("lobby") + "?open=2").content.decode()
    assert second.count("Open 0") == 3
    assert client.get(reverse("lobby") + "?open=%C2%B2").status_code == 200


def test_the_api_game_list_is_bounded(make_user) -> None:
    creator = make_user("creator")
    for n in range(105):
        Game.objects.create(name=f"g{n}", variant="standard", creator=creator)
    body = token_client(creator).get("/api/games/?page_size=1000").json()
    assert body["count"] == 105 and len(body["results"]) == 100


# -- 9. a game nobody plays ends ------------------------------------------------------------


def test_a_game_nobody_plays_is_abandoned(make_game) -> None:
    game = make_game("standard", civil_disorder_after=1)
    for _ in range(12):
        if game.is_over:
            break
        deadline_passes(game)  # missed by everyone: processed early, it would be by nobody
    assert game.status == Game.Status.CANCELLED
    assert game.result == {"kind": "abandoned", "powers": []}
    assert game.current_phase.deadline is None
    entry = ModeratorAction.objects.get(game=game, action="abandoned")
    assert entry.details["after"] == limits.ABANDONED_AFTER
    assert not game.rating_changes.exists()
    movements = game.phases.filter(type="movement", processed_at__isnull=False).count()
    # One to fall into civil disorder, then ABANDONED_AFTER with nobody ordering in all.
    assert movements == limits.ABANDONED_AFTER


def test_a_game_abandoned_goes_back_to_play_on(make_game, moderator) -> None:
    """README: a game that ends as a phase is processed (abandoned too) rolls back to before
    it ended; an abandoned game was refused ("not possible while the game is Cancelled")."""
    game = make_game("standard", civil_disorder_after=1)
    for _ in range(12):
        if game.is_over:
            break
        deadline_passes(game)
    assert game.status == Game.Status.CANCELLED
    last = game.current_phase.index
    assert "rollback" in [a.name for a in moderation.possible(game)]
    services.rollback(game, moderator, last)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.result is None
    assert game.current_phase.index == last and game.current_phase.deadline is not None


def test_one_player_still_ordering_keeps_the_game_going(make_game, seat) -> None:
    game = make_game("standard", civil_disorder_after=1)
    for _ in range(limits.ABANDONED_AFTER * 3):
        phase = game.current_phase
        if phase.type == "movement":
            unit = next(u for u in phase.units if u["power"] == "France")
            services.submit_orders(seat(game, "France"), [f"{unit['unit']} {unit['location']} H"])
        deadline_passes(game)
    assert game.status == Game.Status.ACTIVE


def test_a_game_with_players_who_never_fall_into_civil_disorder_goes_on(make_game) -> None:
    game = make_game("standard", civil_disorder_after=0)  # 0: never
    for _ in range(limits.ABANDONED_AFTER * 3):
        deadline_passes(game)
    assert game.status == Game.Status.ACTIVE


# -- 10. the press digest ------------------------------------------------------------------


def test_the_digest_is_bounded_and_goes_on_past_a_failed_mail(
    game, seat, monkeypatch, caplog
) -> None:
    france, england = seat(game, "France"), seat(game, "England")
    Message.objects.bulk_create(
        Message(game=game, sender=france.user, sender_power="France", body=f"m{n} " + "z" * 4000)
        for n in range(notifications.DIGEST_MESSAGES + 20)
    )
    original = notifications._send
    failing = england.user.email

    def send(users, words, **kwargs):
        if users[0][0].email == failing:
            raise OSError("the mail server hung up")
        return original(users, words, **kwargs)

    monkeypatch.setattr(notifications, "_send", send)
    with caplog.at_level(logging.ERROR, logger="games.notifications"):
        sent = notifications.press_digest()
    readers = game.memberships.exclude(power__in=["France", "England"]).count()
    assert sent == readers == len(mail.outbox)
    body = mail.outbox[0].body
    assert body.count("\nFrance: m") == notifications.DIGEST_MESSAGES
    assert len(body) < notifications.DIGEST_MESSAGES * (notifications.DIGEST_BODY + 20) + 500
    assert "Only the first" in body
    assert any("press digest" in r.getMessage() for r in caplog.records)
    # England's press is kept for the next digest.
    assert england.user.notification_settings.last_digest is None


# -- 11. the admin's game form keeps the API's limits --------------------------------------


@pytest.mark.parametrize(
    "field, value",
    [
        ("movement_minutes", 0),
        ("retreats_minutes", limits.MAX_PHASE_MINUTES + 1),
        ("civil_disorder_after", limits.MAX_MISSED_PHASES + 1),
    ],
)
def test_the_admin_game_form_refuses_what_the_api_does(superuser, make_user, field, value):
    game = services.create_game(superuser, name="Admin's", variant="standard")
    client = browser(superuser)
    url = reverse("admin:games_game_change", args=[game.pk])
    form = {
        "name": "Admin's",
        "variant": "standard",
        "movement_minutes": 60,
        "retreats_minutes": 60,
        "adjustments_minutes": 60,
        "press": "full",
        "process_when_ready": "on",
        "options": json.dumps(game.options),
        "civil_disorder_after": 2,
        "creator": superuser.pk,
        "memberships-TOTAL_FORMS": 0,
        "memberships-INITIAL_FORMS": 0,
        "moderator_actions-TOTAL_FORMS": 0,
        "moderator_actions-INITIAL_FORMS": 0,
        field: value,
    }
    response = client.post(url, form)
    assert response.status_code == 200
    assert list(response.context["adminform"].form.errors) == [field]
    game.refresh_from_db()
    assert getattr(game, field) != value
    form[field] = 30 if field != "civil_disorder_after" else 3
    saved = client.post(url, form)
    assert saved.status_code == 302, saved.context["adminform"].form.errors
    game.refresh_from_db()
    assert getattr(game, field) == form[field]


# -- 12. client errors are warnings, never mailed --------------------------------------------


@pytest.mark.parametrize("case", ["host", "size", "fields"])
def test_client_errors_are_400_warnings_not_mailed(case, settings, caplog) -> None:
    settings.ADMINS = [("Ops", "ops@example.com")]
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 50
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.INFO, logger="django"):
        if case == "host":
            response = client.get("/accounts/login/", HTTP_HOST="evil.example")
        elif case == "size":
            body = {"username": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1), "password": "p"}
            response = client.post("/accounts/login/", body)
        else:
            response = client.post("/accounts/login/", {f"f{n}": "1" for n in range(60)})
    assert response.status_code == 400
    assert mail.outbox == []
    security = [r for r in caplog.records if r.name.startswith("django.security")]
    assert security and all(r.levelno == logging.WARNING for r in security)
    assert not any(r.levelno >= logging.ERROR for r in caplog.records)


# -- 13. orders name their phase --------------------------------------------------------------


def test_orders_for_a_processed_phase_are_refused(game, seat) -> None:
    france = seat(game, "France")
    client = token_client(france.user)
    url = f"/api/games/{game.pk}/orders/"
    assert client.put(url, {"orders": ["A Paris H"], "phase": 0}, format="json").status_code == 200
    deadline_passes(game)
    stale = client.put(url, {"orders": ["A Paris - Burgundy"], "phase": 0}, format="json")
    assert "phase" in json_4xx(stale, 409)["detail"]
    assert not Order.objects.filter(phase=game.current_phase).exists()
    check = client.post(url + "check/", {"orders": ["A Paris H"], "phase": 0}, format="json")
    json_4xx(check, 409)
    fresh = client.put(url, {"orders": ["A Paris H"], "phase": 1}, format="json")
    assert fresh.status_code == 200


def test_the_schema_says_orders_name_their_phase() -> None:
    schema = token_client().get("/api/schema/?format=json").json()
    request = schema["components"]["schemas"]["OrdersInputRequest"]
    assert "phase" in request["properties"] and "phase" not in request.get("required", [])
    assert "409" in schema["paths"]["/api/games/{id}/orders/"]["put"]["responses"]
    payments = schema["paths"]["/api/games/{id}/payments/"]["post"]
    assert any(p["name"] == "Idempotency-Key" for p in payments["parameters"])
    assert "429" in payments["responses"]


def test_every_operation_named_for_409_or_429_is_in_the_schema() -> None:
    """The lists ``document_errors`` reads name real operations (the sandbox's were spelt
    ``{pk}``, the schema's ``{id}``, so their 409 and 429 went undocumented: schemathesis's
    find), and the sandbox's phase-checked ones say 409."""
    from games.api import PHASE_BOUND, THROTTLED

    paths = token_client().get("/api/schema/?format=json").json()["paths"]
    for path, method in PHASE_BOUND | THROTTLED:
        assert method in paths.get(path, {}), (path, method)
    for path, method in PHASE_BOUND:
        assert "409" in paths[path][method]["responses"], path
    for path, method in THROTTLED:
        assert "429" in paths[path][method]["responses"], path
    sandbox = [p for p, _method in PHASE_BOUND if p.startswith("/api/sandbox/")]
    assert len(sandbox) == 3


# -- 15. JSON only under /api/ ----------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/games/", "/api/variants/", "/api/games/999/"])
def test_the_api_answers_json_to_a_browser(path, make_user) -> None:
    client = browser(make_user("viewer"))
    response = client.get(path, HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    json.loads(response.content)
    html_only = client.get(path, HTTP_ACCEPT="text/html")
    assert html_only["Content-Type"].startswith("application/json")
    assert html_only.status_code in (200, 404)


def test_the_api_docs_still_work() -> None:
    response = Client().get("/api/docs/")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    assert Client().get("/api/schema/").status_code == 200


# -- 16. admin actions with a non-numeric id ----------------------------------------------


@pytest.mark.parametrize(
    "model, action",
    [
        ("game", "pause"),
        ("game", "process_now"),
        ("membership", "remove_player"),
        ("phase", "roll_back"),
        ("drawvote", "delete_selected"),
    ],
)
def test_admin_actions_with_a_non_numeric_id_are_a_400(game, superuser, model, action) -> None:
    url = reverse(f"admin:games_{model}_changelist")
    for chosen in (["abc"], ["1", "²"], ["\x00"]):
        response = browser(superuser).post(
            url, {"action": action, "_selected_action": chosen, "index": 0}
        )
        assert response.status_code == 400, (chosen, response.status_code)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


@pytest.mark.parametrize("model", ["auth:auth_user", "auth:auth_group"])
def test_account_admin_actions_with_a_non_numeric_id_are_a_400(superuser, model) -> None:
    """Django's own user and group admins read the chosen ids as they came: "abc" was a
    ValueError and a huge number SQLite's OverflowError, each a 500."""
    url = reverse(f"admin:{model.split(':')[1]}_changelist")
    for chosen in (["abc"], [str(10**20)], ["\x00"]):
        response = browser(superuser).post(
            url, {"action": "delete_selected", "_selected_action": chosen, "index": 0}
        )
        assert response.status_code == 400, (chosen, response.status_code)
    assert get_user_model().objects.filter(pk=superuser.pk).exists()


def test_an_accounts_groups_named_by_a_huge_id_are_refused(superuser, make_user) -> None:
    """A group id too long for the column was SQLite's OverflowError (a 500); it is refused
    as no such group, and a real one is still given."""
    from django.contrib.auth.models import Group

    group = Group.objects.create(name="moderators")
    account = make_user("someone")
    url = reverse("admin:auth_user_change", args=[account.pk])
    client = browser(superuser)
    form = client.get(url).context["adminform"].form
    data = {n: form[n].value() for n in form.fields if form[n].value() not in (None, [])}
    data.pop("password", None)
    joined = timezone.localtime(account.date_joined)  # the admin's split date and time
    data.update(date_joined_0=joined.date().isoformat(), date_joined_1=joined.time().isoformat())
    response = client.post(url, {**data, "groups": [str(10**20)]})
    assert response.status_code == 200, response.status_code
    assert "groups" in response.context["adminform"].form.errors
    saved = client.post(url, {**data, "groups": [group.pk]})
    assert saved.status_code == 302, saved.context["adminform"].form.errors
    assert list(account.groups.all()) == [group]


@pytest.mark.parametrize("model", ["phase", "order", "message", "moderatoraction", "membership"])
def test_the_admin_adds_no_row_that_only_the_services_make(game, superuser, model) -> None:
    """Their add forms asked for none of the fields a row needs: every add, however filled
    in, was the database's refusal (a 500). They are not offered (403)."""
    client = browser(superuser)
    assert client.get(reverse(f"admin:games_{model}_add")).status_code == 403
    assert client.post(reverse(f"admin:games_{model}_add"), {}).status_code == 403


def test_the_admin_game_page_adds_no_seat_through_a_forged_form_count(game, superuser) -> None:
    url = reverse("admin:games_game_change", args=[game.pk])
    client = browser(superuser)
    form = client.get(url).context["adminform"].form
    data = {name: form[name].value() or "" for name in form.fields if name not in ("options",)}
    data["options"] = json.dumps(game.options)
    seats = game.memberships.count()
    data.update({"memberships-TOTAL_FORMS": seats, "memberships-INITIAL_FORMS": -1})
    data.update({"moderator_actions-TOTAL_FORMS": 0, "moderator_actions-INITIAL_FORMS": 0})
    for n, seat in enumerate(game.memberships.all()):  # each seat's row, now read as a new one
        data.update({f"memberships-{n}-id": seat.pk, f"memberships-{n}-game": game.pk})
    assert client.post(url, data).status_code < 500
    assert game.memberships.count() == seats


def test_a_seats_preferences_are_not_blanked_in_the_admin(game, superuser) -> None:
    seat = game.memberships.first()
    url = reverse("admin:games_membership_change", args=[seat.pk])
    assert browser(superuser).post(url, {"preferences": "null"}).status_code < 500
    seat.refresh_from_db()
    assert seat.preferences is not None


def test_membership_status_is_untouched_by_a_refused_action(game, superuser) -> None:
    browser(superuser).post(
        reverse("admin:games_membership_changelist"),
        {"action": "remove_player", "_selected_action": ["x1"], "index": 0},
    )
    assert not game.memberships.filter(status=Membership.Status.CIVIL_DISORDER).exists()


@pytest.mark.parametrize("path", ["/api/games/", "/api/games/{id}/", "/api/games/{id}/options/"])
def test_the_http_options_method_is_answered(game, seat, path) -> None:
    """HTTP OPTIONS once reached the legal-orders action (a view method named ``options``)."""
    client = token_client(seat(game, "France").user)
    response = client.options(path.format(id=game.pk))
    assert response.status_code in (200, 405), response.status_code
    assert response["Content-Type"].startswith("application/json")
    listed = client.get(f"/api/games/{game.pk}/options/")
    assert listed.status_code == 200 and listed.json()["power"] == "France"


@pytest.mark.parametrize("path", ["/api/docs/", "/api/schema/"])
def test_the_http_options_method_of_the_docs_is_answered_in_json(path) -> None:
    """OPTIONS /api/docs/ was a 500: DRF's description of the view went to the docs' HTML
    renderer, which has no template for it."""
    response = Client(raise_request_exception=False).options(path)
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["name"] in ("Docs", "Schema")


# -- 17. the schema says what the server accepts ------------------------------------------


@pytest.fixture
def api_schema() -> dict:
    return Client().get("/api/schema/?format=json").json()


def _component(api_schema: dict, ref: str) -> dict:
    return api_schema["components"]["schemas"][ref.rsplit("/", 1)[1]]


def _request_schema(api_schema: dict, body: dict) -> dict:
    """A JSON request body's schema; a new game's is the standard variant's choice."""
    schema = _component(api_schema, body["content"]["application/json"]["schema"]["$ref"])
    choices = {c["properties"]["variant"]["enum"][0]: c for c in schema.get("oneOf", [])}
    return choices.get("standard", schema)


def test_the_schema_gives_each_variant_its_own_options(api_schema, make_user) -> None:
    choices = api_schema["components"]["schemas"]["GameCreateRequest"]["oneOf"]
    by_variant = {c["properties"]["variant"]["enum"][0]: c for c in choices}
    chinese = by_variant["chinese"]["properties"]["options"]["properties"]
    colonial = by_variant["colonial"]["properties"]["options"]["properties"]["victory_centers"]
    assert "victory_centers" not in chinese  # won by the richest power, not on centres
    assert colonial["maximum"] == 58
    client = token_client(make_user("creator"))
    for variant, centres, accepted in [("colonial", 58, True), ("chinese", 1, False)]:
        body = {"name": "n", "variant": variant, "options": {"victory_centers": centres}}
        response = client.post("/api/games/", body, format="json")
        assert (response.status_code == 201) is accepted, response.content


def test_the_schema_lists_the_time_zones(api_schema, make_user) -> None:
    body = api_schema["paths"]["/api/auth/notifications/"]["put"]["requestBody"]
    zone = _request_schema(api_schema, body)["properties"]["time_zone"]
    zones = zone.get("enum") or _component(api_schema, zone["allOf"][0]["$ref"])["enum"]
    assert "Europe/Paris" in zones and "localtime" not in zones
    client = token_client(make_user("tz"))
    ok = client.put("/api/auth/notifications/", {"time_zone": "Asia/Tokyo"}, format="json")
    assert ok.status_code == 200
    bad = client.put("/api/auth/notifications/", {"time_zone": "Mars/Olympus"}, format="json")
    assert "time_zone" in json_4xx(bad, 400)


@pytest.mark.parametrize(
    "path, method, body",
    [
        ("/api/auth/signup/", "post", {"username": "a\x00b", "password": "long enough 77"}),
        ("/api/games/", "post", {"name": "a\x00", "variant": "standard"}),
        ("/api/games/{id}/messages/", "post", {"body": "hi\x00"}),
        ("/api/games/{id}/orders/", "put", {"orders": ["A Paris\x00 H"]}),
    ],
)
def test_a_nul_in_a_json_string_is_a_400_and_the_schema_says_so(
    api_schema, game, seat, path, method, body
) -> None:
    client = token_client(seat(game, "France").user)
    response = getattr(client, method)(path.format(id=game.pk), body, format="json")
    json_4xx(response, 400)
    component = _request_schema(api_schema, api_schema["paths"][path][method]["requestBody"])
    for name, value in body.items():
        if name in ("password", "variant"):
            continue
        field = component["properties"][name]
        pattern = (field.get("items") or field)["pattern"]
        value = value[0] if isinstance(value, list) else value
        assert re.search(pattern, value) is None, (name, pattern)  # the schema refuses it too
        assert re.search(pattern, value.replace("\x00", "")), (name, pattern)


def test_the_admin_cannot_turn_a_game_into_a_sandbox(superuser, game) -> None:
    client = browser(superuser)
    url = reverse("admin:games_game_change", args=[game.pk])
    page = client.get(url).content.decode()
    assert 'name="sandbox"' not in page
    form = {
        "name": game.name,
        "variant": game.variant,
        "movement_minutes": 60,
        "retreats_minutes": 60,
        "adjustments_minutes": 60,
        "press": "full",
        "process_when_ready": "on",
        "options": json.dumps(game.options),
        "civil_disorder_after": 2,
        "creator": game.creator_id,
        "sandbox": "on",
        "memberships-TOTAL_FORMS": 0,
        "memberships-INITIAL_FORMS": 0,
        "moderator_actions-TOTAL_FORMS": 0,
        "moderator_actions-INITIAL_FORMS": 0,
    }
    client.post(url, form)
    game.refresh_from_db()
    assert not game.sandbox


def test_a_notifications_put_changes_only_the_fields_it_gives(make_user) -> None:
    """Documented (README): every field of the PUT is optional, as the schema says; ``{}``
    changes nothing rather than resetting the rest to defaults."""
    client = token_client(make_user("prefs"))
    url = "/api/auth/notifications/"
    first = client.put(url, {"press_digest": False, "time_zone": "Asia/Tokyo"}, format="json")
    assert first.status_code == 200
    assert client.put(url, {}, format="json").json() == first.json()
    changed = client.put(url, {"phase_processed": False}, format="json").json()
    assert changed == {**first.json(), "phase_processed": False}


def test_gold_and_console_refusals_read_in_the_players_language(
    chinese, seat, make_game, settings
) -> None:
    """Found by an adversary on a Japanese page: the 21st payment ("at most 20 payments a
    power in one phase"), a deadline a year and more away ("at most 366 days from now") and a
    stale console's Pause ("pause is not possible while the game is Paused": the action's key,
    not its name) came in English, whatever the page's language."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, "payments": "100/min"},
    }
    client = token_client(seat(chinese, "France").user)
    for n in range(services.MAX_PAYMENTS_PER_PHASE):
        assert _pay(client, chinese, amount=1, key=f"k{n}").status_code == 201
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ja"  # a Japanese page's or client's request
    for amount in (1, 0):  # one too many; none at all
        detail = str(json_4xx(_pay(client, chinese, amount=amount), 400))
        assert not re.search(r"\b(at most|payments?|positive)\b", detail), detail
    with translation.override("ja"):
        far = moderation.deadline_problem(timezone.now() + timedelta(days=400))
        assert far and "366" in far and "days" not in far, far
        paused = make_game()
        services.pause(paused, paused.creator)
        paused.refresh_from_db()
        said = moderation.ACTIONS["pause"].why_not(paused)
        assert said and str(moderation.ACTIONS["pause"].label) in said and "pause" not in said
    with translation.override("en"):
        assert moderation.ACTIONS["pause"].why_not(paused).startswith("Pause: not possible")
