"""How the site is reached from other machines: the address to share (the public URL, else the one
the browser used, else a LAN address when the page was opened through loopback), the machine's LAN
addresses for the start-up message, and what leaves in response headers when a public URL is set
(redirects to it, ``Secure`` cookies when it or the request is https)."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

import ifaddr
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from meeple.server.config import Settings, normalize_origin

WILDCARD_HOSTS = frozenset({"0.0.0.0", "::", ""})
HTTP_SCHEME_OF = {"http": "http", "https": "https", "ws": "http", "wss": "https"}


def listens_everywhere(host: str) -> bool:
    return host in WILDCARD_HOSTS


def is_loopback(host: str) -> bool:
    """``localhost`` or a loopback address (``127.0.0.0/8``, ``::1``); brackets of IPv6 allowed."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def primary_address() -> str | None:
    """The IPv4 address this machine's default route leaves from (a container bridge or VPN address
    is rarely what friends can reach); connecting a UDP socket only picks the route, it sends nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: any address off this machine would do
        except OSError:  # no route at all
            return None
        address: str = probe.getsockname()[0]
        return address


def lan_addresses(ipv6: bool = False) -> list[str]:
    """This machine's addresses others can reach it at: not loopback, not link-local (which needs
    an interface name to be used); the default route's first, then IPv4, then IPv6 (bracketed,
    ready for a URL)."""
    found: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                address = ipaddress.ip_address(ip.ip)
                text = ip.ip
            elif ipv6:
                address = ipaddress.ip_address(ip.ip[0])
                text = f"[{ip.ip[0]}]"
            else:
                continue
            if address.is_loopback or address.is_link_local or address.is_unspecified or text in found:
                continue
            found.append(text)
    primary = primary_address()
    return sorted(found, key=lambda text: (text != primary, text.startswith("[")))


def site_urls(host: str, port: int) -> list[str]:
    """The URLs the start-up message lists for a server listening on ``host``: on all addresses,
    each LAN address (friends on the same network), else the host itself."""
    if listens_everywhere(host):
        return [f"http://{address}:{port}" for address in lan_addresses(ipv6=host == "::")]
    shown = f"[{host}]" if ":" in host else host
    return [f"http://{shown}:{port}"]


def request_origin(scope: Scope) -> str | None:
    """The origin the request reached the server at: its scheme (after a trusted proxy's
    ``X-Forwarded-Proto``) and its ``Host`` header."""
    host = Headers(scope=scope).get("host")
    scheme = HTTP_SCHEME_OF.get(str(scope.get("scheme", "http")))
    if not host or scheme is None:
        return None
    return normalize_origin(f"{scheme}://{host}")


def share_base(request: Request) -> str:
    """The address to give friends, without a trailing slash: the public URL when one is set; else the
    origin the browser used, except that a page opened through loopback on a server listening on all
    addresses gets this machine's first LAN address (a ``127.0.0.1`` link is useless to anyone else)."""
    settings: Settings = request.app.state.settings
    if settings.public_url:
        return settings.public_url
    origin = request_origin(request.scope) or str(request.base_url).rstrip("/")
    parts = urlsplit(origin)
    lan: list[str] = request.app.state.lan_addresses
    if parts.hostname and is_loopback(parts.hostname) and lan:
        port = f":{parts.port}" if parts.port else ""
        return f"{parts.scheme}://{lan[0]}{port}"
    return origin


class PublicAddress:
    """Response headers for the address people use: a redirect (``Location``) to this server's own
    origin points at the public URL instead, and every cookie is ``Secure`` when the public URL is
    https or the request came over https (directly, or through a trusted TLS proxy)."""

    def __init__(self, app: ASGIApp, public_url: str | None = None) -> None:
        self.app = app
        self.public_url = public_url
        self.public_https = bool(public_url and public_url.startswith("https://"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        secure = self.public_https or scope.get("scheme") == "https"
        own = request_origin(scope)

        async def send_public(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if self.public_url and own and "location" in headers:
                    location = headers["location"]
                    if normalize_origin(_origin_of(location) or "") == own:
                        headers["location"] = self.public_url + location[len(_origin_of(location) or ""):]
                if secure:
                    cookies = headers.getlist("set-cookie")
                    if cookies:
                        del headers["set-cookie"]
                        for cookie in cookies:
                            marked = "secure" in (part.strip().lower() for part in cookie.split(";"))
                            headers.append("set-cookie", cookie if marked else f"{cookie}; Secure")
            await send(message)

        await self.app(scope, receive, send_public)


def _origin_of(url: str) -> str | None:
    """``scheme://netloc`` of an absolute URL, as written; ``None`` for a relative one."""
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}"
