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


def static_bidirectional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None,
                             initial_state_bw=None, dtype=None, sequence_length=None,
                             scope=None):
  """A forward and a backward static_rnn over the same inputs (scopes `fw` and `bw` in
  `scope`, default "bidirectional_rnn"); the outputs are their per-step concatenation.

  Returns (outputs, output_state_fw, output_state_bw). With sequence_length the
  backward pass must reverse each row within its own length (ReverseSequence), which
  tfc does not have yet: NotImplementedError.
  """
  _check_cell(cell_fw)
  _check_cell(cell_bw)
  if not _nest.is_nested(inputs):
    raise TypeError("inputs must be a sequence")
  if not inputs:
    raise ValueError("inputs must not be empty")
  if sequence_length is not None:
    raise NotImplementedError("static_bidirectional_rnn with sequence_length needs "
                              "ReverseSequence, which tfc does not have yet")
  with _vs.variable_scope(scope or "bidirectional_rnn"):
    with _vs.variable_scope("fw") as fw_scope:
      output_fw, state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype,
                                       scope=fw_scope)
    with _vs.variable_scope("bw") as bw_scope:
      reversed_out, state_bw = static_rnn(cell_bw, list(reversed(inputs)), initial_state_bw,
                                          dtype, scope=bw_scope)
  output_bw = list(reversed(reversed_out))
  outputs = [_nest.pack_sequence_as(fw, [_array_ops.concat([a, b], 1) for a, b in
                                         zip(_nest.flatten(fw), _nest.flatten(bw))])
             for fw, bw in zip(output_fw, output_bw)]
  return outputs, state_fw, state_bw
