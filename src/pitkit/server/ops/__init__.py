"""The server's operations: limits and rate buckets, secret tokens, metrics, logs and the
proxy's configuration. Imports nothing else of the server.
"""
