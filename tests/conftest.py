"""Hypothesis profiles: "ci" (the default, and always when CI is set) and "dev".

``HYPOTHESIS_PROFILE=dev pytest tests/property`` runs many more examples.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=50,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    deadline=None,
    max_examples=1000,
    suppress_health_check=[HealthCheck.too_slow],
)

settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "ci"))
