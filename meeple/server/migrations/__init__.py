"""Alembic migrations, shipped inside the package and applied when the server starts."""
