"""The rules we keep, as tests (read from the source with ``ast``, nothing imported):

* a game's rules package imports only the standard library and ``gemtable.games``;
* the table imports no server, store or bus; the store and the bus import no table;
* no game's name appears in code outside the game's own files and the registry.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gemtable.games import BUILTIN, manifests

SRC = Path(__file__).parents[1] / "src" / "gemtable"
STDLIB = set(sys.stdlib_module_names)


def python_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def imports(path: Path) -> Iterator[str]:
    """Every module ``path`` imports (relative imports resolved to ``gemtable.…``)."""
    package = ".".join(path.relative_to(SRC.parent).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                yield f"{base}.{node.module}" if node.module else base
            else:
                yield node.module or ""


def within(module: str, *roots: str) -> bool:
    return any(module == root or module.startswith(root + ".") for root in roots)


GAME_PACKAGES = sorted(p.parent for p in (SRC / "games").glob("*/__init__.py"))


def game_parts(package: Path) -> set[Path]:
    """The modules of a game's folder that are not its rules: the manifest and what it names (bots, report,
    batch mode, benchmark), which may use the rest of gemtable; the rules may not use them."""
    parts = {package / "manifest.py"}
    for manifest in manifests():
        for module in (manifest.bots, manifest.report, manifest.batch, manifest.benchmark):
            if module and module.startswith("gemtable.") and module_file(module).parent == package:
                parts.add(module_file(module))
    return parts


def rules_files(package: Path) -> list[Path]:
    return [path for path in python_files(package) if path not in game_parts(package)]


def part_modules(package: Path) -> set[str]:
    return {".".join(path.relative_to(SRC.parent).with_suffix("").parts) for path in game_parts(package)}


def test_there_are_rules_packages_to_check() -> None:
    assert {p.name for p in GAME_PACKAGES} >= {"expedition", "booty"}
    assert all(len(game_parts(package)) >= 2 for package in GAME_PACKAGES)


@pytest.mark.parametrize("package", GAME_PACKAGES, ids=lambda p: p.name)
def test_a_rules_package_imports_only_the_standard_library_and_the_games(package: Path) -> None:
    parts = part_modules(package)
    for path in rules_files(package):
        for module in imports(path):
            top = module.split(".")[0]
            assert top in STDLIB or within(module, "gemtable.games"), f"{path.name} imports {module}"
            assert not within(module, *parts), f"the rules ({path.name}) import {module}"


@pytest.mark.parametrize(
    ("layer", "forbidden"),
    [
        ("table", ("gemtable.server", "gemtable.store", "gemtable.bus")),
        ("store", ("gemtable.table",)),
        ("bus", ("gemtable.table",)),
        ("games", ("gemtable.table", "gemtable.server", "gemtable.store", "gemtable.bus", "gemtable.bots")),
    ],
)
def test_layers_import_only_downwards(layer: str, forbidden: tuple[str, ...]) -> None:
    parts = {part for package in GAME_PACKAGES for part in game_parts(package)}
    paths = [path for path in python_files(SRC / layer) if path not in parts]
    assert paths
    for path in paths:
        for module in imports(path):
            assert not within(module, *forbidden), f"{path.relative_to(SRC)} imports {module}"


# --- game names ----------------------------------------------------------------------------------------


def module_file(module: str) -> Path:
    parts = module.split(":")[0].split(".")
    assert parts[0] == "gemtable"
    path = SRC.joinpath(*parts[1:])
    return path if path.is_dir() else path.with_suffix(".py")


def owned_by_games() -> set[Path]:
    """Every file a game's manifest names as its own (its folder, bots, report, batch mode, benchmark), and the
    registry."""
    owned = {SRC / "games" / "__init__.py"}
    for manifest in manifests():
        if not manifest.bots.startswith("gemtable."):
            continue  # a game from outside the package (the test-only one)
        owned.add(module_file(manifest.game.__module__).parent)
        owned.add(module_file(manifest.bots))
        for module in (manifest.report, manifest.batch, manifest.benchmark):
            if module:
                owned.add(module_file(module))
    return owned


def code_words(path: Path) -> Iterator[tuple[int, str]]:
    """The identifiers, imported modules and string literals of ``path`` (not its comments or docstrings)."""
    tree = ast.parse(path.read_text("utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield line, node.value
        elif isinstance(node, ast.Name):
            yield line, node.id
        elif isinstance(node, ast.Attribute):
            yield line, node.attr
        elif isinstance(node, ast.alias):
            yield line, node.name
        elif isinstance(node, ast.ImportFrom):
            yield line, node.module or ""
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield line, node.name


def test_no_game_is_named_in_code_outside_its_own_files_and_the_registry() -> None:
    names = [m.name for m in manifests() if m.bots.startswith("gemtable.")]
    assert {"expedition", "booty"} <= set(names)
    owned = owned_by_games()
    found = []
    for path in python_files(SRC):
        if any(path == own or own in path.parents for own in owned):
            continue
        for line, word in code_words(path):
            for name in names:
                if re.search(name, word, re.IGNORECASE):
                    found.append(f"{path.relative_to(SRC)}:{line}: {word!r}")
    assert not found, "\n".join(found)


def test_the_registry_names_games_only_by_their_manifest_modules() -> None:
    for module in BUILTIN:
        assert module_file(module).name == "manifest.py"


WEB = SRC / "web"


def owned_web_files() -> set[Path]:
    """The web files a game's manifest names as its own (its page and rules modules, styles, texts, assets), in its
    folder's ``web/``."""
    owned: set[Path] = set()
    for manifest in manifests():
        web = module_file(manifest.package) / "web" if manifest.package.startswith("gemtable.") else None
        if web is None:
            continue
        named = [p for p in (manifest.page, manifest.rules_page, *manifest.styles) if p]
        owned |= {web / path for path in named}
        owned |= {path for stem in manifest.translations for path in web.glob(f"{stem}.*.json")}
        owned |= {path for pattern in manifest.assets for path in web.glob(pattern)}
    return owned


def test_every_web_file_a_manifest_names_is_in_its_games_folder() -> None:
    owned = owned_web_files()
    assert len(owned) >= 10
    assert all(path.is_file() and "games" in path.relative_to(SRC).parts for path in owned)


def web_code(path: Path) -> str:
    """What in a page's file could name a game: scripts and styles without their comments, a shared translation
    file's keys (its texts are prose), the rest whole."""
    text = path.read_text("utf-8")
    if path.suffix in (".js", ".css"):
        text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m[0].count("\n"), text, flags=re.DOTALL)
    if path.suffix == ".js":
        return re.sub(r"^\s*//.*$|\s//\s.*$", "", text, flags=re.MULTILINE)
    if path.suffix == ".json" and path.parent.name == "i18n":
        return "\n".join(json.loads(text))
    return text


def test_no_game_is_named_in_the_pages_outside_its_own_files() -> None:
    names = [m.name for m in manifests() if m.bots.startswith("gemtable.")]
    found = []
    for path in sorted(WEB.rglob("*")):
        if path.suffix not in (".js", ".html", ".json", ".css", ".webmanifest"):
            continue
        for number, line in enumerate(web_code(path).splitlines(), 1):
            found += [
                f"{path.relative_to(WEB)}:{number}: {line.strip()}"
                for name in names
                if re.search(name, line, re.IGNORECASE)
            ]
    assert not found, "\n".join(found)
