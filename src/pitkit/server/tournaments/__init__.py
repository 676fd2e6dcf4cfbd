"""The service that runs `pitkit.tournaments` for people: their logs kept in the store, the
links that make entries, and the online tables that feed them.
"""
