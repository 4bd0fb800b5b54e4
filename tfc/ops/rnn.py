"""tf.nn.static_rnn and tf.nn.static_bidirectional_rnn: an RNN cell unrolled over a Python
list of time steps (the graph holds one copy of the cell per step, all sharing the cell's
variables)."""
from tfc import dtypes as _dtypes
from tfc import nest as _nest
from tfc.framework import ops as _ops
from tfc.ops import array_ops as _array_ops
from tfc.ops import math_ops as _math_ops
from tfc.ops import variable_scope as _vs
from tfc.ops.rnn_cell_impl import _batch_and


def _check_cell(cell):
  for attr in ("output_size", "state_size", "zero_state"):
    if not hasattr(cell, attr):
      raise TypeError("The argument 'cell' (%s) is not an RNNCell: '%s' property is missing."
                      % (cell, attr))
  if not callable(cell):
    raise TypeError("The argument 'cell' (%s) is not an RNNCell: not callable." % (cell,))


def _copy_through(finished, new, old):
  """Per batch row: `old` where the sequence has finished, `new` elsewhere."""
  mask = _array_ops.expand_dims(finished, 1)
  return _array_ops.where_v2(mask, old, new)


def static_rnn(cell, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
  """Runs `cell` over inputs, a list of [batch_size, input_size] tensors (one per step).

  Returns (outputs, state): the list of per-step outputs and the final state. With
  `sequence_length` (one length per batch row), rows past their length output zeros and
  keep their last state, so the final state is the one at each row's own end. The cell's
  variables live in `scope` (default "rnn"), created at the first step.
  """
  _check_cell(cell)
  if not _nest.is_nested(inputs):
    raise TypeError("inputs must be a sequence")
  if not inputs:
    raise ValueError("inputs must not be empty")
  outputs = []
  with _vs.variable_scope(scope or "rnn") as varscope:
    first = inputs
    while _nest.is_nested(first):
      first = first[0]
    first = _ops.convert_to_tensor(first)
    shape = first.get_shape()
    if shape.ndims is not None and shape.ndims != 1:
      for flat in _nest.flatten(inputs):
        flat_shape = _ops.convert_to_tensor(flat).get_shape().with_rank_at_least(2)
        shape[0].merge_with(flat_shape[0])
        for i, size in enumerate(flat_shape[1:].dims):
          if size.value is None:
            raise ValueError("Input size (dimension %d of inputs) must be accessible via shape "
                             "inference, but saw value None." % i)
    static_batch = shape[0].value if shape.ndims else None
    batch_size = static_batch if static_batch is not None else _array_ops.shape(first)[0]
    if initial_state is not None:
      state = initial_state
    else:
      if not dtype:
        raise ValueError("If no initial_state is provided, dtype must be specified")
      state = cell.zero_state(batch_size, dtype)
    if sequence_length is not None:
      sequence_length = _ops.convert_to_tensor(sequence_length, name="sequence_length")
      if sequence_length.get_shape().ndims not in (None, 1):
        raise ValueError("sequence_length must be a vector of length batch_size")
      sequence_length = _math_ops.cast(sequence_length, _dtypes.int32)
      out_dtype = dtype or _nest.flatten(state)[0].dtype

      def zeros(size):
        z = _array_ops.zeros(_array_ops.stack(_batch_and(batch_size, size)), out_dtype)
        z.set_shape(_batch_and(batch_size, size, static=True))
        return z

      zero_output = _nest.map_structure(zeros, cell.output_size)
    for time, step_input in enumerate(inputs):
      if time > 0:
        varscope.reuse_variables()
      output, new_state = cell(step_input, state)
      if sequence_length is not None:
        finished = _math_ops.greater_equal(time, sequence_length)
        output = _nest.map_structure(lambda z, o: _copy_through(finished, o, z),
                                     zero_output, output)
        new_state = _nest.map_structure(lambda n, s: _copy_through(finished, n, s),
                                        new_state, state)
      state = new_state
      outputs.append(output)
    return outputs, state


def _reverse_seq(input_seq, lengths):
  """The list of time steps reversed; with lengths, each batch row reversed
  within its own length (ReverseSequence over the stacked steps)."""
  if lengths is None:
    return list(reversed(input_seq))
  flat_input_seq = tuple(_nest.flatten(input_) for input_ in input_seq)
  flat_results = [[] for _ in range(len(input_seq))]
  for sequence in zip(*flat_input_seq):
    s_joined = _array_ops.stack(sequence)
    s_reversed = _array_ops.reverse_sequence(s_joined, lengths, 0, 1)
    for r, flat_result, orig in zip(_array_ops.unstack(s_reversed), flat_results, sequence):
      r.set_shape(orig.get_shape())
      flat_result.append(r)
  return [_nest.pack_sequence_as(input_, flat_result)
          for input_, flat_result in zip(input_seq, flat_results)]


def static_bidirectional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None,
                             initial_state_bw=None, dtype=None, sequence_length=None,
                             scope=None):
  """A forward and a backward static_rnn over the same inputs (scopes `fw` and `bw` in
  `scope`, default "bidirectional_rnn"); the outputs are their per-step concatenation.

  Returns (outputs, output_state_fw, output_state_bw). With sequence_length the
  backward pass reverses each row within its own length (ReverseSequence).
  """
  _check_cell(cell_fw)
  _check_cell(cell_bw)
  if not _nest.is_nested(inputs):
    raise TypeError("inputs must be a sequence")
  if not inputs:
    raise ValueError("inputs must not be empty")
  with _vs.variable_scope(scope or "bidirectional_rnn"):
    with _vs.variable_scope("fw") as fw_scope:
      output_fw, state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype,
                                       sequence_length, scope=fw_scope)
    with _vs.variable_scope("bw") as bw_scope:
      reversed_inputs = _reverse_seq(inputs, sequence_length)
      tmp, state_bw = static_rnn(cell_bw, reversed_inputs, initial_state_bw, dtype,
                                 sequence_length, scope=bw_scope)
  output_bw = _reverse_seq(tmp, sequence_length)
  outputs = [_nest.pack_sequence_as(fw, [_array_ops.concat([a, b], 1) for a, b in
                                         zip(_nest.flatten(fw), _nest.flatten(bw))])
             for fw, bw in zip(output_fw, output_bw)]
  return outputs, state_fw, state_bw


