"""Queues: FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue, PriorityQueue (TF's
op names and semantics), waiting without blocking threads, close, deadlines and
session close. Orders and values against real TensorFlow: test_compat_queues.py."""
import threading
import time

import numpy as np
import pytest

import tfc as tf


def test_fifo_enqueue_dequeue_many_up_to_size():
  with tf.Graph().as_default():
    q = tf.FIFOQueue(10, [tf.float32, tf.int32], shapes=[[2], []])
    enq = q.enqueue_many([[[1., 2.], [3., 4.], [5., 6.]], [1, 2, 3]])
    one = q.dequeue()
    two = q.dequeue_many(2)
    assert two[0].shape.as_list() == [2, 2]
    assert one[0].shape.as_list() == [2]
    up = q.dequeue_up_to(5)
    assert up[0].shape.as_list() == [None, 2]
    size, closed = q.size(), q.is_closed()
    with tf.Session() as s:
      s.run(enq)
      assert s.run(size) == 3
      a, b = s.run(one)
      np.testing.assert_array_equal(a, [1., 2.])
      assert b == 1
      a, b = s.run(two)
      np.testing.assert_array_equal(a, [[3., 4.], [5., 6.]])
      np.testing.assert_array_equal(b, [2, 3])
      s.run(enq)
      assert not s.run(closed)
      s.run(q.close())
      assert s.run(closed)
      a, b = s.run(up)  # fewer than asked once closed
      assert a.shape == (3, 2) and b.tolist() == [1, 2, 3]
      with pytest.raises(tf.errors.OutOfRangeError, match="is closed and has insufficient elements"):
        s.run(one)
      with pytest.raises(tf.errors.CancelledError, match="is closed"):
        s.run(enq)


def test_single_component_and_names():
  with tf.Graph().as_default():
    q = tf.FIFOQueue(5, tf.string)
    e = q.enqueue(b"abc")
    d = q.dequeue()
    assert isinstance(d, tf.Tensor)
    qn = tf.FIFOQueue(5, [tf.int32, tf.float32], shapes=[[], []], names=["i", "f"])
    en = qn.enqueue({"i": 3, "f": 1.5})
    dn = qn.dequeue_many(1)
    with pytest.raises(ValueError):
      qn.enqueue([3, 1.5])
    with tf.Session() as s:
      s.run([e, en])
      assert s.run(d) == b"abc"
      out = s.run(dn)
      assert out["i"].tolist() == [3] and out["f"].tolist() == [1.5]


def test_enqueue_and_dequeue_in_one_run_do_not_block_the_step():
  with tf.Graph().as_default():
    q = tf.FIFOQueue(1, tf.int32)
    d = q.dequeue()
    e = q.enqueue(7)
    with tf.Session() as s:
      for _ in range(20):
        assert s.run([d, e])[0] == 7


def test_blocked_dequeue_is_woken_by_another_thread():
  with tf.Graph().as_default():
    q = tf.FIFOQueue(10, tf.int32)
    e = q.enqueue(5)
    d = q.dequeue()
    with tf.Session() as s:
      def later():
        time.sleep(0.2)
        s.run(e)
      t = threading.Thread(target=later)
      t.start()
      t0 = time.time()
      assert s.run(d) == 5
      assert time.time() - t0 >= 0.15
      t.join()


def test_close_wakes_every_waiting_dequeue():
  with tf.Graph().as_default():
    q = tf.FIFOQueue(10, tf.int32, shapes=[[]])
    d = q.dequeue()
    dm = q.dequeue_many(3)
    close = q.close()
    results = []
    with tf.Session() as s:
      def waiter(op):
        try:
          s.run(op)
          results.append("value")
        except tf.errors.OutOfRangeError:
          results.append("oor")
      ts = [threading.Thread(target=waiter, args=(op,)) for op in (d, d, dm)]
      for t in ts:
        t.start()
      time.sleep(0.3)
      assert not results  # all three wait
      s.run(close)
      for t in ts:
        t.join(10)
      assert results == ["oor"] * 3


def test_close_with_cancel_pending_enqueues_cancels_a_blocked_enqueue():
  with tf.Graph().as_default():
    q = tf.FIFOQueue(1, tf.int32)
    e = q.enqueue(1)
    cancel = q.close(cancel_pending_enqueues=True)
    d = q.dequeue()
    with tf.Session() as s:
      s.run(e)
      errs = []
      def blocked():
        try:
          s.run(e)
        except tf.errors.CancelledError as err:
          errs.append(err)
      t = threading.Thread(target=blocked)
      t.start()
      time.sleep(0.2)
      assert t.is_alive()
      s.run(cancel)
      t.join(10)
      assert len(errs) == 1
      assert s.run(d) == 1  # what was in stays dequeueable


def test_dequeue_many_takes_elements_as_they_come():
  with tf.Graph().as_default():
    q = tf.FIFOQueue(10, tf.int32, shapes=[[]])
    e = q.enqueue_many([[1, 2]])
    dm = q.dequeue_many(3)
    e1 = q.enqueue(3)
    with tf.Session() as s:
      s.run(e)
      out = []
      t = threading.Thread(target=lambda: out.append(s.run(dm)))
      t.start()
      time.sleep(0.2)
      s.run(e1)
      t.join(10)
      assert out[0].tolist() == [1, 2, 3]


