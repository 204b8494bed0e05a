"""Whether the server of a ``base_url`` is there at all, asked once before a run calls it.

A wrong port (nothing listening) was found item by item: every item failed with a retried "connection failed",
was stored as a failed row, and the run ended with exit 3. :func:`endpoint_problem` asks the server once,
``GET {base_url}/models`` (which every OpenAI-compatible server answers; any HTTP status counts as an answer:
an Anthropic or Gemini root answers 404, a gateway 401), and says what is wrong when no HTTP reply can come:
the connection is refused, the host does not resolve, no connection within the timeout, TLS fails, or the
port answers something that is not HTTP. A server that accepts the connection but is slow to reply is taken as
there (a busy server; the run's own deadlines apply). The pipeline's preflight
(``pipeline._orchestrate.check_endpoints``) asks every distinct ``base_url`` of a run this way.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from urllib.parse import urlparse

#: seconds to connect (and then to wait for the reply, which is not required)
REACH_TIMEOUT_S = 5.0


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and its causes/contexts, outermost first (at most 10)."""
    found = [exc]
    while len(found) < 10 and (inner := found[-1].__cause__ or found[-1].__context__) is not None:
        found.append(inner)
    return found


def _host_port(base_url: str) -> str:
    parsed = urlparse(base_url)
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    return f"{parsed.hostname}:{port}"


def _connect_problem(base_url: str, exc: BaseException) -> str:
    """What a failed connection to ``base_url`` was, in words (``exc``: httpx's ConnectError)."""
    chain = _chain(exc)
    if any(isinstance(e, ConnectionRefusedError) for e in chain) or "refused" in str(exc).lower():
        return f"connection refused (nothing listens on {_host_port(base_url)})"
    if any(isinstance(e, socket.gaierror) for e in chain) or "name or service not known" in str(exc).lower():
        return f"the host {urlparse(base_url).hostname} does not resolve"
    if any(isinstance(e, ssl.SSLError) for e in chain):
        return f"TLS failed ({next(e for e in chain if isinstance(e, ssl.SSLError))})"
    return f"no connection to {_host_port(base_url)} ({str(exc) or type(exc).__name__})"


async def endpoint_problem(base_url: str, *, timeout: float = REACH_TIMEOUT_S) -> str | None:
    """None when a server answers HTTP at ``base_url`` (module docstring), else why none can."""
    import httpx

    url = f"{base_url.rstrip('/')}/models"
    try:
        async with httpx.AsyncClient(timeout=timeout) as client:
            await client.get(url)
    except httpx.ConnectTimeout:
        return f"no connection to {_host_port(base_url)} within {timeout:g} s"
    except httpx.ConnectError as exc:
        return _connect_problem(base_url, exc)
    except (httpx.ReadTimeout, httpx.WriteTimeout, httpx.PoolTimeout):
        return None  # connected: a busy server
    except (httpx.RemoteProtocolError, httpx.ReadError) as exc:
        return f"{_host_port(base_url)} accepts connections but gives no HTTP reply ({exc or type(exc).__name__})"
    except httpx.HTTPError as exc:  # a proxy that fails, ...
        return f"no HTTP reply from {_host_port(base_url)} ({type(exc).__name__}: {exc})"
    return None


async def endpoint_problems(base_urls: list[str], *, timeout: float = REACH_TIMEOUT_S) -> dict[str, str]:
    """``{base_url: problem}`` of those of ``base_urls`` no server answers, all asked at once."""
    urls = list(dict.fromkeys(base_urls))
    found = await asyncio.gather(*(endpoint_problem(url, timeout=timeout) for url in urls))
    return {url: problem for url, problem in zip(urls, found, strict=True) if problem is not None}
