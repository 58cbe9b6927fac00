"""Issue #14 item 5: a variant is its data plus the rule objects it registers with the engine.

The engine imports nothing from ``variants/`` and reads no directory of its own; a third party
adds a map and a rule of its own by registering them, without touching ``adjudication/``.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from django.utils.html import escape

import adjudication
from adjudication import registry
from adjudication.movement import Movement
from adjudication.orders import MOVE, SPECIAL, Order, OrderError

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "adjudication"


# -- the engine stands alone ------------------------------------------------------------------


def engine_imports() -> dict[str, set[str]]:
    """Every absolute module each engine file imports when it runs (relative imports stay inside
    it; those under ``if TYPE_CHECKING:`` never run)."""
    found: dict[str, set[str]] = {}
    for path in ENGINE.glob("*.py"):
        names: set[str] = set()
        for node in _run_time_nodes(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
        found[path.name] = names
    return found


def _run_time_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of a module but those under ``if TYPE_CHECKING:`` (its ``else`` runs)."""
    nodes, stack = [], [tree]
    while stack:
        node = stack.pop()
        nodes.append(node)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and ast.unparse(child.test) == "TYPE_CHECKING":
                stack += child.orelse
            else:
                stack.append(child)
    return nodes


def test_the_engine_imports_only_the_standard_library():
    allowed = set(sys.stdlib_module_names) | {"__future__", "adjudication"}
    outside = {name: sorted(m - allowed) for name, m in engine_imports().items() if m - allowed}
    assert not outside, f"engine modules importing outside the standard library: {outside}"


def test_the_engine_names_no_variant_package_nor_its_directory():
    """No import of ``variants``, no module named by a string, no path to the maps."""
    for path in ENGINE.glob("*.py"):
        text = path.read_text()
        for needle in ("variants.rules", "import variants", "from variants", "import_module"):
            assert needle not in text, f"{path.name} holds {needle!r}"
        for path_to_maps in ('/ "variants"', '"variants/', "VARIANTS_DIR"):
            assert path_to_maps not in text, f"{path.name} holds {path_to_maps!r}"


