"""What every app of benger.web takes from a request, without the study package: the request's store, the
headers every response carries, the principal asking and the read-only results pages' dependency.

The principal is the app's: ``benger view`` fixes one (``app.state.principal``); ``benger serve`` finds the
logged-in account's (``app.state.accounts``, :func:`benger.web.access.account_principal`, which reads the study
accounts). So the results viewer's router depends on this module alone and ``benger view`` never loads the study
package (issue 27); :mod:`benger.web.access` re-exports these names.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from benger.store import Store
from benger.web._policy import Access, Capability, Forbidden, LoginRequired, Principal, results_corpora

#: Sent with every response. The pages load only their own script and style (no inline code).
SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}


def store_of(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def principal_of(request: Request) -> Principal | None:
    """The app's fixed principal (``benger view``), else the logged-in account's (``benger serve``: the app's
    ``accounts``), else None."""
    state = request.app.state
    fixed = getattr(state, "principal", None)
    if isinstance(fixed, Principal):
        return fixed
    accounts = getattr(state, "accounts", None)
    return accounts(request) if accounts is not None else None


def results_access(request: Request) -> Access:
    """Router dependency of every read-only results page: the request's Access, checked for ``results:read``
    (every corpus), else confined to the corpora of the organisations where the account holds
    ``OrgCap.RESULTS_READ``."""
    store, principal = store_of(request), principal_of(request)
    if principal is not None and principal.user_id is not None and not principal.can(Capability.RESULTS):
        corpora = results_corpora(store, principal.user_id)
        if corpora is not None:
            return Access(store, principal, corpora)
    return Access(store, principal).require(Capability.RESULTS)


def reads_results(request: Request) -> bool:
    """Whether the results pages open for this request's principal (pages use it to show links only)."""
    try:
        results_access(request)
    except (LoginRequired, Forbidden):
        return False
    return True


ResultsAccess = Annotated[Access, Depends(results_access)]
