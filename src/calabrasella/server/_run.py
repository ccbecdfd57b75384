"""Running a table until it is done or told to stop (SIGINT, SIGTERM)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ._lobby import Lobby
from ._table import Table

#: Seconds between two reports of failed accepts (the process is out of file descriptors).
ACCEPT_REPORT_EVERY = 60.0


def quiet_accept_errors(loop: asyncio.AbstractEventLoop) -> None:
    """Report failed accepts (too many open files) in one line a minute, not a traceback each.

    asyncio retries a failed accept every second and logs each failure with a
    traceback; a server out of file descriptors would flood its log. Every
    other error goes to the handler that was there before.
    """
    previous = loop.get_exception_handler()
    last = [-ACCEPT_REPORT_EVERY]
    skipped = [0]

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if not str(context.get("message", "")).startswith("socket.accept() out of system resource"):
            if previous is not None:
                previous(loop, context)
            else:
                loop.default_exception_handler(context)
            return
        now = loop.time()
        if now - last[0] < ACCEPT_REPORT_EVERY:
            skipped[0] += 1
            return
        more = f" ({skipped[0]} more since the last report)" if skipped[0] else ""
        sys.stderr.write(f"calabrasella server: cannot accept a connection: "
                         f"{context.get('exception')}{more}; retrying\n")  # fmt: skip
        last[0], skipped[0] = now, 0

    loop.set_exception_handler(handler)


async def serve(
    table: Table | Lobby,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    ready: Callable[[str, int], None] | None = None,
    web: int | None = None,
    web_ready: Callable[[str, int], None] | None = None,
    web_hosts: Sequence[str] = (),
    linger: float | None = None,
    forwarded_allow_ips: Sequence[str] = (),
) -> str:
    """Serve ``table`` (or a lobby) until its matches are played or SIGINT or SIGTERM arrives.

    On a signal the table stops listening, tells every client ``closing``,
    and closes; whatever it saved stays saved (``--resume`` goes on from it).
    With the browser table, the page stays up after the matches are played
    (the table takes no more players), so its players can still see the
    ledger and ask for the last deal's analysis: until a signal, or for
    ``linger`` seconds.

    Args:
        table: The table.
        host: The address to listen on.
        port: The port (0: a free one).
        ready: Called with the host and port once the table listens.
        web: Also serve the browser table (:class:`WebTable`, which needs the
            ``server`` extra) on this port of ``host`` (0: a free one);
            ``None``: no browser table.
        web_ready: Called with the browser table's host and port.
        web_hosts: Names the browser table may be reached by, besides
            ``localhost`` and the addresses (see :class:`WebTable`).
        linger: With the browser table: seconds it stays up once the
            matches are played (``None``: until a signal).
        forwarded_allow_ips: The trusted reverse proxies of the browser
            table (see :class:`WebTable`).

    Returns:
        ``"done"`` when the matches were played (and the page's time after
        them is over), or the signal's name.
    """
    loop = asyncio.get_running_loop()
    quiet_accept_errors(loop)
    stopped = asyncio.Event()
    why = ["done"]

    def stop(name: str) -> None:
        why[0] = name
        stopped.set()

    installed = []
    bridge: Any = None
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop, sig.name)
            installed.append(sig)
    try:
        bound = await table.start(host, port)
        if ready is not None:
            ready(host, bound)
        if web is not None:
            from ._web import WebTable  # the server extra

            bridge = WebTable(table, hosts=web_hosts, message_bytes=table.limits.line_bytes,
                              output_bytes=table.limits.pending_bytes,
                              forwarded_allow_ips=forwarded_allow_ips)  # fmt: skip
            web_port = await bridge.start(host, web)
            if web_ready is not None:
                web_ready(host, web_port)
        done = asyncio.ensure_future(table.wait())
        halt = asyncio.ensure_future(stopped.wait())
        await asyncio.wait({done, halt}, return_when=asyncio.FIRST_COMPLETED)
        if bridge is not None and not stopped.is_set() and (linger is None or linger > 0):
            # the matches are played: the page stays for the ledger and the analyses
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(halt), linger)
        for future in (done, halt):
            future.cancel()
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)
        await table.close()  # every client, browsers too, is told "closing" first
        if bridge is not None:
            await bridge.close()
    return why[0]
