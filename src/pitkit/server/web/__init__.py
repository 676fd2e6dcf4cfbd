"""The web: the only part of pitkit that speaks HTTP (FastAPI, Starlette, Pydantic,
uvicorn): routes, request bodies, guards and pages.
"""
