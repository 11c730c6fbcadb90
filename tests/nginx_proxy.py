"""docs/deploy/nginx-meeple.conf run for real: Debian's nginx with that very file (only its ports and
certificate paths changed, inside a minimal main configuration like Debian's whose logs and temporary
files go to a temporary folder), TLS on a self-signed certificate made here, in front of a real
``meeple serve --public-url https://localhost:<port>``. Used by tests/server/test_deploy_nginx.py and
tests/browser/test_behind_nginx.py."""

from __future__ import annotations

import datetime
import ipaddress
import os
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import httpx

ROOT = Path(__file__).resolve().parents[1]
SITE_FILE = ROOT / "docs" / "deploy" / "nginx-meeple.conf"


class Proxied(NamedTuple):
    public_url: str  # https://localhost:<nginx https port>
    http_url: str  # http://localhost:<nginx http port>
    tls: ssl.SSLContext  # trusts the test's certificate


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def ipv6_loopback_works() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """A certificate for ``localhost`` and 127.0.0.1, valid for a day, and its key (PEM files)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                    x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                       critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "fullchain.pem", folder / "privkey.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def templated_site(cert: Path, key: Path, http_port: int, https_port: int, meeple_port: int) -> str:
    """The documented site file with its ports and certificate paths replaced, each exactly where the
    file has it (a test that silently stopped replacing would test another configuration)."""
    text = SITE_FILE.read_text()
    ipv6 = ipv6_loopback_works()
    replacements = {
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "listen [::]:80;": f"listen [::1]:{http_port};" if ipv6 else "",
        "listen 443 ssl;": f"listen 127.0.0.1:{https_port} ssl;",
        "listen [::]:443 ssl;": f"listen [::1]:{https_port} ssl;" if ipv6 else "",
        "return 301 https://$host$request_uri;": f"return 301 https://$host:{https_port}$request_uri;",
        "server 127.0.0.1:8000;": f"server 127.0.0.1:{meeple_port};",
        "/etc/letsencrypt/live/games.example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/games.example.org/privkey.pem": str(key),
    }
    for old, new in replacements.items():
        assert text.count(old) == 1, f"{SITE_FILE.name} should contain {old!r} once"
        text = text.replace(old, new)
    return text


def main_configuration(folder: Path, site: Path) -> str:
    """What Debian's /etc/nginx/nginx.conf gives a site (its http context, mime types), with logs,
    pid and temporary files in ``folder``, one process in the foreground as the test's own user."""
    mime = "include /etc/nginx/mime.types;" if Path("/etc/nginx/mime.types").exists() else ""
    temp = "\n".join(f"    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                          "scgi"))
    return f"""daemon off;
master_process off;
pid {folder / 'nginx.pid'};
error_log {folder / 'error.log'} info;
events {{ worker_connections 64; }}
http {{
    {mime}
    default_type application/octet-stream;
    access_log {folder / 'access.log'};
{temp}
    include {site};
}}
"""


def wait_until_answers(url: str, tls: ssl.SSLContext | bool, process: subprocess.Popen[bytes], what: str,
                       log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(url, verify=tls, timeout=2)
            return
        except httpx.HTTPError:
            if process.poll() is not None:
                break
            time.sleep(0.2)
    raise AssertionError(f"{what} did not answer at {url}:\n{log.read_text() if log.exists() else ''}")


@contextmanager
def meeple_behind_nginx(tmp_path: Path, nginx: str) -> Iterator[Proxied]:
    """``meeple serve`` on a loopback port, nginx with the documented site in front of it."""
    meeple_port, http_port, https_port = free_port(), free_port(), free_port()
    public_url = f"https://localhost:{https_port}"
    cert, key = self_signed_certificate(tmp_path)
    tls = ssl.create_default_context(cafile=str(cert))

    env = {name: value for name, value in os.environ.items() if not name.startswith("MEEPLE_")}
    env.update(PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path / "data"))
    meeple_log = tmp_path / "meeple.log"
    with meeple_log.open("wb") as log:
        meeple = subprocess.Popen(
            [sys.executable, "-m", "meeple.cli", "serve", "--host", "127.0.0.1", "--port", str(meeple_port),
             "--public-url", public_url, "--bot-delay", "0", "--bot-processes", "0"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    site = tmp_path / "meeple.conf"
    site.write_text(templated_site(cert, key, http_port, https_port, meeple_port))
    conf = tmp_path / "nginx.conf"
    conf.write_text(main_configuration(tmp_path, site))
    nginx_command = [nginx, "-p", str(tmp_path), "-c", str(conf), "-e", str(tmp_path / "error.log")]
    checked = subprocess.run([*nginx_command, "-t"], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, f"nginx -t refused the documented site:\n{checked.stderr}"
    proxy = subprocess.Popen(nginx_command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_answers(f"http://127.0.0.1:{meeple_port}/api/games", False, meeple, "meeple serve", meeple_log)
        wait_until_answers(f"{public_url}/api/games", tls, proxy, "nginx", tmp_path / "error.log")
        yield Proxied(public_url, f"http://localhost:{http_port}", tls)
    finally:
        for process in (proxy, meeple):
            process.terminate()
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
