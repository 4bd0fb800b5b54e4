"""examples/train_digits.py --short trains both models well above chance (10%)."""
import pathlib
import re
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def test_train_digits_short():
    pytest.importorskip("sklearn")
    out = subprocess.run([sys.executable, str(REPO / "examples" / "train_digits.py"), "--short"],
                         cwd="/tmp", capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    accs = dict(re.findall(r"^(mlp|cnn) \(tfc, \d+ steps\): test accuracy ([0-9.]+)$", out.stdout,
                           re.M))
    assert "mlp" in accs, out.stdout
    for model, acc in accs.items():
        assert float(acc) > 0.9, (model, out.stdout)
