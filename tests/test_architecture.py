"""The rules we keep, as tests (read from the source with ``ast`` and regular expressions; only the registry is
imported, to know the games):

* a game is one folder, ``games/NAME/``: its rules import only the standard library and the game API, and never
  the folder's other parts (manifest, bots, report, batch mode, benchmark, probes), which its manifest names;
* nothing outside ``games/NAME/`` imports ``gemtable.games.NAME`` or names the game — not the package's Python,
  not the tools beside it, not the shared pages' JavaScript, HTML or styles, not the shared translations (which
  hold only shared words);
* the table imports no server, store or bus; the store and the bus import no table;
* no import cycle anywhere;
* the table stays readable: ``table.py`` under 600 lines, ``Table``'s state in at most 15 attributes (each group
  of it an object named for what it means, ``docs/architecture.md``).
"""

from __future__ import annotations

import ast
import functools
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gemtable.bots import bot_names
from gemtable.games import BUILTIN, Manifest, find_manifest, manifests

ROOT = Path(__file__).parents[1]
SRC = ROOT / "src" / "gemtable"
TOOLS = ROOT / "tools"
STDLIB = set(sys.stdlib_module_names)


def python_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def module_name(path: Path) -> str:
    """``src/gemtable/games/booty/state.py`` → ``gemtable.games.booty.state`` (a package is its ``__init__``)."""
    base = SRC.parent if SRC in path.parents else ROOT
    parts = path.relative_to(base).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def imports(path: Path) -> list[str]:
    return list(_imports(path))


