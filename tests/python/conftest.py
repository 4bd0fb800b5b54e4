"""Shared pytest setup for tfc's Python tests.

The tests must exercise the *installed* package (with its compiled
extension), never the source tfc/ folder: run them as `make test`, which
invokes pytest from tests/. A source-tree import is refused here.
"""

import importlib.util
import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def pytest_configure(config):
    """Fails the run early if `import tfc` would pick up the source tree."""
    spec = importlib.util.find_spec("tfc")
    if spec is None or not spec.origin:
        return  # not installed yet; tests that need it fail by themselves
    origin = pathlib.Path(os.path.realpath(spec.origin))
    if (REPO / "tfc") in origin.parents:
        raise pytest.UsageError(
            f"tfc would be imported from the source tree ({origin}); run the tests "
            "via `make test` (pytest from tests/) so the installed package is used")


@pytest.fixture(autouse=True)
def _watchdog():
    """Turns a hang (e.g. a runtime deadlock) into a fast failure with a
    traceback instead of a CI run that waits for its time limit."""
    import faulthandler
    import sys
    faulthandler.dump_traceback_later(120, exit=True, file=sys.__stderr__)
    yield
    faulthandler.cancel_dump_traceback_later()
