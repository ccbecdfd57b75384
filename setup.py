"""Build the solver's compiled search, an optional C extension, with setuptools.

Everything else about the package is in ``pyproject.toml``. The package is
complete without the extension: ``calabrasella.bots.solver`` uses it when it
imports (``solver.COMPILED``) and the pure-Python search otherwise.

``CALABRASELLA_NATIVE`` chooses, when the package is built or installed:

- unset, empty or ``auto``: compile it if a C compiler works, else install
  pure Python and say so in one line;
- ``0``: never (pure Python);
- ``1``: compile it or fail (CI, and wheels built for PyPI).

``CALABRASELLA_LIMITED_API=0`` builds against the full C API instead of the
limited API of Python 3.10 (one abi3 module for every Python from 3.10).
"""

from __future__ import annotations

import os
import sys
import sysconfig
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

try:  # setuptools' wheel command (setuptools >= 70.1; pyproject.toml asks for 77)
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # pragma: no cover (python setup.py build_ext with an older setuptools)
    from setuptools import Command as bdist_wheel

SOURCES = ["src/calabrasella/bots/_solver_native.c", "src/calabrasella/bots/_solver_search.c"]
LIMITED = "0x030A0000"  # the limited API of Python 3.10, the oldest supported


def _mode() -> str:
    mode = os.environ.get("CALABRASELLA_NATIVE", "").strip().lower() or "auto"
    if mode not in ("auto", "0", "1"):
        raise SystemExit(f"CALABRASELLA_NATIVE={mode!r}: expected auto, 0 or 1")
    return mode


def _limited() -> bool:
    # CPython's limited API: not the free-threaded build's, nor PyPy's
    free_threaded = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
    cpython = sys.implementation.name == "cpython"
    return os.environ.get("CALABRASELLA_LIMITED_API", "1") != "0" and cpython and not free_threaded


def _say(line: str) -> None:
    """One line on the build's output; pip keeps that to itself unless run with -v,
    so the line also goes to the terminal pip runs in, if there is one."""
    text = f"calabrasella: {line}\n"
    sys.stderr.write(text)
    sys.stderr.flush()
    if sys.stderr.isatty() or os.name != "posix":
        return
    try:
        with open("/dev/tty", "w") as terminal:
            terminal.write("\n" + text)  # on a line of its own, past pip's progress
    except OSError:
        pass  # no terminal: the build's output has it


class OptionalBuildExt(build_ext):
    """Build the extension if it can; without a working compiler, say so and go on."""

    def run(self) -> None:
        mode = _mode()
        if mode == "0":
            _say("CALABRASELLA_NATIVE=0: installing the pure-Python search (slower; see the install docs)")
            self.extensions = []
            return
        try:
            super().run()
        except Exception as error:  # the compiler's errors differ by platform and setuptools version
            self._fallback(mode, error)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            self._fallback(_mode(), error)

    def _fallback(self, mode: str, error: BaseException) -> None:
        if mode == "1":
            raise
        compiler = getattr(self.compiler, "compiler_so", None) or ["the C compiler"]
        _say(
            f"could not compile the solver's search with {compiler[0]} ({type(error).__name__}): "
            "installing the pure-Python search, slower; CALABRASELLA_NATIVE=1 makes this an error"
        )
        self.extensions = []

    def get_outputs(self) -> list[str]:
        return super().get_outputs() if self.extensions else []


class Wheel(bdist_wheel):
    """Tag a wheel with the compiled module built for the limited API as abi3 (cp310)."""

    def finalize_options(self) -> None:
        if _limited() and _mode() != "0":
            self.py_limited_api = "cp310"
        super().finalize_options()

    def run_command(self, command: str) -> None:
        super().run_command(command)
        if command == "build" and not self.get_finalized_command("build_ext").extensions:
            self.root_is_pure = True  # no compiled module: CALABRASELLA_NATIVE=0 or no compiler

    def get_tag(self) -> Any:
        if self.root_is_pure:
            return "py3", "none", "any"
        return super().get_tag()


limited = _limited()
setup(
    ext_modules=[
        Extension(
            "calabrasella.bots._solver_native",
            sources=SOURCES,
            depends=["src/calabrasella/bots/_solver_search.h"],
            define_macros=[("Py_LIMITED_API", LIMITED)] if limited else [],
            py_limited_api=limited,
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt}
    | ({"bdist_wheel": Wheel} if hasattr(bdist_wheel, "get_tag") else {}),
)
