"""Scale out: the lobby's figures on each table row, and the durable queue of bot jobs.

``game_tables.moves`` and ``current_player`` let any process list every table without loading its
game; existing running tables get their move count from their action log (their current player is
filled in by the first move made after the upgrade). ``bot_jobs`` is the queue bot workers claim
from, with a lease so a dead worker's job is claimed again.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("game_tables", sa.Column("moves", sa.Integer(), nullable=False, server_default=sa.text("0")))
    op.add_column("game_tables", sa.Column("current_player", sa.Integer(), nullable=True))
    op.execute("UPDATE game_tables SET moves = (SELECT COUNT(*) FROM actions WHERE actions.table_id = game_tables.id)")
    op.create_table(
        "bot_jobs",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(40), nullable=False),
        sa.Column("queued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default=sa.text("0")),
    )
    op.create_index("ix_bot_jobs_queued_at", "bot_jobs", ["queued_at"])


def downgrade() -> None:
    op.drop_index("ix_bot_jobs_queued_at", table_name="bot_jobs")
    op.drop_table("bot_jobs")
    op.drop_column("game_tables", "current_player")
    op.drop_column("game_tables", "moves")
