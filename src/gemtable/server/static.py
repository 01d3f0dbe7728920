"""The static files (scripts, styles, translations, icons), compressed and cheap to revalidate.

A phone on weak Wi-Fi should load the pages once.  Every file is sent with
``Cache-Control: no-cache`` and an ``ETag``: the browser keeps its copy and asks
again on each visit with ``If-None-Match``, and an unchanged file costs a
``304`` without a body.  (``no-cache`` rather than a long ``max-age`` because the
files have no versioned URLs: a new release must be seen at the next load, and
a revalidation is one small round trip on the LAN.)

Every file is read once and kept in memory while its size and modification time stay the same (the whole
folder is about 350 KB), and text files (JS, CSS, JSON, SVG) are gzip-compressed once, for a browser that
accepts it; PNGs are compressed already and go out as they are.  From memory, a response holds no open file
while a slow reader takes it (a client that asks for a script again and again and reads nothing held a
descriptor per request; docs/security.md, "Answers nobody reads").  A request for a byte range (a video, as
Safari asks for it) goes Starlette's way, from the file.

This is a subclass of Starlette's ``StaticFiles`` rather than ``GZipMiddleware``
around the whole app: it touches only ``/static`` responses, never the
WebSocket or the API, and it compresses a file once instead of on every request.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
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
    """``StaticFiles`` from memory, with ``Cache-Control`` and an ``ETag`` on every file and gzip for text files."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory)
        self._files: dict[str, tuple[tuple[int, int], tuple[bytes, str, bytes | None, str]]] = {}

    def file_response(
        self, full_path: PathLike, stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        request = Headers(scope=scope)
        path = str(full_path)
        suffix = Path(path).suffix
        if "range" in request:
            response = super().file_response(full_path, stat_result, scope, status_code)
            response.headers["cache-control"] = CACHE_CONTROL
            return response
        raw, etag, packed, packed_etag = self._kept(path, stat_result)
        gz = packed is not None and "gzip" in request.get("accept-encoding", "").lower()
        body, tag = (packed, packed_etag) if gz and packed is not None else (raw, etag)
        headers = {"etag": tag, "cache-control": CACHE_CONTROL}
        if suffix in COMPRESSIBLE:
            headers["vary"] = "Accept-Encoding"
        if status_code == 200 and _matches(request.get("if-none-match", ""), tag):
            return NotModifiedResponse(Headers(headers))
        if gz:
            headers["content-encoding"] = "gzip"
        media = mimetypes.guess_type(path)[0] or "text/plain"
        return Response(body, status_code=status_code, media_type=media, headers=headers)

    def _kept(self, path: str, stat_result: os.stat_result) -> tuple[bytes, str, bytes | None, str]:
        """The file's bytes and ETag, and for a text file its gzip-compressed bytes and theirs: read once."""
        key = (stat_result.st_mtime_ns, stat_result.st_size)
        kept = self._files.get(path)
        if kept is not None and kept[0] == key:
            return kept[1]
        raw = Path(path).read_bytes()
        digest = hashlib.sha256(raw).hexdigest()[:20]
        packed = None
        if Path(path).suffix in COMPRESSIBLE and len(raw) >= MIN_SIZE:
            packed = gzip.compress(raw, compresslevel=9, mtime=0)
        entry = (raw, f'"{digest}"', packed, f'"{digest}-gz"')
        self._files[path] = (key, entry)
        return entry


def _matches(if_none_match: str, etag: str) -> bool:
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",") if tag.strip()]
    return "*" in tags or etag in tags


__all__ = ["CACHE_CONTROL", "CompressedStatic"]
