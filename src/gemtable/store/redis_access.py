"""Who can reach a cluster's Redis: the node's own credentials checked at start, and a warning when Redis
answers anyone at all (issue 21, §7).

Redis is the cluster's bus and its log: whoever can talk to it can start a game with a seed of their
choosing, remove a player, or read choices and seeds as they pass (docs/security.md). So a node connects with
a password or an ACL user (``redis://USER:PASSWORD@host/0``), over TLS where the network is not trusted
(``rediss://…?ssl_ca_certs=/path/ca.pem``), and says so loudly at start when Redis accepts a client that
gives no credentials.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

import redis
from redis.exceptions import AuthenticationError, AuthorizationError, NoPermissionError, RedisError, ResponseError


class RedisAccessError(Exception):
    """The node's own credentials were refused: it cannot run."""


def redacted(url: str) -> str:
    """The URL as it may be printed or logged: the password replaced by ``***``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{user}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def anonymous(url: str) -> str:
    """The same server, database and TLS settings, without a user or password."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = host + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def _answers(url: str, timeout: float) -> bool:
    client = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
    try:
        return bool(client.ping())
    finally:
        client.close()


def check(url: str, timeout: float = 5.0) -> list[str]:
    """Warnings about the Redis at ``url`` (empty when all is well); :class:`RedisAccessError` when it refuses
    the node's own credentials.  A Redis that cannot be reached yet is a warning: the node keeps trying."""
    shown = redacted(url)
    try:
        _answers(url, timeout)
    except (AuthenticationError, AuthorizationError, NoPermissionError) as exc:
        raise RedisAccessError(f"Redis at {shown} refused this node's credentials: {exc}") from None
    except ResponseError as exc:
        if "NOAUTH" in str(exc) or "WRONGPASS" in str(exc):
            raise RedisAccessError(f"Redis at {shown} wants a password (redis://USER:PASSWORD@…): {exc}") from None
        raise RedisAccessError(f"Redis at {shown} refused this node: {exc}") from None
    except (RedisError, OSError) as exc:
        return [f"cannot reach Redis at {shown} yet ({exc}); the node keeps trying"]
    warnings = []
    try:
        open_to_anyone = _answers(anonymous(url), timeout)
    except (RedisError, OSError):
        open_to_anyone = False
    if open_to_anyone:
        warnings.append(
            f"Redis at {anonymous(url)} accepts connections without a password: anyone who can reach it can "
            "start games with a seed of their choosing, remove players and read choices before the reveal. "
            "Give it an ACL user (docs/deploy.md, 'Who may talk to Redis') and use "
            "redis://USER:PASSWORD@HOST:PORT/0"
        )
    return warnings
