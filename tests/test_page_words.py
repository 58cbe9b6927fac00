"""Pages name variants by their names, not their ids, in the page's language; the lobby's open
games say how many seats are free; the press hint follows the page's language."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from games import web

pytestmark = pytest.mark.django_db


def test_the_leaderboard_names_variants(client, make_user) -> None:
    client.force_login(make_user("reader"))
    html = client.get("/leaderboard/?variant=far-east").content.decode()
    assert "Far East I-R" in html and "Colonial Diplomacy" in html
    assert ">far-east<" not in html and ">chinese<" not in html and ": far-east<" not in html


def test_the_lobby_names_variants_and_counts_free_seats(moderator, make_user) -> None:
    from games import services

    forming = services.create_game(moderator, name="Forming one", variant="far-east")
    services.join_game(forming, make_user("early"), [])
    reader = Client()
    reader.force_login(make_user("reader"))
    html = reader.get("/").content.decode()
    assert forming.name in html
    line = html.split(forming.name, 1)[1].split("</li>", 1)[0]
    assert "Far East I-R" in line and "far-east" not in line
    import adjudication

    free = len(adjudication.load("far-east").playable_powers) - 1
    assert f"{free} seats free" in line


def test_the_press_hint_is_in_the_page_language() -> None:
    for language in ("ja", "zh-hans"):
        with translation.override(language):
            fields = web._press_fields(language, ("China", "Japan"), ("China",))
        assert "Ticked to reply in this thread" not in fields, language


@pytest.mark.parametrize(
    ("language", "names"),
    [
        ("zh-hans", ("殖民地外交", "远东 I-R", "中国外交", "标准外交")),
        (
            "ja",
            ("コロニアル・ディプロマシー", "極東 I-R", "中国ディプロマシー", "標準ディプロマシー"),
        ),
    ],
)
def test_variant_names_are_translated_where_shown(moderator, make_user, language, names) -> None:
    """The lobby, the game page, the new-game form and the variant page name the variants in
    the page's language (they showed "Colonial Diplomacy" and "Far East I-R" in English)."""
    from django.urls import reverse

    from games import services

    colonial, far_east, chinese, standard = names
    game = services.create_game(moderator, name="Words", variant="far-east")
    reader = Client(headers={"accept-language": language})
    reader.force_login(moderator)
    player = Client(headers={"accept-language": language})
    player.force_login(make_user("reader"))
    lobby = player.get(reverse("lobby")).content.decode()  # among the games open to join
    assert far_east in lobby.split("Words", 1)[1].split("</li>", 1)[0]
    head = reader.get(reverse("game", args=[game.pk])).content.decode()
    assert f">{far_east}</a>" in head and "Far East I-R" not in head
    form = reader.get(reverse("create-game")).content.decode()
    for name in names:
        assert f">{name}</option>" in form, name
    for english in ("Colonial Diplomacy", "Far East I-R", "Chinese Diplomacy", "Standard"):
        assert f">{english}</option>" not in form, english
    page = reader.get(reverse("variant", args=["chinese"])).content.decode()
    assert f"<h1>{chinese}</h1>" in page


@pytest.mark.parametrize("language", ["ja", "zh-hans"])
def test_the_moderator_console_writes_the_deadline_as_the_game_page_does(
    make_game, moderator, language
) -> None:
    """The console wrote "金 4 12月 2026 21:23 UTC" (English order) where the game page writes
    the date in the page's language."""
    import re

    from django.urls import reverse

    game = make_game()
    reader = Client(headers={"accept-language": language})
    reader.force_login(moderator)

    def deadline(html: str) -> str:
        return re.search(r'<time[^>]*id="deadline"[^>]*>(.*?)</time>', html)[1]

    page = reader.get(reverse("game", args=[game.pk])).content.decode()
    console = reader.get(reverse("moderate", args=[game.pk])).content.decode()
    words = re.search(r"<time datetime=[^>]*>(.*?)</time>", console)[1]
    assert words == deadline(page) and "年" in words
