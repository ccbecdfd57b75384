"""``python -m calabrasella``: the ``calabrasella`` command (see :mod:`calabrasella.cli`)."""

from .cli import main

__all__ = ["main"]  # also the entry point of scripts installed before cli.py

if __name__ == "__main__":
    raise SystemExit(main())
