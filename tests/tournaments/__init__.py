"""Tests of the tournaments' rules, without a server."""
