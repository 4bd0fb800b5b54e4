"""tf.test.TestCase (sessions, evaluate, TF's assertions, a fresh graph per test),
tf.test.main running a test script, tf.test.get_temp_dir."""
import os
import pathlib
import subprocess
import sys
import textwrap
import unittest

import numpy as np

import tfc as tf

TFC_ROOT = str(pathlib.Path(tf.__file__).resolve().parents[1])


def run_cases(case_class):
  """Runs a TestCase class; returns {test name: None (passed) or the failure text}."""
  suite = unittest.defaultTestLoader.loadTestsFromTestCase(case_class)
  outcome = {t.id().rsplit(".", 1)[-1]: None for t in suite}
  result = unittest.TestResult()
  suite.run(result)
  for test, text in result.failures + result.errors:
    outcome[test.id().rsplit(".", 1)[-1]] = text
  for test, _ in result.skipped:
    outcome[test.id().rsplit(".", 1)[-1]] = "skipped"
  return outcome


def make_cases():
  """The TestCase classes under test (made here so that pytest does not collect them)."""

  class Passing(tf.test.TestCase):

    def test_sessions(self):
      x = tf.constant([1.0, 2.0])
      with self.test_session() as sess:
        self.assertIs(tf.get_default_session(), sess)
        self.assertAllClose((x * 2).eval(), [2.0, 4.0])
      with self.cached_session() as again:
        self.assertIs(again, sess)
      with self.session() as fresh:
        self.assertIsNot(fresh, sess)
      self.assertAllEqual(self.evaluate(x), [1.0, 2.0])
      g = tf.Graph()
      with g.as_default():
        y = tf.constant(3)
      with self.session(graph=g) as s:
        self.assertEqual(s.run(y), 3)

    def test_fresh_graph_and_seed(self):
      self.assertEqual(tf.get_default_graph().get_operations(), [])
      self.assertEqual(tf.get_default_graph().seed, 87654321)

    def test_assertions_that_hold(self):
      self.assertAllClose({"a": [np.ones(2), (3.0, np.nan)]},
                          {"a": [np.ones(2) + 1e-7, (3.0, np.nan)]})
      self.assertAllClose(tf.constant([1.0, 2.0]), [1.0, 2.0])
      self.assertAllCloseAccordingToType(np.float16([1.0]), np.float16([1.0005]))
      self.assertNotAllClose([1.0], [2.0])
      self.assertAllEqual([[1, 2]], np.array([[1, 2]]))
      self.assertNotAllEqual([1, 2], [1, 3])
      self.assertNear(1.0, 1.05, 0.1)
      self.assertArrayNear([1.0, 2.0], [1.01, 2.0], 0.02)
      self.assertNDArrayNear(np.ones(3), np.ones(3) * 1.001, 0.01)
      self.assertAllGreater([2, 3], 1)
      self.assertAllLessEqual([2, 3], 3)
      self.assertAllInRange([0.0, 0.5, 1.0], 0.0, 1.0)
      self.assertAllInSet([1, 2, 1], {1, 2})
      self.assertDTypeEqual(np.int32([1]), tf.int32)
      self.assertShapeEqual(np.zeros((2, 3)), tf.zeros([2, 3]))
      self.assertDeviceEqual("/cpu:0", "/device:CPU:0")
      self.assertStartsWith("tfc rocks", "tfc")
      self.assertProtoEquals("producer: 26", tf.VersionDef(producer=26))
      with self.assertRaisesOpError("must feed a value"):
        self.evaluate(tf.placeholder(tf.float32) * 2)
      with self.assertRaisesWithPredicateMatch(ValueError, lambda e: "boom" in str(e)):
        raise ValueError("boom")
      thread = self.checkedThread(lambda: None)
      thread.start()
      thread.join()
      self.assertTrue(os.path.isdir(self.get_temp_dir()))
      self.assertTrue(self.get_temp_dir().startswith(tf.test.get_temp_dir()))


  class Failing(tf.test.TestCase):

    def test_close(self):
      self.assertAllClose([1.0, 2.0], [1.0, 2.1])

    def test_shape(self):
      self.assertAllClose(np.ones((2, 2)), np.ones((2, 3)))

    def test_nested_path(self):
      self.assertAllClose({"a": [1.0, [2.0]]}, {"a": [1.0, [2.5]]})

    def test_equal(self):
      self.assertAllEqual([1, 2], [1, 3])

    def test_range(self):
      self.assertAllInRange([0.0, 1.0], 0.0, 1.0, open_upper_bound=True)

    def test_op_error_not_raised(self):
      with self.assertRaisesOpError("x"):
        pass

    def test_thread(self):
      def boom():
        raise RuntimeError("in thread")
      thread = self.checkedThread(boom)
      thread.start()
      thread.join()

  return Passing, Failing


def test_passing_assertions():
  outcome = run_cases(make_cases()[0])
  assert outcome.pop("test_session") == "skipped"  # TF's helper, not a test
  assert outcome == {"test_sessions": None, "test_fresh_graph_and_seed": None,
                     "test_assertions_that_hold": None}, outcome


def test_failing_assertions():
  outcome = run_cases(make_cases()[1])
  outcome.pop("test_session")
  assert all(text not in (None, "skipped") for text in outcome.values()), outcome
  assert "Mismatch" in outcome["test_close"]
  assert "Shape mismatch" in outcome["test_shape"]
  assert "Mismatch at path ['a'][1]" in outcome["test_nested_path"]
  assert "outside the range [0.0, 1.0)" in outcome["test_range"]
  assert "OpError not raised" in outcome["test_op_error_not_raised"]
  assert "Error in checkedThread: in thread" in outcome["test_thread"]


def test_main_runs_a_test_script(tmp_path):
  script = tmp_path / "my_test.py"
  script.write_text(textwrap.dedent("""
      import tfc as tf

      class MathTest(tf.test.TestCase):

        def testAdd(self):
          with self.test_session():
            self.assertAllClose((tf.constant([1.0, 2.0]) + 1).eval(), [2.0, 3.0])

        def testBroken(self):
          self.assertAllEqual(self.evaluate(tf.constant(1)), 2)

      if __name__ == "__main__":
        tf.test.main()
      """))
  env = dict(os.environ, PYTHONPATH=TFC_ROOT, TEST_TMPDIR=str(tmp_path))
  out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env,
                       cwd=str(tmp_path), timeout=120)
  assert out.returncode == 1
  assert "Ran 3 tests" in out.stderr and "FAILED (failures=1, skipped=1)" in out.stderr
  assert "testBroken" in out.stderr
  out = subprocess.run([sys.executable, str(script), "MathTest.testAdd"], capture_output=True,
                       text=True, env=env, cwd=str(tmp_path), timeout=120)
  assert out.returncode == 0 and "Ran 1 test" in out.stderr and "OK" in out.stderr
