"""A real redis-server on a free loopback port, in a folder of its own (tests and cluster benchmarks).

Optionally with ACL users (``acl``: lines of ``redis.conf``, e.g. the ones ``docs/deploy.md`` recommends) and
over TLS (``tls``: a self-signed certificate for 127.0.0.1 made with ``openssl``, which clients trust through
``ssl_ca_certs`` in the URL).
"""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import time
from pathlib import Path
from urllib.parse import quote


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    """``redis-server`` with an append-only file fsynced on every write (see docs/deploy.md)."""

    def __init__(
        self,
        folder: Path,
        acl: list[str] | None = None,
        user: tuple[str, str] | None = None,
        tls: bool = False,
    ) -> None:
        if shutil.which("redis-server") is None:
            raise RuntimeError("redis-server is not installed: scripts/setup-system installs it")
        self.folder = folder
        self.port = free_port()
        self.acl = acl or []
        self.user = user  # the credentials ``url`` carries
        self.tls = tls
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def cert(self) -> Path:
        return self.folder / "cert.pem"

    @property
    def url(self) -> str:
        auth = "" if self.user is None else f"{quote(self.user[0], safe='')}:{quote(self.user[1], safe='')}@"
        if self.tls:
            return f"rediss://{auth}127.0.0.1:{self.port}/0?ssl_ca_certs={quote(str(self.cert))}"
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def _make_cert(self) -> None:
        if shutil.which("openssl") is None:
            raise RuntimeError("openssl is not installed: scripts/setup-system installs it")
        subprocess.run(
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                "-keyout", str(self.folder / "key.pem"), "-out", str(self.cert), "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                "-addext", "basicConstraints=critical,CA:TRUE",
            ],
            check=True,
            capture_output=True,
        )  # fmt: skip

    def start(self) -> RedisServer:
        self.folder.mkdir(parents=True, exist_ok=True)
        conf = self.folder / "redis.conf"
        conf.write_text("".join(f"{line}\n" for line in self.acl))
        if self.tls:
            self._make_cert()
            ports = ["--port", "0", "--tls-port", str(self.port), "--tls-cert-file", str(self.cert)]
            ports += ["--tls-key-file", str(self.folder / "key.pem"), "--tls-ca-cert-file", str(self.cert)]
            ports += ["--tls-auth-clients", "no"]
        else:
            ports = ["--port", str(self.port)]
        self.proc = subprocess.Popen(
            [
                "redis-server",
                str(conf),
                *ports,
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.folder),
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--save",
                "",
                "--protected-mode",
                "no",
            ],
            stdout=(self.folder / "redis.log").open("ab"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"redis-server exited: {(self.folder / 'redis.log').read_text()[-500:]}")
            try:
                if self._answers():
                    return self
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def _answers(self) -> bool:
        """PING answered, with PONG or with a demand for credentials (both mean: it is up)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as raw:
            s: socket.socket = raw
            if self.tls:
                s = ssl.create_default_context(cafile=str(self.cert)).wrap_socket(raw, server_hostname="127.0.0.1")
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith((b"+PONG", b"-NOAUTH"))

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
