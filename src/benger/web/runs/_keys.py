"""An organisation's API keys: set, replaced and deleted by name, shown only as "set by X at T".

The key is encrypted before it reaches the session (``benger.llm._keys``) and decrypted only by the run that
uses it; nothing here returns a key or any part of it to a caller outside a run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from benger.errors import ConfigError, InputError
from benger.llm._keys import check_key_name, decrypt_key, encrypt_key
from benger.store._base import utcnow
from benger.study._models import StudyUser
from benger.study._workbench_models import OrgApiKey


@dataclass(frozen=True)
class KeyStatus:
    """What a page may show of a stored key: its name, who set it and when (never the key)."""

    name: str
    set_by: str
    set_at: datetime


def _name(name: str) -> str:
    try:
        return check_key_name(name.strip())
    except ConfigError as exc:
        raise InputError(str(exc), field="name") from None


def set_key(session: Session, organisation_id: int, name: str, plain: str, user_id: int | None) -> None:
    """Store (or replace) the organisation's key ``name``; InputError for a bad name or an empty key."""
    name = _name(name)
    plain = plain.strip()
    if not plain:
        raise InputError("the key is empty", field="key")
    try:
        sealed = encrypt_key(plain)
    except ConfigError as exc:
        raise InputError(str(exc), field="key") from None
    row = session.scalar(select(OrgApiKey).filter_by(organisation_id=organisation_id, name=name))
    if row is None:
        session.add(OrgApiKey(organisation_id=organisation_id, name=name, ciphertext=sealed, set_by=user_id))
    else:
        row.ciphertext, row.set_by, row.set_at = sealed, user_id, utcnow()
    session.flush()


def delete_key(session: Session, organisation_id: int, name: str) -> bool:
    """Delete the organisation's key ``name``; False when there was none."""
    result = session.execute(delete(OrgApiKey).filter_by(organisation_id=organisation_id, name=_name(name)))
    return bool(getattr(result, "rowcount", 0))


def key_statuses(session: Session, organisation_id: int) -> list[KeyStatus]:
    """The organisation's keys as pages show them, by name."""
    rows = session.execute(
        select(OrgApiKey.name, OrgApiKey.set_at, StudyUser.username)
        .outerjoin(StudyUser, StudyUser.id == OrgApiKey.set_by)
        .where(OrgApiKey.organisation_id == organisation_id)
        .order_by(OrgApiKey.name)
    )
    return [KeyStatus(name, user or "–", at) for name, at, user in rows]


def sealed_keys(session: Session, organisation_id: int) -> dict[str, str]:
    """name -> ciphertext of the organisation's keys (for a run: decrypted there, or sent to workers sealed)."""
    rows = session.execute(
        select(OrgApiKey.name, OrgApiKey.ciphertext).where(OrgApiKey.organisation_id == organisation_id)
    )
    return {name: sealed for name, sealed in rows}


def open_keys(sealed: Mapping[str, str]) -> dict[str, str]:
    """Decrypt sealed keys (only inside a run)."""
    return {name: decrypt_key(token) for name, token in sealed.items()}
