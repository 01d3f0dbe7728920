"""The LAN address on a macOS and a Windows laptop, from their recorded interface and route tables.

Each table is what psutil's ``net_if_addrs``/``net_if_stats`` and the system's own route command print
on such a laptop at a game night: the Wi-Fi the phones share, a VPN, a virtual machine's or WSL's adapter,
Bluetooth, loopback.  The address finder must choose the Wi-Fi's address, as it does on Linux."""

from __future__ import annotations

import socket
from collections.abc import Callable

from gemtable.server.site import (
    DefaultRoute,
    Site,
    bsd_default_route,
    default_route,
    interfaces_from,
    phone_addresses,
    windows_default_route,
)

V4, V6 = socket.AF_INET, socket.AF_INET6
LINK = getattr(socket, "AF_LINK", getattr(socket, "AF_PACKET", -1))  # a MAC address entry

MACOS_ADDRESSES: dict[str, list[tuple[int, str]]] = {
    "lo0": [(V4, "127.0.0.1"), (V6, "::1"), (V6, "fe80::1%lo0")],
    "en0": [(LINK, "3c:22:fb:11:22:33"), (V6, "fe80::1c8a:5f3e:8b2c:9d01%en0"), (V4, "192.168.1.42")],
    "en5": [(LINK, "ac:de:48:00:11:22"), (V6, "fe80::aede:48ff:fe00:1122%en5")],
    "awdl0": [(LINK, "46:5a:c1:00:00:01"), (V6, "fe80::445a:c1ff:fe00:1%awdl0")],
    "llw0": [(LINK, "46:5a:c1:00:00:01"), (V6, "fe80::445a:c1ff:fe00:1%llw0")],
    "utun0": [(V6, "fe80::5c2b:1c83:7e5a:1%utun0")],
    "utun3": [(V4, "10.8.0.6")],  # a WireGuard VPN
    "bridge100": [(LINK, "3e:22:fb:aa:bb:64"), (V4, "192.168.64.1")],  # a virtual machine's network (UTM)
    "vmenet0": [(LINK, "02:00:00:00:00:01")],
    "anpi0": [(LINK, "16:b8:22:00:00:01")],
}
MACOS_UP = {name: True for name in MACOS_ADDRESSES} | {"en5": False}
MACOS_ROUTE = """   route to: default
destination: default
       mask: default
    gateway: 192.168.1.1
  interface: en0
      flags: <UP,GATEWAY,DONE,STATIC,PRCLONING,GLOBAL>
 recvpipe  sendpipe  ssthresh  rtt,msec    rttvar  hopcount      mtu     expire
       0         0         0         0         0         0      1500         0
"""
MACOS_ROUTE_VPN = MACOS_ROUTE.replace("interface: en0", "interface: utun3").replace("192.168.1.1", "10.8.0.1")

WINDOWS_ADDRESSES: dict[str, list[tuple[int, str]]] = {
    "Ethernet": [(LINK, "C8-5B-76-11-22-33"), (V4, "169.254.83.107"), (V6, "fe80::3c1a:1b2c:3d4e:5f60")],
    "Wi-Fi": [(LINK, "3C-6A-A7-44-55-66"), (V4, "192.168.0.105"), (V6, "fe80::91d2:7a11:c0de:1234")],
    "Local Area Connection* 1": [(LINK, "3E-6A-A7-44-55-66"), (V4, "169.254.12.40")],
    "Bluetooth Network Connection": [(LINK, "3C-6A-A7-44-55-67"), (V4, "169.254.201.9")],
    "vEthernet (WSL)": [(LINK, "00-15-5D-01-02-03"), (V4, "172.29.96.1"), (V6, "fe80::a1b2:c3d4:e5f6:1")],
    "VirtualBox Host-Only Network": [(LINK, "0A-00-27-00-00-0F"), (V4, "192.168.56.1")],
    "Tailscale": [(V4, "100.101.102.103"), (V6, "fd7a:115c:a1e0::1")],
    "OpenVPN Wintun": [(V4, "10.211.1.10")],
    "Loopback Pseudo-Interface 1": [(V4, "127.0.0.1"), (V6, "::1")],
}
WINDOWS_UP = {name: True for name in WINDOWS_ADDRESSES} | {"Ethernet": False, "Bluetooth Network Connection": False}
WINDOWS_ROUTE = """===========================================================================
Interface List
 12...3c 6a a7 44 55 66 ......Intel(R) Wi-Fi 6 AX201 160MHz
 18...0a 00 27 00 00 0f ......VirtualBox Host-Only Ethernet Adapter
 25...........................Wintun Userspace Tunnel
  1...........................Software Loopback Interface 1
===========================================================================

IPv4 Route Table
===========================================================================
Active Routes:
Network Destination        Netmask          Gateway       Interface  Metric
          0.0.0.0          0.0.0.0      192.168.0.1    192.168.0.105     35
        127.0.0.0        255.0.0.0         On-link         127.0.0.1    331
        127.0.0.1  255.255.255.255         On-link         127.0.0.1    331
      192.168.0.0    255.255.255.0         On-link     192.168.0.105    291
    192.168.0.105  255.255.255.255         On-link     192.168.0.105    291
     192.168.56.0    255.255.255.0         On-link      192.168.56.1    281
        224.0.0.0        240.0.0.0         On-link         127.0.0.1    331
  255.255.255.255  255.255.255.255         On-link     192.168.0.105    291
===========================================================================
Persistent Routes:
  Network Address          Netmask  Gateway Address  Metric
          0.0.0.0          0.0.0.0      192.168.0.1  Default
===========================================================================
"""
WINDOWS_ROUTE_VPN_DE = """IPv4-Routentabelle
===========================================================================
Aktive Routen:
     Netzwerkziel    Netzwerkmaske          Gateway    Schnittstelle Metrik
          0.0.0.0          0.0.0.0      192.168.0.1    192.168.0.105     35
          0.0.0.0          0.0.0.0       10.211.1.1      10.211.1.10      5
===========================================================================
Ständige Routen:
  Keine
"""


