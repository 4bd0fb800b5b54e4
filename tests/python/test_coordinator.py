"""tf.train.Coordinator and LooperThread with real threads (TF 1.15 semantics)."""
import sys
import threading
import time

import pytest

import tfc as tf


def _sleep_then_stop(coord, secs):
  time.sleep(secs)
  coord.request_stop()


def test_stop_flag_and_join_of_finished_threads():
  coord = tf.train.Coordinator()
  assert not coord.should_stop()
  threads = [threading.Thread(target=_sleep_then_stop, args=(coord, 0.01)) for _ in range(3)]
  for t in threads:
    t.start()
  coord.join(threads)
  assert coord.should_stop()
  assert coord.joined
  assert all(not t.is_alive() for t in threads)


def test_threads_poll_should_stop():
  coord = tf.train.Coordinator()
  counts = []

  def worker():
    n = 0
    while not coord.should_stop():
      n += 1
      time.sleep(0.001)
    counts.append(n)

  threads = [threading.Thread(target=worker) for _ in range(2)]
  for t in threads:
    t.start()
  time.sleep(0.02)
  coord.request_stop()
  coord.join(threads, stop_grace_period_secs=5)
  assert len(counts) == 2


def test_exception_is_reraised_by_join():
  coord = tf.train.Coordinator()

  def bad():
    with coord.stop_on_exception():
      raise RuntimeError("boom in thread")

  t = threading.Thread(target=bad)
  t.start()
  with pytest.raises(RuntimeError, match="boom in thread"):
    coord.join([t])


def test_first_exception_wins_and_exc_info_tuple():
  coord = tf.train.Coordinator()
  try:
    raise ValueError("first")
  except ValueError:
    coord.request_stop(sys.exc_info())
  coord.request_stop(TypeError("second"))
  with pytest.raises(ValueError, match="first"):
    coord.raise_requested_exception()
  with pytest.raises(ValueError, match="first"):
    coord.join([])


def test_out_of_range_is_a_clean_stop():
  coord = tf.train.Coordinator()
  coord.request_stop(tf.errors.OutOfRangeError(None, None, "queue closed"))
  assert coord.should_stop()
  coord.join([])  # does not raise


def test_custom_clean_stop_types():
  coord = tf.train.Coordinator(clean_stop_exception_types=(KeyError,))
  coord.request_stop(KeyError("k"))
  coord.join([])
  coord2 = tf.train.Coordinator(clean_stop_exception_types=(KeyError,))
  coord2.request_stop(tf.errors.OutOfRangeError(None, None, "x"))
  with pytest.raises(tf.errors.OutOfRangeError):
    coord2.join([])


def test_stragglers_raise_after_grace_period():
  coord = tf.train.Coordinator()
  release = threading.Event()
  t = threading.Thread(target=release.wait, name="straggler")
  t.start()
  try:
    coord.request_stop()
    with pytest.raises(RuntimeError, match="straggler"):
      coord.join([t], stop_grace_period_secs=0.05)
  finally:
    release.set()
    t.join()


def test_stragglers_ignored_when_asked():
  coord = tf.train.Coordinator()
  release = threading.Event()
  t = threading.Thread(target=release.wait, name="lingering")
  t.start()
  try:
    coord.request_stop()
    coord.join([t], stop_grace_period_secs=0.05, ignore_live_threads=True)
  finally:
    release.set()
    t.join()


def test_clear_stop_and_wait_for_stop():
  coord = tf.train.Coordinator()
  assert not coord.wait_for_stop(0.01)
  coord.request_stop()
  assert coord.wait_for_stop(0.01)
  coord.join([])
  coord.clear_stop()
  assert not coord.should_stop()
  assert not coord.joined


def test_request_stop_after_join_raises_the_exception():
  coord = tf.train.Coordinator()
  coord.request_stop()
  coord.join([])
  with pytest.raises(RuntimeError, match="late"):
    coord.request_stop(RuntimeError("late"))


def test_bad_ex_argument():
  coord = tf.train.Coordinator()
  with pytest.raises(ValueError):
    coord.request_stop(ex="not an exception")


def test_registered_threads_are_joined():
  coord = tf.train.Coordinator()
  t = threading.Thread(target=_sleep_then_stop, args=(coord, 0.01))
  coord.register_thread(t)
  t.start()
  coord.join()
  assert not t.is_alive()


def test_looper_thread_runs_periodically_until_stop():
  coord = tf.train.Coordinator()
  calls = []
  looper = tf.train.LooperThread.loop(coord, 0.005, target=calls.append, args=(1,))
  time.sleep(0.06)
  coord.request_stop()
  coord.join([looper], stop_grace_period_secs=5)
  assert len(calls) >= 2


def test_looper_thread_exception_stops_coordinator():
  coord = tf.train.Coordinator()

  def fail():
    raise ValueError("looper failed")

  looper = tf.train.LooperThread.loop(coord, None, target=fail)
  with pytest.raises(ValueError, match="looper failed"):
    coord.join([looper], stop_grace_period_secs=5)


def test_looper_thread_argument_checks():
  with pytest.raises(ValueError):
    tf.train.LooperThread("not a coordinator", 1.0)
  with pytest.raises(ValueError):
    tf.train.LooperThread(tf.train.Coordinator(), 1.0, args=(1,))
