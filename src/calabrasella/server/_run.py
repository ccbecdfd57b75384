"""Running a table until it is done or told to stop (SIGINT, SIGTERM)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable

from ._lobby import Lobby
from ._table import Table


async def serve(
    table: Table | Lobby,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    ready: Callable[[str, int], None] | None = None,
) -> str:
    """Serve ``table`` (or a lobby) until its matches are played or SIGINT or SIGTERM arrives.

    On a signal the table stops listening, tells every client ``closing``,
    and closes; whatever it saved stays saved (``--resume`` goes on from it).

    Args:
        table: The table.
        host: The address to listen on.
        port: The port (0: a free one).
        ready: Called with the host and port once the table listens.

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
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop, sig.name)
            installed.append(sig)
    try:
        bound = await table.start(host, port)
        if ready is not None:
            ready(host, bound)
        done = asyncio.ensure_future(table.wait())
        halt = asyncio.ensure_future(stopped.wait())
        await asyncio.wait({done, halt}, return_when=asyncio.FIRST_COMPLETED)
        for future in (done, halt):
            future.cancel()
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)
        await table.close()
    return why[0]
