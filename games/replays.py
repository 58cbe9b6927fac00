"""Replays as pictures and as data (issue #19 item 5).

A processed phase is public: its orders and results show on the game page and in the API, so
its picture (the board with every order's arrow and result), the whole game as an animated GIF
and the engine's requests and answers may be had by anyone who may open the game. An
unprocessed phase has no picture and no entry: its orders are still secret.

``replay.json`` holds, for each processed phase, the request the server sent the engine (the
same one ``services._adjudicate`` builds) and the answer it stored;
``python -m adjudication replay`` judges every request again and reports any difference.
"""

from __future__ import annotations

import hashlib
import io
import json
import time

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from PIL import Image, ImageDraw

from variants.render import render_board

from . import engine, reason_words, visibility
from .models import Game, Phase
from .variant_words import phase_label
from .web import token_accepted, watchable  # as the game page: a public game's pictures for anyone

FORMAT = "greatgame-replay/1"
PNG_WIDTH = 1000
# The GIF's frames are the phases' own pictures (one drawing and one cache entry for both),
# wide enough that the board's names can be read; 640 px made them a blur.
GIF_WIDTH = PNG_WIDTH
MAX_GIF_FRAMES = 200  # a longer game shows its last ones
FRAME_MS = 1200
LAST_FRAME_MS = 4000
# Seconds a GIF request may spend drawing new frames (settings.REPLAY_DRAW_SECONDS wins): well
# under a worker's timeout; a longer game is drawn over several requests (202, Retry-After).
DRAW_SECONDS = 10


def _state(phase: Phase) -> dict:
    return {
        "units": phase.units,
        "supply_centers": phase.supply_centers,
        "dislodged": phase.dislodged,
        "contested": phase.contested,
    }


def _name(game: Game, phase: Phase) -> str:
    return phase_label(game.variant, phase.season, phase.year, phase.type)


def phase_svg(game: Game, phase: Phase, palette: str = "default") -> str:
    """The board of a processed phase with its orders' arrows and results; an unprocessed one
    without orders (its position is public, its orders not). ValueError: no board drawing."""
    results = (phase.results or {}).get("orders") if phase.processed_at else None
    return render_board(
        game.variant,
        _state(phase),
        results=reason_words.said_results(results),
        palette=palette,
        words=reason_words.board_words(),
    )


def _png_key(phase: Phase, width: int, palette: str) -> str:
    """The cache's name for a picture: what is drawn (position, and results once processed),
    so that a phase rolled back and played again is drawn anew."""
    drawn = [_state(phase), (phase.results or {}).get("orders") if phase.processed_at else None]
    digest = hashlib.blake2b(json.dumps(drawn, sort_keys=True).encode(), digest_size=16)
    language = translation.get_language()
    return f"replay:png:{phase.game_id}:{digest.hexdigest()}:{width}:{palette}:{language}"


def phase_png(game: Game, phase: Phase, width: int = PNG_WIDTH, palette: str = "default") -> bytes:
    """The phase's picture as PNG, kept in the cache while the phase stays as it is."""
    key = _png_key(phase, width, palette)
    png = cache.get(key)
    if png is None:
        import cairosvg  # loads libcairo: only where pictures are drawn, not for every page

        svg = phase_svg(game, phase, palette)
        png = cairosvg.svg2png(bytestring=svg.encode(), output_width=width)
        cache.set(key, png, 24 * 3600)
    return png


def _frame(png: bytes, caption: str) -> Image.Image:
    """A GIF frame: the board under a strip naming the phase."""
    board = Image.open(io.BytesIO(png)).convert("RGB")
    strip = 22
    frame = Image.new("RGB", (board.width, board.height + strip), "white")
    frame.paste(board, (0, strip))
    ImageDraw.Draw(frame).text((8, 5), caption, fill="black")
    return frame.quantize(colors=255, method=Image.Quantize.MEDIANCUT)


class StillDrawing(Exception):
    """The replay's frames are not all drawn yet: a frame takes about a second to draw, so a
    long game is drawn over several requests, each within its time budget."""

    def __init__(self, ready: int, total: int) -> None:
        super().__init__(f"drawing the replay: {ready} of {total} frames ready; ask again soon")
        self.ready, self.total = ready, total


def replay_gif_bytes(game: Game, budget: float | None = None) -> bytes:
    """Every processed phase with its arrows, then the board as it stands, as a looping GIF.

    ``budget``: seconds this call may spend drawing frames not yet in the cache (at least one
    is drawn); when some are left, ``StillDrawing`` says how far it got. None: no limit.
    """
    phases = list(game.phases.filter(processed_at__isnull=False).order_by("index"))
    last = phases[-1] if phases else None
    stamp = last.processed_at.timestamp() if last else 0
    key = f"replay:gif:{game.pk}:{last.pk if last else 0}:{stamp}:{translation.get_language()}"
    gif = cache.get(key)
    if gif is not None:
        return gif
    frames = [(p, _name(game, p)) for p in phases]
    current = game.phases.filter(processed_at__isnull=True).order_by("-index").first()
    if current is not None:  # the position reached, without its secret orders
        frames.append((current, f"{_name(game, current)} (position)"))
    frames = frames[-MAX_GIF_FRAMES:]
    stop = None if budget is None else time.monotonic() + budget
    pngs, drawn = [], 0
    for phase, _caption in frames:
        png = cache.get(_png_key(phase, GIF_WIDTH, "default"))
        if png is None and (stop is None or drawn == 0 or time.monotonic() < stop):
            png = phase_png(game, phase, GIF_WIDTH)
            drawn += 1
        pngs.append(png)
    ready = sum(png is not None for png in pngs)
    if ready < len(frames):
        raise StillDrawing(ready, len(frames))
    images = [
        _frame(png, f"{game.name}: {caption}")
        for png, (_phase, caption) in zip(pngs, frames, strict=True)
    ]
    out = io.BytesIO()
    durations = [FRAME_MS] * (len(images) - 1) + [LAST_FRAME_MS]
    images[0].save(
        out, format="GIF", save_all=True, append_images=images[1:], duration=durations, loop=0
    )
    gif = out.getvalue()
    cache.set(key, gif, 24 * 3600)
    return gif


