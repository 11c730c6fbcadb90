"""Ratings: whether a table is rated, which seats were abandoned (and when), the bot accounts that
hold each level's ratings, every account's rating per game and player count, and its history.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("bot_level", sa.String(40), nullable=True))
        batch.create_unique_constraint("uq_accounts_bot_level", ["bot_level"])
    op.add_column("game_tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.text("false")))
    op.add_column("seats", sa.Column("abandoned_at", sa.Integer(), nullable=True))
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("players", sa.Integer(), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("display", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_display", "ratings", ["display"])
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("before", sa.Integer(), nullable=False),
        sa.Column("after", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("against_bots", sa.Boolean(), nullable=False),
        sa.Column("abandoned", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_changes_created_at", "rating_changes", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_created_at", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_ratings_display", "ratings")
    op.drop_table("ratings")
    op.drop_column("seats", "abandoned_at")
    op.drop_column("game_tables", "rated")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("uq_accounts_bot_level", type_="unique")
        batch.drop_column("bot_level")