def _imports(path: Path) -> Iterator[str]:
    """Every module ``path`` imports, at run time (relative imports resolved; ``if TYPE_CHECKING:`` blocks,
    which only the type checker reads, left out)."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    tree = ast.parse(path.read_text("utf-8"))
    typing_only = {
        id(child)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for statement in node.body
        for child in ast.walk(statement)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                above = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{above}.{base}" if base else above
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)  # ``from package import module``


def within(module: str, *roots: str) -> bool:
    return any(module == root or module.startswith(root + ".") for root in roots)


# --- a game is one folder -------------------------------------------------------------------------------


GAMES = [manifest for manifest in manifests() if manifest.package.startswith("gemtable.games.")]
"""The built-in games: each a folder of ``src/gemtable/games``."""


def folder(manifest: Manifest) -> Path:
    return SRC.joinpath(*manifest.package.split(".")[1:])


def game_parts(manifest: Manifest) -> set[Path]:
    """The modules of a game's folder that are not its rules: the manifest and what it names (bots, report,
    batch mode, benchmark, probes, result card), which may use the rest of gemtable; the rules may not use them."""
    parts = {folder(manifest) / "manifest.py"}
    refs = [manifest.bots, manifest.named_bots, manifest.report, manifest.batch, manifest.benchmark]
    refs += [manifest.baseline, manifest.probes, manifest.card]
    for ref in (ref for ref in refs if ref):
        path = SRC.joinpath(*manifest.module(ref)[0].split(".")[1:]).with_suffix(".py")
        assert folder(manifest) in path.parents and path.is_file(), f"{manifest.name} names {ref}, not in its folder"
        parts.add(path)
    return parts


def rules_files(manifest: Manifest) -> list[Path]:
    return [path for path in python_files(folder(manifest)) if path not in game_parts(manifest)]


def test_there_are_games_to_check() -> None:
    assert [m.name for m in GAMES] == ["expedition", "booty"]
    assert {folder(m).name for m in GAMES} == {p.parent.name for p in (SRC / "games").glob("*/manifest.py")}
    assert all(len(game_parts(m)) >= 3 and rules_files(m) for m in GAMES)


@pytest.mark.parametrize("manifest", GAMES, ids=lambda m: m.name)
def test_a_rules_package_imports_only_the_standard_library_and_the_games(manifest: Manifest) -> None:
    parts = {module_name(path) for path in game_parts(manifest)}
    for path in rules_files(manifest):
        for module in imports(path):
            top = module.split(".")[0]
            assert top in STDLIB or within(module, "gemtable.games.api", manifest.package), (
                f"{path.name} imports {module}"
            )
            assert not within(module, *parts), f"the rules ({path.name}) import {module}"


@pytest.mark.parametrize("manifest", GAMES, ids=lambda m: m.name)
def test_a_games_parts_use_no_server_store_bus_or_table(manifest: Manifest) -> None:
    for path in game_parts(manifest):
        for module in imports(path):
            assert not within(module, "gemtable.server", "gemtable.store", "gemtable.bus", "gemtable.table"), (
                f"{path.relative_to(SRC)} imports {module}"
            )


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
    parts = {part for manifest in GAMES for part in game_parts(manifest)}
    paths = [path for path in python_files(SRC / layer) if path not in parts]
    assert paths
    for path in paths:
        for module in imports(path):
            assert not within(module, *forbidden), f"{path.relative_to(SRC)} imports {module}"


def outside(manifest: Manifest) -> list[Path]:
    """The package's Python files outside the game's folder, and the tools beside the package."""
    own = folder(manifest)
    return [path for path in [*python_files(SRC), *python_files(TOOLS)] if own not in path.parents]


@pytest.mark.parametrize("manifest", GAMES, ids=lambda m: m.name)
def test_nothing_outside_a_games_folder_imports_it(manifest: Manifest) -> None:
    found = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in outside(manifest)
        for module in imports(path)
        if within(module, manifest.package)
    ]
    assert not found, "\n".join(found)


@functools.cache
def code_words(path: Path) -> list[tuple[int, str]]:
    return list(_code_words(path))


def _code_words(path: Path) -> Iterator[tuple[int, str]]:
    """The identifiers, imported modules and string literals of ``path`` (not its comments or docstrings, the
    attributes' ones included: a string standing alone as a statement is documentation)."""
    tree = ast.parse(path.read_text("utf-8"))
    docstrings = {
        id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
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


def own_words(manifest: Manifest) -> set[str]:
    """Words only this game uses: its moves and its bots' names (those of four letters or more; a word two
    games share, like ``random``, is nobody's)."""
    return _own_words(manifest.name)


@functools.cache
def _own_words(name: str) -> set[str]:
    manifest = find_manifest(name)

    def words(m: Manifest) -> set[str]:
        state = m.game.new(m.rules_json(None, {}), m.game.seats_per_game, 1)
        if state.needs_roster():
            state.start_round(range(m.game.max_seats))
        moves = {move for seat in state.to_act() for move in state.legal_moves(seat)}
        return {w.lower() for w in {*moves, *bot_names(m.name)} if w.isalpha() and len(w) >= 4}

    others = {word for m in manifests() if m.name != manifest.name for word in words(m)}
    return words(manifest) - others


def test_the_games_own_words_are_known() -> None:
    assert {"deeper", "camp", "cautious", "montecarlo"} <= own_words(GAMES[0])
    assert "greedy" in own_words(GAMES[1])


@pytest.mark.parametrize("manifest", GAMES, ids=lambda m: m.name)
def test_no_game_is_named_in_code_outside_its_own_folder(manifest: Manifest) -> None:
    """Not by its name, nor by the words only it uses (a move, a bot): the table, the server, the lab, the bench
    tools and the fuzzer play every game through its manifest."""
    words = own_words(manifest)
    found = []
    for path in outside(manifest):
        for line, word in code_words(path):
            if re.search(manifest.name, word, re.IGNORECASE) or word.lower() in words:
                found.append(f"{path.relative_to(ROOT)}:{line}: {word!r}")
    assert not found, "\n".join(found)


def test_the_registry_names_games_only_by_their_manifest_modules() -> None:
    """The registry finds the games' folders: it lists every folder with a manifest, and names none itself."""
    assert sorted(BUILTIN) == sorted(
        f"gemtable.games.{p.parent.name}.manifest" for p in SRC.glob("games/*/manifest.py")
    )
    assert all(module.endswith(".manifest") for module in BUILTIN)


# --- no cycles -------------------------------------------------------------------------------------------


def test_no_import_cycle_anywhere() -> None:
    """Among the package's modules (and the tools), at run time, imports inside functions included: one concept,
    one room, and nothing that works only because an import was put off."""
    files = {module_name(path): path for path in [*python_files(SRC), *python_files(TOOLS)]}
    graph = {name: {module for module in imports(path) if module in files} - {name} for name, path in files.items()}
    cycles: list[list[str]] = []
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    seen: set[str] = set()

    def visit(name: str) -> None:  # Tarjan's strongly connected components
        index[name] = low[name] = len(index)
        stack.append(name)
        seen.add(name)
        for other in graph[name]:
            if other not in index:
                visit(other)
                low[name] = min(low[name], low[other])
            elif other in seen:
                low[name] = min(low[name], index[other])
        if low[name] == index[name]:
            component = []
            while True:
                member = stack.pop()
                seen.discard(member)
                component.append(member)
                if member == name:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for name in graph:
        if name not in index:
            visit(name)
    assert len(graph) > 60
    assert not cycles, cycles


# --- the web part ----------------------------------------------------------------------------------------


WEB = SRC / "web"


def owned_web_files() -> set[Path]:
    """The web files a game's manifest names as its own (its page and rules modules, styles, texts, assets), in its
    folder's ``web/``."""
    owned: set[Path] = set()
    for manifest in GAMES:
        web = folder(manifest) / "web"
        named = [p for p in (manifest.page, manifest.rules_page, manifest.replay_page, *manifest.styles) if p]
        owned |= {web / path for path in named}
        owned |= {path for stem in manifest.translations for path in web.glob(f"{stem}.*.json")}
        owned |= {path for pattern in manifest.assets for path in web.glob(pattern)}
    return owned


def test_every_web_file_a_manifest_names_is_in_its_games_folder() -> None:
    owned = owned_web_files()
    assert len(owned) >= 10
    assert all(path.is_file() and "games" in path.relative_to(SRC).parts for path in owned)
    for manifest in GAMES:  # and every file of a game's web folder is one it names
        web = folder(manifest) / "web"
        assert {p for p in web.rglob("*") if p.is_file()} <= owned, manifest.name


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
    found = []
    for path in sorted(WEB.rglob("*")):
        if path.suffix not in (".js", ".html", ".json", ".css", ".webmanifest"):
            continue
        for number, line in enumerate(web_code(path).splitlines(), 1):
            found += [
                f"{path.relative_to(WEB)}:{number}: {line.strip()}"
                for manifest in GAMES
                if re.search(manifest.name, line, re.IGNORECASE)
            ]
    assert not found, "\n".join(found)


GAME_FAMILIES = ("bot.", "game.", "preset.")
"""Keys the shared pages build from what a game declares (its bots, its title, its presets): the game's texts."""


def scripts(group: str) -> str:
    paths = [*(WEB / "static" / "js").glob("*.js"), *WEB.glob("*.html")] if group == "shared" else []
    if group != "shared":
        paths = sorted((SRC / "games" / group / "web").rglob("*.js"))
    return "\n".join(path.read_text("utf-8") for path in sorted(paths))


def key_users(key: str, groups: dict[str, tuple[str, set[str]]]) -> set[str]:
    """Which scripts use a translation key: by name, or through a prefix they complete (``t(`hz.${kind}`)``)."""
    return {
        group
        for group, (text, prefixes) in groups.items()
        if any(f"{quote}{key}{quote}" in text for quote in "'\"`") or any(key.startswith(p) for p in prefixes)
    }


def script_group(group: str) -> tuple[str, set[str]]:
    """A group's scripts, and the key prefixes they complete at run time (the shared pages' game families
    left out: those keys are the games')."""
    text = scripts(group)
    prefixes = set(re.findall(r"\b(?:t|has)\(\s*'([a-z_][a-z0-9_.]*)'\s*\+", text))
    prefixes |= set(re.findall(r"\b(?:t|has)\(\s*`([a-z_][a-z0-9_.]*)\$\{", text))
    return text, prefixes - set(GAME_FAMILIES) if group == "shared" else prefixes


def test_the_shared_translations_hold_only_shared_words() -> None:
    """A shared text is one the shared pages use, or a word two games or more use; a word only one game uses is
    in that game's own texts (and no key is in both)."""
    groups = {group: script_group(group) for group in ["shared", *(folder(m).name for m in GAMES)]}
    for lang in ("en", "hu", "ja"):
        shared = json.loads((WEB / "static" / "i18n" / f"{lang}.json").read_text("utf-8"))
        found = []
        for key in shared:
            users = key_users(key, groups)
            if "shared" not in users and len(users) < 2:
                found.append(f"{lang}: {key} (used by {', '.join(sorted(users)) or 'nobody'})")
        for manifest in GAMES:
            for stem in manifest.translations:
                own = json.loads((folder(manifest) / "web" / f"{stem}.{lang}.json").read_text("utf-8"))
                found += [f"{lang}: {key} is both shared and {manifest.name}'s" for key in set(own) & set(shared)]
        assert not found, "\n".join(found)


def test_the_table_stays_readable() -> None:
    source = (SRC / "table" / "table.py").read_text(encoding="utf-8")
    assert len(source.splitlines()) < 600, "table.py: move what belongs elsewhere out of it"
    tree = ast.parse(source)
    table = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Table")
    init = next(n for n in table.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    targets = [t for n in ast.walk(init) if isinstance(n, ast.Assign) for t in n.targets]
    targets += [n.target for n in ast.walk(init) if isinstance(n, ast.AnnAssign)]
    attributes = {t.attr for t in targets if isinstance(t, ast.Attribute)}
    assert "moment" in attributes and len(attributes) <= 15, sorted(attributes)
