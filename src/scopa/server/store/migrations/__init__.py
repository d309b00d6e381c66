"""Alembic migrations, configured in code so they run from an installed package."""
