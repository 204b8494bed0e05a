"""Where a page links to: the served viewer's URLs, or the relative file names of a static bundle.

The templates never build a URL themselves; they ask the page's :class:`Links`. Served pages live under
``/view`` with query parameters; a bundle is a folder of ``.html`` files linked relatively (it opens from
``file://``), one file per solution and per task comparison, Browse pre-rendered per system and corpus.
"""

from __future__ import annotations

import hashlib
import re
from urllib.parse import urlencode

PREFIX = "/view"


def slug(*parts: str) -> str:
    """A file-name-safe, collision-free name for ``parts`` (readable prefix + 10 hex of their sha256)."""
    joined = "\x1f".join(parts)
    readable = re.sub(r"[^A-Za-z0-9._-]+", "-", "-".join(parts))[:60].strip("-.") or "x"
    return f"{readable}-{hashlib.sha256(joined.encode()).hexdigest()[:10]}"


class Links:
    """The served viewer's URLs (``lang`` is carried when it is not the default)."""

    bundle = False

    def __init__(self, lang: str = "de") -> None:
        self.lang = lang

    def _url(self, path: str, params: dict[str, str] | None = None) -> str:
        query = dict(params or {})
        if self.lang != "de":
            query["lang"] = self.lang
        return PREFIX + path + (f"?{urlencode(query)}" if query else "")

    def leaderboard(self) -> str:
        return self._url("/")

    def browse(self, **params: str) -> str:
        return self._url("/browse", params)

    def solution(self, kind: str, solution_id: str) -> str:
        return self._url("/solution", {"kind": kind, "id": solution_id})

    def compare(self, corpus: str, task_id: str, a: str = "", b: str = "") -> str:
        params = {"corpus": corpus, "task": task_id} | ({"a": a} if a else {}) | ({"b": b} if b else {})
        return self._url("/compare", params)

    def validation(self) -> str:
        return self._url("/validation")

    def errors(self) -> str:
        return self._url("/errors")

    def static(self, name: str) -> str:
        return f"{PREFIX}/static/{name}"


class BundleLinks(Links):
    """Relative file names inside a bundle written by :func:`benger.web.viewer.write_bundle`.

    ``depth`` is how deep the current page lies below its language folder (0: ``de/index.html``).
    """

    bundle = True

    def __init__(self, lang: str, depth: int) -> None:
        super().__init__(lang)
        self.up = "../" * depth

    def leaderboard(self) -> str:
        return f"{self.up}index.html"

    def browse(self, **params: str) -> str:
        page = params.get("page", "1")
        key = [params[k] for k in ("system", "corpus") if params.get(k)]
        return f"{self.up}browse/{slug(*key) if key else 'all'}-{page}.html"

    def solution(self, kind: str, solution_id: str) -> str:
        return f"{self.up}solution/{slug(kind, solution_id)}.html"

    def compare(self, corpus: str, task_id: str, a: str = "", b: str = "") -> str:
        return f"{self.up}compare/{slug(corpus, task_id)}.html"

    def validation(self) -> str:
        return f"{self.up}validation.html"

    def errors(self) -> str:
        return f"{self.up}errors.html"

    def static(self, name: str) -> str:
        return f"{self.up}../static/{name}"