# ---------------------------------------------------------------------------
# tf.nn.dynamic_rnn / tf.nn.bidirectional_dynamic_rnn: the cell runs inside a
# tf.while_loop over time, reading its inputs from a TensorArray and writing
# its outputs to another (TF 1.15's graph).


def _transpose_batch_time(x):
  """[batch, time, ...] <-> [time, batch, ...]."""
  from tfc.framework import tensor_shape as _tensor_shape
  x = _ops.convert_to_tensor(x)
  x_static_shape = x.get_shape()
  if x_static_shape.ndims is not None and x_static_shape.ndims < 2:
    return x
  x_rank = _array_ops.rank(x)
  x_t = _array_ops.transpose(
      x, _array_ops.concat(([1, 0], _math_ops.range(2, x_rank)), axis=0))
  if x_static_shape.ndims is not None:
    x_t.set_shape(_tensor_shape.TensorShape(
        [x_static_shape.dims[1].value, x_static_shape.dims[0].value]).concatenate(
            x_static_shape[2:]))
  return x_t


def _best_effort_input_batch_size(flat_input):
  for input_ in flat_input:
    shape = input_.shape
    if shape.ndims is None:
      continue
    if shape.ndims < 2:
      raise ValueError("Expected input tensor %s to have rank at least 2" % input_)
    batch_size = shape.dims[1].value
    if batch_size is not None:
      return batch_size
  return _array_ops.shape(flat_input[0])[1]


def _infer_state_dtype(explicit_dtype, state):
  if explicit_dtype is not None:
    return explicit_dtype
  if _nest.is_nested(state):
    inferred = [e.dtype for e in _nest.flatten(state)]
    if not inferred:
      raise ValueError("Unable to infer dtype from empty state.")
    if not all(x == inferred[0] for x in inferred):
      raise ValueError("State has tensors of different inferred_dtypes. Unable to infer a "
                       "single representative dtype.")
    return inferred[0]
  return state.dtype


def _concat(prefix, suffix, static=False):
  """[prefix] + suffix as a shape list (static) or an int32 vector tensor."""
  from tfc.framework import tensor_shape as _tensor_shape
  if isinstance(prefix, _ops.Tensor):
    p = _array_ops.reshape(prefix, [1])
    p_static = None
  else:
    p = _ops.convert_to_tensor([int(prefix)], _dtypes.int32) if not static else None
    p_static = int(prefix)
  s_shape = _tensor_shape.TensorShape(suffix)
  if static:
    return [p_static] + s_shape.as_list()
  return _array_ops.concat([p, _ops.convert_to_tensor(s_shape.as_list(), _dtypes.int32)], 0)


