"""gemtable installed like a Python application: the wheel and the sdist built (``python -m build``), the
wheel installed into a new virtual environment in a temporary folder, away from the checkout, and its
``gemtable`` serving every page, asset and translation to a real browser, playing both games, running the
lab and replaying a record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import venv
import zipfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from gemtable.bench.launch import Launcher
from tests.web.conftest import ROOM_HOST, Browser

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]


def run(*argv: str | Path, cwd: Path, env: dict[str, str] | None = None, timeout: float = 600) -> str:
    done = subprocess.run(
        [str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env or clean_env()
    )
    assert done.returncode == 0, f"{argv}: {done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def clean_env() -> dict[str, str]:
    """The environment of someone who never cloned gemtable: no PYTHONPATH, no active virtual environment."""
    drop = {"PYTHONPATH", "VIRTUAL_ENV", "GEMTABLE_GAMES", "PYTHONHOME"}
    return {key: value for key, value in os.environ.items() if key not in drop}


def packaging_env() -> dict[str, str]:
    """The same, for the packaging tools (build, pip) run from the checkout's environment: not measured by the
    gate's coverage.py, which would trace the tools' own code for nothing (none of gemtable's runs in them) at
    about twice its processor time (docs/testing.md)."""
    drop = {"COVERAGE_PROCESS_START", "COVERAGE_PROCESS_CONFIG"}
    return {key: value for key, value in clean_env().items() if key not in drop}


def checkout_copy(target: Path) -> Path:
    """The files of the checkout that git knows (tracked, or new and not ignored): what a release is built from."""
    listed = run("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            (target / name).write_bytes(source.read_bytes())
    return target


class Installed(Launcher):
    """``gemtable serve`` from the installed application, run from an empty folder."""

    def __init__(self, data: Path, gemtable: Path) -> None:
        super().__init__(data, ["--public-url", "http://gemtable.test:{port}"], env=clean_env())
        self.gemtable = gemtable

    def command(self) -> list[str]:
        argv = super().command()
        argv = [str(self.gemtable), *argv[3:]]  # instead of "python -m gemtable"
        return [a.replace("{port}", str(self.port)) for a in argv]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Installed]]:
    work = tmp_path_factory.mktemp("wheel")
    source = checkout_copy(work / "source")
    dist = work / "dist"
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, source, cwd=work, env=packaging_env())
    wheels, sdists = list(dist.glob("gemtable-*.whl")), list(dist.glob("gemtable-*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, list(dist.iterdir())
    with zipfile.ZipFile(wheels[0]) as wheel:
        names = wheel.namelist()
    with tarfile.open(sdists[0]) as sdist:
        in_sdist = sdist.getnames()
    assert not any(n.startswith(("tests/", "tools/")) for n in names)  # the test tools are not installed
    assert any(n.endswith("gemtable/web/phone.html") for n in names) and any(n.endswith("/README.md") for n in in_sdist)
    env_dir = work / "app"
    # A new environment without a pip of its own (ensurepip installing one cost 4 s of processor time for
    # nothing the test looks at), the wheel installed into it by pip run for its interpreter (``--python``).
    venv.EnvBuilder(with_pip=False, clear=True).create(env_dir)
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    pip = (sys.executable, "-m", "pip", "--python", bindir / "python", "--disable-pip-version-check")
    run(*pip, "install", "--quiet", wheels[0], cwd=work, env=packaging_env())
    where = run(bindir / "python", "-c", "import gemtable; print(gemtable.__file__)", cwd=work).strip()
    assert Path(where).is_relative_to(env_dir), where  # the installed copy, not the checkout
    empty = work / "elsewhere"
    empty.mkdir()
    server = Installed(work / "data", bindir / "gemtable")
    server.start()
    try:
        yield bindir, server
    finally:
        server.stop()


def test_the_installed_server_serves_every_page_asset_and_translation(
    installed: tuple[Path, Installed], chromium: Any
) -> None:
    _, server = installed
    browser = Browser(chromium, base=f"http://{ROOM_HOST}:{server.port}")
    failures: list[str] = []
    loaded: set[str] = set()

    def watch(page: Any) -> Any:
        page.on("response", lambda r: loaded.add(r.url) if r.status < 400 else failures.append(f"{r.status} {r.url}"))
        page.on("requestfailed", lambda r: failures.append(f"failed {r.url}"))
        return page

    try:
        for locale in ("en-GB", "hu-HU", "ja-JP"):  # each language's texts
            start = watch(browser.phone(f"start-{locale}", locale=locale))
            start.goto("/")
            expect(start.locator("#game option")).to_have_count(2)
            start.wait_for_load_state("networkidle")
        for game in ("expedition", "booty"):
            status, body = _post(server, {"game": game})
            assert status == 201, body
            code = body["code"]
            phone = watch(browser.phone(f"{game}-phone"))
            phone.goto(f"/t/{code}")
            phone.get_by_label("Your name").fill("Ann")
            phone.get_by_role("button", name="Join").tap()
            expect(phone.get_by_text(code).first).to_be_visible()
            phone.wait_for_load_state("networkidle")
            tv = watch(browser.tv(f"{game}-tv"))
            tv.goto(f"/t/{code}/tv")
            tv.wait_for_load_state("networkidle")
            rules = watch(browser.phone(f"{game}-rules"))
            rules.goto(f"/rules/{game}")
            rules.wait_for_load_state("networkidle")
        assert not failures, failures
        assert not browser.problems(), browser.problems()
        kinds = {url.rsplit(".", 1)[-1] for url in loaded if "/static/" in url}
        assert {"js", "css", "json", "svg"} <= kinds, sorted(loaded)
        for lang in ("en", "hu", "ja"):
            assert any("/i18n/" in url and url.endswith(f"{lang}.json") for url in loaded), sorted(loaded)
            for game in ("expedition", "booty"):  # each game's own texts, from its own folder in the wheel
                assert any(url.endswith(f"/games/{game}/texts.{lang}.json") for url in loaded), (game, lang)
        for game in ("expedition", "booty"):
            assert any(url.endswith(f"/games/{game}/page.js") for url in loaded), game
    finally:
        browser.close_all()


def _post(server: Installed, body: dict[str, Any]) -> tuple[int, Any]:
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        server.base + "/api/tables", json.dumps(body).encode(), {"content-type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_the_installed_lab_plays_both_games_and_replays_a_record(installed: tuple[Path, Installed]) -> None:
    bindir, server = installed
    folder = server.data.parent / "elsewhere"
    out = json.loads(
        run(bindir / "gemtable", "simulate", "--games", "12", "--bots", "cautious,odds", "--json", cwd=folder)
    )
    assert out["game"] == "expedition" and out["games"] == 12
    booty = json.loads(run(bindir / "gemtable", "simulate", "booty", "--games", "4", "--json", cwd=folder))
    assert booty["games"] == 4
    report = folder / "report.html"
    run(bindir / "gemtable", "simulate", "--sweep", "threshold=4..5", "--games", "10", "--report", report, cwd=folder)
    assert report.read_text("utf-8").lstrip().lower().startswith("<!doctype html")
    status, record = _record_of_a_bot_game(server)
    assert status == 200
    (folder / "record.json").write_text(json.dumps(record), "utf-8")
    assert "matches the recorded result" in run(bindir / "gemtable", "replay", folder / "record.json", cwd=folder)


def _record_of_a_bot_game(server: Installed) -> tuple[int, Any]:
    """A whole game at a live table of the installed server: two bots and one person who always camps."""
    import asyncio

    from gemtable.client import Client

    status, body = _post(
        server,
        {
            "game": "expedition",
            "seconds": 10,
            "pause": 0.5,
            "countdown": 0,
            "beat": 0,
            "last_call": 0,
            "ready_check": False,
        },
    )
    assert status == 201, body
    code = body["code"]

    async def play() -> None:
        ann = await Client.open(f"ws://127.0.0.1:{server.port}/ws")
        await ann.join(code, "Ann")
        await ann.add_bot("cautious")
        await ann.add_bot("odds")
        await ann.until(lambda s: sum(1 for p in s["people"] if p.get("chair") is not None) == 3)
        await ann.start()
        answered: set[tuple[int, int]] = set()
        while True:
            state = await ann.until(
                lambda s: (
                    s["phase"] == "results"
                    or (s["phase"] == "playing" and bool(s["me"]["moves"]) and _key(s) not in answered)
                ),
                timeout=120,
            )
            if state["phase"] == "results":
                break
            answered.add(_key(state))
            await ann.choose("camp")
        await ann.close()

    with ThreadPoolExecutor(1) as thread:  # its own event loop: Playwright's runs in this thread
        thread.submit(asyncio.run, asyncio.wait_for(play(), 300)).result()
    import urllib.request

    with urllib.request.urlopen(f"{server.base}/api/tables/{code}/games/1", timeout=10) as answer:
        return answer.status, json.loads(answer.read())


def _key(state: dict[str, Any]) -> tuple[int, int]:
    return state["state"]["cave"], len(state["state"]["path"])
