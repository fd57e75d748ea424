"""deploy/nginx/nomic.conf in a real nginx: the built site is served as files, and the RFC 8058
one-click unsubscribe POST reaches ``nomic serve --http`` and takes effect."""
from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

import pytest

from mailer.tokens import stamped_token
from nomic.game import Game
from tests.faults.daemon import Daemon, free_port

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

pytestmark = [
    pytest.mark.slow,  # deployment: a real nginx
    pytest.mark.skipif(not Path(NGINX).exists(), reason="needs Debian's nginx (deploy/apt-packages.txt)"),
]


def _conf(root: Path, site: Path, port: int, backend: int) -> str:
    server = (DEPLOY / "nginx" / "nomic.conf").read_text()
    server = server.replace("listen 80;", f"listen 127.0.0.1:{port};").replace("listen [::]:80;", "")
    server = server.replace("/var/lib/nomic/game/site", str(site)).replace("127.0.0.1:8080", f"127.0.0.1:{backend}")
    return f"""daemon off;
pid {root}/nginx.pid;
error_log {root}/error.log;
events {{ worker_connections 64; }}
http {{
    include /etc/nginx/mime.types;
    access_log {root}/access.log;
    client_body_temp_path {root}/body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fastcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;
{server}
}}
"""


def _request(url: str, data: bytes | None = None) -> tuple[int, dict, str]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=30) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read().decode()


def test_nginx_serves_the_site_and_passes_one_click_unsubscribe_to_the_daemon(make_play, tmp_path):
    play = make_play(auth="none")
    play.send("alice@wonder.land", "Subscribe", "Subscribe")
    assert [s["email"] for s in play.state()["subscribers"]] == ["alice@wonder.land"]
    backend = free_port()
    daemon = Daemon(play.dir, tmp_path / "serve.log", "--http", f"127.0.0.1:{backend}").start()

    root = Path(tempfile.mkdtemp(prefix="nomic-nginx-"))  # readable by nginx's worker user
    root.chmod(0o755)
    site = root / "site"  # a page only nginx has: a 200 for it proves nginx served the file itself
    site.mkdir()
    (site / "index.html").write_text("<h1>Imperial Nomic</h1>")
    site.chmod(0o755)
    (site / "index.html").chmod(0o644)
    port = free_port()
    (root / "nginx.conf").write_text(_conf(root, site, port, backend))
    nginx = subprocess.Popen([NGINX, "-p", str(root), "-c", str(root / "nginx.conf")],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not (root / "nginx.pid").exists():
            assert time.monotonic() < deadline and nginx.poll() is None, (root / "error.log").read_text()
            time.sleep(0.1)
        status, headers, body = _request(f"http://127.0.0.1:{port}/")
        assert (status, body) == (200, "<h1>Imperial Nomic</h1>")
        assert headers["Server"].startswith("nginx") and headers["X-Content-Type-Options"] == "nosniff"

        token = stamped_token(Game(play.dir).list_settings.token_key, "unsubscribe", "alice@wonder.land",
                              datetime.now(timezone.utc))
        status, _, body = _request(f"http://127.0.0.1:{port}/unsubscribe/{token}", data=b"List-Unsubscribe=One-Click")
        assert (status, body) == (200, "alice@wonder.land is unsubscribed from players@imperial.test.")
        status, _, body = _request(f"http://127.0.0.1:{port}/unsubscribe/forged", data=b"List-Unsubscribe=One-Click")
        assert (status, body) == (400, "This unsubscribe link is not valid; use the link in a recent mail "
                                       "from the list, or mail Unsubscribe to ths@imperial.test.")
    finally:
        nginx.terminate()
        nginx.wait(timeout=30)
        shutil.rmtree(root, ignore_errors=True)
        assert daemon.stop() == 0
    assert play.state()["subscribers"] == []  # the POST was journaled and processed
    play.verify()