def engine_request(game: Game, phase: Phase) -> dict:
    """The request the server sent the engine for this phase: every stored order, in the
    order ``services._adjudicate`` sends them."""
    orders = phase.orders.order_by("power", "position")
    return engine.request(
        game, phase, [{"power": o.power, "order": o.canonical or o.text} for o in orders]
    )


def engine_answer(stored: object) -> object:
    """A stored answer as the engine's JSON gives it: without the reasons' words, which the
    server adds in process (``engine.adjudicate``) so that it can translate them."""
    if isinstance(stored, dict):
        return {k: engine_answer(v) for k, v in stored.items() if not k.endswith("_words")}
    if isinstance(stored, list):
        return [engine_answer(v) for v in stored]
    return stored


def replay_data(game: Game, user: AbstractBaseUser | None = None) -> dict:
    """The game as the engine saw it: each processed phase's request and stored answer."""
    phases = game.phases.filter(processed_at__isnull=False, results__isnull=False)
    whole = _whole(game, user)
    options = visibility.shown_options(game, user)
    return {
        "format": FORMAT,
        "game": game.pk,
        "name": game.name,
        "variant": game.variant,
        "phases": [
            {
                "index": p.index,
                "name": _name(game, p),
                "request": {**engine_request(game, p), "options": options},
                "response": engine_answer(
                    p.results if whole else visibility.shown_results(p.results)
                ),
            }
            for p in phases.order_by("index")
        ],
    }


# -- views --------------------------------------------------------------------------------


def _palette(request: HttpRequest) -> str:
    from .web import palette_of  # the viewer's colours, as on the game page

    return palette_of(request)


def _no_board(game: Game) -> Http404:
    return Http404(f"the {game.variant} map has no board drawing to make pictures from")


def _picture(game: Game, draw, content_type: str, filename: str) -> HttpResponse:
    """A drawing served inline; a map without a board drawing is a 404 that says so."""
    try:
        data = draw()
    except ValueError as error:
        raise _no_board(game) from error
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@token_accepted
@watchable
def phase_png_view(request: HttpRequest, pk: int, index: int) -> HttpResponse:
    """``/games/{id}/phases/{n}.png``: a processed phase's board with its orders' results."""
    game = request.watched_game  # read by @watchable
    phase = game.phases.filter(index=index, processed_at__isnull=False).first()
    if phase is None:
        raise Http404("no processed phase with that number")
    palette = _palette(request)
    return _picture(
        game,
        lambda: phase_png(game, phase, palette=palette),
        "image/png",
        f"game-{game.pk}-phase-{index}.png",
    )


@token_accepted
@watchable
def replay_gif_view(request: HttpRequest, pk: int) -> HttpResponse:
    """``/games/{id}/replay.gif``: the game so far, a frame a phase."""
    game = request.watched_game  # read by @watchable
    if not game.phases.filter(processed_at__isnull=False).exists():
        raise Http404("no phase has been processed yet")
    budget = getattr(settings, "REPLAY_DRAW_SECONDS", DRAW_SECONDS)
    try:
        return _picture(
            game, lambda: replay_gif_bytes(game, budget), "image/gif", f"game-{game.pk}.gif"
        )
    except StillDrawing as drawing:  # come back: the frames drawn so far are kept
        response = JsonResponse(
            {"detail": str(drawing), "ready": drawing.ready, "frames": drawing.total}, status=202
        )
        response["Retry-After"] = "5"
        return response


@token_accepted
@watchable
def replay_json_view(request: HttpRequest, pk: int) -> HttpResponse:
    """``/games/{id}/replay.json``: for ``python -m adjudication replay``."""
    game = request.watched_game  # read by @watchable
    response = JsonResponse(
        replay_data(game, request.user), json_dumps_params={"ensure_ascii": False}
    )
    response["Content-Disposition"] = f'attachment; filename="game-{game.pk}-replay.json"'
    return response


def _whole(game: Game, user: AbstractBaseUser | None) -> bool:
    """Whether the viewer may have the factions' unpublished coming orders in the replay: once
    the game is over, or a moderator who does not play. While it is on, everyone's replay
    lacks the seed of the game's chance (``visibility.shown_options``), so that a Chinese game's
    replay is judged again only once the game is over."""
    return game.finished_at is not None or (
        user is not None and visibility.sees_everything(game, user)
    )
