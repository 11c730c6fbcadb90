"""Accounts get a unique canonical name key, so names that read the same cannot both be registered.

Every existing account gets ``name_key(name)`` (NFKC, case folded, invisible characters dropped,
whitespace collapsed; see ``meeple.server.names``), oldest account first. When two existing names
share a key (``auditor`` and a later ``AUDITOR``), the oldest keeps it and the later ones are left
without one (``NULL``, which a unique index allows many times): nobody is renamed or locked out, as
login tries the exact name before the key, but each such account is logged as a warning so an
administrator can rename it; no new account can take that key again. A name whose key is empty or
longer than the column is left without a key the same way.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from meeple.server.names import KEY_LIMIT, name_key

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

log = logging.getLogger("meeple.server.migrations")

accounts = sa.table("accounts", sa.column("id", sa.Integer()), sa.column("name", sa.String()),
                    sa.column("name_key", sa.String()))


def upgrade() -> None:
    op.add_column("accounts", sa.Column("name_key", sa.String(KEY_LIMIT), nullable=True))
    connection = op.get_bind()
    holders: dict[str, tuple[int, str]] = {}
    for account_id, name in connection.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id)):
        key = name_key(name)
        if not key or len(key) > KEY_LIMIT:
            log.warning("account %s %r has no usable name key; it keeps its name but should be renamed",
                        account_id, name)
            continue
        if key in holders:
            holder_id, holder_name = holders[key]
            log.warning("account %s %r reads the same as the older account %s %r; it keeps its name and can "
                        "still log in with it exactly, but should be renamed", account_id, name, holder_id,
                        holder_name)
            continue
        holders[key] = (account_id, name)
        connection.execute(accounts.update().where(accounts.c.id == account_id).values(name_key=key))
    op.create_index("ix_accounts_name_key", "accounts", ["name_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_accounts_name_key", table_name="accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("name_key")
