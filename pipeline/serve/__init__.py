"""`rulekb serve`: a built site on 127.0.0.1, and a JSON API answered from the files the build published.

- `generation`: the site being served, followed from one published build to the next;
- `files`: a file of the site as an answer (precompressed forms, headers, security headers);
- `sections`: /api/sections from the site's data files;
- `web`: Starlette and uvicorn (the only module that imports them): routes, limits, processes.
"""
from __future__ import annotations

from pathlib import Path

from .generation import Site
from .web import Server, serve


def make_server(site: Site | Path, host: str = "127.0.0.1", port: int = 8000) -> Server:
    """A server of the site, to run in a thread: serve_forever(), then shutdown() and server_close()."""
    return Server(site, host, port)


__all__ = ["Site", "Server", "make_server", "serve"]
