"""The docs' doctests import the examples they show (a pytest conftest, not a page).

docs/variants.md includes the definitions of ``examples/swap_variant.py`` and
its doctests use them (``from swap_variant import SwapCavendish``), so the
page shows the tested file itself rather than a copy of it.
"""

from __future__ import annotations

import sys
from pathlib import Path

EXAMPLES = str(Path(__file__).resolve().parents[1] / "examples")
if EXAMPLES not in sys.path:
    sys.path.insert(0, EXAMPLES)
