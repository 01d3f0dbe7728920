"""Where phones find this server: the URL printed, put in every link and every QR code, and the host
names a request may use.

A phone on the party's Wi-Fi cannot open ``localhost`` nor whatever name the host's own browser used, so
the server decides one **public URL** and never builds a link from a request (its ``Host`` header or the
browser's location).  By default it is ``http://ADDRESS:PORT`` for this machine's best LAN address, read
from its network interfaces and its default route — not from resolving the hostname, which on Debian and
Ubuntu gives ``127.0.1.1``.  ``--public-url`` (or ``GEMTABLE_PUBLIC_URL``) sets it instead: behind a TLS
proxy, a DNS name, a cluster.

A request must name this server in its ``Host`` header: the public URL's host, an address of this
machine, a loopback name, this machine's hostname, or a name the host allowed (``--allow-host``).  Any
other is refused (400) before it reaches the app, so a DNS-rebinding page cannot talk to the server and a
forged Host is never reflected anywhere.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")

VIRTUAL_PREFIXES = (
    "docker",
    "br-",
    "veth",
    "virbr",
    "vboxnet",
    "vmnet",
    "lxc",
    "lxdbr",
    "cni",
    "flannel",
    "kube",
    "podman",
    "tun",
    "tap",
    "wg",
    "tailscale",
    "zt",
    "utun",
    "ppp",
    "ipsec",
    "awdl",
    "llw",
    "bridge",
    "vmenet",
    "vnic",
    "feth",
    "anpi",
    "gif",
    "stf",
)
"""Interfaces of containers, virtual machines and VPNs: phones in the room are not on those networks
(by how Linux and macOS name them: ``docker0``, ``utun3``, ``bridge100``…)."""

VIRTUAL_WORDS = (
    "virtual",
    "vethernet",
    "hyper-v",
    "vmware",
    "vpn",
    "tailscale",
    "zerotier",
    "wireguard",
    "openvpn",
    "wintun",
    "tap-windows",
    "npcap",
    "loopback",
    "bluetooth",
    "teredo",
    "isatap",
    "wsl",
)
"""The same by words in Windows' names of them (``vEthernet (WSL)``, ``VirtualBox Host-Only Network``,
``VMware Network Adapter VMnet8``, ``Tailscale``, ``OpenVPN Wintun``…)."""


class SiteError(ValueError):
    """A public URL or host name that cannot be used."""


@dataclass(frozen=True)
class Interface:
    """One address of one network interface of this machine."""

    name: str
    address: str
    up: bool = True
    default_route: bool = False
    """Whether this interface carries the default route (the one the laptop's Wi-Fi usually is)."""


@dataclass(frozen=True)
class DefaultRoute:
    """Where the IPv4 default route leaves this machine: by its interface's name (Linux, macOS), or by the
    interface's address (Windows' route table names interfaces by their address)."""

    interface: str | None = None
    address: str | None = None


def interfaces_from(
    addresses: Mapping[str, Iterable[tuple[int, str]]], up: Mapping[str, bool], route: DefaultRoute | None
) -> list[Interface]:
    """Interfaces from a table of ``name → [(family, address)]`` (psutil's ``net_if_addrs``, or a recorded
    one), which of them are up, and the default route."""
    found: list[Interface] = []
    for name, entries in addresses.items():
        pairs = [(family, address.split("%")[0]) for family, address in entries]
        ips = [a for f, a in pairs if f in (socket.AF_INET, socket.AF_INET6)]
        default = route is not None and (
            name == route.interface or (route.address is not None and route.address in ips)
        )
        found.extend(Interface(name, address, up.get(name, True), default) for address in ips)
    return found


def machine_interfaces() -> list[Interface]:
    """This machine's interface addresses (IPv4 and IPv6), and which interface has the default route."""
    import psutil

    stats = psutil.net_if_stats()
    addresses = {
        name: [(entry.family, entry.address) for entry in entries] for name, entries in psutil.net_if_addrs().items()
    }
    return interfaces_from(addresses, {name: stat.isup for name, stat in stats.items()}, default_route())


def default_route(system: str = sys.platform, run: Callable[[list[str]], str] | None = None) -> DefaultRoute | None:
    """The IPv4 default route from the system's own routing table — never by sending anything anywhere:
    Linux's ``/proc/net/route``, ``route -n get default`` on macOS and the BSDs, ``route print -4`` on
    Windows.  None where there is none, or the table cannot be read."""
    command = run or _output
    if system.startswith("linux"):
        name = default_route_interface()
        return DefaultRoute(interface=name) if name else None
    if system == "win32":
        root = os.environ.get("SYSTEMROOT", r"C:\Windows")
        return windows_default_route(command([os.path.join(root, "System32", "route.exe"), "print", "-4"]))
    if system == "darwin" or "bsd" in system:
        return bsd_default_route(command(["/sbin/route", "-n", "get", "default"]))
    return None


def _output(command: list[str]) -> str:
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            encoding="utf-8",  # only its numbers and interface names are read; a console code page is replaced
            errors="replace",
            timeout=3,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout if done.returncode == 0 else ""


def default_route_interface(route_table: Path = Path("/proc/net/route")) -> str | None:
    """The interface of the IPv4 default route, from Linux's routing table; None elsewhere or if none."""
    try:
        lines = route_table.read_text("ascii", "replace").splitlines()[1:]
    except OSError:
        return None
    for line in lines:
        fields = line.split()
        if len(fields) > 7 and fields[1] == "00000000" and fields[7] == "00000000":
            return fields[0]
    return None


def bsd_default_route(text: str) -> DefaultRoute | None:
    """From ``route -n get default`` (macOS, the BSDs): its ``interface:`` line."""
    for line in text.splitlines():
        key, _, value = line.strip().partition(":")
        if key == "interface" and value.strip():
            return DefaultRoute(interface=value.strip())
    return None


def windows_default_route(text: str) -> DefaultRoute | None:
    """From ``route print -4`` (Windows, in any language: only the numbers are read): the active route to
    ``0.0.0.0/0`` with the lowest metric, named by its interface's address."""
    best: tuple[int, str] | None = None
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 5 or fields[0] != "0.0.0.0" or fields[1] != "0.0.0.0" or not fields[4].isdigit():
            continue  # (persistent routes have no interface column: "0.0.0.0 0.0.0.0 192.168.1.1 Default")
        try:
            ipaddress.IPv4Address(fields[3])
        except ValueError:
            continue
        if best is None or int(fields[4]) < best[0]:
            best = (int(fields[4]), fields[3])
    return DefaultRoute(address=best[1]) if best else None


def phone_addresses(interfaces: Iterable[Interface]) -> list[str]:
    """IPv4 addresses a phone in the same room may reach, best first.

    Best: the default route's interface; then private (home network) addresses of interfaces that are not
    containers, virtual machines or VPNs; then other addresses of such interfaces.  Never loopback,
    link-local, or an interface that is down.  Container and VPN addresses come last: they are printed,
    since a phone may still reach them, but never chosen while a better one exists."""
    ranked: list[tuple[int, int, str]] = []
    for order, iface in enumerate(interfaces):
        try:
            ip = ipaddress.ip_address(iface.address)
        except ValueError:
            continue
        if not isinstance(ip, ipaddress.IPv4Address) or not iface.up:
            continue
        if ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast:
            continue
        lower = iface.name.lower()
        virtual = lower.startswith(VIRTUAL_PREFIXES) or any(word in lower for word in VIRTUAL_WORDS)
        if iface.default_route and not virtual:
            rank = 0
        elif not virtual and ip.is_private:
            rank = 1
        elif not virtual:
            rank = 2
        else:
            rank = 3
        ranked.append((rank, order, str(ip)))
    seen: list[str] = []
    for _, _, address in sorted(ranked):
        if address not in seen:
            seen.append(address)
    return seen


def normal_public_url(url: str) -> str:
    """``url`` as a public URL (scheme, host and port; no path, query or trailing slash)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SiteError(f"a public URL looks like http://192.168.1.20:8000 or https://games.example.org, not {url!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username or parts.password:
        raise SiteError("a public URL names a host and a port only: gemtable is served at the root of it")
    try:
        port = parts.port
    except ValueError:
        raise SiteError(f"{url!r} has a port that is not a number from 1 to 65535") from None
    host = _bracket(parts.hostname)
    return f"{parts.scheme}://{host}" + (f":{port}" if port else "")


def normal_origin(origin: str) -> str | None:
    """An ``Origin`` (or a URL) as ``scheme://host[:port]``, lower case, the scheme's default port left out;
    None if it is not an http(s) origin (``null``, say)."""
    parts = urlsplit(origin.strip())
    try:
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return _url(parts.hostname.lower(), port or (443 if parts.scheme == "https" else 80), parts.scheme)


def _origins(port: int, public: str | None, hosts: Iterable[str], extra: Iterable[str]) -> tuple[str, ...]:
    found = {_url(host, port) for host in hosts if host}
    for origin in [public or "", *extra]:
        normal = normal_origin(origin) if origin else None
        if origin and normal is None:
            raise SiteError(f"an allowed origin looks like https://games.example.org, not {origin!r}")
        if normal:
            found.add(normal)
    return tuple(sorted(found))


def _bracket(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _url(host: str, port: int, scheme: str = "http") -> str:
    default = 443 if scheme == "https" else 80
    return f"{scheme}://{_bracket(host)}" + ("" if port == default else f":{port}")


@dataclass(frozen=True)
class Site:
    """The public URL, the other URLs phones may use, and the host names a request may name."""

    public_url: str
    """Without a trailing slash: ``http://192.168.1.23:8000``."""
    urls: tuple[str, ...]
    """Every URL this server can be reached at from the room, the public URL first."""
    hosts: tuple[str, ...]
    """Host names (lower case, without port; IPv6 without brackets) that a request may name."""
    reachable: bool
    """False when phones probably cannot reach it: no LAN address and no public URL set."""
    chosen: bool = False
    """Whether the public URL was set by the host (``--public-url``) rather than found."""
    origins: tuple[str, ...] = ()
    """The web origins (``scheme://host[:port]``) whose pages may create tables and open WebSockets here: the
    public URL's, every allowed host name at this server's own port, and those the host added
    (``--allow-origin``).  Another port is another origin (another program's pages)."""
    loopback: str | None = None
    """The loopback address the server was told to listen on (``--host 127.0.0.1``), which no phone can reach."""

    def join_url(self, code: str) -> str:
        return f"{self.public_url}/t/{code}"

    def allows_host(self, host: str) -> bool:
        return host.lower().strip("[]") in self.hosts

    @property
    def host_headers(self) -> tuple[str, ...]:
        """The hosts a ``Host`` header may name, as it names them (without the port): every one of
        :attr:`hosts`, an IPv6 literal in brackets (``Host: [::1]:8000``, as a phone that reached the server
        by its IPv6 address sends it)."""
        return tuple(_bracket(host) for host in self.hosts)

    def allows_origin(self, origin: str) -> bool:
        """Whether an ``Origin`` header names this server: one of :attr:`origins`, exactly (scheme, host and
        port; ``null`` never)."""
        normal = normal_origin(origin)
        return normal is not None and normal in self.origins

    @classmethod
    def build(
        cls,
        port: int,
        listen: str = "0.0.0.0",
        public_url: str | None = None,
        allow_hosts: Iterable[str] = (),
        interfaces: list[Interface] | None = None,
        hostname: str | None = None,
        allow_origins: Iterable[str] = (),
    ) -> Site:
        """The site of a server listening on ``listen``:``port``.

        ``interfaces`` and ``hostname`` default to this machine's (tests pass their own)."""
        ifaces = machine_interfaces() if interfaces is None else interfaces
        name = socket.gethostname() if hostname is None else hostname
        every_interface = listen in ("0.0.0.0", "::", "")
        lan = phone_addresses(ifaces if every_interface else [Interface("listen", listen, True, True)])
        hosts = {*LOOPBACK_NAMES, *(i.address.lower() for i in ifaces)}
        if not every_interface:
            hosts.add(listen.lower())
        if name:
            hosts.update({name.lower(), f"{name.lower()}.local"})
            if "." in name:
                hosts.add(name.lower().split(".")[0])
        for extra in allow_hosts:
            extra = extra.strip().lower().strip("[]")
            if extra:
                hosts.add(extra)
        urls = [_url(address, port) for address in lan]
        public = normal_public_url(public_url) if public_url else None
        if public:
            hosts.add((urlsplit(public).hostname or "").lower())
        origins = _origins(port, public, hosts, allow_origins)
        if public:
            urls = [public, *(u for u in urls if u != public)]
            return cls(public, tuple(urls), tuple(sorted(hosts)), True, True, origins)
        if urls:
            return cls(urls[0], tuple(urls), tuple(sorted(hosts)), True, False, origins)
        fallback = _url("127.0.0.1" if every_interface else listen, port)
        loopback = None if every_interface or not _is_loopback(listen) else listen
        return cls(fallback, (fallback,), tuple(sorted(hosts)), False, False, origins, loopback)

    @classmethod
    def from_env(
        cls,
        port: int,
        listen: str,
        public_url: str | None,
        allow_hosts: Iterable[str],
        allow_origins: Iterable[str] = (),
    ) -> Site:
        """As ``build``, with ``GEMTABLE_PUBLIC_URL``, ``GEMTABLE_ALLOWED_HOSTS`` and
        ``GEMTABLE_ALLOWED_ORIGINS`` (comma-separated) as the defaults of the command line's options."""
        env_hosts = [h for h in os.environ.get("GEMTABLE_ALLOWED_HOSTS", "").split(",") if h.strip()]
        env_origins = [o for o in os.environ.get("GEMTABLE_ALLOWED_ORIGINS", "").split(",") if o.strip()]
        return cls.build(
            port,
            listen,
            public_url or os.environ.get("GEMTABLE_PUBLIC_URL") or None,
            [*env_hosts, *allow_hosts],
            allow_origins=[*env_origins, *allow_origins],
        )

    def banner(self, where: str) -> str:
        """What ``gemtable serve`` prints: where phones join, and why it is not localhost."""
        lines = [f"gemtable is running ({where})."]
        if not self.reachable and self.loopback:
            lines += [
                "",
                f"It listens on {self.loopback} only (--host {self.loopback}), which phones cannot reach: leave --host",
                "out (or pass --host 0.0.0.0) to let phones on the same Wi-Fi join.  For now it works on this",
                "machine only:",
                "",
                f"    {self.public_url}/",
            ]
            return "\n".join(lines) + "\n"
        if not self.reachable:
            lines += [
                "",
                "This machine has no network address that phones could reach (only loopback was found).",
                "Connect it to the Wi-Fi the phones use and start again, or pass --public-url URL if phones",
                "reach it some other way.  For now it works on this machine only:",
                "",
                f"    {self.public_url}/",
            ]
            return "\n".join(lines) + "\n"
        lines += ["", "On a phone on the same network, open (or scan the QR code):", "", f"    {self.public_url}/"]
        others = self.urls[1:]
        if others:
            lines += ["", "It answers at these addresses too:"] + [f"    {url}/" for url in others]
        lines += ["", "Phones cannot open localhost: every link and QR code gemtable shows uses the address above."]
        return "\n".join(lines) + "\n"


def _is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


__all__ = [
    "DefaultRoute",
    "Interface",
    "Site",
    "SiteError",
    "bsd_default_route",
    "default_route",
    "default_route_interface",
    "interfaces_from",
    "machine_interfaces",
    "normal_origin",
    "phone_addresses",
    "windows_default_route",
]