def test_a_macos_laptop_on_wifi_hands_out_its_wifi_address() -> None:
    route = bsd_default_route(MACOS_ROUTE)
    assert route == DefaultRoute(interface="en0")
    interfaces = interfaces_from(MACOS_ADDRESSES, MACOS_UP, route)
    assert phone_addresses(interfaces) == ["192.168.1.42", "10.8.0.6", "192.168.64.1"]
    site = Site.build(8000, interfaces=interfaces, hostname="Anns-MacBook-Air.local")
    assert site.public_url == "http://192.168.1.42:8000" and site.reachable
    assert site.allows_host("anns-macbook-air.local") and site.allows_host("anns-macbook-air")


def test_a_macos_laptop_whose_vpn_takes_the_default_route_still_hands_out_its_wifi_address() -> None:
    route = bsd_default_route(MACOS_ROUTE_VPN)
    assert route == DefaultRoute(interface="utun3")
    assert phone_addresses(interfaces_from(MACOS_ADDRESSES, MACOS_UP, route))[0] == "192.168.1.42"


def test_a_windows_laptop_with_wsl_virtualbox_and_tailscale_hands_out_its_wifi_address() -> None:
    route = windows_default_route(WINDOWS_ROUTE)
    assert route == DefaultRoute(address="192.168.0.105")  # the persistent route (no interface) is not read
    interfaces = interfaces_from(WINDOWS_ADDRESSES, WINDOWS_UP, route)
    assert [i.name for i in interfaces if i.default_route] == ["Wi-Fi", "Wi-Fi"]  # its IPv4 and IPv6
    addresses = phone_addresses(interfaces)
    assert addresses[0] == "192.168.0.105"
    assert set(addresses[1:]) == {"172.29.96.1", "192.168.56.1", "100.101.102.103", "10.211.1.10"}  # last
    assert not {"169.254.83.107", "169.254.12.40", "127.0.0.1"} & set(addresses)  # link-local, down, loopback


def test_a_windows_route_table_in_german_with_a_vpn_of_lower_metric() -> None:
    route = windows_default_route(WINDOWS_ROUTE_VPN_DE)
    assert route == DefaultRoute(address="10.211.1.10")  # the VPN's route wins by metric…
    addresses = phone_addresses(interfaces_from(WINDOWS_ADDRESSES, WINDOWS_UP, route))
    assert addresses[0] == "192.168.0.105"  # …but a VPN adapter is never handed to phones while Wi-Fi is there


def test_without_a_route_the_wifi_still_wins_over_virtual_adapters() -> None:
    for addresses, up in ((WINDOWS_ADDRESSES, WINDOWS_UP), (MACOS_ADDRESSES, MACOS_UP)):
        assert phone_addresses(interfaces_from(addresses, up, None))[0] in ("192.168.0.105", "192.168.1.42")
    assert windows_default_route("") is None and bsd_default_route("route: writing to routing socket") is None


def test_each_system_is_asked_with_its_own_route_command() -> None:
    asked: list[list[str]] = []

    def run(answer: str) -> Callable[[list[str]], str]:
        def command(argv: list[str]) -> str:
            asked.append(argv)
            return answer

        return command

    assert default_route("darwin", run(MACOS_ROUTE)) == DefaultRoute(interface="en0")
    assert default_route("win32", run(WINDOWS_ROUTE)) == DefaultRoute(address="192.168.0.105")
    assert default_route("freebsd14", run(MACOS_ROUTE)) == DefaultRoute(interface="en0")
    assert asked[0] == ["/sbin/route", "-n", "get", "default"]
    assert asked[1][0].lower().endswith("route.exe") and asked[1][1:] == ["print", "-4"]
    assert default_route("sunos5", run(MACOS_ROUTE)) is None and len(asked) == 3  # unknown: nothing is run
