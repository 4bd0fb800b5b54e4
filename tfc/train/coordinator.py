"""tf.train.Coordinator and tf.train.LooperThread: stopping a set of threads together.

A Coordinator carries one stop flag shared by the threads of a training job (queue runners,
the Supervisor's checkpoint and summary services, user threads). Any thread may request a
stop, optionally with the exception that caused it; `join` waits for the registered threads,
gives stragglers a grace period, and re-raises the first exception reported. Semantics are
TF 1.15's: OutOfRangeError (and any exception type listed in `clean_stop_exception_types`)
ends the job cleanly instead of being re-raised.
"""
import contextlib
import sys
import threading
import time

from tfc import errors


class Coordinator(object):
  """Coordinates the termination of a set of threads (TF 1.15 semantics)."""

  def __init__(self, clean_stop_exception_types=None):
    """Creates a coordinator.

    Args:
      clean_stop_exception_types: exception types that request a stop without being
        re-raised by `join`; defaults to `(tf.errors.OutOfRangeError,)`.
    """
    if clean_stop_exception_types is None:
      clean_stop_exception_types = (errors.OutOfRangeError,)
    self._clean_stop_exception_types = tuple(clean_stop_exception_types)
    self._lock = threading.Lock()
    self._stop_event = threading.Event()
    self._exc_info_to_raise = None
    self._joined = False
    self._registered_threads = set()

  def _filter_exception(self, ex):
    """Returns None for a clean-stop exception, else `ex` (an exception or exc_info)."""
    ex2 = ex[1] if isinstance(ex, tuple) else ex
    if isinstance(ex2, (SystemExit,)) or isinstance(ex2, self._clean_stop_exception_types):
      return None
    return ex

  def request_stop(self, ex=None):
    """Asks every coordinated thread to stop.

    Args:
      ex: optional exception or `sys.exc_info()` tuple that caused the stop; the first one
        reported (unless it is a clean-stop type) is re-raised by `join`.

    Raises:
      ValueError: if `ex` is neither an exception nor an exc_info tuple.
    """
    with self._lock:
      ex = self._filter_exception(ex)
      if self._joined:
        # join() has returned: nobody would report this exception later, so raise it now.
        if isinstance(ex, tuple):
          raise ex[1].with_traceback(ex[2])
        if isinstance(ex, BaseException):
          raise ex
        return
      if not self._stop_event.is_set():
        if ex and self._exc_info_to_raise is None:
          if isinstance(ex, tuple):
            self._exc_info_to_raise = ex
          elif isinstance(ex, BaseException):
            self._exc_info_to_raise = (type(ex), ex, ex.__traceback__)
          else:
            raise ValueError("ex must be a tuple or sys.exc_info, not %r" % (ex,))
          # Make sure the exception can be raised later: a tuple must hold an instance.
          if (len(self._exc_info_to_raise) != 3 or not self._exc_info_to_raise[0] or
              not self._exc_info_to_raise[1]):
            raise ValueError("ex must be a tuple or sys.exc_info, not %r" % (ex,))
        self._stop_event.set()

  def clear_stop(self):
    """Clears the stop flag and the recorded exception, so the coordinator can be reused."""
    with self._lock:
      self._joined = False
      self._exc_info_to_raise = None
      if self._stop_event.is_set():
        self._stop_event.clear()

  def should_stop(self):
    """Returns True once a stop has been requested."""
    return self._stop_event.is_set()

  @contextlib.contextmanager
  def stop_on_exception(self):
    """Context manager: an exception raised inside requests a stop with it (and is swallowed)."""
    try:
      yield
    except:  # pylint: disable=bare-except
      self.request_stop(ex=sys.exc_info())

  def wait_for_stop(self, timeout=None):
    """Waits until a stop is requested or `timeout` seconds pass; returns should_stop()."""
    return self._stop_event.wait(timeout)

  def register_thread(self, thread):
    """Adds `thread` to the threads that `join` waits for."""
    with self._lock:
      self._registered_threads.add(thread)

  def join(self, threads=None, stop_grace_period_secs=120,
           ignore_live_threads=False):
    """Waits for the threads to terminate and re-raises the first reported exception.

    Blocks until every thread in `threads` (plus the registered ones) has ended, or until a
    stop was requested and `stop_grace_period_secs` passed since.

    Args:
      threads: threads to wait for, besides those given to `register_thread`.
      stop_grace_period_secs: seconds the threads get to end after a stop request.
      ignore_live_threads: if False, threads still alive after the grace period raise.

    Raises:
      RuntimeError: threads still running after the grace period (unless ignored).
      The exception passed to `request_stop`, if any.
    """
    with self._lock:
      if threads is None:
        threads = self._registered_threads
      else:
        threads = self._registered_threads.union(set(threads))
      threads = list(threads)
    # Wait for every thread to end or a stop to be requested.
    while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
      pass
    # After a stop, give the threads the grace period.
    stop_wait_secs = 0.001
    deadline = time.time() + stop_grace_period_secs
    while any(t.is_alive() for t in threads) and time.time() < deadline:
      time.sleep(stop_wait_secs)
      stop_wait_secs = min(2 * stop_wait_secs, 1.0)
    stragglers = [t.name for t in threads if t.is_alive()]
    with self._lock:
      self._joined = True
      self._registered_threads = set()
      if self._exc_info_to_raise:
        _, ex_instance, _ = self._exc_info_to_raise
        raise ex_instance.with_traceback(self._exc_info_to_raise[2])
      if stragglers:
        if ignore_live_threads:
          from tfc import logging as tf_logging  # pylint: disable=g-import-not-at-top
          tf_logging.info("Coordinator stopped with threads still running: %s",
                          " ".join(stragglers))
        else:
          raise RuntimeError("Coordinator stopped with threads still running: %s" %
                             " ".join(stragglers))

  @property
  def joined(self):
    """True once `join` has returned or raised."""
    return self._joined

  def raise_requested_exception(self):
    """Re-raises the exception given to `request_stop`, if any."""
    with self._lock:
      if self._exc_info_to_raise:
        _, ex_instance, tb = self._exc_info_to_raise
        raise ex_instance.with_traceback(tb)


