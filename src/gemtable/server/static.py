"""The static files (scripts, styles, translations, icons), compressed and cheap to revalidate.

A phone on weak Wi-Fi should load the pages once.  Every file is sent with
``Cache-Control: no-cache`` and an ``ETag``: the browser keeps its copy and asks
again on each visit with ``If-None-Match``, and an unchanged file costs a
``304`` without a body.  (``no-cache`` rather than a long ``max-age`` because the
files have no versioned URLs: a new release must be seen at the next load, and
a revalidation is one small round trip on the LAN.)

Text files (JS, CSS, JSON, SVG) go out gzip-compressed to a browser that
accepts it; each file is compressed once and kept in memory while its size and
modification time stay the same (the whole folder is about 200 KB).  PNGs are
compressed already and go out as they are.

This is a subclass of Starlette's ``StaticFiles`` rather than ``GZipMiddleware``
around the whole app: it touches only ``/static`` responses, never the
WebSocket or the API, and it compresses a file once instead of on every request.
"""

from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.staticfiles import NotModifiedResponse, PathLike, StaticFiles
from starlette.types import Scope

CACHE_CONTROL = "no-cache"
COMPRESSIBLE = {".js", ".css", ".json", ".svg", ".webmanifest", ".html", ".txt"}
MIN_SIZE = 256
"""Smaller files are sent as they are: gzip's header would eat what it saves."""


class CompressedStatic(StaticFiles):
    """``StaticFiles`` with ``Cache-Control`` on every file and gzip for text files."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory)
        self._gz: dict[str, tuple[tuple[int, int], bytes, str]] = {}

    def file_response(
        self, full_path: PathLike, stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        request = Headers(scope=scope)
        path = str(full_path)
        wants_gzip = "gzip" in request.get("accept-encoding", "").lower()
        if (
            status_code != 200
            or not wants_gzip
            or Path(path).suffix not in COMPRESSIBLE
            or stat_result.st_size < MIN_SIZE
        ):
            response = super().file_response(full_path, stat_result, scope, status_code)
            response.headers["cache-control"] = CACHE_CONTROL
            if Path(path).suffix in COMPRESSIBLE:
                response.headers["vary"] = "Accept-Encoding"
            return response
        body, etag = self._compressed(path, stat_result)
        headers = {"etag": etag, "cache-control": CACHE_CONTROL, "vary": "Accept-Encoding"}
        if _matches(request.get("if-none-match", ""), etag):
            return NotModifiedResponse(Headers(headers))
        media = super().file_response(full_path, stat_result, scope).media_type
        return Response(body, media_type=media, headers={**headers, "content-encoding": "gzip"})

    def _compressed(self, path: str, stat_result: os.stat_result) -> tuple[bytes, str]:
        key = (stat_result.st_mtime_ns, stat_result.st_size)
        cached = self._gz.get(path)
        if cached is not None and cached[0] == key:
            return cached[1], cached[2]
        raw = Path(path).read_bytes()
        body = gzip.compress(raw, compresslevel=9, mtime=0)
        etag = f'"{hashlib.sha256(raw).hexdigest()[:20]}-gz"'
        self._gz[path] = (key, body, etag)
        return body, etag


def _matches(if_none_match: str, etag: str) -> bool:
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",") if tag.strip()]
    return "*" in tags or etag in tags


__all__ = ["CACHE_CONTROL", "CompressedStatic"]
