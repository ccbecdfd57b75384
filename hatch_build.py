"""Build hook: compile the solver's native search into the wheel when a C compiler is there.

The package is pure Python and complete without it: the search in
``calabrasella/bots/_solver_native.c`` is an optional extension module that
``calabrasella.bots.solver`` uses when it imports (``solver.COMPILED``).

``CALABRASELLA_NATIVE`` chooses, at build time:

- unset or ``0``: never (the pure ``py3-none-any`` wheel, as uploaded to
  PyPI until platform wheels are built for it);
- ``auto``: compile it if the compiler works, else build the pure wheel (a
  note on the build's output, nothing at import);
- ``1``: compile it or fail the build (CI's compiled wheel).

Editable installs (``pip install -e .``) stay pure Python. To compile the
module next to its source in a checkout (it is git-ignored), run
``python hatch_build.py``.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

SOURCE = Path("src/calabrasella/bots/_solver_native.c")
MODULE = "calabrasella/bots/_solver_native"


def compile_native(root: Path, out_dir: Path) -> Path:
    """Compile the extension module from ``root``'s source into ``out_dir``; return its path.

    Raises:
        OSError: No compiler, or it failed (its output is in the message).
    """
    if sys.platform == "win32":
        raise OSError("the native search is built with a Unix-style C compiler only")
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / ("_solver_native" + suffix)
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    ldshared = sysconfig.get_config_var("LDSHARED") or f"{compiler} -shared"
    command = [
        *shlex.split(ldshared),
        *shlex.split(sysconfig.get_config_var("CCSHARED") or "-fPIC"),
        "-O2",
        "-std=c99",
        "-I",
        sysconfig.get_paths()["include"],
        str(root / SOURCE),
        "-o",
        str(target),
    ]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as error:
        raise OSError(f"no C compiler: {error}") from None
    if done.returncode:
        raise OSError(f"{shlex.join(command)} failed:\n{done.stdout}{done.stderr}")
    return target


try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # pragma: no cover (python hatch_build.py without hatchling)
    BuildHookInterface = object  # type: ignore[assignment,misc]


class NativeBuildHook(BuildHookInterface):  # type: ignore[misc,valid-type]
    """Compile the native search into the wheel (see the module's docstring)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Add the compiled module to a wheel, if wanted and a compiler is there."""
        mode = os.environ.get("CALABRASELLA_NATIVE", "0").strip().lower() or "0"
        if mode not in ("auto", "0", "1"):
            raise ValueError(f"CALABRASELLA_NATIVE={mode!r}: expected auto, 0 or 1")
        if self.target_name != "wheel" or version == "editable" or mode == "0":
            return
        root = Path(self.root)
        try:
            built = compile_native(root, root / "build" / "native")
        except OSError as error:
            if mode == "1":
                raise
            self.app.display_warning(f"calabrasella: building without the native search ({error})")
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        build_data["force_include"][str(built)] = MODULE + built.name[len("_solver_native") :]


if __name__ == "__main__":
    here = Path(__file__).resolve().parent
    print(compile_native(here, here / SOURCE.parent))
