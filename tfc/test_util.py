"""tf.test.TestCase, tf.test.main and tf.test.get_temp_dir (TF 1.15's test_util).

TestCase is absl's TestCase (as in TF) with TF's session helpers (`test_session`,
`session`, `cached_session`, `evaluate`) and array assertions (`assertAllClose` over
nested structures, `assertAllEqual`, `assertNear`, `assertAllInRange`,
`assertRaisesOpError`, ...). Every test starts on a fresh default graph with TF's
default seeds.
"""
import contextlib
import math
import os
import random
import re
import sys
import tempfile
import threading

import numpy as np
from absl.testing import absltest

from tfc import dtypes as _dtypes
from tfc import errors as _errors
from tfc import nest as _nest
from tfc.client import session as _session
from tfc.framework import ops as _ops
from tfc.framework import random_seed as _random_seed

_TEMP_DIR = []


def get_temp_dir():
  """A temporary directory for this process's tests (made once; $TEST_TMPDIR if set)."""
  if not _TEMP_DIR:
    base = os.environ.get("TEST_TMPDIR") or None
    _TEMP_DIR.append(tempfile.mkdtemp(prefix="tfc_test_", dir=base))
  return _TEMP_DIR[0]


def main(argv=None):
  """Runs the tests of the __main__ module (absl's test runner); argv replaces sys.argv."""
  if argv is not None:
    sys.argv[:] = list(argv)
  absltest.main()


class _CheckedThread(object):
  """A thread whose exception fails the test when it is joined."""

  def __init__(self, testcase, target, args=None, kwargs=None):
    self._testcase = testcase
    self._target = target
    self._args = args or ()
    self._kwargs = kwargs or {}
    self._thread = threading.Thread(target=self._protected_run)
    self._exception = None
    self._is_thread_joined = False

  def _protected_run(self):
    try:
      self._target(*self._args, **self._kwargs)
    except Exception as e:  # pylint: disable=broad-except
      self._exception = e

  def start(self):
    self._thread.start()

  def join(self):
    self._thread.join()
    self._is_thread_joined = True
    if self._exception is not None:
      self._testcase.fail("Error in checkedThread: %s" % str(self._exception))

  def is_alive(self):
    return self._thread.is_alive()

  def check_termination(self):
    if self._is_thread_joined:
      if self.is_alive():
        raise RuntimeError("Thread was not joined with main thread, and is still running "
                           "when the test finished.")
    else:
      self._testcase.fail("A checked thread was not joined.")


