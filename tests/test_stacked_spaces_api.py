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