class LooperThread(threading.Thread):
  """A daemon thread that runs `target(*args, **kwargs)` every `timer_interval_secs`
  seconds (or `run_loop()` in a subclass) until the coordinator says stop."""

  def __init__(self, coord, timer_interval_secs, target=None, args=None, kwargs=None):
    """Creates the thread (not started).

    Args:
      coord: the Coordinator whose stop flag ends the loop; exceptions request its stop.
      timer_interval_secs: seconds between calls; None calls repeatedly without waiting.
      target: callable run each time (a subclass may override `run_loop` instead).
      args, kwargs: arguments for `target`.
    """
    if not isinstance(coord, Coordinator):
      raise ValueError("'coord' argument must be a Coordinator: %s" % coord)
    super(LooperThread, self).__init__()
    self.daemon = True
    self._coord = coord
    self._timer_interval_secs = timer_interval_secs
    self._target = target
    if self._target:
      self._args = args or ()
      self._kwargs = kwargs or {}
    elif args or kwargs:
      raise ValueError("'args' and 'kwargs' argument require that you also pass 'target'")
    self._coord.register_thread(self)

  @staticmethod
  def loop(coord, timer_interval_secs, target, args=None, kwargs=None):
    """Starts a LooperThread that calls `target` periodically and returns it."""
    looper = LooperThread(coord, timer_interval_secs, target=target, args=args,
                          kwargs=kwargs)
    looper.start()
    return looper

  def run(self):
    """Thread body: start_loop, then run_loop at the interval, then stop_loop."""
    with self._coord.stop_on_exception():
      self.start_loop()
      if self._timer_interval_secs is None:
        while not self._coord.should_stop():
          self.run_loop()
      else:
        next_timer_time = time.time()
        while not self._coord.wait_for_stop(next_timer_time - time.time()):
          next_timer_time += self._timer_interval_secs
          self.run_loop()
      self.stop_loop()

  def start_loop(self):
    """Called once when the thread starts."""

  def stop_loop(self):
    """Called once when the loop ends."""

  def run_loop(self):
    """Called at each interval; calls `target` by default."""
    if self._target:
      self._target(*self._args, **self._kwargs)
