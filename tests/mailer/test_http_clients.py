"""``nomic serve --http`` exposed without a proxy: one client's share of the server (issue 26).

Clients are told apart by address: each test speaks from several loopback addresses
(127.0.0.2, 127.0.0.3, ...), as distinct visitors would; 127.0.0.1 is the trusted proxy.
"""
from __future__ import annotations

import socket
from urllib.parse import urlencode

from mailer.http_clients import ClientQuota, client_of, forwarded_client
from tests.mailer.support import configure

SLOW, OTHER, THIRD, FOURTH = "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"
PROXY = "127.0.0.1"


def connect(port: int, client: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(client, 0))


def request(port: int, client: str, raw: bytes) -> tuple[int, bytes]:
    """One request from ``client``: the status and body of the answer."""
    with connect(port, client) as sock:
        sock.sendall(raw)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), body


def get(port: int, client: str) -> int:
    return request(port, client, b"GET /index.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")[0]


def subscribe(port: int, client: str, address: str, forwarded: str = "") -> tuple[int, bytes]:
    body = urlencode({"address": address}).encode()
    extra = f"X-Forwarded-For: {forwarded}\r\n" if forwarded else ""
    return request(port, client, f"POST /subscribe HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n"
                                 f"{extra}Connection: close\r\n\r\n".encode() + body)


def test_a_slow_dripping_client_shuts_out_only_itself(make_play, serve):
    play = make_play()
    configure(play, "[http]\nmax_connections = 4\nmax_per_client = 2\ntimeout = 60\n")
    play.cli("build")
    daemon = serve(play)
    port = daemon.ports["http"]
    drips = [connect(port, SLOW) for _ in range(4)]  # it tries to take every connection, sending a byte or so
    for sock in drips:
        sock.sendall(b"G")
    assert [sock.recv(12) for sock in drips[2:]] == [b"HTTP/1.0 503"] * 2  # its own share is two
    assert get(port, SLOW) == 503
    assert [get(port, OTHER), get(port, THIRD)] == [200, 200]  # everyone else is served meanwhile
    for sock in drips:
        sock.close()
    assert daemon.stop() == 0


def test_one_client_cannot_use_up_a_domains_confirmations(make_play, serve):
    play = make_play()
    configure(play, "[http]\nconfirm_per_client = 3\nconfirm_per_domain = 5\n")
    daemon = serve(play)
    port = daemon.ports["http"]
    mine = [subscribe(port, SLOW, f"victim{i}@big.example")[0] for i in range(6)]
    assert mine == [200, 200, 200, 429, 429, 429]
    assert subscribe(port, SLOW, "x@big.example")[1] == (
        b"Too many subscription requests came from your address in the last hour; try again later.")
    assert subscribe(port, OTHER, "bob@big.example") == (
        200, b"A confirmation mail is on its way to bob@big.example. Nothing happens until you confirm.")
    assert subscribe(port, THIRD, "carol@big.example")[0] == 200
    status, body = subscribe(port, FOURTH, "dave@big.example")  # the domain's own hourly limit still holds
    assert (status, body.startswith(b"Too many confirmation mails went to big.example")) == (429, True)
    assert daemon.stop() == 0


def test_behind_the_proxy_each_forwarded_address_is_a_client(make_play, serve):
    play = make_play()
    configure(play, "[http]\nconfirm_per_client = 1\n")
    daemon = serve(play)
    port = daemon.ports["http"]
    assert subscribe(port, PROXY, "a@one.example", forwarded="203.0.113.9")[0] == 200
    assert subscribe(port, PROXY, "b@two.example", forwarded="198.51.100.1, 203.0.113.9")[0] == 429
    assert subscribe(port, PROXY, "c@three.example", forwarded="203.0.113.10")[0] == 200
    assert subscribe(port, SLOW, "d@four.example", forwarded="192.0.2.1")[0] == 200
    assert subscribe(port, SLOW, "e@five.example", forwarded="192.0.2.2")[0] == 429  # only a proxy is believed
    assert daemon.stop() == 0


def test_clients_are_addresses_and_ipv6_networks():
    assert client_of("192.0.2.7") == "192.0.2.7"
    assert client_of("2001:db8:1:2:aaaa::1") == client_of("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert client_of("::ffff:192.0.2.7") == "192.0.2.7"
    assert forwarded_client("192.0.2.7", "198.51.100.1", ("127.0.0.1",)) == "192.0.2.7"
    assert forwarded_client("127.0.0.1", "evil, 198.51.100.1", ("127.0.0.1",)) == "198.51.100.1"


def test_a_clients_quota_frees_up_after_its_window():
    now = [0.0]
    quota = ClientQuota(2, window=3600, clock=lambda: now[0])
    quota.record("a")
    quota.record("a")
    assert (quota.allows("a"), quota.allows("b")) == (False, True)
    now[0] = 3600.5
    assert quota.allows("a")
