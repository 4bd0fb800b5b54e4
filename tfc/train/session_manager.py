"""tf.train.SessionManager (TF 1.15): creates a Session that is ready to run.

A chief calls `prepare_session`: it restores the newest checkpoint of
`checkpoint_dir` (or `checkpoint_filename_with_path`) when there is one, and
otherwise runs `init_op` and then `init_fn(sess)`; then the local init op
runs, and the ready op must report no uninitialized variable. A worker calls
`wait_for_session`, which opens sessions until the chief has initialized the
model (every `recovery_wait_secs`, DeadlineExceededError after
`max_wait_secs`). `recover_session` only restores.
"""
import time as _time

import numpy as _np

from tfc import errors as _errors
from tfc import logging as _logging
from tfc.framework import ops as _ops
from tfc.train import checkpoint_management as _cm


def _maybe_name(obj):
  """The name of an op (or 'None') for error messages."""
  if obj is None:
    return "None"
  if hasattr(obj, "name"):
    return obj.name
  return "<no name for %s>" % type(obj)


def _ready(op, sess, msg):
  """(True, None) when `op` (a ready op: names of uninitialized variables) reports
  nothing, else (False, why). A FailedPreconditionError about uninitialized
  values counts as not ready; any other error is raised."""
  if op is None:
    return True, None
  try:
    ready_value = sess.run(op)
    if (ready_value is None or getattr(ready_value, "dtype", None) == _np.int32 or
        _np.size(ready_value) == 0):
      return True, None
    names = ", ".join(v.decode("utf-8") if isinstance(v, bytes) else str(v)
                      for v in _np.ravel(ready_value))
    return False, "Variables not initialized: " + names
  except _errors.FailedPreconditionError as e:
    if "uninitialized" not in str(e):
      _logging.warning("%s : error [%s]", msg, str(e))
      raise
    return False, str(e)


class _CountDownTimer(object):
  """Seconds left of a duration started at construction."""
  __slots__ = ("_start", "_duration")

  def __init__(self, duration_secs):
    self._start = _time.time()
    self._duration = duration_secs

  def secs_remaining(self):
    return max(0, self._duration - (_time.time() - self._start))


