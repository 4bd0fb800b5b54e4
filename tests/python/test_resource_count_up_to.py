"""ResourceVariable.count_up_to and tf.count_up_to on resource variables:
the ResourceCountUpTo kernel counts like TensorFlow's (compared with
.venv-tf when present), raises OutOfRangeError at the limit with the node
name, NotFoundError before initialization, and rejects non-scalars and
dtype mismatches."""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import tfc as tf
from tfc.ops import resource_variable_ops

REPO = pathlib.Path(__file__).resolve().parents[2]
TF_PYTHON = REPO / ".venv-tf" / "bin" / "python"
REQUIRED = os.environ.get("TFC_COMPAT_REQUIRED", "") not in ("", "0")

SCRIPT = r'''
import json, os, sys
if sys.argv[1] == "tf":
  os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
  import tensorflow.compat.v1 as tf
  tf.disable_eager_execution()
else:
  import tfc as tf
out = {}
for dt in (tf.int32, tf.int64):
  with tf.Graph().as_default():
    v = tf.get_variable("v", initializer=tf.constant(-2, dt), use_resource=True)
    a, b = v.count_up_to(3), tf.count_up_to(v, 2)
    res = []
    with tf.Session() as s:
      try:
        s.run(a)
      except tf.errors.OpError as e:
        res.append(type(e).__name__)
      s.run(tf.global_variables_initializer())
      for op in (a, a, b, b, a, a, a):
        try:
          res.append(int(s.run(op)))
        except tf.errors.OpError as e:
          res.append(type(e).__name__)
      res.append(int(s.run(v)))
    out[dt.name] = res + [a.op.type, a.dtype.name, a.shape.ndims]
print(json.dumps(out, sort_keys=True))
'''


def _run(python, which, env=None):
  p = subprocess.run([str(python), "-c", SCRIPT, which], capture_output=True, text=True, env=env,
                     timeout=300)
  assert p.returncode == 0, p.stderr[-3000:]
  return json.loads(p.stdout.strip().splitlines()[-1])


def test_count_up_to_matches_tensorflow():
  got = _run(sys.executable, "tfc")
  assert got["int64"][:9] == ["NotFoundError", -2, -1, 0, 1, 2, "OutOfRangeError",
                              "OutOfRangeError", 3]
  if not TF_PYTHON.exists():
    if REQUIRED:
      pytest.fail("TensorFlow venv missing")
    pytest.skip("no .venv-tf")
  env = dict(os.environ)
  env.pop("LD_PRELOAD", None)
  env.pop("PYTHONPATH", None)
  assert got == _run(TF_PYTHON, "tf", env)


def test_limit_error_names_the_node():
  with tf.Graph().as_default():
    v = tf.Variable(np.int64(5), use_resource=True)
    c = v.count_up_to(5)
    with tf.Session() as s:
      s.run(v.initializer)
      with pytest.raises(tf.errors.OutOfRangeError, match="Reached limit of 5") as e:
        s.run(c)
      assert c.op.name in str(e.value)
      assert s.run(v) == 5


def test_concurrent_counts_in_one_step_are_distinct():
  with tf.Graph().as_default():
    v = tf.Variable(np.int32(0), use_resource=True)
    ops = [v.count_up_to(1000) for _ in range(64)]
    with tf.Session() as s:
      s.run(v.initializer)
      vals = s.run(ops)
      assert sorted(vals) == list(range(64))
      assert s.run(v) == 64


def test_non_scalar_variable_is_rejected():
  with tf.Graph().as_default():
    m = tf.Variable(np.array([1, 2], np.int32), use_resource=True)
    with pytest.raises(ValueError, match="rank 0"):
      m.count_up_to(4)
    # a shape only known when run: the kernel checks it
    h = m.handle
    c = resource_variable_ops.resource_count_up_to(h, 4, tf.int32)
    with tf.Session() as s:
      s.run(m.initializer)
      with pytest.raises(tf.errors.InvalidArgumentError, match="not a scalar"):
        s.run(c)


def test_dtype_mismatch_is_an_invalid_argument():
  with tf.Graph().as_default():
    u = tf.Variable(np.int32(1), use_resource=True)
    c = resource_variable_ops.resource_count_up_to(u.handle, 4, tf.int64)
    with tf.Session() as s:
      s.run(u.initializer)
      with pytest.raises(tf.errors.InvalidArgumentError, match="wrong dtype"):
        s.run(c)
      assert s.run(u) == 1


def test_float_variables_cannot_count():
  with tf.Graph().as_default():
    f = tf.Variable(1.0, use_resource=True)
    with pytest.raises((TypeError, ValueError)):
      f.count_up_to(3)
