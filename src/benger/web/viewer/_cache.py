"""Pages computed once per store content: the leaderboard and the judge validation, kept while nothing changed.

The leaderboard with its bootstrap intervals over every judge item (64k generations: ~1.5 s on a quiet 2-core
machine, many seconds under load) and the validation blocks are computed on the first request and kept,
keyed by what they were computed for (the readable corpora, the hidden studies), under the store's content
version (:meth:`ContentCache.version`); a later request under the same version gets the same objects, so the
numbers are those of the first computation, which are the CLI's (``benger leaderboard``).

The version is exact, never a guess from timestamps:

* SQLite: ``PRAGMA data_version`` of one connection this cache holds and never writes with; SQLite changes it
  whenever another connection (of this process or another) commits to the file.
* PostgreSQL: the text of ``pg_current_snapshot()`` (xmin, xmax, the transactions in progress). Two equal
  snapshots see the same committed rows; any commit in between changes it. It is cluster-wide: a write to any
  database of the server (or an autovacuum ANALYZE) also changes it, so a busy server recomputes more often than
  needed, never less.

Values are kept for :data:`KEEP` keys (least recently used dropped). One computation runs at a time per store, so
concurrent first requests compute once.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from benger.store import Store

T = TypeVar("T")

#: Keys kept per store (a key: page kind x readable corpora x hidden studies; a few per principal kind).
KEEP = 32

_CACHES: weakref.WeakKeyDictionary[Store, ContentCache] = weakref.WeakKeyDictionary()
_CACHES_LOCK = threading.Lock()


class ContentCache:
    """Values computed from one store, each kept under the content version it was computed at."""

    def __init__(self, store: Store) -> None:
        self._store = weakref.ref(store)  # not the store itself: the cache is the value of a weak key
        self._lock = threading.RLock()
        self._values: OrderedDict[Hashable, tuple[object, Any]] = OrderedDict()
        self._watch: Any = None  # SQLite: the connection whose data_version is read

    def version(self) -> object:
        """The store's content version: equal for two calls only when no commit happened in between."""
        store = self._store()
        if store is None:
            raise RuntimeError("the store of this cache was closed and collected")
        engine = store.engine
        if engine.dialect.name == "sqlite":
            with self._lock:
                if self._watch is None:
                    # the leaderboard's statistics (ANALYZE, a commit) first, so that they change no later version
                    from benger.store._aggregate import refresh_statistics

                    refresh_statistics(store)
                    self._watch = engine.raw_connection()  # kept out of the pool; this cache only reads with it
                cursor = self._watch.cursor()
                try:
                    cursor.execute("PRAGMA data_version")
                    return int(cursor.fetchone()[0])
                finally:
                    cursor.close()
        with engine.connect() as connection:
            return str(connection.exec_driver_sql("SELECT pg_current_snapshot()::text").scalar())

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The value of ``key``: kept when computed under the current version, else ``compute()`` (kept)."""
        with self._lock:
            version = self.version()  # read before computing: a commit during the computation changes it
            kept = self._values.get(key)
            if kept is not None and kept[0] == version:
                self._values.move_to_end(key)
                value: T = kept[1]
                return value
            value = compute()
            self._values[key] = (version, value)
            self._values.move_to_end(key)
            while len(self._values) > KEEP:
                self._values.popitem(last=False)
            return value


def cache_of(store: Store) -> ContentCache:
    """The one :class:`ContentCache` of ``store`` (made on first use, dropped with the store)."""
    with _CACHES_LOCK:
        cache = _CACHES.get(store)
        if cache is None:
            cache = _CACHES[store] = ContentCache(store)
        return cache
