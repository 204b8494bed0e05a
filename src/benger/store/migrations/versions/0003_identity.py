"""Identity: systems keyed by (name, config hash); the claims table of the pay-once lease.

Existing stores stay readable: every systems row keeps its values (the old key, the name, was unique,
so the new key is too), and the claims table starts empty.

Revision ID: 0003_identity
Revises: 0002_study
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_identity"
down_revision: str | None = "0002_study"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _systems_key(columns: list[str]) -> None:
    if op.get_bind().dialect.name == "sqlite":  # SQLite cannot alter a primary key: the batch copies the table
        with op.batch_alter_table("systems", recreate="always") as batch:
            batch.drop_constraint("pk_systems", type_="primary")
            batch.create_primary_key("pk_systems", columns)
        return
    op.drop_constraint("pk_systems", "systems", type_="primary")
    op.create_primary_key("pk_systems", "systems", columns)


def upgrade() -> None:
    _systems_key(["name", "config_hash"])
    op.create_table(
        "claims",
        sa.Column("unit_key", sa.String(400), nullable=False),
        sa.Column("owner", sa.String(100), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("unit_key", name="pk_claims"),
    )


def downgrade() -> None:
    op.drop_table("claims")
    op.execute(  # the old key holds one configuration per name: keep the first hash of each
        "DELETE FROM systems WHERE config_hash <> "
        "(SELECT MIN(s.config_hash) FROM systems s WHERE s.name = systems.name)"
    )
    _systems_key(["name"])
