"""tf.train.SyncReplicasOptimizer (TF 1.15): synchronous data-parallel training.

Every worker computes gradients and applies them to one conditional
accumulator per variable (on the variable's device). The chief's queue runner
takes the mean of `replicas_to_aggregate` gradients from each accumulator,
applies it with the wrapped optimizer (which increments the global step) and
puts `max(total_num_replicas, replicas_to_aggregate)` tokens, each holding
the new global step, into the token queue (on the global step's device). A
worker's train op ends by dequeuing a token into its local step, so it waits
for the update before computing its next gradient; gradients computed with a
local step older than an accumulator's global step are dropped.

    opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                         replicas_to_aggregate=2, total_num_replicas=2)
    train_op = opt.minimize(loss, global_step=global_step)
    hook = opt.make_session_run_hook(is_chief=(task_index == 0))
    with tf.train.MonitoredTrainingSession(master=server.target, is_chief=...,
                                           hooks=[hook, ...]) as sess: ...
"""
from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework.indexed_slices import IndexedSlices as _IndexedSlices
from tfc.ops import array_ops as _array_ops
from tfc.ops import control_flow_ops as _control_flow_ops
from tfc.ops import data_flow_ops as _data_flow_ops
from tfc.ops import state_ops as _state_ops
from tfc.ops import variables as _variables
from tfc.train import optimizer as _optimizer
from tfc.train import queue_runner_impl as _queue_runner
from tfc.train import session_run_hook as _session_run_hook


def _fresh_value(v):
  """A read of variable v made where it is called (so it follows the control
  dependencies in force); a tensor is returned as it is."""
  read = getattr(v, "read_value", None)
  return read() if read is not None else v


class SyncReplicasOptimizer(_optimizer.Optimizer):
  """Wraps an optimizer so that the gradients of `replicas_to_aggregate`
  replicas are averaged and applied once per step (TF 1.15's
  tf.train.SyncReplicasOptimizer)."""

  def __init__(self, opt, replicas_to_aggregate, total_num_replicas=None, variable_averages=None,
               variables_to_average=None, use_locking=False, name="sync_replicas"):
    if total_num_replicas is None:
      total_num_replicas = replicas_to_aggregate
    super(SyncReplicasOptimizer, self).__init__(use_locking, name)
    self._opt = opt
    self._replicas_to_aggregate = replicas_to_aggregate
    self._gradients_applied = False
    self._variable_averages = variable_averages
    self._variables_to_average = variables_to_average
    self._total_num_replicas = total_num_replicas
    self._tokens_per_step = max(total_num_replicas, replicas_to_aggregate)
    self._global_step = None
    self._sync_token_queue = None
    self._chief_queue_runner = None
    self._accumulator_list = []
    self._local_step = None
    self.local_step_init_op = None
    self.chief_init_op = None
    self.ready_for_local_init_op = None

  def compute_gradients(self, *args, **kwargs):
    """The wrapped optimizer's compute_gradients."""
    return self._opt.compute_gradients(*args, **kwargs)

  def apply_gradients(self, grads_and_vars, global_step=None, name=None):
    """Applies the gradients to the accumulators and returns the train op,
    which waits for the next token; builds the chief's update (take, apply,
    hand out tokens) as the chief queue runner's op.

    Raises:
      ValueError: no gradients, or no global step (needed to judge staleness).
    """
    grads_and_vars = list(grads_and_vars)
    if not grads_and_vars:
      raise ValueError("Must supply at least one variable")
    if global_step is None:
      raise ValueError("Global step is required to check staleness")
    self._global_step = global_step
    train_ops = []
    aggregated_grad = []
    var_list = []

    # the local step lives on this worker: colocate it with an op made here
    local_anchor = _control_flow_ops.no_op()
    with _ops.colocate_with(local_anchor):
      self._local_step = _variables.Variable(
          initial_value=0, trainable=False, collections=[_ops.GraphKeys.LOCAL_VARIABLES],
          dtype=global_step.dtype.base_dtype, name="sync_rep_local_step")
    self.local_step_init_op = _state_ops.assign(self._local_step, global_step)
    chief_init_ops = [self.local_step_init_op]
    self.ready_for_local_init_op = _variables.report_uninitialized_variables(
        _variables.global_variables())

    with _ops.name_scope(None, self._name):
      for grad, var in grads_and_vars:
        var_list.append(var)
        with _ops.device(var.device):
          if grad is None:
            aggregated_grad.append(None)
            continue
          if isinstance(grad, _IndexedSlices):
            grad_accum = _data_flow_ops.SparseConditionalAccumulator(
                grad.dtype, shape=(), shared_name=var.name + "/grad_accum")
            train_ops.append(grad_accum.apply_indexed_slices_grad(grad, local_step=self._local_step))
            aggregated_grad.append(grad_accum.take_indexed_slices_grad(self._replicas_to_aggregate))
          elif isinstance(grad, _ops.Tensor):
            grad_accum = _data_flow_ops.ConditionalAccumulator(
                grad.dtype, shape=var.get_shape(), shared_name=var.name + "/grad_accum")
            train_ops.append(grad_accum.apply_grad(grad, local_step=self._local_step))
            aggregated_grad.append(grad_accum.take_grad(self._replicas_to_aggregate))
          else:
            raise ValueError("Unknown grad type!")
          self._accumulator_list.append((grad_accum, var.device))

      aggregated_grads_and_vars = zip(aggregated_grad, var_list)

      # the update runs where the global step lives
      with _ops.device(global_step.device), _ops.name_scope(""):
        update_op = self._opt.apply_gradients(aggregated_grads_and_vars, global_step)

      with _ops.device(global_step.device), _ops.name_scope(""):
        sync_token_queue = _data_flow_ops.FIFOQueue(
            -1, global_step.dtype.base_dtype, shapes=(), name="sync_token_q", shared_name="sync_token_q")
        self._sync_token_queue = sync_token_queue
        # the queue runner gets a queue of its own: closing it (when the
        # coordinator stops) must not close the token queue on the ps
        dummy_queue = _data_flow_ops.FIFOQueue(1, _dtypes.int32, shapes=(), name="dummy_queue",
                                               shared_name="dummy_queue")

      with _ops.device(global_step.device), _ops.name_scope(""):
        # a replica waits for a token before its next step
        with _ops.control_dependencies(train_ops):
          token = sync_token_queue.dequeue()
        train_op = _state_ops.assign(self._local_step, token)

        with _ops.control_dependencies([update_op]):
          # read the global step after the update (a variable's value is
          # taken when read, not aliased as TF's ref tensors are)
          tokens = _array_ops.fill([self._tokens_per_step], _fresh_value(global_step))
          sync_op = sync_token_queue.enqueue_many((tokens,))

        if self._variable_averages is not None:
          with _ops.control_dependencies([sync_op]), _ops.name_scope(""):
            sync_op = self._variable_averages.apply(self._variables_to_average)

        self._chief_queue_runner = _queue_runner.QueueRunner(dummy_queue, [sync_op])
      for accum, dev in self._accumulator_list:
        with _ops.device(dev):
          chief_init_ops.append(accum.set_global_step(global_step, name="SetGlobalStep"))
      self.chief_init_op = _control_flow_ops.group(*chief_init_ops)
      self._gradients_applied = True
      return train_op

  def get_chief_queue_runner(self):
    """The QueueRunner the chief runs (the aggregation and update).

    Raises:
      ValueError: called before apply_gradients.
    """
    if not self._gradients_applied:
      raise ValueError("Should be called after apply_gradients().")
    return self._chief_queue_runner

  def get_slot(self, *args, **kwargs):
    """The wrapped optimizer's slot."""
    return self._opt.get_slot(*args, **kwargs)

  def variables(self):
    """The wrapped optimizer's variables."""
    return self._opt.variables()

  def get_slot_names(self, *args, **kwargs):
    """The wrapped optimizer's slot names."""
    return self._opt.get_slot_names(*args, **kwargs)

  def get_init_tokens_op(self, num_tokens=-1):
    """An op putting `num_tokens` tokens (default replicas_to_aggregate) into
    the token queue, for the chief to run once at the start.

    Raises:
      ValueError: called before apply_gradients, or too few tokens for the first step.
    """
    if not self._gradients_applied:
      raise ValueError("get_init_tokens_op() should be called after apply_gradients().")
    tokens_needed = self._replicas_to_aggregate - self._total_num_replicas
    if num_tokens == -1:
      num_tokens = self._replicas_to_aggregate
    elif num_tokens < tokens_needed:
      raise ValueError("Too few tokens to finish the first step: %d (given) vs %d (needed)" %
                       (num_tokens, tokens_needed))
    if num_tokens > 0:
      with _ops.device(self._global_step.device), _ops.name_scope(""):
        tokens = _array_ops.fill([num_tokens], self._global_step)
        init_tokens = self._sync_token_queue.enqueue_many((tokens,))
    else:
      init_tokens = _control_flow_ops.no_op(name="no_init_tokens")
    return init_tokens

  def make_session_run_hook(self, is_chief, num_tokens=-1):
    """A SessionRunHook that runs the init ops and (chief) starts the queue runner."""
    return _SyncReplicasOptimizerHook(self, is_chief, num_tokens)