def test_run_options_timeout_gives_deadline_exceeded_and_the_queue_keeps_working():
  with tf.Graph().as_default():
    q = tf.FIFOQueue(2, tf.int32)
    d = q.dequeue()
    e = q.enqueue(9)
    with tf.Session() as s:
      t0 = time.time()
      with pytest.raises(tf.errors.DeadlineExceededError):
        s.run(d, options=tf.RunOptions(timeout_in_ms=100))
      assert time.time() - t0 < 5
      s.run(e)
      assert s.run(d) == 9  # the timed-out dequeue left nothing behind
      s.run(e)
      s.run(e)
      with pytest.raises(tf.errors.DeadlineExceededError):
        s.run(e, options=tf.RunOptions(timeout_in_ms=100))  # full: enqueue waits


def test_closing_the_session_cancels_waiting_ops():
  with tf.Graph().as_default():
    q = tf.FIFOQueue(2, tf.int32)
    d = q.dequeue()
    s = tf.Session()
    errs = []
    def waiter():
      try:
        s.run(d)
      except tf.errors.OpError as err:
        errs.append(err)
    t = threading.Thread(target=waiter)
    t.start()
    time.sleep(0.2)
    s.close()
    t.join(10)
    assert not t.is_alive()
    assert isinstance(errs[0], tf.errors.CancelledError)


def test_bad_enqueues():
  with tf.Graph().as_default():
    q = tf.FIFOQueue(5, [tf.float32], shapes=[[2]])
    with pytest.raises(ValueError):
      q.enqueue([[1., 2., 3.]])
    p = tf.placeholder(tf.float32)
    e = q.enqueue([p])
    pm = tf.placeholder(tf.float32)
    em = q.enqueue_many([pm])
    qs = tf.FIFOQueue(5, tf.int32)
    dm = qs.dequeue_many(2)
    with tf.Session() as s:
      with pytest.raises(tf.errors.InvalidArgumentError, match="Shape mismatch in tuple component 0"):
        s.run(e, {p: [1., 2., 3.]})
      with pytest.raises(tf.errors.InvalidArgumentError, match="Shape mismatch"):
        s.run(em, {pm: [[1., 2., 3.]]})
      with pytest.raises(tf.errors.InvalidArgumentError, match="require the components to have specified"):
        s.run(dm)
      s.run(e, {p: [1., 2.]})
      assert s.run(q.size()) == 1


def test_fed_array_is_copied_into_the_queue():
  with tf.Graph().as_default():
    q = tf.FIFOQueue(5, tf.float32, shapes=[[3]])
    p = tf.placeholder(tf.float32, [3])
    e = q.enqueue(p)
    d = q.dequeue()
    with tf.Session() as s:
      a = np.array([1., 2., 3.], np.float32)
      s.run(e, {p: a})
      a[:] = 0
      np.testing.assert_array_equal(s.run(d), [1., 2., 3.])


def test_random_shuffle_queue_waits_for_min_after_dequeue_until_closed():
  with tf.Graph().as_default():
    q = tf.RandomShuffleQueue(20, 5, tf.int32, shapes=[[]], seed=1)
    e = q.enqueue_many([list(range(6))])
    d = q.dequeue()
    close = q.close()
    rest = q.dequeue_up_to(10)
    with tf.Session() as s:
      s.run(e)
      got = [int(s.run(d))]  # 6 - 1 >= 5
      with pytest.raises(tf.errors.DeadlineExceededError):
        s.run(d, options=tf.RunOptions(timeout_in_ms=100))
      s.run(close)
      got += s.run(rest).tolist()
      assert sorted(got) == list(range(6))
      assert got != list(range(6))


def test_padding_and_priority_queues():
  with tf.Graph().as_default():
    q = tf.PaddingFIFOQueue(5, [tf.string, tf.int32], shapes=[[None], []])
    e1 = q.enqueue([[b"a"], 1])
    e2 = q.enqueue([[b"b", b"cc", b"d"], 2])
    d = q.dequeue_many(2)
    assert d[0].shape.as_list() == [2, None]
    pq = tf.PriorityQueue(5, [tf.float32], shapes=[[]])
    pe = pq.enqueue_many([[3, -1, 2], [30., -10., 20.]])
    pd = pq.dequeue_many(3)
    with tf.Session() as s:
      # two enqueues in one run have no order (TF's neither): one run each
      s.run(e1)
      s.run([e2, pe])
      strs, ints = s.run(d)
      assert strs.tolist() == [[b"a", b"", b""], [b"b", b"cc", b"d"]]
      assert ints.tolist() == [1, 2]
      p, v = s.run(pd)
      assert p.tolist() == [-1, 2, 3] and v.tolist() == [-10., 20., 30.]


def test_shared_name_shares_one_queue_and_capacity_blocks():
  with tf.Graph().as_default():
    a = tf.FIFOQueue(2, tf.int32, shared_name="shared_q")
    b = tf.FIFOQueue(2, tf.int32, shared_name="shared_q")
    e = a.enqueue(4)
    d = b.dequeue()
    with tf.Session() as s:
      s.run(e)
      s.run(e)
      with pytest.raises(tf.errors.DeadlineExceededError):
        s.run(e, options=tf.RunOptions(timeout_in_ms=50))
      assert s.run(d) == 4
      assert s.run(b.size()) == 1


def test_queue_namespace_and_top_level_names():
  assert tf.queue.FIFOQueue is tf.FIFOQueue
  assert tf.queue.RandomShuffleQueue is tf.RandomShuffleQueue
  assert tf.queue.PaddingFIFOQueue is tf.PaddingFIFOQueue
  assert tf.queue.PriorityQueue is tf.PriorityQueue
  assert issubclass(tf.FIFOQueue, tf.QueueBase)
