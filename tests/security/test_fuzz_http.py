"""The HTTP side, fuzzed with Hypothesis against a live server: no request ends in a server error, every
answer carries the security headers, every error is a clear JSON message, and the server stays healthy.

The pages themselves (no inline script, nothing built as HTML from strings, no CSP violation in a real
browser) are tested in tests/web (``test_assets.py``, ``test_pages.py``); here: the headers, on every
response the server can give — pages, files, the API, errors of every kind.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.security.conftest import clean_log
from tests.server.harness import ServerProcess
from tools.fuzz import Target, loopback

EXAMPLES = int(os.environ.get("GEMTABLE_FUZZ_HTTP", "400"))
HEADERS = {
    "content-security-policy",
    "x-content-type-options",
    "referrer-policy",
    "x-frame-options",
    "permissions-policy",
    "cross-origin-opener-policy",
}
STATUSES = {200, 201, 307, 400, 404, 405, 413, 415, 429}  # 415: a new table not sent as JSON


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("http") / "data", extra=["--allow-scripts"]).start()
    try:
        yield proc
    finally:
        proc.stop()


def check(status: int, body: bytes, headers: dict[str, str], what: str) -> None:
    assert status in STATUSES, (what, status, body[:300])
    missing = HEADERS - set(headers)
    assert not missing, (what, missing)
    csp = headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe" not in csp and "frame-ancestors 'none'" in csp
    assert headers["x-content-type-options"] == "nosniff"
    if status >= 400 and body and headers.get("content-type", "").startswith("application/json"):
        error = json.loads(body)
        assert isinstance(error.get("error"), str) and isinstance(error.get("message"), str) and error["message"]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=20),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=15,
)
OPTION_NAMES = ["relics", "path_split", "collapse_removes", "gem_display", "show_odds", "caves", "seed", "deck"]
CARDS = ["1", "5", "17", "spiders", "snakes", "mummies", "fire", "rockfall", "relic", "relic-taken", "18", "", "0"]
settings_bodies = (
    st.fixed_dictionaries(
        {},
        optional={
            "game": st.sampled_from(["expedition", "booty", "chess", "", "EXPEDITION"]) | json_values,
            "preset": st.sampled_from(["table", "classic", "", "nope"]) | json_values,
            "options": st.dictionaries(
                st.sampled_from(OPTION_NAMES) | st.text(max_size=8),
                st.sampled_from(
                    [True, False, 0, 1, 2, 3, 20, 21, -1, "pooled", "per_card", "gems", "rubies", None, 1.5, 1e309]
                )
                | json_values,
                max_size=6,
            )
            | json_values,
            "seconds": st.floats(-10, 200) | st.integers(-10, 200) | json_values,
            "pause": st.floats(-10, 100) | json_values,
            "turn_clock": json_values,
            "script": st.lists(st.lists(st.sampled_from(CARDS) | st.text(max_size=6), max_size=12), max_size=8)
            | json_values,
        },
    )
    | json_values
)
raw_bodies = st.one_of(
    st.binary(max_size=200),
    st.sampled_from(
        [
            b"",
            b"{",
            b"[" * 30_000,
            b"[" * 100_000,
            b'{"a":' * 10_000,
            b"\xff\xfe{}",
            b"\xef\xbb\xbf{}",
            b"NaN",
            b'{"seconds": Infinity}',
            b'{"game": "expedition", "game": "booty"}',
            b"\x00" * 64,
            json.dumps({"padding": "x" * 70_000}).encode(),
        ]
    ),
)
segments = st.text(max_size=12) | st.sampled_from(
    ["ACDE", "..", "%2e%2e", "%00", "x" * 300, "9" * 30, "-1", "\u0661", "0x10", "1e3", "%C3%A4%C3%A4%C3%A4%C3%A4"]
)
paths = st.one_of(
    st.builds(lambda c: f"/api/tables/{c}", segments),
    st.builds(lambda c: f"/api/tables/{c}/qr.svg", segments),
    st.builds(lambda c, n: f"/api/tables/{c}/games/{n}", segments, segments | st.integers().map(str)),
    st.builds(lambda c: f"/t/{c}", segments),
    st.builds(lambda c: f"/t/{c}/tv", segments),
    st.builds(lambda c, n: f"/t/{c}/results/{n}", segments, segments),
    st.builds(lambda g: f"/rules/{g}", segments),
    st.builds(
        lambda f: f"/static/{f}",
        segments
        | st.sampled_from(["../server/app.py", "js/../../web/index.html", "%2e%2e/%2e%2e/cli.py", "js/dom.js"]),
    ),
    st.sampled_from(
        [
            "/",
            "/api/games",
            "/api/schema",
            "/healthz",
            "/api/node",
            "/manifest.webmanifest",
            "/ws",
            "/api/tables",
            "/api/tables/",
            "//api/games",
            "/api/games?x=" + "y" * 2000,
        ]
    ),
)


def quote(path: str) -> str:
    from urllib.parse import quote as q

    return q(path, safe="/%?=&")


def test_http_fuzz_never_errs_and_always_sends_the_headers(live: ServerProcess) -> None:
    target = Target("127.0.0.1", live.port)
    counter = iter(range(10**6))
    created: list[str] = []

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def one_request(data: Any) -> None:
        source = loopback(120, next(counter) // 8)  # a new address every 8 requests: limits hit, and passed
        kind = data.draw(st.integers(0, 9))
        if kind < 4:
            body = json.dumps(data.draw(settings_bodies)).encode()
            status, answer, headers = target.request("POST", "/api/tables", body, source=source)
            if status == 201:
                created.append(json.loads(answer)["code"])
        elif kind < 5:
            body = data.draw(raw_bodies)
            content_type = data.draw(
                st.sampled_from(["application/json", "text/plain", "", "application/json; charset=utf-16"])
            )
            status, answer, headers = target.request(
                "POST",
                "/api/tables",
                body,
                source=source,
                headers={"Content-Type": content_type} if content_type else {},
            )
        else:
            method = data.draw(st.sampled_from(["GET", "GET", "GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"]))
            path = quote(data.draw(paths))
            status, answer, headers = target.request(
                method, path, b"" if method in ("POST", "PUT") else None, source=source
            )
        check(status, answer, headers, f"request {kind}")

    one_request()
    assert target.healthy()
    for code in created[:20]:  # every table the fuzz managed to create is a sound table
        status, summary = target.json(f"/api/tables/{code}", source="127.121.0.1")
        assert status == 200 and summary["code"] == code
    clean_log(live)


def test_nested_json_huge_numbers_and_odd_game_numbers_get_clear_answers(live: ServerProcess) -> None:
    """Each of these used to end in a 500 and a traceback (deep nesting overflowed the JSON parser's stack;
    a game number beyond 64 bits overflowed SQLite; an unbounded body was read whole)."""
    target = Target("127.0.0.1", live.port)
    for body in (b"[" * 30_000 + b"]" * 30_000, b'{"a":' * 10_000 + b"1" + b"}" * 10_000, b"[" * 60_000):
        status, answer, _ = target.request("POST", "/api/tables", body, source="127.122.0.1")
        assert status == 400 and json.loads(answer)["error"] == "bad-request"
    for number in ("99999999999999999999", "-99999999999999999999", "9223372036854775808", "0", "-1"):
        for tail in ("", "/replay.json"):
            status, answer, _ = target.request("GET", f"/api/tables/ACDE/games/{number}{tail}", source="127.122.0.2")
            assert status == 404 and json.loads(answer)["error"] == "no-record", number
    status, answer, _headers = target.request("GET", "/api/tables/ACDE/games/" + "9" * 5000, source="127.122.0.3")
    assert status == 400
    clean_log(live)


def test_every_kind_of_response_carries_the_security_headers(live: ServerProcess) -> None:
    target = Target("127.0.0.1", live.port)
    code = target.create_table("127.123.0.1")
    static = sorted(p.relative_to(WEB / "static").as_posix() for p in (WEB / "static").rglob("*") if p.is_file())
    requests: list[tuple[str, str, bytes | None]] = (
        [
            ("GET", path, None)
            for path in (
                "/",
                f"/t/{code}",
                f"/t/{code}/tv",
                f"/t/{code}/results/1",
                f"/t/{code}/games/1/replay",
                "/rules/expedition",
                "/manifest.webmanifest",
                "/api/games",
                "/api/schema",
                "/healthz",
                f"/api/tables/{code}",
                f"/api/tables/{code}/qr.svg",
                f"/api/tables/{code}/games/1",
                f"/api/tables/{code}/games/1/replay.json",
                "/api/tables/QQQQ",
                "/nowhere",
            )
        ]
        + [("GET", f"/static/{name}", None) for name in static[:12]]
        + [
            ("DELETE", "/api/games", None),
            ("POST", "/api/tables", b"nope"),
            ("POST", "/api/tables", b"{" * 70_000),
            ("HEAD", "/", None),
        ]
    )
    seen = set()
    for method, path, body in requests:
        status, answer, headers = target.request(method, path, body, source="127.123.0.2")
        check(status, answer, headers, f"{method} {path}")
        seen.add(status)
    assert {200, 400, 404, 405, 413} <= seen
    for _ in range(14):  # and a refusal for going too fast (12 unknown codes, then 6 a minute)
        status, answer, headers = target.request("GET", "/api/tables/QQQQ", source="127.123.0.3")
    assert status == 429
    check(status, answer, headers, "429")


WEB = Path(__file__).resolve().parents[2] / "src" / "gemtable" / "web"
