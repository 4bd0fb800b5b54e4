"""TF's internal module paths that TF 1.x scripts import directly, mapped onto
tfc's modules: `from tfc.python.client import timeline` is
`tensorflow.python.client.timeline`."""
import sys as _sys

from tfc import client  # noqa: F401

_sys.modules[__name__ + ".client"] = client