class TestCase(absltest.TestCase):
  """Base class for tests of TF 1.x graph code."""

  def __init__(self, methodName="runTest"):  # pylint: disable=invalid-name
    super(TestCase, self).__init__(methodName)
    self._threads = []
    self._tempdir = None
    self._cached_session = None

  def setUp(self):
    self._clear_cached_session()
    random.seed(_random_seed.DEFAULT_GRAPH_SEED)
    np.random.seed(_random_seed.DEFAULT_GRAPH_SEED)
    _ops.reset_default_graph()
    _random_seed.set_random_seed(_random_seed.DEFAULT_GRAPH_SEED)

  def tearDown(self):
    for thread in self._threads:
      thread.check_termination()
    self._clear_cached_session()

  def _clear_cached_session(self):
    if self._cached_session is not None:
      self._cached_session.close()
      self._cached_session = None

  def get_temp_dir(self):
    """A temporary directory of this test (inside tf.test.get_temp_dir())."""
    if not self._tempdir:
      self._tempdir = tempfile.mkdtemp(dir=get_temp_dir())
    return self._tempdir

  # -- sessions ----------------------------------------------------------------------

  @contextlib.contextmanager
  def session(self, graph=None, config=None, use_gpu=False, force_gpu=False):
    """A new Session on `graph` (the default graph when None), the default session
    while the block runs and closed after it."""
    del use_gpu, force_gpu  # tfc runs on CPUs
    graph = graph if graph is not None else _ops.get_default_graph()
    sess = _session.Session(graph=graph, config=config)
    try:
      with graph.as_default(), sess.as_default():
        yield sess
    finally:
      sess.close()

  @contextlib.contextmanager
  def cached_session(self, graph=None, config=None, use_gpu=False, force_gpu=False):
    """One Session per test, reused by every call (on the default graph unless `graph`),
    the default session while the block runs; closed when the test ends."""
    del use_gpu, force_gpu
    graph = graph if graph is not None else _ops.get_default_graph()
    if self._cached_session is None or self._cached_session.graph is not graph:
      self._clear_cached_session()
      self._cached_session = _session.Session(graph=graph, config=config)
    with graph.as_default(), self._cached_session.as_default():
      yield self._cached_session

  def test_session(self, graph=None, config=None, use_gpu=False, force_gpu=False):
    """The cached session on the default graph, or a new one on `graph` (TF 1.x)."""
    if self.id().endswith(".test_session"):
      self.skipTest("Not a test.")
    if graph is None:
      return self.cached_session(config=config, use_gpu=use_gpu, force_gpu=force_gpu)
    return self.session(graph, config, use_gpu, force_gpu)

  def evaluate(self, tensors):
    """The values of `tensors` (any nested structure), run in the default session or
    the cached one."""
    sess = _ops.get_default_session()
    if sess is None:
      with self.cached_session() as sess:
        return sess.run(tensors)
    return sess.run(tensors)

  def checkedThread(self, target, args=None, kwargs=None):  # pylint: disable=invalid-name
    """A thread whose exception fails the test at join(); every one must be joined."""
    thread = _CheckedThread(self, target, args, kwargs)
    self._threads.append(thread)
    return thread

  # -- assertions -------------------------------------------------------------------

  def _array(self, a):
    if isinstance(a, _ops.Tensor) or hasattr(a, "_as_graph_element"):
      a = self.evaluate(a)
    return np.asarray(a) if not isinstance(a, np.ndarray) else a

  def _assert_arrays_close(self, a, b, rtol, atol, path, msg):
    a, b = self._array(a), self._array(b)
    where = (" at path %s" % "".join("[%r]" % p for p in path)) if path else ""
    if a.shape != b.shape and a.size != 0 and b.size != 0 and not (a.ndim == 0 or b.ndim == 0):
      self.fail("Shape mismatch%s: expected %s, got %s with contents %s. %s"
                % (where, a.shape, b.shape, b, msg or ""))
    if a.dtype.kind in "fc" or b.dtype.kind in "fc":
      np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True,
                                 err_msg="Mismatch%s. %s" % (where, msg or ""))
    else:
      np.testing.assert_array_equal(a, b, err_msg="Mismatch%s. %s" % (where, msg or ""))

  def _assert_close_recursive(self, a, b, rtol, atol, path, msg):
    if isinstance(a, dict) or isinstance(b, dict):
      if not (isinstance(a, dict) and isinstance(b, dict)):
        self.fail("Expected %r and %r to both be dicts. %s" % (a, b, msg or ""))
      self.assertEqual(sorted(a), sorted(b), "mismatched keys at path %s. %s" % (path, msg or ""))
      for k in a:
        self._assert_close_recursive(a[k], b[k], rtol, atol, path + [k], msg)
    elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and \
        not (_is_array_like(a) and _is_array_like(b)):
      self.assertEqual(len(a), len(b), "Length of %r (%d) != length of %r (%d) at path %s. %s"
                       % (a, len(a), b, len(b), path, msg or ""))
      for i, (x, y) in enumerate(zip(a, b)):
        self._assert_close_recursive(x, y, rtol, atol, path + [i], msg)
    else:
      self._assert_arrays_close(a, b, rtol, atol, path, msg)

  def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # pylint: disable=invalid-name
    """a and b (arrays, tensors, or nested lists/tuples/dicts of them) are close:
    |a - b| <= atol + rtol * |b| element-wise, NaNs matching NaNs."""
    self._assert_close_recursive(a, b, rtol, atol, [], msg)

  def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6,  # pylint: disable=invalid-name
                                    float_atol=1e-6, half_rtol=1e-3, half_atol=1e-3,
                                    bfloat16_rtol=1e-2, bfloat16_atol=1e-2, msg=None):
    """assertAllClose with the tolerances of the least precise float dtype present."""
    a, b = self._array(a), self._array(b)
    dtypes = {a.dtype, b.dtype}
    if np.dtype(np.float32) in dtypes or np.dtype(np.complex64) in dtypes:
      rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
    if np.dtype(np.float16) in dtypes:
      rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
    if np.dtype(_dtypes.bfloat16.as_numpy_dtype) in dtypes:
      rtol, atol = max(rtol, bfloat16_rtol), max(atol, bfloat16_atol)
    self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

  def assertNotAllClose(self, a, b, **kwargs):  # pylint: disable=invalid-name
    try:
      self.assertAllClose(a, b, **kwargs)
    except AssertionError:
      return
    raise AssertionError("The two values are close at all elements")

  def assertAllEqual(self, a, b, msg=None):  # pylint: disable=invalid-name
    """a and b have the same shape and equal elements."""
    a, b = self._array(a), self._array(b)
    if a.shape != b.shape and a.ndim != 0 and b.ndim != 0:
      self.fail("Shape mismatch: expected %s, got %s with contents %s. %s"
                % (a.shape, b.shape, b, msg or ""))
    np.testing.assert_array_equal(a, b, err_msg=msg or "")

  def assertNotAllEqual(self, a, b, msg=None):  # pylint: disable=invalid-name
    try:
      self.assertAllEqual(a, b, msg)
    except AssertionError:
      return
    raise AssertionError("The two values are equal at all elements. %s" % (msg or ""))

  def assertNear(self, f1, f2, err, msg=None):  # pylint: disable=invalid-name
    """|f1 - f2| <= err for two floats."""
    self.assertTrue(f1 == f2 or math.fabs(f1 - f2) <= err,
                    "%f != %f +/- %f%s" % (f1, f2, err, " (%s)" % msg if msg else ""))

  def assertArrayNear(self, farray1, farray2, err, msg=None):  # pylint: disable=invalid-name
    """Two lists of floats, element by element within err."""
    self.assertEqual(len(farray1), len(farray2), msg=msg)
    for f1, f2 in zip(farray1, farray2):
      self.assertNear(float(f1), float(f2), err, msg=msg)

  def assertNDArrayNear(self, ndarray1, ndarray2, err, msg=None):  # pylint: disable=invalid-name
    """The L2 norm of ndarray1 - ndarray2 is below err."""
    self.assertTrue(np.linalg.norm(np.asarray(ndarray1) - np.asarray(ndarray2)) < err, msg=msg)

  def _all_compare(self, a, target, op, text):
    a = self._array(a)
    self.assertTrue(np.all(op(a, target)), "%s is not %s %s" % (a, text, target))

  def assertAllGreater(self, a, comparison_target):  # pylint: disable=invalid-name
    self._all_compare(a, comparison_target, np.greater, ">")

  def assertAllLess(self, a, comparison_target):  # pylint: disable=invalid-name
    self._all_compare(a, comparison_target, np.less, "<")

  def assertAllGreaterEqual(self, a, comparison_target):  # pylint: disable=invalid-name
    self._all_compare(a, comparison_target, np.greater_equal, ">=")

  def assertAllLessEqual(self, a, comparison_target):  # pylint: disable=invalid-name
    self._all_compare(a, comparison_target, np.less_equal, "<=")

  def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False,  # pylint: disable=invalid-name
                       open_upper_bound=False):
    """Every element of target lies in the (half-)open or closed interval."""
    target = self._array(target)
    if not (np.issubdtype(target.dtype, np.floating) or np.issubdtype(target.dtype, np.integer)):
      raise AssertionError("The value of %s does not have an ordered numeric type, instead it "
                           "has type: %s" % (target, target.dtype))
    low = target > lower_bound if open_lower_bound else target >= lower_bound
    high = target < upper_bound if open_upper_bound else target <= upper_bound
    bad = np.logical_not(np.logical_and(low, high))
    if np.any(bad):
      raise AssertionError("%d of the %d element(s) are outside the range %s%s, %s%s: %s"
                           % (bad.sum(), target.size, "(" if open_lower_bound else "[",
                              lower_bound, upper_bound, ")" if open_upper_bound else "]",
                              target[bad]))

  def assertAllInSet(self, target, expected_set):  # pylint: disable=invalid-name
    target = self._array(target)
    diff = set(target.ravel().tolist()) - set(expected_set)
    if diff:
      raise AssertionError("%d unique element(s) are not in the set %s: %s"
                           % (len(diff), expected_set, sorted(diff)))

  def assertDTypeEqual(self, target, expected_dtype):  # pylint: disable=invalid-name
    target = self._array(target)
    expected = _dtypes.as_dtype(expected_dtype).as_numpy_dtype
    self.assertEqual(target.dtype, np.dtype(expected))

  def assertShapeEqual(self, np_array, tf_tensor, msg=None):  # pylint: disable=invalid-name
    """The NumPy array's shape equals the tensor's static shape."""
    if not isinstance(np_array, (np.ndarray, np.generic)):
      raise TypeError("np_array must be a Numpy ndarray or Numpy scalar")
    if not isinstance(tf_tensor, _ops.Tensor):
      raise TypeError("tf_tensor must be a Tensor")
    self.assertAllEqual(np_array.shape, tf_tensor.get_shape().as_list(), msg=msg)

  def assertDeviceEqual(self, device1, device2, msg=None):  # pylint: disable=invalid-name
    """Two device strings name the same device."""
    from tfc.framework.device import DeviceSpec  # pylint: disable=g-import-not-at-top

    def canonical(d):
      return DeviceSpec.from_string(d or "").to_string()
    self.assertEqual(canonical(device1), canonical(device2),
                     "Devices %s and %s are not equal. %s" % (device1, device2, msg or ""))

  def assertStartsWith(self, actual, expected_start, msg=None):  # pylint: disable=invalid-name
    if not actual.startswith(expected_start):
      self.fail("Did not start with '%s': '%s'%s"
                % (expected_start, actual, " : %s" % msg if msg else ""))

  def assertProtoEquals(self, expected_message_maybe_ascii, message, msg=None):  # pylint: disable=invalid-name
    """message equals the expected message (a message or its text format)."""
    from google.protobuf import text_format  # pylint: disable=g-import-not-at-top
    if isinstance(expected_message_maybe_ascii, str):
      expected = type(message)()
      text_format.Merge(expected_message_maybe_ascii, expected)
    else:
      expected = expected_message_maybe_ascii
    self.assertEqual(text_format.MessageToString(expected), text_format.MessageToString(message),
                     msg)

  @contextlib.contextmanager
  def assertRaisesWithPredicateMatch(self, exception_type, expected_err_re_or_predicate):  # pylint: disable=invalid-name
    """The block raises exception_type whose message matches the regular expression (or
    for which the predicate is true)."""
    if callable(expected_err_re_or_predicate):
      predicate = expected_err_re_or_predicate
    else:
      def predicate(e):
        err_str = e.message if isinstance(e, _errors.OpError) else str(e)
        op = getattr(e, "op", None)
        while op is not None:
          err_str += "\nCaused by: " + op.name
          op = getattr(op, "_original_op", None)
        return re.search(expected_err_re_or_predicate, err_str) is not None
    try:
      yield
      self.fail(exception_type.__name__ + " not raised")
    except Exception as e:  # pylint: disable=broad-except
      if not isinstance(e, exception_type) or not predicate(e):
        raise AssertionError("Exception of type %s: %s" % (str(type(e)), str(e)))

  def assertRaisesOpError(self, expected_err_re_or_predicate):  # pylint: disable=invalid-name
    return self.assertRaisesWithPredicateMatch(_errors.OpError, expected_err_re_or_predicate)


def _is_array_like(x):
  """True when x (nested lists of numbers) makes a regular, non-object NumPy array."""
  if any(isinstance(v, _ops.Tensor) for v in _nest.flatten(x)):
    return False
  try:
    return np.asarray(x).dtype != object
  except ValueError:  # ragged nesting
    return False
