"""Spaces that hold several units (Far East oceans, Chinese entry spaces), played through the
API: a removal or a departure takes one unit, never every unit standing there."""

from __future__ import annotations

from games.models import Game


def _sandbox(api, user, variant: str):
    me = api(user)
    game = me.post("/api/sandbox/", {"variant": variant}, format="json").json()
    base = f"/api/sandbox/{game['id']}/"

    def orders(power: str, texts: list[str], phase: int) -> None:
        answer = me.put(f"{base}orders/{power}/", {"orders": texts, "phase": phase}, format="json")
        assert answer.status_code == 200, answer.content

    def process(phase: int) -> dict:
        answer = me.post(f"{base}process/", {"phase": phase}, format="json")
        assert answer.status_code == 200, answer.content
        return answer.json()

    return game["id"], orders, process


def _units(pk: int) -> list[tuple[str, str]]:
    phase = Game.objects.get(pk=pk).current_phase
    return sorted((u["power"], u["location"]) for u in phase.units)


def test_a_far_east_removal_in_an_ocean_takes_one_fleet(api, make_user) -> None:
    pk, orders, process = _sandbox(api, make_user("ada"), "far-east")
    orders("Japan", ["F Tokyo - North Pacific Ocean", "F Nagasaki - Sea of Japan"], 0)
    orders("China", ["F Shanghai - East China Sea"], 0)
    orders("Indonesia", ["F Celebes - Molucca Sea"], 0)
    process(0)
    orders("Japan", ["F North Pacific Ocean - Mid-Pacific Ocean"], 1)
    orders("China", ["F East China Sea - Nagasaki"], 1)
    orders("Indonesia", ["F Molucca Sea - Mid-Pacific Ocean"], 1)
    winter = process(1)
    assert winter["current_phase"]["type"] == "adjustments"
    orders("Japan", ["Remove F Mid-Pacific Ocean"], 2)
    process(2)
    in_ocean = [power for power, where in _units(pk) if where == "Mid-Pacific Ocean"]
    assert in_ocean == ["Indonesia"]


def test_a_chinese_leave_takes_one_army_off(api, make_user) -> None:
    pk, orders, process = _sandbox(api, make_user("ada"), "chinese")
    orders("England", ["Enter A Pacific Ocean"] * 3, 0)
    process(0)
    ocean = "Pacific Ocean"
    texts = [f"A {ocean} - Shamtung", f"A {ocean} S England A {ocean} - Shamtung"]
    orders("England", [*texts, f"A {ocean} Leave"], 1)
    process(1)
    england = [where for power, where in _units(pk) if power == "England"]
    # One army left the board, not all three. The move may or may not have taken Shamtung:
    # the Imperials there move by the game's own dice (a new random seed each game), and
    # some years they stand it off; it failed in CI so, with nothing wrong with the leave.
    assert len(england) == 2 and set(england) <= {ocean, "Shamtung"}, england


def test_orders_beyond_an_entry_spaces_armies_are_the_last_written(api, make_user) -> None:
    """Two armies in the Pacific, three orders: the one refused is the last one written, with
    a reason that says there are only two armies there (a Leave written last took an army
    from the support written before it, which was refused instead), in the reader's language
    too; and the game is played with the two orders kept."""
    user = make_user("ada")
    pk, orders, process = _sandbox(api, user, "chinese")
    orders("England", ["Enter A Pacific Ocean"] * 2, 0)
    process(0)
    ocean = "Pacific Ocean"
    written = [f"A {ocean} - Shamtung", f"A {ocean} S England A {ocean} - Shamtung"]
    written.append(f"A {ocean} Leave")
    url = f"/api/sandbox/{pk}/orders/England/"
    answer = api(user).put(url, {"orders": written, "phase": 1}, format="json")
    assert answer.status_code == 200, answer.content
    stored = answer.json()
    assert [o["valid"] for o in stored] == [True, True, False], stored
    assert stored[2]["reason"] == (
        "England has only 2 armies in Pacific Ocean, and earlier orders command them all"
    )
    for language, word in (("ja", "陸軍を 2 つ"), ("zh-hans", "只有 2 支陆军")):
        said = api(user).put(
            url, {"orders": written, "phase": 1}, format="json", HTTP_ACCEPT_LANGUAGE=language
        )
        assert word in said.json()[2]["reason"], said.json()[2]
    # Put the other way round: still the last written is refused.
    answer = api(user).put(url, {"orders": written[::-1], "phase": 1}, format="json")
    assert [o["valid"] for o in answer.json()] == [True, True, False], answer.json()
    answer = api(user).put(url, {"orders": written, "phase": 1}, format="json")
    process(1)
    england = [where for power, where in _units(pk) if power == "England"]
    assert len(england) == 2, england  # no army left the board: the Leave was refused
