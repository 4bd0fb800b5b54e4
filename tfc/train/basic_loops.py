"""tf.train.basic_train_loop and tf.train.checkpoints_iterator: the simplest training loop
over a Supervisor, and the evaluation loop's wait for new checkpoints."""
import time

from tfc import errors as _errors


def basic_train_loop(supervisor, train_step_fn, args=None, kwargs=None, master=""):
  """Calls train_step_fn(sess, *args, **kwargs) in a managed session of supervisor until it
  should stop; an AbortedError (e.g. a parameter server restarted) starts a new session
  and goes on."""
  args = [] if args is None else args
  kwargs = {} if kwargs is None else kwargs
  should_retry = True
  while should_retry:
    try:
      should_retry = False
      with supervisor.managed_session(master) as sess:
        while not supervisor.should_stop():
          train_step_fn(sess, *args, **kwargs)
    except _errors.AbortedError:
      should_retry = True


def _wait_for_new_checkpoint(checkpoint_dir, last_checkpoint, seconds_to_sleep, timeout):
  """The newest checkpoint of checkpoint_dir other than last_checkpoint, polling every
  seconds_to_sleep; None after timeout seconds without one."""
  from tfc import logging as _logging  # pylint: disable=g-import-not-at-top
  from tfc.train.checkpoint_management import latest_checkpoint  # pylint: disable=g-import-not-at-top
  _logging.info("Waiting for new checkpoint at %s", checkpoint_dir)
  stop_time = time.time() + timeout if timeout is not None else None
  while True:
    path = latest_checkpoint(checkpoint_dir)
    if path is not None and path != last_checkpoint:
      _logging.info("Found new checkpoint at %s", path)
      return path
    if stop_time is not None and time.time() + seconds_to_sleep > stop_time:
      return None
    time.sleep(seconds_to_sleep)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
  """Yields each new checkpoint path of checkpoint_dir as it appears, at most one every
  min_interval_secs. With timeout, waiting longer than that for a new one ends the
  iteration, unless timeout_fn is given and returns False (then it keeps waiting)."""
  from tfc import logging as _logging  # pylint: disable=g-import-not-at-top
  checkpoint_path = None
  while True:
    new_path = _wait_for_new_checkpoint(checkpoint_dir, checkpoint_path, 1, timeout)
    if new_path is None:
      if not timeout_fn:
        _logging.info("Timed-out waiting for a checkpoint.")
        return
      if timeout_fn():
        return
      continue
    start = time.time()
    checkpoint_path = new_path
    yield checkpoint_path
    remaining = start + min_interval_secs - time.time()
    if remaining > 0:
      time.sleep(remaining)
