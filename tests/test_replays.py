"""Replays (issue #19 item 5): a processed phase as a PNG, the game as an animated GIF with each
turn's arrows, and the engine's requests and answers as JSON that ``python -m adjudication
replay`` judges again phase by phase."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import cairosvg
import pytest
from django.core.cache import cache
from PIL import Image
from rest_framework.authtoken.models import Token

import adjudication
from bots.heuristic import HeuristicBot
from games import engine, replays, services
from games.models import Game
from variants.render import render_board

ROOT = Path(__file__).resolve().parent.parent


def _play(game: Game, moderator, seat, phases: int) -> Game:
    """Every power sends the heuristic bot's orders, then the phase is processed."""
    for _ in range(phases):
        game.refresh_from_db()
        phase = game.current_phase
        request = engine.request(game, phase, [])
        for power in sorted(engine.powers_to_act(phase) & set(engine.powers(game))):
            orders = HeuristicBot(phase.index).decide(request, power)
            if orders:
                services.submit_orders(seat(game, power), orders)
        services.process_now(game, moderator)
    game.refresh_from_db()
    return game


@pytest.fixture
def played(make_game, moderator, seat) -> Game:
    return _play(make_game("colonial"), moderator, seat, 3)


def _replay_cli(text: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "adjudication", "replay", *args],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_a_processed_phase_as_png_with_its_arrows(played: Game, moderator, client) -> None:
    client.force_login(moderator)
    answer = client.get(f"/games/{played.pk}/phases/0.png")
    assert answer.status_code == 200 and answer["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(answer.content))
    assert image.format == "PNG" and image.width == replays.PNG_WIDTH
    # The same position drawn without its orders is another picture: the arrows are there.
    phase = played.phases.get(index=0)
    bare = render_board(played.variant, replays._state(phase))
    bare_png = cairosvg.svg2png(bytestring=bare.encode(), output_width=replays.PNG_WIDTH)
    assert Image.open(io.BytesIO(bare_png)).tobytes() != image.convert("RGBA").tobytes()
    assert phase.orders.exists()


def test_no_picture_before_a_phase_is_processed(played: Game, moderator, client) -> None:
    client.force_login(moderator)
    current = played.current_phase.index
    assert client.get(f"/games/{played.pk}/phases/{current}.png").status_code == 404
    assert client.get(f"/games/{played.pk}/phases/{current + 5}.png").status_code == 404
    assert client.get(f"/games/{played.pk + 1000}/phases/0.png").status_code == 404
    client.logout()
    assert client.get(f"/games/{played.pk}/phases/0.png").status_code == 404  # a private game


def test_a_rest_client_fetches_the_pictures_and_the_replay_with_its_token(
    played: Game, seat, client, make_user
) -> None:
    """Found by an adversary: with the API's token (no session) a player's phase picture and
    replay were the site's HTML "No such game" 404, though a REST client can do all a browser
    can. The token is read as the API reads it; a bad one is the API's JSON 401."""
    player = seat(played, "Britain").user
    key = Token.objects.create(user=player).key
    auth = {"HTTP_AUTHORIZATION": f"Token {key}"}
    picture = client.get(f"/games/{played.pk}/phases/0.png", **auth)
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"
    replay = client.get(f"/games/{played.pk}/replay.json", HTTP_AUTHORIZATION=f"token\t{key}")
    assert replay.status_code == 200
    assert [p["index"] for p in replay.json()["phases"]] == [0, 1, 2]
    for bad in ("Token nosuchkey", "Token a\u00e9", "token ", "Token", f"TOKEN\t{key} extra"):
        refused = client.get(f"/games/{played.pk}/replay.json", HTTP_AUTHORIZATION=bad)
        assert refused.status_code == 401, bad
        assert refused["Content-Type"] == "application/json" and refused.json()["detail"]
        assert refused["WWW-Authenticate"] == "Token"
    # What is not there is a JSON 404 to a token client (it was the site's HTML page).
    ahead = client.get(f"/games/{played.pk}/phases/99.png", **auth)
    assert ahead.status_code == 404 and ahead["Content-Type"] == "application/json"
    assert ahead.json()["detail"] == "no processed phase with that number"
    # Another's sandbox stays a 404 for a token as for a session: nothing says it exists.
    sandbox = services.create_game(player, name="Practice", variant="colonial", sandbox=True)
    stranger = Token.objects.create(user=make_user("stranger")).key
    hidden = client.get(f"/games/{sandbox.pk}/replay.json", HTTP_AUTHORIZATION=f"Token {stranger}")
    assert hidden.status_code == 404 and hidden.json() == {"detail": "no such game"}


def test_the_files_are_only_read_and_a_rest_client_is_refused_in_json(
    played: Game, seat, client
) -> None:
    """Found by an adversary: a POST to a phase's picture was the site's HTML CSRF 403 to a
    REST client, and a DELETE the site's HTML 405. A file is only read: any other method is a
    405 naming GET and HEAD, in JSON to a token client, on the error page to a browser."""
    player = seat(played, "Britain").user
    key = Token.objects.create(user=player).key
    files = [f"/games/{played.pk}/phases/0.png", f"/games/{played.pk}/replay.json"]
    for path in files:
        for method in ("post", "put", "delete", "patch"):
            refused = getattr(client, method)(path, HTTP_AUTHORIZATION=f"Token {key}")
            assert refused.status_code == 405, (method, path)
            assert refused["Content-Type"] == "application/json", (method, path)
            assert refused.json() == {"detail": f'Method "{method.upper()}" not allowed.'}
        assert client.head(path, HTTP_AUTHORIZATION=f"Token {key}").status_code == 200
    # A browser's POST is refused too (it drew the picture when the CSRF token was right),
    # on the site's page.
    client.force_login(player)
    page = client.post(files[0])
    assert page.status_code == 405 and page["Allow"] == "GET, HEAD"
    assert page["Content-Type"].startswith("text/html") and b"<html" in page.content.lower()
    # Any other page: a REST client's DELETE is the JSON 405 too, a browser's the page.
    other = client.delete("/games/", HTTP_AUTHORIZATION=f"Token {key}")
    assert other.status_code == 405 and other.json()["detail"] == 'Method "DELETE" not allowed.'
    assert b"<html" in client.delete("/games/").content.lower()


def test_the_whole_game_as_an_animated_gif(played: Game, moderator, client) -> None:
    client.force_login(moderator)
    answer = client.get(f"/games/{played.pk}/replay.gif")
    assert answer.status_code == 200 and answer["Content-Type"] == "image/gif"
    gif = Image.open(io.BytesIO(answer.content))
    processed = played.phases.filter(processed_at__isnull=False).count()
    assert gif.is_animated and gif.n_frames == processed + 1 > 1
    frames = []
    for i in range(gif.n_frames):
        gif.seek(i)
        frames.append(gif.convert("RGB").tobytes())
    assert len(set(frames)) == len(frames)  # each turn its own picture


def test_the_gif_is_made_of_the_phases_own_pictures(
    played: Game, moderator, client, monkeypatch
) -> None:
    """The GIF's frames are as wide as a phase's picture (its names readable) and are the
    same drawings: a phase already shown as a picture is not drawn again for the GIF."""
    cache.clear()
    client.force_login(moderator)
    processed = list(played.phases.filter(processed_at__isnull=False).order_by("index"))
    for phase in processed:
        assert client.get(f"/games/{played.pk}/phases/{phase.index}.png").status_code == 200
    drawn = []
    real = cairosvg.svg2png
    monkeypatch.setattr(cairosvg, "svg2png", lambda **kw: drawn.append(1) or real(**kw))
    answer = client.get(f"/games/{played.pk}/replay.gif")
    assert answer.status_code == 200
    assert len(drawn) == 1  # only the position reached, which has no picture of its own
    assert Image.open(io.BytesIO(answer.content)).width == replays.PNG_WIDTH


def test_a_game_with_no_processed_phase_has_no_gif(make_game, moderator, client) -> None:
    game = make_game("colonial")
    client.force_login(moderator)
    assert client.get(f"/games/{game.pk}/replay.gif").status_code == 404
    assert client.get(f"/games/{game.pk}/replay.json").json()["phases"] == []


def test_a_map_without_a_drawing_says_so(make_game, moderator, seat, client) -> None:
    game = _play(make_game("standard"), moderator, seat, 1)
    client.force_login(moderator)
    answer = client.get(f"/games/{game.pk}/phases/0.png")
    assert answer.status_code == 404
    assert len(client.get(f"/games/{game.pk}/replay.json").json()["phases"]) == 1


@pytest.mark.parametrize("variant", ["colonial", "chinese"])
def test_replay_json_is_judged_again_by_the_engine(
    variant, make_game, moderator, seat, client
) -> None:
    game = _play(make_game(variant), moderator, seat, 3)
    client.force_login(moderator)
    # The seed of the game's chance is nobody's before the game is over: once it is, the
    # replay is whole.
    on = client.get(f"/games/{game.pk}/replay.json").json()
    assert all("seed" not in p["request"]["options"] for p in on["phases"])
    services.end_game(game, moderator, "")
    data = client.get(f"/games/{game.pk}/replay.json").json()
    processed = list(game.phases.filter(processed_at__isnull=False).order_by("index"))
    assert [p["index"] for p in data["phases"]] == [p.index for p in processed]
    for entry, phase in zip(data["phases"], processed, strict=True):
        assert entry["response"] == replays.engine_answer(phase.results)
        answer = json.loads(json.dumps(adjudication.adjudicate(entry["request"])))
        assert answer == replays.engine_answer(phase.results)
    text = json.dumps(data)
    run = _replay_cli(text)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{len(processed)} phases replayed, 0 differ" in run.stdout
    # A stored answer that the engine would not give is caught, and named.
    first = data["phases"][0]["response"]["orders"][0]
    first["result"] = "bounced" if first["result"] != "bounced" else "succeeded"
    run = _replay_cli(json.dumps(data))
    assert run.returncode == 1
    assert "differs at orders[0].result" in run.stdout and "1 differ" in run.stdout


def test_replay_reads_a_file_and_refuses_what_is_not_a_replay(played, tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(replays.replay_data(played)))
    assert _replay_cli("", str(path)).returncode == 0
    assert _replay_cli("not json").returncode == 2
    assert _replay_cli("[1, 2]").returncode == 2
    broken = _replay_cli(json.dumps({"phases": [{"request": "x"}]}))
    assert broken.returncode == 1 and "no request" in broken.stdout


def test_the_game_page_links_the_pictures_once_a_phase_is_processed(
    make_game, moderator, seat, client
) -> None:
    game = make_game("colonial")
    client.force_login(moderator)
    before = client.get(f"/games/{game.pk}/").content.decode()
    assert "replay.gif" not in before and ".png" not in before.split("<main")[-1]
    _play(game, moderator, seat, 1)
    page = client.get(f"/games/{game.pk}/?phase=0").content.decode()
    assert f'href="/games/{game.pk}/phases/0.png"' in page
    assert f'href="/games/{game.pk}/replay.gif"' in page
    current = client.get(f"/games/{game.pk}/").content.decode()
    assert f"/games/{game.pk}/phases/1.png" not in current  # not processed yet


def test_a_long_replay_is_drawn_over_several_requests(
    played: Game, moderator, client, settings
) -> None:
    """With no time to spare each request draws one new frame, says how far it got (202 with
    Retry-After), and the GIF comes once every frame is drawn."""
    settings.REPLAY_DRAW_SECONDS = 0
    cache.clear()  # no frame drawn by an earlier test of an identical game
    client.force_login(moderator)
    frames = played.phases.filter(processed_at__isnull=False).count() + 1
    seen = []
    for _ in range(frames - 1):
        answer = client.get(f"/games/{played.pk}/replay.gif")
        assert answer.status_code == 202 and answer["Retry-After"]
        seen.append(answer.json()["ready"])
        assert answer.json()["frames"] == frames
    assert seen == list(range(1, frames))
    answer = client.get(f"/games/{played.pk}/replay.gif")
    assert answer.status_code == 200
    assert Image.open(io.BytesIO(answer.content)).n_frames == frames
