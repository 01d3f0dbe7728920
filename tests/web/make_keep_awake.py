"""Make the two tiny videos that keep a phone's screen awake over plain HTTP (no Wake Lock there).

    .venv/bin/python -m tests.web.make_keep_awake

Two seconds of a black 16×16 picture with a silent sound track, as MP4 (H.264 + AAC: Safari on iPhones)
and WebM (VP8 + Opus: the rest), a couple of kilobytes each, committed under static/media/.  The page
plays one inline, the technique of the NoSleep library (table.js says how each engine wants it).  The
sound track is needed: WebKit keeps the screen on only for a video that can be heard.  Needs Debian's
``ffmpeg`` (only to remake them; the tests and the server use the committed files).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

MEDIA = Path(__file__).resolve().parents[2] / "src" / "gemtable" / "web" / "static" / "media"
PICTURE = ["-f", "lavfi", "-i", "color=c=black:s=16x16:r=1:d=2"]
SILENCE = ["-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono"]
SAME = ["-t", "2", "-map_metadata", "-1", "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact"]
CODECS = {
    "keep-awake.mp4": [
        "-c:v",
        "libx264",
        "-profile:v",
        "baseline",
        "-level",
        "3.0",
        "-pix_fmt",
        "yuv420p",
        "-tune",
        "stillimage",
        "-crf",
        "51",
        "-c:a",
        "aac",
        "-b:a",
        "8k",
        "-ac",
        "1",
        "-movflags",
        "+faststart",
    ],
    "keep-awake.webm": ["-c:v", "libvpx", "-b:v", "10k", "-c:a", "libopus", "-b:a", "6k"],
}


def main() -> None:
    ffmpeg = shutil.which("ffmpeg")
    if not ffmpeg:
        raise SystemExit("needs ffmpeg: apt-get install ffmpeg")
    MEDIA.mkdir(parents=True, exist_ok=True)
    for name, codecs in CODECS.items():
        out = MEDIA / name
        subprocess.run(
            [ffmpeg, "-hide_banner", "-loglevel", "error", "-y", *PICTURE, *SILENCE, *codecs, *SAME, str(out)],
            check=True,
        )
        print(f"{out.stat().st_size:6d} bytes  {out}")


if __name__ == "__main__":
    main()
