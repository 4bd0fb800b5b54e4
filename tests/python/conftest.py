"""Shared pytest setup for tfc's Python tests.

`make test` runs pytest from tests/, against the installed package. The
source folder is importable too once `make install` has linked the built
extension beside it (tfc/_tfc*.so), which is the same binary; a source
folder without that link is refused so the tests never run half-built code.
"""

import importlib.util
import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def pytest_configure(config):
    """Fails the run early if `import tfc` would pick up a source tree that has
    no built extension beside it."""
    spec = importlib.util.find_spec("tfc")
    if spec is None or not spec.origin:
        return  # not installed yet; tests that need it fail by themselves
    origin = pathlib.Path(os.path.realpath(spec.origin))
    if (REPO / "tfc") in origin.parents and not list((REPO / "tfc").glob("_tfc*.so")):
        raise pytest.UsageError(
            f"tfc would be imported from the source tree ({origin}), which has no built "
            "extension: run `make install` first, or the tests via `make test`")


@pytest.fixture(autouse=True)
def _watchdog():
    """Turns a hang (e.g. a runtime deadlock) into a fast failure with a
    traceback instead of a CI run that waits for its time limit."""
    import faulthandler
    import sys
    faulthandler.dump_traceback_later(120, exit=True, file=sys.__stderr__)
    yield
    faulthandler.cancel_dump_traceback_later()