def _rnn_step(time, sequence_length, zero_output, state, call_cell):
  """One step with sequence_length: rows whose sequence has ended output zeros
  and keep their state (the select runs at every step, as TF's
  skip_conditionals path)."""
  flat_state = _nest.flatten(state)
  flat_zero_output = _nest.flatten(zero_output)
  copy_cond = time >= sequence_length

  def _copy_one_through(output, new_output):
    if output.shape.ndims == 0:
      return new_output
    with _ops.colocate_with(new_output):
      return _array_ops.where(copy_cond, output, new_output)

  new_output, new_state = call_cell()
  _nest.assert_same_structure(zero_output, new_output)
  _nest.assert_same_structure(state, new_state)
  flat_new_output = [_copy_one_through(z, o) for z, o in
                     zip(flat_zero_output, _nest.flatten(new_output))]
  flat_new_state = [_copy_one_through(s, n) for s, n in zip(flat_state, _nest.flatten(new_state))]
  for output, flat_output in zip(flat_new_output, flat_zero_output):
    output.set_shape(flat_output.get_shape())
  for substate, flat_substate in zip(flat_new_state, flat_state):
    substate.set_shape(flat_substate.get_shape())
  return (_nest.pack_sequence_as(zero_output, flat_new_output),
          _nest.pack_sequence_as(state, flat_new_state))


def _dynamic_rnn_loop(cell, inputs, initial_state, parallel_iterations, swap_memory,
                      sequence_length=None, dtype=None):
  from tfc.framework import tensor_shape as _tensor_shape
  from tfc.ops import control_flow_ops as _cf
  from tfc.ops import tensor_array_ops as _ta
  state = initial_state
  flat_input = _nest.flatten(inputs)
  flat_output_size = _nest.flatten(cell.output_size)
  input_shape = _array_ops.shape(flat_input[0])
  time_steps = input_shape[0]
  batch_size = _best_effort_input_batch_size(flat_input)
  inputs_got_shape = tuple(input_.get_shape().with_rank_at_least(3) for input_ in flat_input)
  const_time_steps, const_batch_size = inputs_got_shape[0].as_list()[:2]
  for shape in inputs_got_shape:
    if not shape[2:].is_fully_defined():
      raise ValueError("Input size (depth of inputs) must be accessible via shape inference,"
                       " but saw value None.")
    if const_time_steps != shape.dims[0].value:
      raise ValueError("Time steps is not the same for all the elements in the input in a "
                       "batch.")
    if const_batch_size != shape.dims[1].value:
      raise ValueError("Batch_size is not the same for all the elements in the input.")

  state_dtype = _infer_state_dtype(dtype, state)

  def _create_zero_arrays(size):
    return _array_ops.zeros(_concat(batch_size, size), state_dtype)

  flat_zero_output = tuple(_create_zero_arrays(o) for o in flat_output_size)
  zero_output = _nest.pack_sequence_as(cell.output_size, flat_zero_output)
  if sequence_length is not None:
    max_sequence_length = _math_ops.reduce_max(sequence_length)
  else:
    max_sequence_length = time_steps
  from tfc.framework import constant_op as _constant_op
  time = _constant_op.constant(0, dtype=_dtypes.int32, name="time")
  with _ops.name_scope("dynamic_rnn") as scope:
    base_name = scope

  def _create_ta(name, element_shape, dtype_):
    return _ta.TensorArray(dtype=dtype_, size=time_steps, element_shape=element_shape,
                           tensor_array_name=base_name + name)

  output_ta = tuple(
      _create_ta("output_%d" % i,
                 _tensor_shape.TensorShape([const_batch_size]).concatenate(
                     _tensor_shape.TensorShape(out_size)), state_dtype)
      for i, out_size in enumerate(flat_output_size))
  input_ta = tuple(_create_ta("input_%d" % i, flat_input_i.shape[1:], flat_input_i.dtype)
                   for i, flat_input_i in enumerate(flat_input))
  input_ta = tuple(ta.unstack(input_) for ta, input_ in zip(input_ta, flat_input))

  def _time_step(time, output_ta_t, state):
    input_t = tuple(ta.read(time) for ta in input_ta)
    for input_, shape in zip(input_t, inputs_got_shape):
      input_.set_shape(shape[1:])
    input_t = _nest.pack_sequence_as(inputs, input_t)
    call_cell = lambda: cell(input_t, state)
    if sequence_length is not None:
      output, new_state = _rnn_step(time, sequence_length, zero_output, state, call_cell)
    else:
      output, new_state = call_cell()
    output = _nest.flatten(output)
    output_ta_t = tuple(ta.write(time, out) for ta, out in zip(output_ta_t, output))
    return (time + 1, output_ta_t, new_state)

  loop_bound = _math_ops.minimum(time_steps, _math_ops.maximum(1, max_sequence_length))
  _, output_final_ta, final_state = _cf.while_loop(
      cond=lambda time, *_: time < loop_bound, body=_time_step,
      loop_vars=(time, output_ta, state), parallel_iterations=parallel_iterations,
      maximum_iterations=time_steps, swap_memory=swap_memory)
  final_outputs = tuple(ta.stack() for ta in output_final_ta)
  for output, output_size in zip(final_outputs, flat_output_size):
    output.set_shape([const_time_steps, const_batch_size]
                     + _tensor_shape.TensorShape(output_size).as_list())
  final_outputs = _nest.pack_sequence_as(cell.output_size, final_outputs)
  return final_outputs, final_state


