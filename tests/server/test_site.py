"""The address phones are given: chosen from the interfaces and the default route, never from the hostname."""

from __future__ import annotations

from pathlib import Path

import pytest

from gemtable.server.site import Interface, Site, SiteError, default_route_interface, phone_addresses

LAPTOP = [
    Interface("lo", "127.0.0.1"),
    Interface("lo", "::1"),
    Interface("docker0", "172.17.0.1"),
    Interface("virbr0", "192.168.122.1"),
    Interface("wlp2s0", "192.168.1.23", default_route=True),
    Interface("wlp2s0", "fe80::1c2b:3aff:fe4d:5e6f"),
    Interface("enp3s0", "169.254.10.2"),
    Interface("tailscale0", "100.101.102.103"),
]
"""A typical Linux laptop on home Wi-Fi, with Docker, libvirt and a VPN (its hostname resolves to 127.0.1.1)."""


def test_the_wifi_address_is_chosen_over_containers_vpns_and_loopback() -> None:
    assert phone_addresses(LAPTOP) == ["192.168.1.23", "172.17.0.1", "192.168.122.1", "100.101.102.103"]
    site = Site.build(8000, interfaces=LAPTOP, hostname="laptop")
    assert site.public_url == "http://192.168.1.23:8000"
    assert site.reachable and not site.chosen
    assert site.join_url("ACDE") == "http://192.168.1.23:8000/t/ACDE"


def test_without_a_default_route_a_private_address_of_a_real_interface_wins() -> None:
    ifaces = [Interface("docker0", "172.17.0.1"), Interface("eth0", "10.0.0.7"), Interface("wlan0", "8.8.4.4")]
    assert phone_addresses(ifaces)[0] == "10.0.0.7"


def test_interfaces_that_are_down_are_not_offered() -> None:
    assert phone_addresses([Interface("wlan0", "192.168.1.5", up=False)]) == []


def test_a_machine_with_only_loopback_says_phones_cannot_reach_it() -> None:
    site = Site.build(8000, interfaces=[Interface("lo", "127.0.0.1")], hostname="box")
    assert not site.reachable
    banner = site.banner("data in /tmp")
    assert "no network address that phones could reach" in banner
    assert "--public-url" in banner


def test_a_server_told_to_listen_on_loopback_names_host_not_the_network() -> None:
    """``--host 127.0.0.1`` on a laptop with Wi-Fi: the banner says that --host keeps phones out (it said the
    machine had no network address)."""
    for listen in ("127.0.0.1", "::1", "localhost"):
        site = Site.build(8000, listen=listen, interfaces=LAPTOP, hostname="laptop")
        banner = site.banner("data in /tmp")
        assert not site.reachable and site.loopback == listen
        assert f"It listens on {listen} only (--host {listen})" in banner and "leave --host" in banner
        assert "no network address" not in banner
    assert Site.build(8000, interfaces=[Interface("lo", "127.0.0.1")], hostname="box").loopback is None


def test_the_banner_lists_every_address_the_best_first() -> None:
    banner = Site.build(8123, interfaces=LAPTOP, hostname="laptop").banner("data in /tmp")
    lines = [line.strip() for line in banner.splitlines()]
    assert lines.index("http://192.168.1.23:8123/") < lines.index("http://172.17.0.1:8123/")
    assert "http://127.0.0.1:8123/" not in lines
    assert "localhost" in banner  # and why it is not the address to hand out


def test_a_public_url_is_used_as_given_and_its_host_is_allowed() -> None:
    site = Site.build(8000, public_url="https://Games.Example.org/", interfaces=LAPTOP, hostname="laptop")
    assert site.public_url == "https://games.example.org"
    assert site.chosen and site.reachable
    assert site.urls[0] == "https://games.example.org"
    assert site.allows_host("games.example.org") and site.allows_host("GAMES.example.org")
    assert site.join_url("QRST") == "https://games.example.org/t/QRST"


@pytest.mark.parametrize(
    "bad",
    [
        "games.example.org",
        "ftp://x",
        "http://",
        "http://x/sub/path",
        "http://x:99999",
        "http://user:pw@x",
        "http://x/?q=1",
    ],
)
def test_a_public_url_that_cannot_work_is_refused(bad: str) -> None:
    with pytest.raises(SiteError):
        Site.build(8000, public_url=bad, interfaces=LAPTOP, hostname="laptop")


def test_hosts_a_request_may_name() -> None:
    site = Site.build(8000, interfaces=LAPTOP, hostname="laptop", allow_hosts=["party.lan"])
    for host in (
        "localhost",
        "127.0.0.1",
        "::1",
        "[::1]",
        "192.168.1.23",
        "laptop",
        "laptop.local",
        "party.lan",
        "fe80::1c2b:3aff:fe4d:5e6f",
    ):
        assert site.allows_host(host), host
    for host in ("evil.example", "192.168.1.24", "localhost.evil.example", ""):
        assert not site.allows_host(host), host
    assert site.allows_origin("http://192.168.1.23:8000")
    assert site.allows_origin("http://localhost:8000") and site.allows_origin("http://[::1]:8000")
    assert not site.allows_origin("http://localhost:5173")  # another port is another origin: another program
    assert not site.allows_origin("http://evil.example")
    assert not site.allows_origin("null")


def test_listening_on_one_address_offers_that_address() -> None:
    site = Site.build(9000, listen="10.1.2.3", interfaces=LAPTOP, hostname="laptop")
    assert site.public_url == "http://10.1.2.3:9000"
    loopback_only = Site.build(9000, listen="127.0.0.1", interfaces=LAPTOP, hostname="laptop")
    assert not loopback_only.reachable


def test_the_default_route_is_read_from_the_routing_table(tmp_path: Path) -> None:
    table = tmp_path / "route"
    table.write_text(
        "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
        "docker0\t000011AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n"
        "wlp2s0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n"
    )
    assert default_route_interface(table) == "wlp2s0"
    assert default_route_interface(tmp_path / "missing") is None
