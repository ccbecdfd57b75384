"""Hypothesis profiles: "ci" (the default, and always when CI is set), "dev", "nightly" and "fuzz".

``HYPOTHESIS_PROFILE=dev pytest tests/property`` runs many more examples;
``HYPOTHESIS_PROFILE=nightly pytest tests/property`` runs far more still, with
fresh random examples on every run; ``HYPOTHESIS_PROFILE=fuzz`` runs 100,000
examples a test, for the record fuzzing (``tests/property/test_record_fuzz.py``).
When the ``CI`` environment variable is set the "ci" profile is used whatever
``HYPOTHESIS_PROFILE`` says, so CI runs stay small and reproducible (a nightly
job unsets ``CI`` to run "nightly").
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
settings.register_profile(
    "nightly",
    derandomize=False,
    deadline=None,
    max_examples=20_000,
    print_blob=True,  # a failure prints the @reproduce_failure line to replay it
    suppress_health_check=[HealthCheck.too_slow],
)

settings.register_profile(
    "fuzz",  # the record fuzzing, by hand: HYPOTHESIS_PROFILE=fuzz pytest tests/property/test_record_fuzz.py
    derandomize=False,
    deadline=None,
    max_examples=100_000,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)

# an empty HYPOTHESIS_PROFILE counts as unset
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE") or "ci")

# CI runs the tests on the compiled search (.ci/run, .ci/release_check: the wheel):
# CALABRASELLA_EXPECT_COMPILED=1 makes sure that is the solver they use (0: the
# pure-Python one), so a packaging slip cannot pass the tests on the wrong code.
_expect = os.environ.get("CALABRASELLA_EXPECT_COMPILED", "")
if _expect:
    from calabrasella.bots import _solver_core
    from calabrasella.bots import solver as _solver

    if (_expect == "1") != _solver.COMPILED:
        raise RuntimeError(
            f"CALABRASELLA_EXPECT_COMPILED={_expect}, but the solver imported from "
            f"{_solver_core.__file__} is {'compiled' if _solver.COMPILED else 'pure Python'}"
        )

