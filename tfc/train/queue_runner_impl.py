"""tf.train.QueueRunner, add_queue_runner, start_queue_runners (TF 1.15).

A QueueRunner holds a queue and the enqueue ops that fill it; create_threads
starts one Python thread per enqueue op, each running its op until the
queue closes (OutOfRangeError from upstream: the queue is closed once every
thread of the session has stopped) or the Coordinator asks to stop (the
cancel op then closes the queue with cancel_pending_enqueues, waking every
waiting op). Session.run releases the GIL, so these threads cost no Python
time while they wait.
"""
import threading
import weakref

from tfc import errors as _errors
from tfc.framework import ops as _ops


class QueueRunner(object):
  """Holds a list of enqueue operations for a queue, each to be run in a thread."""

  def __init__(self, queue=None, enqueue_ops=None, close_op=None, cancel_op=None,
               queue_closed_exception_types=None, queue_runner_def=None, import_scope=None):
    if queue_runner_def is not None:
      if queue or enqueue_ops:
        raise ValueError("queue_runner_def and queue are mutually exclusive.")
      self._init_from_proto(queue_runner_def, import_scope)
      return
    if not queue or not enqueue_ops:
      raise ValueError("Must provide queue and enqueue_ops.")
    self._queue = queue
    self._enqueue_ops = list(enqueue_ops)
    self._close_op = close_op
    self._cancel_op = cancel_op
    if queue_closed_exception_types is not None:
      if (not isinstance(queue_closed_exception_types, tuple) or not queue_closed_exception_types or
          not all(issubclass(t, _errors.OpError) for t in queue_closed_exception_types)):
        raise TypeError("queue_closed_exception_types, when provided, must be a tuple of tf.error "
                        "types, but saw: %s" % (queue_closed_exception_types,))
    self._queue_closed_exception_types = queue_closed_exception_types or (_errors.OutOfRangeError,)
    if self._close_op is None:
      self._close_op = self._queue.close()
    if self._cancel_op is None:
      self._cancel_op = self._queue.close(cancel_pending_enqueues=True)
    self._lock = threading.Lock()
    self._runs_per_session = weakref.WeakKeyDictionary()
    self._exceptions_raised = []

  def _init_from_proto(self, queue_runner_def, import_scope):
    g = _ops.get_default_graph()

    def scoped(name):
      return name if not import_scope else import_scope + "/" + name

    class _Q(object):
      def __init__(self, name):
        self.name = name
    self._queue = _Q(scoped(queue_runner_def.queue_name))
    self._enqueue_ops = [g.as_graph_element(scoped(n)) for n in queue_runner_def.enqueue_op_name]
    self._close_op = g.as_graph_element(scoped(queue_runner_def.close_op_name))
    self._cancel_op = g.as_graph_element(scoped(queue_runner_def.cancel_op_name))
    self._queue_closed_exception_types = (_errors.OutOfRangeError,)
    self._lock = threading.Lock()
    self._runs_per_session = weakref.WeakKeyDictionary()
    self._exceptions_raised = []

  @property
  def queue(self):
    return self._queue

  @property
  def enqueue_ops(self):
    return self._enqueue_ops

  @property
  def close_op(self):
    return self._close_op

  @property
  def cancel_op(self):
    return self._cancel_op

  @property
  def queue_closed_exception_types(self):
    return self._queue_closed_exception_types

  @property
  def exceptions_raised(self):
    """Exceptions raised but not handled by the threads (when no coordinator)."""
    return self._exceptions_raised

  @property
  def name(self):
    return self._queue.name

  def _run(self, sess, enqueue_op, coord=None):
    decremented = False
    try:
      enqueue_callable = sess.make_callable(enqueue_op)
      while True:
        if coord and coord.should_stop():
          break
        try:
          enqueue_callable()
        except self._queue_closed_exception_types:
          # the input is exhausted: the last thread of this session closes the queue
          with self._lock:
            self._runs_per_session[sess] -= 1
            decremented = True
            if self._runs_per_session[sess] == 0:
              try:
                sess.run(self._close_op)
              except Exception:  # pylint: disable=broad-except
                pass
            return
    except Exception as e:  # pylint: disable=broad-except
      if coord:
        if coord.should_stop() and isinstance(e, (_errors.CancelledError, _errors.OutOfRangeError)):
          # the step was cancelled because the stop closed the queue or the
          # session: nothing to report (after join, request_stop would raise
          # it in this thread, where no one can catch it)
          return
        coord.request_stop(e)
      else:
        with self._lock:
          self._exceptions_raised.append(e)
        raise
    finally:
      if not decremented:
        with self._lock:
          self._runs_per_session[sess] -= 1

  def _close_on_stop(self, sess, cancel_op, coord):
    coord.wait_for_stop()
    try:
      sess.run(cancel_op)
    except Exception:  # pylint: disable=broad-except
      pass

  def create_threads(self, sess, coord=None, daemon=False, start=False):
    """Creates (and optionally starts) one thread per enqueue op for sess,
    plus, with a coordinator, a thread that cancels the queue on stop.
    Returns [] when threads for sess are still running."""
    with self._lock:
      try:
        if self._runs_per_session[sess] > 0:
          return []
      except KeyError:
        pass
      self._runs_per_session[sess] = len(self._enqueue_ops)
      self._exceptions_raised = []
    ret_threads = [threading.Thread(target=self._run, args=(sess, op, coord)) for op in self._enqueue_ops]
    if coord:
      ret_threads.append(threading.Thread(target=self._close_on_stop, args=(sess, self._cancel_op, coord)))
    for t in ret_threads:
      if coord:
        coord.register_thread(t)
      if daemon:
        t.daemon = True
      if start:
        t.start()
    return ret_threads

  def to_proto(self, export_scope=None):
    """A QueueRunnerDef-like dict of the op names (no proto class in tfc)."""
    return {"queue_name": self._queue.name,
            "enqueue_op_name": [op.name for op in self._enqueue_ops],
            "close_op_name": self._close_op.name, "cancel_op_name": self._cancel_op.name}


def add_queue_runner(qr, collection=_ops.GraphKeys.QUEUE_RUNNERS):
  """Adds qr to the graph's QUEUE_RUNNERS collection."""
  _ops.add_to_collection(collection, qr)


def start_queue_runners(sess=None, coord=None, daemon=True, start=True,
                        collection=_ops.GraphKeys.QUEUE_RUNNERS):
  """Starts the threads of every QueueRunner in the graph's collection;
  returns the list of threads."""
  if sess is None:
    sess = _ops.get_default_session()
    if not sess:
      raise ValueError("Cannot start queue runners: No default session is registered. Use `with "
                       "sess.as_default()` or pass an explicit session to "
                       "tf.start_queue_runners(sess=sess)")
  with sess.graph.as_default():
    threads = []
    for qr in _ops.get_collection(collection):
      threads.extend(qr.create_threads(sess, coord=coord, daemon=daemon, start=start))
  return threads