class _SyncReplicasOptimizerHook(_session_run_hook.SessionRunHook):
  """Runs SyncReplicasOptimizer's initialisation once the session exists:
  the local step (and, on the chief, the accumulators' global step and the
  first tokens), then starts the chief's queue runner."""

  def __init__(self, sync_optimizer, is_chief, num_tokens):
    self._sync_optimizer = sync_optimizer
    self._is_chief = is_chief
    self._num_tokens = num_tokens

  def begin(self):
    opt = self._sync_optimizer
    if not opt._gradients_applied:  # pylint: disable=protected-access
      raise ValueError("SyncReplicasOptimizer.apply_gradient should be called before using the hook.")
    self._ready_for_local_init_op = opt.ready_for_local_init_op
    if self._is_chief:
      self._local_init_op = opt.chief_init_op
      self._q_runner = opt.get_chief_queue_runner()
      self._init_tokens_op = opt.get_init_tokens_op(self._num_tokens)
    else:
      self._local_init_op = opt.local_step_init_op
      self._q_runner = None
      self._init_tokens_op = None

  def after_create_session(self, session, coord):
    from tfc.train import session_manager  # pylint: disable=g-import-not-at-top
    ok, msg = session_manager._ready(  # pylint: disable=protected-access
        self._ready_for_local_init_op, session,
        "Model is not ready for SyncReplicasOptimizer local init.")
    if not ok:
      raise RuntimeError("Init operations did not make model ready for SyncReplicasOptimizer "
                         "local_init. Init op: %s, error: %s" % (self._local_init_op.name, msg))
    session.run(self._local_init_op)
    if self._init_tokens_op is not None:
      session.run(self._init_tokens_op)
    if self._q_runner is not None:
      self._q_runner.create_threads(session, coord=coord, daemon=True, start=True)