class SessionManager(object):
  """Creates sessions that are initialized or restored and ready to run."""

  def __init__(self, local_init_op=None, ready_op=None, ready_for_local_init_op=None,
               graph=None, recovery_wait_secs=30, local_init_run_options=None,
               local_init_feed_dict=None):
    if graph is None:
      graph = _ops.get_default_graph()
    if ready_for_local_init_op is not None and local_init_op is None:
      raise ValueError("If you pass a ready_for_local_init_op you must also pass a "
                       "local_init_op , ready_for_local_init_op [%s]" % ready_for_local_init_op)
    self._local_init_op = local_init_op
    self._ready_op = ready_op
    self._ready_for_local_init_op = ready_for_local_init_op
    self._graph = graph
    self._recovery_wait_secs = recovery_wait_secs
    self._target = None
    self._local_init_run_options = local_init_run_options
    self._local_init_feed_dict = local_init_feed_dict

  def _new_session(self, master, config):
    from tfc.client import session as _session  # pylint: disable=g-import-not-at-top
    return _session.Session(master, graph=self._graph, config=config)

  def _restore_checkpoint(self, master, saver=None, checkpoint_dir=None,
                          checkpoint_filename_with_path=None, wait_for_checkpoint=False,
                          max_wait_secs=7200, config=None):
    """(a new session, whether variables were restored into it)."""
    self._target = master
    if checkpoint_dir and checkpoint_filename_with_path:
      raise ValueError("Can not provide both checkpoint_dir and checkpoint_filename_with_path.")
    sess = self._new_session(master, config)
    if not saver or not (checkpoint_dir or checkpoint_filename_with_path):
      return sess, False
    if checkpoint_filename_with_path:
      self._restore(sess, saver, checkpoint_filename_with_path)
      return sess, True
    waited = 0
    ckpt = _cm.get_checkpoint_state(checkpoint_dir)
    while not ckpt or not ckpt.model_checkpoint_path:
      if not (wait_for_checkpoint and waited < max_wait_secs):
        return sess, False
      _logging.info("Waiting for checkpoint to be available.")
      _time.sleep(self._recovery_wait_secs)
      waited += self._recovery_wait_secs
      ckpt = _cm.get_checkpoint_state(checkpoint_dir)
    self._restore(sess, saver, ckpt.model_checkpoint_path)
    saver.recover_last_checkpoints(list(ckpt.all_model_checkpoint_paths))
    return sess, True

  @staticmethod
  def _restore(sess, saver, path):
    init_ops = _ops.get_collection("saved_model_initializers")
    if init_ops:
      sess.run(init_ops)
    saver.restore(sess, path)

  def prepare_session(self, master, init_op=None, saver=None, checkpoint_dir=None,
                      checkpoint_filename_with_path=None, wait_for_checkpoint=False,
                      max_wait_secs=7200, config=None, init_feed_dict=None, init_fn=None):
    """A session whose variables were restored from a checkpoint, or else
    initialized by `init_op` (fed `init_feed_dict`) and `init_fn(sess)`.

    Raises:
      RuntimeError: nothing could initialize the model, or the ready op still
        reports uninitialized variables afterwards.
    """
    sess, restored = self._restore_checkpoint(
        master, saver, checkpoint_dir=checkpoint_dir,
        checkpoint_filename_with_path=checkpoint_filename_with_path,
        wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs, config=config)
    if not restored:
      if init_op is None and not init_fn and self._local_init_op is None:
        raise RuntimeError("Model is not initialized and no init_op or init_fn or "
                           "local_init_op was given")
      if init_op is not None:
        sess.run(init_op, feed_dict=init_feed_dict)
      if init_fn:
        init_fn(sess)
    ok, msg = self._try_run_local_init_op(sess)
    if not ok:
      raise RuntimeError("Init operations did not make model ready for local_init.  "
                         "Init op: %s, init fn: %s, error: %s" % (_maybe_name(init_op), init_fn,
                                                                 msg))
    ok, msg = self._model_ready(sess)
    if not ok:
      raise RuntimeError("Init operations did not make model ready.  Init op: %s, init fn: "
                         "%s, local_init_op: %s, error: %s" % (_maybe_name(init_op), init_fn,
                                                              self._local_init_op, msg))
    return sess

  def recover_session(self, master, saver=None, checkpoint_dir=None,
                      checkpoint_filename_with_path=None, wait_for_checkpoint=False,
                      max_wait_secs=7200, config=None):
    """(session, True) when a checkpoint was restored and made the model ready;
    (session, False) otherwise."""
    sess, restored = self._restore_checkpoint(
        master, saver, checkpoint_dir=checkpoint_dir,
        checkpoint_filename_with_path=checkpoint_filename_with_path,
        wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs, config=config)
    local_ok, msg = self._try_run_local_init_op(sess)
    if not restored:
      return sess, False
    source = checkpoint_dir or checkpoint_filename_with_path
    if not local_ok:
      _logging.info("Restoring model from %s did not make model ready for local init: %s",
                    source, msg)
      return sess, False
    ready, msg = self._model_ready(sess)
    if not ready:
      _logging.info("Restoring model from %s did not make model ready: %s", source, msg)
      return sess, False
    _logging.info("Restored model from %s", source)
    return sess, True

  def wait_for_session(self, master, config=None, max_wait_secs=float("Inf")):
    """A session on `master` once the model is ready (initialized by a chief).

    Raises:
      DeadlineExceededError: not ready within `max_wait_secs`.
    """
    self._target = master
    if max_wait_secs is None:
      max_wait_secs = float("Inf")
    timer = _CountDownTimer(max_wait_secs)
    while True:
      sess = self._new_session(master, config)
      not_ready_msg = None
      local_ok, not_ready_local_msg = self._try_run_local_init_op(sess)
      if local_ok:
        ready, not_ready_msg = self._model_ready(sess)
        if ready:
          return sess
      self._safe_close(sess)
      if timer.secs_remaining() - self._recovery_wait_secs < 0:
        raise _errors.DeadlineExceededError(
            None, None, "Session was not ready after waiting %d secs." % (max_wait_secs,))
      _logging.info("Waiting for model to be ready.  Ready_for_local_init_op:  %s, ready: %s",
                    not_ready_local_msg, not_ready_msg)
      _time.sleep(self._recovery_wait_secs)

  @staticmethod
  def _safe_close(sess):
    try:
      sess.close()
    except Exception:  # pylint: disable=broad-except
      pass

  def _model_ready(self, sess):
    return _ready(self._ready_op, sess, "Model not ready")

  def _model_ready_for_local_init(self, sess):
    return _ready(self._ready_for_local_init_op, sess, "Model not ready for local init")

  def _try_run_local_init_op(self, sess):
    """Runs the local init op once the model is ready for it: (ran, why not)."""
    if self._local_init_op is None:
      return True, None
    ready, msg = self._model_ready_for_local_init(sess)
    if not ready:
      return False, msg
    _logging.info("Running local_init_op.")
    sess.run(self._local_init_op, feed_dict=self._local_init_feed_dict,
             options=self._local_init_run_options)
    _logging.info("Done running local_init_op.")
    return True, None
