"""The sandbox (issue #19 item 6): one user plays every power of a practice game, processes when
they like and undoes a phase; nobody else sees it, and it is never rated."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Order


def _start(api, user) -> dict:
    answer = api(user).post("/api/sandbox/", {"variant": "colonial"}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def _units(game: dict) -> set[tuple]:
    return {(u["power"], u["unit"], u["location"]) for u in game["current_phase"]["units"]}


def test_one_user_orders_every_power_processes_and_undoes(api, make_user) -> None:
    ada = make_user("ada")
    game = _start(api, ada)
    assert game["sandbox"] is True and game["status"] == "active"
    assert game["current_phase"]["deadline"] is None  # processed at will only
    assert len(game["powers"]) == 7
    me = api(ada)
    # The Trans-Siberian Railroad and a British move, both from the one user.
    russia = me.put(
        f"/api/sandbox/{game['id']}/orders/Russia/",
        {"orders": ["A Moscow - Vladivostok via TSR"]},
        format="json",
    )
    assert russia.status_code == 200 and russia.json()[0]["valid"], russia.content
    britain = me.put(
        f"/api/sandbox/{game['id']}/orders/Britain/", {"orders": ["F Bombay H"]}, format="json"
    )
    assert britain.status_code == 200 and britain.json()[0]["valid"], britain.content
    processed = me.post(f"/api/sandbox/{game['id']}/process/")
    assert processed.status_code == 200
    assert processed.json()["current_phase"]["index"] == 1
    moved = _units(processed.json())
    assert ("Russia", "A", "Vladivostok") in moved and ("Russia", "A", "Moscow") not in moved
    undone = me.post(f"/api/sandbox/{game['id']}/undo/").json()
    assert undone["current_phase"]["index"] == 0
    assert _units(undone) == _units(game)
    # Nothing before the first phase to undo: a 400 that says so.
    again = me.post(f"/api/sandbox/{game['id']}/undo/")
    assert again.status_code == 400 and "nothing to undo" in again.json()["detail"]


def test_an_unknown_power_is_echoed_cut_short(api, make_user) -> None:
    """Found by an adversary: a power named in the URL was repeated whole in the refusal,
    however long (the URL's segment has no limit). Only its first 40 characters are echoed."""
    ada = make_user("ada")
    game = _start(api, ada)
    me = api(ada)
    long = "Atlantis" * 200
    for url in (
        f"/api/sandbox/{game['id']}/orders/{long}/",
        f"/api/sandbox/{game['id']}/payments/{long}/",
    ):
        body = {"orders": ["A Moscow H"]} if "orders" in url else {"to": "Russia", "amount": 1}
        answer = (
            me.put(url, body, format="json")
            if "orders" in url
            else me.post(url, body, format="json")
        )
        assert answer.status_code == 400, answer.content
        detail = answer.json()["detail"]
        assert detail == f"no power '{long[:40]}…' in this game", detail
    # A short one is echoed whole, as it was.
    short = me.put(f"/api/sandbox/{game['id']}/orders/Atlantis/", {"orders": []}, format="json")
    assert short.json()["detail"] == "no power 'Atlantis' in this game"


def test_a_sandbox_is_its_creators_alone(api, make_user) -> None:
    ada, bob = make_user("ada"), make_user("bob")
    game = _start(api, ada)
    other = api(bob)
    assert other.get(f"/api/games/{game['id']}/").status_code == 404
    assert game["id"] not in {g["id"] for g in other.get("/api/games/").json()["results"]}
    put = other.put(
        f"/api/sandbox/{game['id']}/orders/Russia/", {"orders": ["A Moscow H"]}, format="json"
    )
    assert put.status_code == 404
    assert other.post(f"/api/sandbox/{game['id']}/process/").status_code == 404
    assert api().post("/api/sandbox/", {"variant": "colonial"}).status_code == 401


def test_a_finished_sandbox_is_not_rated(api, make_user) -> None:
    ada = make_user("ada")
    game = Game.objects.get(pk=_start(api, ada)["id"])
    services.end_game(game, ada, "Russia")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert not game.rating_changes.exists()


def test_sandbox_pages(client, make_user) -> None:
    client.force_login(make_user("ada"))
    created = client.post(reverse("sandbox-new"), {"variant": "colonial"})
    assert created.status_code == 302
    game = Game.objects.get(sandbox=True)
    assert created.url == reverse("sandbox", args=[game.pk])
    page = client.get(created.url).content.decode()
    assert page.count('name="orders"') == 7 and 'id="process"' in page
    saved = client.post(
        reverse("sandbox-orders", args=[game.pk]),
        {"power": "Russia", "orders": "A Moscow - Vladivostok via TSR", "phase": 0},
        follow=True,
    )
    assert "Russia: orders saved." in saved.content.decode()
    process = reverse("sandbox-step", args=[game.pk, "process"])
    client.post(process, {"phase": 0})
    client.post(process, {"phase": 0})  # a double click processes one phase, not two
    game.refresh_from_db()
    assert game.current_phase.index == 1
    page = client.get(reverse("sandbox", args=[game.pk])).content.decode()
    assert 'id="undo"' in page and 'name="phase" value="1"' in page
    undo = reverse("sandbox-step", args=[game.pk, "undo"])
    client.post(undo, {"phase": 1})
    client.post(undo, {"phase": 1})  # the same for undo
    game.refresh_from_db()
    assert game.current_phase.index == 0
    assert reverse("sandbox", args=[game.pk]) in client.get(reverse("lobby")).content.decode()


def test_nobody_takes_over_a_sandbox_seat(api, make_user) -> None:
    ada, bob = make_user("ada"), make_user("bob")
    game = Game.objects.get(pk=_start(api, ada)["id"])
    russia = game.memberships.get(power="Russia")
    russia.status = "civil_disorder"
    russia.save()
    with pytest.raises(services.GameError, match="creator alone"):
        services.take_over(game, bob, "Russia")
    assert game.civil_disorder_after == 0


def test_orders_meant_for_a_processed_phase_are_refused(api, make_user) -> None:
    ada = make_user("ada")
    game = _start(api, ada)
    me = api(ada)
    url = f"/api/sandbox/{game['id']}/orders/Russia/"
    sent = me.put(url, {"orders": ["A Moscow - Perm"], "phase": 0}, format="json")
    assert sent.status_code == 200 and sent.json()[0]["valid"], sent.content
    assert me.post(f"/api/sandbox/{game['id']}/process/").status_code == 200
    stale = me.put(url, {"orders": ["A Perm H"], "phase": 0}, format="json")
    assert stale.status_code == 409, stale.content
    assert not Order.objects.filter(phase__game_id=game["id"], phase__index=1).exists()
    now = me.put(url, {"orders": ["A Perm H"], "phase": 1}, format="json")
    assert now.status_code == 200 and now.json()[0]["valid"], now.content


def test_a_repeated_process_or_undo_naming_its_phase_is_refused(api, make_user) -> None:
    ada = make_user("ada")
    game = _start(api, ada)
    me = api(ada)
    step = f"/api/sandbox/{game['id']}/"
    first = me.post(step + "process/", {"phase": 0}, format="json")
    assert first.status_code == 200 and first.json()["current_phase"]["index"] == 1
    again = me.post(step + "process/", {"phase": 0}, format="json")
    assert again.status_code == 409, again.content
    assert Game.objects.get(pk=game["id"]).current_phase.index == 1
    assert me.post(step + "undo/", {"phase": 1}, format="json").status_code == 200
    assert me.post(step + "undo/", {"phase": 1}, format="json").status_code == 409
    assert me.post(step + "process/", {"phase": "x"}, format="json").status_code == 400


def test_a_chinese_sandbox_pays_gold_through_the_api_and_the_page(api, client, make_user) -> None:
    """Seed 003 rule 6: payments between great powers; a sandbox plays every power, so it
    pays from any of them (it could not: payments needed a seat of one's own, a 403)."""
    ada = make_user("ada")
    created = api(ada).post("/api/sandbox/", {"variant": "chinese"}, format="json")
    assert created.status_code == 201, created.content
    game = created.json()
    powers = (
        game["powers"]
        if isinstance(game["powers"][0], str)
        else [p["power"] for p in game["powers"]]
    )
    payer, payee = powers[0], powers[1]
    url = f"/api/sandbox/{game['id']}/payments/{payer}/"
    me = api(ada)
    paid = me.post(url, {"to": payee, "amount": 30}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert paid.status_code == 201, paid.content
    assert (paid.json()["payer"], paid.json()["to"], paid.json()["amount"]) == (payer, payee, 30)
    again = me.post(url, {"to": payee, "amount": 30}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert again.status_code == 200 and again.json()["id"] == paid.json()["id"]
    for body in ({"to": payer, "amount": 5}, {"to": payee, "amount": 0}, {"to": payee}):
        assert me.post(url, body, format="json").status_code == 400, body
    assert me.post(f"/api/sandbox/{game['id']}/payments/Nobody/", {"to": payee, "amount": 5},
                   format="json").status_code == 400  # fmt: skip
    assert (
        api(make_user("bob")).post(url, {"to": payee, "amount": 5}, format="json").status_code
        == 404
    )
    # The page: the gold panel, and a payment form for each power.
    client.force_login(ada)
    page = client.get(reverse("sandbox", args=[game["id"]])).content.decode()
    assert 'id="gold"' in page and page.count(
        'action="' + reverse("sandbox-pay", args=[game["id"]])
    ) == len(powers)
    done = client.post(
        reverse("sandbox-pay", args=[game["id"]]),
        {"power": payee, f"{payee}-to": payer, f"{payee}-amount": 12, f"{payee}-key": "p1"}
        | {f"{payee}-phase": 0},
        follow=True,
    ).content.decode()
    assert f"{payee} paid {payer} 12 k oz." in done
    page = client.get(reverse("sandbox", args=[game["id"]])).content.decode()
    assert "<strong>12</strong>" in page and "<strong>30</strong>" in page


def test_the_sandbox_page_refuses_stale_orders_keeps_refused_text_and_caps(client, make_user):
    """Found by an adversary: a form shown for one phase stored its orders in the next; a
    refused box came back empty; the 21st unfinished game was a 500 on the page."""
    ada = make_user("ada")
    client.force_login(ada)
    client.post(reverse("sandbox-new"), {"variant": "colonial"})
    game = Game.objects.get(sandbox=True)
    orders, page = reverse("sandbox-orders", args=[game.pk]), reverse("sandbox", args=[game.pk])
    client.post(reverse("sandbox-step", args=[game.pk, "process"]), {"phase": 0})
    stale = client.post(
        orders, {"power": "Britain", "orders": "F Bombay - Arabian Sea", "phase": 0}, follow=True
    ).content.decode()
    assert "nothing was saved" in stale and "F Bombay - Arabian Sea</textarea>" in stale
    assert not Order.objects.filter(phase__game=game).exists()
    assert "F Bombay - Arabian Sea" not in client.get(page).content.decode()  # shown once
    many = "\n".join(["F Bombay H"] * 101)
    refused = client.post(
        orders, {"power": "Britain", "orders": many, "phase": 1}, follow=True
    ).content.decode()
    assert "at most 100 orders" in refused and refused.count("F Bombay H") >= 101
    for _ in range(25):  # the cap on unfinished games a user runs
        answer = client.post(reverse("sandbox-new"), {"variant": "chinese"})
        if answer.status_code == 200:
            assert "unfinished games" in answer.content.decode()
            break
        assert answer.status_code == 302
    else:
        pytest.fail("no cap met")


def test_no_moderator_action_seats_anyone_in_a_sandbox(api, client, make_user) -> None:
    """Found by an adversary: the creator's moderator API handed a sandbox's power to another
    user (who then ordered in a game they could not see) or to a bot. Every action that seats
    someone or changes a seat is refused, in the API, the console and the services."""
    ada, demo4 = make_user("ada"), make_user("demo4")
    game = _start(api, ada)
    base = f"/api/games/{game['id']}/moderation/"
    for action, body in (
        ("replace", {"power": "Japan", "username": "demo4"}),
        ("bot", {"power": "Russia", "bot": True}),
        ("remove", {"power": "China"}),
    ):
        answer = api(ada).post(base + action + "/", body, format="json")
        assert answer.status_code == 400, (action, answer.content)
        assert "a sandbox is played by its creator alone" in str(answer.json()), answer.content
    sandbox = Game.objects.get(pk=game["id"])
    assert not sandbox.memberships.filter(user=demo4).exists()
    assert not sandbox.memberships.filter(bot=True).exists()
    assert set(sandbox.memberships.values_list("status", flat=True)) == {"active"}
    offered = {a["name"] for a in api(ada).get(base).json()}
    assert not offered & {"replace", "bot", "remove"}
    client.force_login(ada)
    console = reverse("moderate-action", args=[game["id"], "replace"])
    answer = client.post(
        console, {"power": "Japan", "username": "demo4", "confirm": "yes"}, follow=True
    )
    assert "a sandbox is played by its creator alone" in answer.content.decode()
    with pytest.raises(services.GameError, match="creator alone"):
        services.replace_player(sandbox, ada, "Japan", demo4)
    with pytest.raises(services.GameError, match="creator alone"):
        services.set_bot(sandbox, ada, "Russia", True)
    with pytest.raises(services.GameError, match="creator alone"):
        services.remove_player(sandbox, ada, "China")
    assert not sandbox.memberships.filter(user=demo4).exists()


def test_a_sandbox_has_no_clock_to_move_or_stop(api, client, make_user) -> None:
    """Found by an adversary: pausing a sandbox was a 500 (it has no deadline to keep), and a
    deadline moved on one would have had the sweep process it."""
    ada = make_user("ada")
    game = _start(api, ada)
    base = f"/api/games/{game['id']}/moderation/"
    for action, body in (("pause", {}), ("deadline", {"minutes": 60}), ("resume", {})):
        answer = api(ada).post(base + action + "/", body, format="json")
        assert answer.status_code == 400, (action, answer.content)
    sandbox = Game.objects.get(pk=game["id"])
    assert sandbox.status == "active" and sandbox.current_phase.deadline is None
    offered = {a["name"] for a in api(ada).get(base).json()}
    assert not offered & {"pause", "deadline", "resume"}
    client.force_login(ada)
    console = reverse("moderate-action", args=[game["id"], "pause"])
    answer = client.post(console, {"confirm": "yes"}, follow=True)
    assert answer.status_code == 200
    assert "a sandbox has no deadlines" in answer.content.decode()


def test_no_player_page_lists_a_sandbox_seat(api, client, make_user) -> None:
    """Found by an adversary: the bot accounts that stand in for a sandbox's powers listed it
    on their player pages (its number, variant and status) and counted its phases as due."""
    ada, demo2 = make_user("ada"), make_user("demo2")
    game = _start(api, ada)
    assert api(ada).post(f"/api/sandbox/{game['id']}/process/").status_code == 200
    stand_ins = Game.objects.get(pk=game["id"]).memberships.values_list("user__username", flat=True)
    for name in stand_ins:
        summary = api(demo2).get(f"/api/players/{name}/")
        assert summary.status_code == 200, summary.content
        assert [g for g in summary.json()["games"] if g["id"] == game["id"]] == []
        assert summary.json()["phases_due"] == 0
        client.force_login(demo2)
        page = client.get(reverse("player", args=[name])).content.decode()
        assert "Sandbox" not in page


def test_pausing_a_game_whose_phase_has_no_deadline_is_no_500(make_game, moderator) -> None:
    game = make_game("standard")
    phase = game.current_phase
    phase.deadline = None
    phase.save(update_fields=["deadline"])
    services.pause(game, moderator)
    game.refresh_from_db()
    assert game.status == "paused" and game.paused_remaining is None


def _game_urls(patterns=None, prefix: str = "") -> list[str]:
    """Every route that takes a game's number, as a regex-free template with ``{pk}``."""
    from django.urls import URLPattern, URLResolver, get_resolver

    out = []
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            out += _game_urls(entry.url_patterns, route)
        elif isinstance(entry, URLPattern) and "pk" in route and "<format>" not in route:
            out.append(route)
    return out


# A value for each other part of a route, so that it resolves.
_SAMPLES = {
    "pk": "PK",
    "index": "0",
    "action": "replace",
    "action_name": "replace",
    "step": "process",
    "power": "Russia",
    "hook": "1",
}


def _concrete(route: str, pk: int) -> str | None:
    """The route with ``pk`` and samples filled in (the router's regexes and path converters);
    None for a route whose ``pk`` is not a game's (the variants')."""
    import re

    if "(?P<pk>[0-9]+)" not in route and "<int:pk>" not in route:
        return None
    url = re.sub(r"\(\?P<(\w+)>(?:[^()]|\([^()]*\))*\)", lambda m: _SAMPLES[m[1]], route)
    url = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: _SAMPLES[m[1]], url)
    url = url.replace("^", "").replace("$", "").replace("\\.", ".").replace("/?", "/")
    return "/" + url.replace("{pk}", str(pk)).replace("PK", str(pk))


def test_another_users_sandbox_is_a_404_everywhere(api, client, make_user) -> None:
    """Found by an adversary: the join requirements answered 200, the webhooks, the moderator
    console and the requirements page 403, for someone else's sandbox, where a number no game
    has is a 404: they told that the sandbox exists. Every route that takes a game's number
    now answers another user (and a stranger) as if there were no such game."""
    ada, bob = make_user("ada"), make_user("bob")
    sandbox = _start(api, ada)["id"]
    missing = Game.objects.order_by("-pk").first().pk + 1000
    routes = _game_urls()
    assert any("requirements" in r for r in routes) and any("webhooks" in r for r in routes)
    client.force_login(bob)
    checked = 0
    for route in routes:
        there, nowhere = _concrete(route, sandbox), _concrete(route, missing)
        if there is None:
            continue
        assert "(" not in there and "<" not in there, there
        for method in ("get", "post", "put", "delete"):
            seen = getattr(client, method)(there, content_type="application/json")
            absent = getattr(client, method)(nowhere, content_type="application/json")
            assert seen.status_code in (404, 405), (method, there, seen.status_code)
            assert seen.status_code == absent.status_code, (method, there, seen.status_code)
            checked += 1
    assert checked > 100
    # Nor does a superuser see it (the README: nobody else), nor find it in the games' list.
    boss = make_user("boss")
    boss.is_superuser = True
    boss.save()
    assert api(boss).get(f"/api/games/{sandbox}/").status_code == 404
    assert sandbox not in [g["id"] for g in api(boss).get("/api/games/").json()["results"]]
    client.force_login(boss)
    assert client.get(reverse("game", args=[sandbox])).status_code == 404
    # The creator still reaches them.
    mine = api(ada)
    assert mine.get(f"/api/games/{sandbox}/requirements/").status_code == 200
    assert mine.get(f"/api/games/{sandbox}/webhooks/").status_code == 200
    client.force_login(ada)
    assert client.get(reverse("moderate", args=[sandbox])).status_code == 200
    assert client.get(reverse("requirements", args=[sandbox])).status_code == 200


def _chinese_sandbox_all_deposed(api, ada) -> tuple[dict, Game]:
    """A Chinese sandbox whose every great power ran out of gold in its first phase."""
    game = api(ada).post("/api/sandbox/", {"variant": "chinese"}, format="json").json()
    sandbox = Game.objects.get(pk=game["id"])
    phase = sandbox.current_phase
    for power in phase.carried["economy"]["balances"]:
        phase.carried["economy"]["balances"][power] = -1500
    phase.save(update_fields=["carried"])
    processed = api(ada).post(f"/api/sandbox/{game['id']}/process/", {"phase": 0}, format="json")
    assert processed.status_code == 200, processed.content
    assert sandbox.moderator_actions.filter(action="deposed").count() == 6
    return game, sandbox


def test_a_deposed_power_of_a_sandbox_gets_a_new_leader_and_nothing_is_abandoned(api, make_user):
    """Found by an adversary: in a Chinese sandbox a deposed power could no longer be ordered
    ("no power 'England'"), and once all were, the game was ended as abandoned and could not
    be undone. Seed 003 rule 6: a deposed leader's position goes to a new player at net zero;
    in a sandbox that is its creator, through a new stand-in."""
    ada = make_user("ada")
    game, sandbox = _chinese_sandbox_all_deposed(api, ada)
    me = api(ada)
    held = sandbox.memberships.filter(status="active").values_list("power", flat=True)
    assert sorted(held) == sorted(game["powers"] if isinstance(game["powers"][0], str) else
                                  [p["power"] for p in game["powers"]])  # fmt: skip
    put = me.put(
        f"/api/sandbox/{game['id']}/orders/England/",
        {"orders": ["A Pacific Ocean H"]},
        format="json",
    )
    assert put.status_code == 200, put.content
    for _ in range(4):  # more movement phases than an abandoned game is given, nobody ordering
        index = Game.objects.get(pk=game["id"]).current_phase.index
        step = me.post(f"/api/sandbox/{game['id']}/process/", {"phase": index}, format="json")
        assert step.status_code == 200, step.content
        assert step.json()["status"] == "active", step.json()
    sandbox.refresh_from_db()
    assert sandbox.status == Game.Status.ACTIVE
    assert not sandbox.moderator_actions.filter(action="abandoned").exists()
    assert me.post(f"/api/sandbox/{game['id']}/undo/").status_code == 200


def test_a_sandbox_ended_as_abandoned_before_is_undone_and_says_who_was_deposed(api, make_user):
    """A sandbox from before the fix: its deposed powers had no seat and it was cancelled as
    abandoned. Ordering for one says it was deposed and when; undo brings the sandbox back,
    every power led again."""
    ada = make_user("ada")
    game, sandbox = _chinese_sandbox_all_deposed(api, ada)
    # As it was left then: the new stand-ins never came, and the game was ended.
    sandbox.memberships.filter(status="active").delete()
    me = api(ada)
    for _ in range(4):  # no seat is held, nobody orders: still never abandoned
        index = Game.objects.get(pk=game["id"]).current_phase.index
        step = me.post(f"/api/sandbox/{game['id']}/process/", {"phase": index}, format="json")
        assert step.status_code == 200 and step.json()["status"] == "active", step.content
    sandbox.status, sandbox.result = Game.Status.CANCELLED, {"kind": "abandoned", "powers": []}
    sandbox.save(update_fields=["status", "result"])
    put = me.put(
        f"/api/sandbox/{game['id']}/orders/England/",
        {"orders": ["A Pacific Ocean H"]},
        format="json",
    )
    assert put.status_code == 400, put.content
    assert "England's leader was deposed in" in put.json()["detail"], put.content
    assert "1900" in put.json()["detail"] and "no power" not in put.json()["detail"]
    undone = me.post(f"/api/sandbox/{game['id']}/undo/", {"phase": index + 1}, format="json")
    assert undone.status_code == 200, undone.content
    assert undone.json()["status"] == "active" and undone.json()["current_phase"]["index"] == index
    put = me.put(
        f"/api/sandbox/{game['id']}/orders/England/",
        {"orders": ["A Pacific Ocean H"]},
        format="json",
    )
    assert put.status_code == 200, put.content
    assert sandbox.memberships.filter(status="active").count() == 6


def test_a_chinese_sandbox_ended_with_1950_undoes_its_last_year(api, make_user) -> None:
    """Seed 003: the game ends with 1950 and no 1951 phase opens, so 1950 stays the current
    phase, processed; undo goes back to it as it was before it was processed."""
    ada = make_user("ada")
    game = api(ada).post("/api/sandbox/", {"variant": "chinese"}, format="json").json()
    sandbox = Game.objects.get(pk=game["id"])
    Game.objects.get(pk=game["id"]).phases.update(year=1950)
    me = api(ada)
    step = f"/api/sandbox/{game['id']}/"
    ended = me.post(step + "process/", {"phase": 0}, format="json")
    assert ended.status_code == 200, ended.content
    assert ended.json()["status"] == "finished"
    assert ended.json()["current_phase"]["year"] == 1950
    me_on_pages = Client()
    me_on_pages.force_login(ada)
    page = me_on_pages.get(reverse("sandbox", args=[game["id"]])).content.decode()
    assert 'id="undo"' in page  # the last year's own undo, though it is phase 0 here
    undone = me.post(step + "undo/", {"phase": 0, "over": True}, format="json")
    assert undone.status_code == 200, undone.content
    sandbox.refresh_from_db()
    assert sandbox.status == Game.Status.ACTIVE
    assert sandbox.current_phase.index == 0 and sandbox.current_phase.processed_at is None
    # The same undo sent again finds the phase at the same index, but the game no longer over.
    again = me.post(step + "undo/", {"phase": 0, "over": True}, format="json")
    assert again.status_code == 409, again.content
    sandbox.refresh_from_db()
    assert sandbox.status == Game.Status.ACTIVE and sandbox.current_phase.index == 0


def test_an_ended_sandboxs_undo_button_pressed_twice_goes_back_once(api, make_user) -> None:
    """The page's Undo says whether the game was over. Undoing a game that ended with its
    last phase processed reopens that phase at the same index, so without it a second press
    of the same button (a double click, an old tab) undid one more phase."""
    ada = make_user("ada")
    game = api(ada).post("/api/sandbox/", {"variant": "chinese"}, format="json").json()
    me = api(ada)
    step = f"/api/sandbox/{game['id']}/"
    assert me.post(step + "process/", {"phase": 0}, format="json").status_code == 200
    sandbox = Game.objects.get(pk=game["id"])
    sandbox.phases.update(year=1950)
    ended = me.post(step + "process/", {"phase": 1}, format="json").json()
    assert ended["status"] == "finished" and ended["current_phase"]["index"] == 1
    pages = Client()
    pages.force_login(ada)
    page = pages.get(reverse("sandbox", args=[game["id"]])).content.decode()
    assert 'name="over" value="1"' in page
    undo = reverse("sandbox-step", args=[game["id"], "undo"])
    for _ in range(2):
        assert pages.post(undo, {"phase": 1, "over": "1"}).status_code == 302
    sandbox.refresh_from_db()
    assert sandbox.status == Game.Status.ACTIVE
    assert sandbox.current_phase.index == 1 and sandbox.current_phase.processed_at is None
    page = pages.get(reverse("sandbox", args=[game["id"]])).content.decode()
    assert 'name="over" value="0"' in page


@pytest.mark.parametrize("processed", [0, 3])
def test_a_sandbox_ended_by_hand_is_undone_into_the_phase_it_ended_in(
    api, make_user, processed
) -> None:
    """Found by an adversary: a sandbox ended with End in a phase not processed went back one
    phase too far on Undo (that phase lost), and in its first phase Undo said there was
    nothing to undo and the page offered no way back."""
    ada = make_user("ada")
    game = _start(api, ada)
    me = api(ada)
    step = f"/api/sandbox/{game['id']}/"
    for index in range(processed):
        assert me.post(step + "process/", {"phase": index}, format="json").status_code == 200
    sandbox = Game.objects.get(pk=game["id"])
    services.end_game(sandbox, ada)
    pages = Client()
    pages.force_login(ada)
    page = pages.get(reverse("sandbox", args=[game["id"]])).content.decode()
    assert 'id="undo"' in page
    undone = me.post(step + "undo/", {"phase": processed, "over": True}, format="json")
    assert undone.status_code == 200, undone.content
    assert undone.json()["status"] == "active"
    assert undone.json()["current_phase"]["index"] == processed
