"""Alembic migrations of the pbem schema (env.py and versions/)."""
