"""No module of the project's code is over 500 lines, and no function of the apps this file names is
over 80 (docs/development.md, "Working on the code"): a module or a function that grows past them is
split by what its code is about.

Covered: every installed app of the project and `ludotheque/` (settings, URLs, what the apps share).
Left out: migrations (generated, and history once applied), the rules engine's game modules
(`rules/games/`: a game's declarative setup is long by nature), and what is not the site's code
(`tests/`, `bench/`, `scripts/`).
"""

import ast
from pathlib import Path

from django.apps import apps

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 500
MAX_FUNCTION_LINES = 80
# Files still over the limit while someone splits them, each with a comment "being split": none today.
BEING_SPLIT: set[str] = set()
# The apps whose functions the function limit holds for.
FUNCTIONS_CHECKED = {"members", "loans", "ledger", "notices", "onsite", "privacy", "inventory"}


def covered_folders() -> list[Path]:
    names = {app.name for app in apps.get_app_configs() if Path(app.path).parent == ROOT}
    return [ROOT / name for name in sorted(names | {"ludotheque"})]


def modules() -> list[Path]:
    found = []
    for folder in covered_folders():
        for path in folder.rglob("*.py"):
            relative = path.relative_to(ROOT)
            if "migrations" in relative.parts or relative.parts[:2] == ("rules", "games"):
                continue
            found.append(path)
    return found


def test_the_sizes_cover_the_apps_and_leave_out_only_what_they_say():
    covered = {path.relative_to(ROOT).as_posix() for path in modules()}
    assert {"members/models.py", "loans/desk.py", "ledger/models.py", "ludotheque/settings.py"} <= covered
    assert not any("/migrations/" in name or name.startswith("rules/games/") for name in covered)
    assert BEING_SPLIT <= covered  # a file split away leaves the list too


def test_no_module_is_over_500_lines():
    too_long = sorted(
        f"{path.relative_to(ROOT).as_posix()} ({lines} lines)"
        for path in modules()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
        and path.relative_to(ROOT).as_posix() not in BEING_SPLIT
    )
    assert not too_long, f"over {MAX_LINES} lines: {', '.join(too_long)}"


def test_no_function_of_the_family_and_loan_apps_is_over_80_lines():
    too_long = []
    for path in modules():
        if path.relative_to(ROOT).parts[0] not in FUNCTIONS_CHECKED:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    too_long.append(f"{path.relative_to(ROOT).as_posix()}:{node.name} ({lines} lines)")
    assert not too_long, f"over {MAX_FUNCTION_LINES} lines: {', '.join(sorted(too_long))}"
