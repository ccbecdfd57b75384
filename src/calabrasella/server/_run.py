"""Running a table until it is done or told to stop (SIGINT, SIGTERM)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable

from ._lobby import Lobby
from ._table import Table
from ._web import WebBridge


async def serve(
    table: Table | Lobby,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    ready: Callable[[str, int], None] | None = None,
    web: int | None = None,
    web_ready: Callable[[str, int], None] | None = None,
) -> str:
    """Serve ``table`` (or a lobby) until its matches are played or SIGINT or SIGTERM arrives.

    On a signal the table stops listening, tells every client ``closing``,
    and closes; whatever it saved stays saved (``--resume`` goes on from it).

    Args:
        table: The table.
        host: The address to listen on.
        port: The port (0: a free one).
        ready: Called with the host and port once the table listens.
        web: Also serve the browser table (HTTP and server-sent events) on
            this port of ``host`` (0: a free one); ``None``: no browser table.
        web_ready: Called with the browser table's host and port.

    Returns:
        ``"done"`` when the matches were played, or the signal's name.
    """
    loop = asyncio.get_running_loop()
    stopped = asyncio.Event()
    why = ["done"]

    def stop(name: str) -> None:
        why[0] = name
        stopped.set()

    installed = []
    bridge: WebBridge | None = None
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop, sig.name)
            installed.append(sig)
    try:
        bound = await table.start(host, port)
        if ready is not None:
            ready(host, bound)
        if web is not None:
            bridge = WebBridge(bound, host if host not in ("0.0.0.0", "::", "") else "127.0.0.1")
            web_port = await bridge.start(host, web)
            if web_ready is not None:
                web_ready(host, web_port)
        done = asyncio.ensure_future(table.wait())
        halt = asyncio.ensure_future(stopped.wait())
        await asyncio.wait({done, halt}, return_when=asyncio.FIRST_COMPLETED)
        for future in (done, halt):
            future.cancel()
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)
        if bridge is not None:
            await bridge.close()
        await table.close()
    return why[0]
