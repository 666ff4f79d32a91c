"""Shared test setup: Hypothesis profiles and the import path of the test helpers.

Profiles (pick one with ``HYPOTHESIS_PROFILE=name``, or pytest's ``--hypothesis-profile``):

``ci`` (default)
    few examples per property, so ``pytest -n 2`` stays within a couple of minutes;
``thorough``
    many more examples, for a long hunt (``HYPOTHESIS_PROFILE=thorough pytest -n auto``);
``quick``
    a smoke run while editing.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

# the property library (tests/properties.py) is imported as a plain module
_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

_COMMON = {
    "deadline": None,  # whole games per example: timings vary, and are not what is tested
    "suppress_health_check": [HealthCheck.too_slow],
    "print_blob": True,  # a failure prints the @reproduce_failure blob
}

settings.register_profile("ci", max_examples=12, **_COMMON)
settings.register_profile("thorough", max_examples=400, **_COMMON)
settings.register_profile("quick", max_examples=3, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
