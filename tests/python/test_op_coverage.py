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


def test_every_op_spec_parses():
    """Import indexes the op tables by name only (a spec is parsed on first
    use); this parses every spec, so a bad one fails here, not in a graph."""
    import subprocess
    import sys
    code = ("from tfc import _tfc\n"
            "_tfc._registry_check()\n"
            "names = _tfc.op_names()\n"
            "assert names == sorted(names) and len(names) > 600, len(names)\n"
            "assert all(_tfc.op_def(n)['name'] == n for n in names)\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
    assert "bad op definition" not in out.stderr
