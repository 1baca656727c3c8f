"""The apps' boundaries (docs/development.md, "Working on the code"): the imports between the project's
apps point one way (no two apps import each other), the families' app imports none of the others, and
the catalogue knows nothing of loans or rules."""

import ast
import re
from graphlib import CycleError, TopologicalSorter
from itertools import combinations
from pathlib import Path

from django.apps import apps

ROOT = Path(__file__).resolve().parent.parent


def imported_modules(folder: Path) -> set[str]:
    found = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
    return found


def project_apps() -> set[str]:
    """The installed apps that are folders of this repository (`ludotheque`, the project's package of
    settings, root URLs and shared helpers, is none of them: every app may import it)."""
    return {app.name for app in apps.get_app_configs() if Path(app.path).parent == ROOT}


def app_imports() -> dict[str, set[str]]:
    """Each project app and the other project apps its code imports (its migrations and tests included)."""
    names = project_apps()
    return {
        app: {module.split(".")[0] for module in imported_modules(ROOT / app)} & names - {app}
        for app in names
    }


def test_no_two_apps_import_each_other():
    graph = app_imports()
    assert {"members", "loans", "ledger", "notices", "privacy", "onsite", "inventory"} <= graph.keys()
    both_ways = [f"{a} <-> {b}" for a, b in combinations(sorted(graph), 2) if b in graph[a] and a in graph[b]]
    assert not both_ways, f"these apps import each other: {', '.join(both_ways)}"


def test_the_imports_between_apps_make_no_loop():
    try:
        order = list(TopologicalSorter(app_imports()).static_order())
    except CycleError as error:
        raise AssertionError(
            f"these apps import each other in a loop: {' -> '.join(error.args[1])}"
        ) from None
    assert order.index("members") < min(order.index(app) for app in ("loans", "ledger", "notices", "privacy"))


def test_the_families_app_imports_no_other_app_of_the_project():
    assert app_imports()["members"] == set()


def test_the_catalogue_imports_no_other_app_of_the_project():
    project_apps = {app.name for app in apps.get_app_configs() if Path(app.path).parent == ROOT}
    imported = {module.split(".")[0] for module in imported_modules(ROOT / "catalogue")}
    assert {"loans", "rules"} <= project_apps
    assert not imported & (project_apps - {"catalogue"})


def test_the_catalogue_reaches_no_other_app_through_meta_lookups_or_urls():
    code = "\n".join(path.read_text(encoding="utf-8") for path in (ROOT / "catalogue").rglob("*.py"))
    assert not re.search(r"get_field\(\"(loans|holds|rules_page)\"\)|\bloans__|\bholds__|rules_page", code)
    pages = "\n".join(
        path.read_text(encoding="utf-8") for path in (ROOT / "templates" / "catalogue").rglob("*.html")
    )
    assert not re.search(r"\{% url '(loans|rules):|\.rules_page\b|\.loans\.", pages)


def test_the_rules_engine_and_games_import_nothing_of_the_project_but_the_engine():
    for folder in ("engine", "games"):
        modules = imported_modules(ROOT / "rules" / folder)
        assert not {module for module in modules if module.split(".")[0] in {"django", "catalogue", "loans"}}
        # The engine's modules (rules.engine.hexgrid), and a game's helper module beside it (railroad_ink_board).
        allowed = ("rules.engine", "rules.games") if folder == "games" else ("rules.engine",)
        assert all(
            module.split(".")[:2] in [name.split(".") for name in allowed] or not module.startswith("rules")
            for module in modules
        ), folder


def test_no_app_imports_on_site_play_which_reaches_the_catalogue_through_its_registry():
    project_apps = {app.name for app in apps.get_app_configs() if Path(app.path).parent == ROOT}
    assert "onsite" in project_apps
    # The ludobus desk replays visits through on-site play's services; nothing imports the ludobus.
    for app in project_apps - {"onsite", "ludobus"}:
        imported = {module.split(".")[0] for module in imported_modules(ROOT / app)}
        assert "onsite" not in imported, app
    onsite = {module.split(".")[0] for module in imported_modules(ROOT / "onsite")}
    assert onsite & project_apps <= {
        "onsite",
        "catalogue",
        "members",
        "loans",
        "opening",
        "rules",
        "ludotheque",
        "once",
        "report",
        "events",
    }


def test_a_form_acted_on_once_imports_nothing_of_the_project():
    project_apps = {app.name for app in apps.get_app_configs() if Path(app.path).parent == ROOT}
    assert {module.split(".")[0] for module in imported_modules(ROOT / "once")} & project_apps <= {"once"}


def test_no_app_imports_the_ludobus_desk_which_replays_through_the_others_services():
    project_apps = {app.name for app in apps.get_app_configs() if Path(app.path).parent == ROOT}
    assert "ludobus" in project_apps
    for app in project_apps - {"ludobus"}:
        assert "ludobus" not in {module.split(".")[0] for module in imported_modules(ROOT / app)}, app


def test_the_annual_report_reads_only_the_catalogue_the_other_apps_register_their_sections():
    project_apps = {app.name for app in apps.get_app_configs() if Path(app.path).parent == ROOT}
    assert "report" in project_apps
    imported = {module.split(".")[0] for module in imported_modules(ROOT / "report")}
    assert imported & project_apps <= {"report", "catalogue", "ludotheque"}
