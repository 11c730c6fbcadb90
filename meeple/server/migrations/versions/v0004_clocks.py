"""Clocks: each table's mode, speed and timeout rule, where its clocks stand, and its events.

Existing tables become real-time tables without a limit (no bank, no deadline), as they were played;
the timeout rule defaults to a medium bot taking the seat. ``deadline`` is indexed: every process
looks for the tables whose deadline has passed. ``table_events`` holds what the platform did to a
table besides moves (a clock ran out, a vote, a reclaimed seat), for everyone's log.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    columns: list[sa.Column[Any]] = [
        sa.Column("mode", sa.String(16), nullable=False, server_default=sa.text("'real-time'")),
        sa.Column("speed", sa.String(16), nullable=False, server_default=sa.text("'unlimited'")),
        sa.Column("clock_bank", sa.Integer(), nullable=True),
        sa.Column("clock_bonus", sa.Integer(), nullable=True),
        sa.Column("timeout_rule", sa.String(8), nullable=False, server_default=sa.text("'bot'")),
        sa.Column("timeout_level", sa.String(40), nullable=False, server_default=sa.text("'medium'")),
        sa.Column("clocks", sa.JSON(), nullable=True),
        sa.Column("clock_running", sa.JSON(), nullable=True),
        sa.Column("clock_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("expiry_claimed_by", sa.String(64), nullable=True),
        sa.Column("expiry_lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("vote", sa.JSON(), nullable=True),
    ]
    for column in columns:
        op.add_column("game_tables", column)
    op.create_index("ix_game_tables_deadline", "game_tables", ["deadline"])
    op.create_table(
        "table_events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("idx", sa.Integer(), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(24), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_events")
    op.drop_index("ix_game_tables_deadline", table_name="game_tables")
    for name in ("vote", "expiry_lease_until", "expiry_claimed_by", "deadline", "clock_at", "clock_running", "clocks",
                 "timeout_level", "timeout_rule", "clock_bonus", "clock_bank", "speed", "mode"):
        op.drop_column("game_tables", name)
