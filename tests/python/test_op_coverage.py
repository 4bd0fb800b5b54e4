"""Every op the Python package can create is registered in C with a CPU kernel."""
import pathlib
import re

import tfc
from tfc import _tfc


def test_every_wrapped_op_has_a_definition_and_a_kernel():
    root = pathlib.Path(tfc.__file__).parent
    names = set()
    for path in root.rglob("*.py"):
        names.update(re.findall(r"_apply_op\(\s*['\"]([A-Za-z0-9_]+)['\"]", path.read_text()))
    assert len(names) > 50
    registered = set(_tfc.op_names())
    missing = sorted(n for n in names if n not in registered or not _tfc.kernel_exists(n))
    assert missing == []
