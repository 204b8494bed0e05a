"""The workbench: organisations with members and roles, their corpora, tasks and rubrics, in the browser.

Every route under ``/orgs/{org_id}`` takes its :class:`~benger.web.access.OrgScope` from
:func:`~benger.web.access.org_access` (tenant isolation in one place; docs/workbench.md).
"""

from __future__ import annotations

from fastapi import APIRouter

from benger.web.workbench import _corpora, _orgs, _studies

#: The workbench's routers (the app includes each; the authorisation matrix walks their routes).
ROUTERS: tuple[APIRouter, ...] = (_orgs.router, _corpora.router, _studies.router)

__all__ = ["ROUTERS"]