def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None,
                parallel_iterations=None, swap_memory=False, time_major=False, scope=None):
  """Runs `cell` over the time steps of `inputs` in a tf.while_loop (TF 1.15
  `tf.nn.dynamic_rnn`).

  inputs are [batch, time, depth] ([time, batch, depth] with time_major), or a
  nested structure of such tensors. With `sequence_length`, rows past their
  length output zeros and keep their state, and the loop stops at the longest
  length. Returns (outputs, final_state); the cell's variables live in `scope`
  (default "rnn"), e.g. rnn/lstm_cell/kernel as in TF."""
  _check_cell(cell)
  with _vs.variable_scope(scope or "rnn") as varscope:
    del varscope
    flat_input = _nest.flatten(inputs)
    if not time_major:
      flat_input = [_ops.convert_to_tensor(input_) for input_ in flat_input]
      flat_input = tuple(_transpose_batch_time(input_) for input_ in flat_input)
    else:
      flat_input = tuple(_ops.convert_to_tensor(input_) for input_ in flat_input)
    parallel_iterations = parallel_iterations or 32
    if sequence_length is not None:
      sequence_length = _math_ops.cast(sequence_length, _dtypes.int32)
      if sequence_length.get_shape().ndims not in (None, 1):
        raise ValueError("sequence_length must be a vector of length batch_size, but saw "
                         "shape: %s" % sequence_length.get_shape())
      sequence_length = _array_ops.identity(sequence_length, name="sequence_length")
    batch_size = _best_effort_input_batch_size(flat_input)
    if initial_state is not None:
      state = initial_state
    else:
      if not dtype:
        raise ValueError("If there is no initial_state, you must give a dtype.")
      state = cell.zero_state(batch_size, dtype)
    if sequence_length is not None:
      from tfc.ops.logging_ops import Assert
      x_shape = _array_ops.shape(sequence_length)
      packed_shape = _array_ops.stack([batch_size])
      check = Assert(_math_ops.reduce_all(_math_ops.equal(x_shape, packed_shape)),
                     ["Expected shape for Tensor %s is " % sequence_length.name, packed_shape,
                      " but saw shape: ", x_shape])
      with _ops.control_dependencies([check]):
        sequence_length = _array_ops.identity(sequence_length, name="CheckSeqLen")
    inputs = _nest.pack_sequence_as(inputs, flat_input)
    outputs, final_state = _dynamic_rnn_loop(cell, inputs, state,
                                             parallel_iterations=parallel_iterations,
                                             swap_memory=swap_memory,
                                             sequence_length=sequence_length, dtype=dtype)
    if not time_major:
      outputs = _nest.map_structure(_transpose_batch_time, outputs)
    return outputs, final_state


def bidirectional_dynamic_rnn(cell_fw, cell_bw, inputs, sequence_length=None,
                              initial_state_fw=None, initial_state_bw=None, dtype=None,
                              parallel_iterations=None, swap_memory=False, time_major=False,
                              scope=None):
  """A forward and a backward dynamic_rnn (scopes `fw` and `bw` in `scope`,
  default "bidirectional_rnn"); returns ((output_fw, output_bw),
  (output_state_fw, output_state_bw)), output_bw in input order. With
  sequence_length each row is reversed within its own length."""
  _check_cell(cell_fw)
  _check_cell(cell_bw)
  with _vs.variable_scope(scope or "bidirectional_rnn"):
    with _vs.variable_scope("fw") as fw_scope:
      output_fw, output_state_fw = dynamic_rnn(
          cell=cell_fw, inputs=inputs, sequence_length=sequence_length,
          initial_state=initial_state_fw, dtype=dtype, parallel_iterations=parallel_iterations,
          swap_memory=swap_memory, time_major=time_major, scope=fw_scope)
    time_axis, batch_axis = (0, 1) if time_major else (1, 0)

    def _reverse(input_, seq_lengths):
      if seq_lengths is not None:
        return _array_ops.reverse_sequence(input_, seq_lengths, seq_axis=time_axis,
                                           batch_axis=batch_axis)
      return _array_ops.reverse(input_, axis=[time_axis])

    with _vs.variable_scope("bw") as bw_scope:
      inputs_reverse = _nest.map_structure(lambda inp: _reverse(inp, sequence_length), inputs)
      tmp, output_state_bw = dynamic_rnn(
          cell=cell_bw, inputs=inputs_reverse, sequence_length=sequence_length,
          initial_state=initial_state_bw, dtype=dtype, parallel_iterations=parallel_iterations,
          swap_memory=swap_memory, time_major=time_major, scope=bw_scope)
  output_bw = _nest.map_structure(lambda t: _reverse(t, sequence_length), tmp)
  return (output_fw, output_bw), (output_state_fw, output_state_bw)
