"""The gates are scripts, declared once: the static gate is ``scripts/check``, which ``scripts/test`` (the CI's
command) and the pre-commit hook both run; coverage follows the processes the tests start."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_static_gate_is_one_script_that_the_tests_and_pre_commit_run() -> None:
    check = (ROOT / "scripts" / "check").read_text("utf-8")
    for command in ("ruff format --check src tests tools", "ruff check src tests tools", ".venv/bin/mypy"):
        assert command in check, command
    assert "\nscripts/check\n" in (ROOT / "scripts" / "test").read_text("utf-8")
    config = (ROOT / ".pre-commit-config.yaml").read_text("utf-8")
    assert "repo: local" in config and "entry: scripts/check" in config and "language: system" in config
    assert "rev:" not in config, "no hook repository to fetch"
    done = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "pre-commit"), "validate-config", ".pre-commit-config.yaml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_is_strict_over_the_package_its_tests_and_the_tools() -> None:
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["mypy"]
    assert mypy["strict"] is True and set(mypy["files"]) == {"src/gemtable", "tests", "tools"}


def test_coverage_follows_the_processes_the_tests_start_and_has_a_floor() -> None:
    coverage = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["coverage"]
    assert "subprocess" in coverage["run"]["patch"] and coverage["run"]["sigterm"] is True
    assert coverage["run"]["parallel"] is True and coverage["report"]["fail_under"] >= 80
    assert "coverage run -m pytest" in (ROOT / "scripts" / "coverage").read_text("utf-8")
