"""Tests of the game server."""
