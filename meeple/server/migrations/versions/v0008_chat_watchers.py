"""Chat and spectators: every chat line of a table or of the lobby, and whether a table lets people
without a seat watch its running game.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("room", sa.String(32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("sender", sa.String(200), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_messages_room", "chat_messages", ["room"])
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("watchers", sa.Boolean(), nullable=False, server_default=sa.text("true")))


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("watchers")
    op.drop_index("ix_chat_messages_room", table_name="chat_messages")
    op.drop_table("chat_messages")
