"""Storage: the only part of pitkit that speaks SQL (SQLAlchemy, Alembic): the schema and
its migrations, the single writer, the tables' and tournaments' rows, ownership between
workers, and backups.
"""