def _python(code: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter (nothing imported yet); it must succeed."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done


def test_the_engine_loads_without_the_variants_package():
    """Imported on its own, every engine module leaves ``variants`` unimported; a request for a
    map then goes through the registry (the entry point), not through an import by name."""
    code = (
        "import sys, adjudication\n"
        "from adjudication import api, bench, board, following, game_options, movement, "
        "options, orders, registry, retreats, adjustments, variant\n"
        "assert 'variants' not in sys.modules, 'imported by the engine'\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'games')))\n"
    )
    done = _python(code)
    assert done.stdout.strip() == "[]"


def test_the_project_declares_its_variants_as_an_entry_point():
    """How ``python -m adjudication`` finds the maps: the installed entry point, which must be
    the one pyproject.toml declares (a stale install needs ``make venv``)."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    assert declared[registry.ENTRY_POINT_GROUP] == {"greatgame": "variants:register"}
    installed = {e.value for e in metadata.entry_points(group=registry.ENTRY_POINT_GROUP)}
    assert "variants:register" in installed


def test_the_rules_are_registered_objects_with_the_documented_interface():
    for variant_id, names in {
        "colonial": ["suez_canal", "trans_siberian_railroad"],
        "far-east": ["oceans"],
        "chinese": ["chinese"],
        "standard": [],
    }.items():
        rules = adjudication.load(variant_id).plugins
        assert [r.name for r in rules] == names
        for rule in rules:
            assert isinstance(rule, adjudication.Rule)
            assert registry.rule(rule.name) is rule
            assert rule.Movement is None or issubclass(rule.Movement, Movement)


def test_the_rule_class_attributes_have_type_hints_that_resolve():
    """``typing.get_type_hints(Rule)`` raised NameError: ``ClassVar`` was imported for type
    checkers only. Its class attributes' hints resolve now, a rule's subclasses' too, and the
    engine still never imports ``typing`` itself (start-up time)."""
    import typing

    hints = typing.get_type_hints(registry.Rule)
    assert hints["name"] is str and hints["Movement"] == type | None
    assert hints["PHASE_TYPES"] == tuple[str, ...] | None
    for rule in adjudication.load("colonial").plugins + adjudication.load("chinese").plugins:
        assert typing.get_type_hints(type(rule)).keys() >= hints.keys()
    done = _python("import sys, adjudication.registry; print('typing' in sys.modules)")
    assert done.stdout.strip() == "False"


def test_an_unknown_rule_or_variant_is_a_clear_error():
    with pytest.raises(adjudication.VariantError, match="unknown rule 'no_such_rule'"):
        from adjudication.variant import build

        build({**TOY, "id": "broken", "rules": ["no_such_rule"]})
    reply = adjudication.adjudicate({"variant": "no-such-map"})
    assert reply["error"].startswith("unknown variant 'no-such-map'")
    assert "colonial" in reply["error"]  # the known ones are listed


def test_a_rule_must_be_a_rule_object_and_names_are_not_shadowed():
    with pytest.raises(TypeError):
        registry.register_rule(object())  # type: ignore[arg-type]

    class Impostor(adjudication.Rule):
        name = "suez_canal"

    with pytest.raises(ValueError, match="suez_canal"):
        registry.register_rule(Impostor())
    with pytest.raises(ValueError, match="already registered"):
        registry.register_variant("colonial", {"id": "colonial"})
    import variants

    variants.register()  # registering the same files and rules again changes nothing
    assert adjudication.available() == ["chinese", "colonial", "far-east", "standard"]


# -- a toy variant from a third party ---------------------------------------------------------

# West and East are two islands of land joined only by a ferry; North and South lie between.
TOY = {
    "id": "toy-ferry",
    "name": "Ferry Island",
    "provinces": [
        {"name": "West", "abbreviation": "WES", "type": "land", "supply_center": True},
        {"name": "East", "abbreviation": "EAS", "type": "land", "supply_center": True},
        {"name": "North", "abbreviation": "NOR", "type": "land"},
        {"name": "South", "abbreviation": "SOU", "type": "land"},
    ],
    "borders": [
        ["West", "North", "A"],
        ["North", "East", "A"],
        ["West", "South", "A"],
        ["South", "East", "A"],
    ],
    "powers": [
        {"name": "Red", "abbreviation": "R", "home_centers": ["West"]},
        {"name": "Blue", "abbreviation": "B", "home_centers": ["East"]},
    ],
    "calendar": {"start_year": 1, "seasons": ["spring", "autumn"]},
    "victory_centers": 2,
    "starting_units": [
        {"power": "Red", "unit": "A", "location": "West"},
        {"power": "Blue", "unit": "A", "location": "North"},
    ],
    "rules": ["toy_ferry"],
    "rule_data": {"toy_ferry": {"ends": ["West", "East"]}},
}


class FerryMovement(Movement):
    """A ride on the ferry is a move like any other once checked; the toll is a no-op order."""

    def check_move(self, i: int, order: Order) -> Order | None:
        if order.via != "FERRY":
            return super().check_move(i, order)
        unit, ends = self.units[i], self.variant.rule_data["toy_ferry"]["ends"]
        if unit.kind != "A" or unit.province not in ends or order.destination not in ends:
            raise OrderError("the ferry runs between West and East only, for armies")
        return Order(MOVE, "A", unit.location, destination=order.destination, via="FERRY")

    def target_could_move(self, t: int, dprov: str) -> bool:
        ends = self.variant.rule_data["toy_ferry"]["ends"]
        return (self.prov[t] in ends and dprov in ends) or super().target_could_move(t, dprov)

    def add_special(self, power: str, order: Order) -> Order:
        if order.extra[:1] != ("Toll",):
            return super().add_special(power, order)
        return order


class Ferry(adjudication.Rule):
    name = "toy_ferry"
    title = "The ferry"
    summary = "An army may cross between West and East by ferry."
    Movement = FerryMovement

    def parse_order(self, variant, tokens, phase_type):
        if tokens[:1] != ["toll"]:
            return None
        return Order(SPECIAL, extra=("Toll", "paid"))

    def order_form(self, order):
        return "toll"

    def option_orders(self, board, power):
        ends = board.variant.rule_data["toy_ferry"]["ends"]
        return [
            f"A {u.location} - {end} via Ferry"
            for u in board.units
            if u.power == power and u.province in ends
            for end in ends
            if end != u.province
        ]


@pytest.fixture
def toy():
    """The toy map and its rule, registered the way any package would, and forgotten after."""
    adjudication.register_rule(Ferry())
    adjudication.register_variant(TOY["id"], TOY)
    yield TOY["id"]
    registry.unregister_variant(TOY["id"])
    registry.unregister_rule("toy_ferry")


def request(variant_id: str, orders: list[tuple[str, str]]) -> dict:
    return {
        "variant": variant_id,
        "phase": {"season": "spring", "year": 1, "type": "movement"},
        "units": TOY["starting_units"],
        "orders": [{"power": p, "order": o} for p, o in orders],
    }


def test_a_toy_variant_with_its_own_rule_is_judged_by_the_engine(toy):
    assert toy in adjudication.available()
    reply = adjudication.adjudicate(
        request(toy, [("Red", "A West - East via Ferry"), ("Red", "Toll"), ("Blue", "A NOR H")])
    )
    results = {o["order"]: (o["result"], o.get("data", {})) for o in reply["orders"]}
    assert results["A West - East via Ferry"][0] == "succeeds"
    assert results["A West - East via Ferry"][1]["via"] == "FERRY"
    assert results["Toll"] == (
        "succeeds",
        {"kind": "special", "order": "Toll paid", "words": ["Toll", "paid"], "rule": "toy_ferry",
         "form": "toll"},
    )  # fmt: skip
    assert {"power": "Red", "unit": "A", "location": "East"} in reply["units"]


def test_the_toy_rule_is_checked_listed_and_supported_through_the_engine(toy):
    """The rule's options reach the option list, its check refuses a bad ride, and a support
    of a ride is legal because the rule's resolver says the target could move there."""
    listed = adjudication.options(request(toy, []), "Red")["orders"]
    assert "A West - East via FERRY" in [o["order"] for o in listed]
    checked = adjudication.check(request(toy, [("Blue", "A North - West via Ferry")]))
    assert checked["orders"][0]["result"] == "invalid"
    assert "ferry runs between West and East" in checked["orders"][0]["reason"]
    supported = adjudication.check(request(toy, [("Blue", "A North S A West - East")]))
    assert supported["orders"][0]["result"] == "valid"


def test_without_its_rule_the_toy_move_is_refused(toy):
    """The ride is the registered rule's doing: the same map without it has no ferry."""
    plain = {**TOY, "id": "toy-plain", "rules": []}
    adjudication.register_variant(plain["id"], plain)
    try:
        reply = adjudication.check(request("toy-plain", [("Red", "A West - East via Ferry")]))
        assert reply["orders"][0]["result"] == "invalid"
    finally:
        registry.unregister_variant("toy-plain")


TOY_PACKAGE = """
from adjudication import register_variant

def register():
    register_variant("toy-cli", {
        "id": "toy-cli",
        "provinces": [
            {"name": "Here", "type": "land", "supply_center": True},
            {"name": "There", "type": "land"},
        ],
        "borders": [["Here", "There", "A"]],
        "powers": [{"name": "Solo", "home_centers": ["Here"]}],
        "calendar": {"start_year": 1, "seasons": ["spring", "autumn"]},
        "starting_units": [{"power": "Solo", "unit": "A", "location": "Here"}],
    })
"""


def test_the_command_line_takes_a_registration_function(tmp_path):
    """``python -m adjudication --register module:function``: a package that is not installed
    brings its variant to the command line; the installed maps stay available beside it."""
    (tmp_path / "toy_package.py").write_text(TOY_PACKAGE)
    command = [sys.executable, "-m", "adjudication", "--register", "toy_package:register"]
    env_path = f"{tmp_path}:{ROOT}"
    run = {"capture_output": True, "text": True, "cwd": ROOT, "timeout": 60}
    env = {"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"}
    listed = subprocess.run([*command, "variants"], env=env, **run)
    assert listed.stdout.split() == ["chinese", "colonial", "far-east", "standard", "toy-cli"]
    body = json.dumps(
        {
            "variant": "toy-cli",
            "units": [{"power": "Solo", "unit": "A", "location": "Here"}],
            "orders": [{"power": "Solo", "order": "A Here - There"}],
        }
    )
    judged = subprocess.run([*command, "adjudicate"], input=body, env=env, **run)
    assert '"result": "succeeds"' in judged.stdout, judged.stderr
    broken = subprocess.run([*command[:-1], "no_such_module:register", "variants"], env=env, **run)
    assert broken.returncode == 2 and "cannot register 'no_such_module:register'" in broken.stderr


@pytest.mark.django_db
def test_the_rules_page_reads_each_rule_objects_own_words(client, toy):
    """The rules page shows a rule's ``summary`` from its object: the canal's and railroad's on
    Colonial's page, the oceans' on Far East's, and a toy rule's on its toy map's."""
    from variants.rules import oceans, suez_canal, trans_siberian_railroad

    colonial = client.get("/variants/colonial/").content.decode()
    for rule in (suez_canal.RULE, trans_siberian_railroad.RULE):
        assert escape(rule.summary) in colonial
    assert escape(oceans.RULE.summary) not in colonial
    assert escape(oceans.RULE.summary) in client.get("/variants/far-east/").content.decode()
    assert Ferry.summary in client.get(f"/variants/{toy}/").content.decode()


@pytest.mark.django_db
def test_the_chinese_rules_page_tells_of_gold_factions_and_entry_spaces(client):
    """Chinese Diplomacy's page said nothing of gold, deposition or the factions: its rule
    object had no summary. Its figures are the engine's own; Far East's oceans hold fleets."""
    from variants.rules import chinese, oceans

    assert chinese.RULE.summary
    page = client.get("/variants/chinese/").content.decode()
    assert escape(chinese.RULE.summary) in page
    words = chinese.RULE.summary
    assert chinese.ENTRY_COST == chinese.EXIT_COST
    assert f"entering or leaving costs {chinese.ENTRY_COST}," in words
    assert f"each army on the board {chinese.UPKEEP} a year" in words
    assert f"an annihilated army {chinese.ANNIHILATION};" in words
    assert f"pays it {chinese.CENTRE_PROFIT}," in words
    assert f"more than {-chinese.DEPOSED_BELOW:,} in debt is deposed" in words
    assert chinese.imperial_armies(1910, 17) == 17 and chinese.imperial_armies(1911, 17) == 0
    assert chinese.kuomintang_armies(1910, 0) == 0 < chinese.kuomintang_armies(1911, 0)
    assert chinese.communist_armies(1926) == 0 < chinese.communist_armies(1927)
    assert "gone in 1911; the Kuomintang come in 1911 and the Communists in 1927" in words
    for said in ("“Enter A Pacific Ocean”", "Siberia", "Indo-China", "may pay each other"):
        assert said in words
    far_east = client.get("/variants/far-east/").content.decode()
    assert escape(oceans.RULE.summary) in far_east
    assert "any number of fleets" in far_east and "any number of units" not in far_east


def test_a_broken_variant_package_is_named_and_the_others_still_load(monkeypatch):
    """Discovery calls every entry point of the group; one that fails is recorded and shown
    with an unknown variant, and the packages that did register keep working."""
    import variants

    broken, working = "no_such_package:register", "variants:register"
    monkeypatch.setattr(registry, "entry_points", lambda: [broken, working])
    monkeypatch.setattr(registry, "_discovered", False)
    monkeypatch.setattr(registry, "discovery_errors", {})
    calls = []
    monkeypatch.setattr(variants, "register", lambda: calls.append("registered"))
    reply = adjudication.adjudicate({"variant": "atlantis"})
    assert "no_such_package:register: ModuleNotFoundError" in reply["error"]
    assert calls == ["registered"]
    assert adjudication.load("colonial").name == "Colonial Diplomacy"
    adjudication.available()
    assert calls == ["registered"]  # once per process


def test_every_hook_a_rule_defines_is_one_the_engine_calls_with_its_arguments():
    """A misspelt hook (``option_order``) would be silently ignored, as the old ``getattr``
    look-ups ignored one: every public name a rule class sets must be in ``Rule``'s interface,
    and each hook must take the interface's arguments."""
    import inspect

    import variants.rules

    for rule in variants.rules.RULES:
        own = {name for name in vars(type(rule)) if not name.startswith("_")}
        assert own <= set(dir(adjudication.Rule)), (rule.name, own - set(dir(adjudication.Rule)))
        for name in own:
            base = getattr(adjudication.Rule, name)
            if not inspect.isfunction(base):
                continue
            expected = list(inspect.signature(base).parameters)[1:]  # without self
            assert len(inspect.signature(getattr(rule, name)).parameters) == len(expected), (
                rule.name,
                name,
            )


def test_each_rule_module_hands_its_object_every_hook_it_defines():
    """A rule module's function named like a hook (or its ``OPTIONS``, its ``Movement``) is
    the rule object's: one defined but not bound would never be called."""
    from variants.rules import chinese, oceans, suez_canal, trans_siberian_railroad

    interface = {name for name in dir(adjudication.Rule) if not name.startswith("_")}
    for module in (chinese, oceans, suez_canal, trans_siberian_railroad):
        defined = interface & set(vars(module)) - {"name", "title", "summary"}
        assert "Movement" in defined  # every rule here has a resolver mixin
        for name in defined:
            assert getattr(module.RULE, name) is getattr(module, name), (module.__name__, name)


def test_entry_points_are_read_as_importlib_metadata_reads_them():
    """Discovery reads the installed ``entry_points.txt`` files itself (importing
    ``importlib.metadata`` is a third of a command-line start); it must find what that finds."""
    found = registry.entry_points()
    assert found == [e.value for e in metadata.entry_points(group=registry.ENTRY_POINT_GROUP)]
    assert "variants:register" in found


def test_the_command_line_starts_without_importlib_metadata():
    code = (
        "import sys, runpy\n"
        "sys.argv = ['adjudication', 'variants']\n"
        "try:\n"
        "    runpy.run_module('adjudication', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('importlib.metadata' in sys.modules)\n"
    )
    done = _python(code)
    assert done.stdout.split() == ["chinese", "colonial", "far-east", "standard", "False"]


def test_an_entry_point_is_resolved_in_either_form():
    """``module:attribute`` as entry points write it, and pkgutil's dotted ``module.attribute``
    (``--register`` took both); a module missing inside an existing one is not hidden."""
    from adjudication.registry import load_entry_point

    assert load_entry_point("json.decoder:JSONDecoder.decode") is json.decoder.JSONDecoder.decode
    assert load_entry_point("json.decoder.JSONDecoder.decode") is json.decoder.JSONDecoder.decode
    assert load_entry_point("json") is json
    with pytest.raises(ModuleNotFoundError):
        load_entry_point("no_such_module_here.thing")
