"""``--report``: a self-contained page with SVG charts, opened in Debian's Chromium."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tournament of a user bot file, two built-in bots and a threshold sweep, with its report."""
    path = tmp_path_factory.mktemp("report") / "tournament.html"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "gemtable",
            "simulate",
            "--bot",
            str(ROOT / "examples" / "bots" / "greedy_relics.py"),
            "--bots",
            "cautious,odds",
            "--sweep",
            "threshold=4..12",
            "--games",
            "900",
            "--seed",
            "2",
            "--report",
            str(path),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert f"Report: {path}" in result.stdout
    return path


def test_the_report_is_one_self_contained_file(report: Path) -> None:
    page = report.read_text("utf-8")
    assert page.startswith("<!doctype html>") and "<script" not in page and "<link" not in page
    assert " src=" not in page and "url(" not in page and "@import" not in page
    assert set(re.findall(r"https?://[^\"' ]+", page)) == {"http://www.w3.org/2000/svg"}  # the SVG namespace only
    for chart in ("win-rate", "mean-score", "sweep", "distributions"):
        assert f'<svg id="{chart}"' in page
    assert "greedy_relics" in page and "threshold=12" in page and 'class="matrix"' in page


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield browser
        browser.close()


@pytest.mark.browser
def test_the_report_opens_in_chromium_with_its_charts(report: Path, chromium: Any) -> None:
    context = chromium.new_context(viewport={"width": 900, "height": 1000}, device_scale_factor=1)
    page = context.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("request", lambda request: requests.append(request.url))
    page.goto(report.as_uri())
    assert page.title().startswith("The expedition")
    assert page.locator("svg.chart").count() == 4
    win_rate = page.locator("#win-rate")
    assert win_rate.bounding_box()["width"] > 600  # drawn, not collapsed
    assert win_rate.locator("circle").count() == 12  # one point per bot: 3 + the sweep's 9
    assert page.locator("#sweep circle.point").count() == 9
    assert page.locator("#distributions rect.hist").count() > 12
    assert page.locator("table.matrix tr").count() == 13
    assert "greedy_relics" in page.locator("table.figures").inner_text()
    assert page.locator("#verdict").inner_text().strip() != ""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "lab-report.png"), full_page=True)
    page.screenshot(path=str(SHOTS / "lab-report-top.png"))  # the first screen, at full size
    page.locator("#sweep").screenshot(path=str(SHOTS / "lab-report-sweep.png"))
    assert errors == []
    assert all(url.startswith("file://") for url in requests), requests  # nothing fetched from anywhere
    context.close()
