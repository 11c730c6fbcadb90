"""Turn alerts: an account's e-mail address, whether it wants a mail when it is its turn at a
turn-based table and in which language, and per seat when its player was last mailed (so one mail is
sent until they move or open the table).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("email", sa.String(254), nullable=True))
        batch.add_column(sa.Column("email_turns", sa.Boolean(), nullable=False, server_default=sa.text("false")))
        batch.add_column(sa.Column("language", sa.String(16), nullable=True))
    op.add_column("seats", sa.Column("turn_mailed_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("seats", "turn_mailed_at")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("language")
        batch.drop_column("email_turns")
        batch.drop_column("email")
