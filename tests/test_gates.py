"""The gates are scripts, declared once: the static gate is ``scripts/check``, which ``scripts/test`` (the CI's
command) and the pre-commit hook both run; coverage follows the processes the tests start."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_static_gate_is_one_script_that_the_tests_and_pre_commit_run() -> None:
    check = (ROOT / "scripts" / "check").read_text("utf-8")
    for command in ("ruff format --check src tests tools", "ruff check src tests tools", '"$venv"/bin/mypy'):
        assert command in check, command
    gate = (ROOT / "scripts" / "test").read_text("utf-8")
    assert '\nscripts/check >"$static" 2>&1 &\n' in gate and 'wait "$checking"' in gate  # beside the tests
    assert '[ "$checked" -ne 0 ]' in gate  # and its failure fails the gate
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


def test_coverage_is_in_the_gate_with_branches_and_a_floor() -> None:
    coverage = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["coverage"]
    assert "subprocess" in coverage["run"]["patch"] and coverage["run"]["sigterm"] is True
    assert coverage["run"]["parallel"] is True and coverage["run"]["branch"] is True
    assert coverage["report"]["fail_under"] >= 92.5
    gate = (ROOT / "scripts" / "test").read_text("utf-8")
    assert "coverage run -m pytest" in gate and "coverage report --format=total" in gate
    assert "exec scripts/test" in (ROOT / ".ci" / "run").read_text("utf-8")


def test_the_tests_install_the_versions_the_gate_passed_with() -> None:
    """constraints.txt pins every package; the libraries the server reaches into are held to their series."""
    setup = (ROOT / "scripts" / "setup-python").read_text("utf-8")
    assert "-c constraints.txt" in setup
    pins = {
        line.split("==")[0].lower(): line.split("==")[1]
        for line in (ROOT / "constraints.txt").read_text("utf-8").splitlines()
        if "==" in line and not line.startswith("#")
    }
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    for requirement in project["dependencies"] + project["optional-dependencies"]["test"]:
        name = requirement.split(">")[0].split("=")[0].split("<")[0].split("~")[0].strip().lower()
        assert name.replace("_", "-") in {k.replace("_", "-") for k in pins}, f"{name} is not in constraints.txt"
    for bounded in ("uvicorn", "websockets", "h11"):
        (spec,) = [r for r in project["dependencies"] if r.startswith(bounded)]
        assert "<" in spec or "~=" in spec, f"{bounded} has no upper bound: {spec}"


def test_no_wait_for_function_evaluates_a_bare_expression() -> None:
    """Playwright's ``wait_for_function`` with a bare expression ``eval``s it at every poll, which the pages' CSP
    refuses once the first synchronous check is over (it failed only when the page was slow to get there):
    the tests give it an arrow function, evaluated once."""
    import re

    calls = re.compile(r"wait_for_function\(\s*(\"\"\"|\")(?!\"|\(\) =>|\(\)=>)")
    found = [
        f"{path.relative_to(ROOT)}:{text[: m.start()].count(chr(10)) + 1}"
        for path in (ROOT / "tests").rglob("*.py")
        for text in [path.read_text("utf-8")]
        for m in calls.finditer(text)
    ]
    assert not found, found
