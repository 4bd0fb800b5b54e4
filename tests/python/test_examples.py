"""The examples and the README's code run as documented."""
import pathlib
import re
import subprocess
import sys

REPO = pathlib.Path(__file__).resolve().parents[2]


def test_quickstart_example_runs():
    out = subprocess.run([sys.executable, str(REPO / "examples" / "quickstart.py")], cwd="/tmp",
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "total = 30.0  doubled (on /cpu:1) = 60.0" in out.stdout
    assert "b after assign_add = [ 1. -1.]" in out.stdout
    assert "InvalidArgumentError: You must feed a value for placeholder tensor 'x'" in out.stdout
    assert "still usable: 30.0" in out.stdout


def test_readme_snippets_run():
    text = (REPO / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    # the second snippet continues the first one's imports
    code = blocks[0] + "\nimport tfc as tf\ntf.reset_default_graph()\n" + blocks[1]
    out = subprocess.run([sys.executable, "-c", code], cwd="/tmp", capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["[[11.]]", "24.0"]
    assert "MatMul: (MatMul): /job:localhost/replica:0/task:0/device:CPU:1" in out.stderr


def test_readme_checkpoint_and_summary_snippet_runs():
    text = (REPO / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    code = next(b for b in blocks if "tf.train.Saver" in b)
    out = subprocess.run([sys.executable, "-c", code], cwd="/tmp", capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["/model.ckpt-300", "[0.333", "0.333", "0.333]"]
