"""tf.nn.rnn_cell: TF 1.15's RNN cells (BasicRNNCell, BasicLSTMCell, LSTMCell, GRUCell,
MultiRNNCell and the Dropout/Residual/Device wrappers), built from matmul, bias_add,
split, concat and the activations.

Variables keep TF's names, so checkpoints line up: a cell creates them on its first call
in a variable scope named after it (`basic_lstm_cell`, `lstm_cell`, `gru_cell`,
`multi_rnn_cell/cell_0/...`, unique within the enclosing scope, e.g.
`rnn/basic_lstm_cell/kernel`) and reuses them on every later call. The wrappers add no
scope of their own.
"""
import collections
import hashlib
import numbers

from tfc import dtypes as _dtypes
from tfc import nest as _nest
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _tensor_shape
from tfc.ops import array_ops as _array_ops
from tfc.ops import init_ops as _init_ops
from tfc.ops import math_ops as _math_ops
from tfc.ops import nn_ops as _nn_ops
from tfc.ops import variable_scope as _vs


def _batch_and(batch_size, size, static=False):
  """[batch_size] + the dimensions of `size` (an int or a shape); with static, the
  unknown parts as None."""
  if isinstance(batch_size, _ops.Tensor):
    batch = None if static else batch_size
  else:
    batch = int(batch_size)
  dims = _tensor_shape.TensorShape(size).as_list()
  return [batch] + dims


def _zero_state(state_size, batch_size, dtype):
  def zeros(size):
    dims = _batch_and(batch_size, size)
    shape = dims if all(isinstance(d, int) for d in dims) else _array_ops.stack(dims)
    z = _array_ops.zeros(shape, dtype=dtype)
    z.set_shape(_batch_and(batch_size, size, static=True))
    return z
  return _nest.map_structure(zeros, state_size)


class RNNCell(object):
  """An RNN cell: `output, new_state = cell(inputs, state)`.

  Subclasses define `state_size`, `output_size` and `call(inputs, state)` (and `build`
  for their variables, created with `add_variable`). The first call captures a variable
  scope (the `scope` argument, or a unique one named after the cell); every later call
  reuses the variables made there.
  """

  _base_name = "rnn_cell"

  def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
    self._reuse = kwargs.pop("_reuse", None)
    if kwargs:
      raise TypeError("unexpected keyword arguments: %s" % sorted(kwargs))
    self.trainable = trainable
    self._name = name
    self._dtype = _dtypes.as_dtype(dtype) if dtype is not None else None
    self._scope = None
    self._variables = []
    self.built = False

  @property
  def name(self):
    return self._name or self._base_name

  @property
  def dtype(self):
    return self._dtype

  @property
  def state_size(self):
    """Size(s) of the state: an int, a TensorShape, or a nested tuple of them."""
    raise NotImplementedError("Abstract method")

  @property
  def output_size(self):
    """Size of the output (an int or TensorShape)."""
    raise NotImplementedError("Abstract method")

  @property
  def variables(self):
    return list(self._variables)

  weights = variables

  @property
  def trainable_variables(self):
    return list(self._variables) if self.trainable else []

  trainable_weights = trainable_variables

  def build(self, inputs_shape):  # pylint: disable=unused-argument
    self.built = True

  def call(self, inputs, state):
    raise NotImplementedError("Abstract method")

  def add_variable(self, name, shape, dtype=None, initializer=None, regularizer=None,
                   trainable=None, partitioner=None, constraint=None):
    """A variable of this cell (tf.get_variable in the cell's scope)."""
    var = _vs.get_variable(name, shape=shape, dtype=dtype or self._dtype or _dtypes.float32,
                           initializer=initializer, regularizer=regularizer,
                           trainable=self.trainable if trainable is None else trainable,
                           partitioner=partitioner, constraint=constraint)
    self._variables.append(var)
    return var

  add_weight = add_variable

  def _capture_scope(self, scope):
    base = self._name or self._base_name
    if self._reuse:
      with _vs.variable_scope(scope if scope is not None else base) as captured:
        self._scope = captured
    else:
      with _vs.variable_scope(scope, default_name=base) as captured:
        self._scope = captured

  def __call__(self, inputs, state, scope=None):
    """Runs the cell on `inputs` and `state`; returns (output, new_state)."""
    if self._scope is None:
      self._capture_scope(scope)
    reuse = True if self.built else self._reuse
    with _vs.variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False):
      with _ops.name_scope(self._scope.original_name_scope):
        if _nest.is_nested(inputs):
          inputs = _nest.map_structure(_ops.convert_to_tensor, inputs)
        else:
          inputs = _ops.convert_to_tensor(inputs)
        if not self.built:
          first = _nest.flatten(inputs)[0]
          if self._dtype is None:
            self._dtype = first.dtype.base_dtype
          self.build(first.get_shape() if not _nest.is_nested(inputs)
                     else _nest.map_structure(lambda t: t.get_shape(), inputs))
          self.built = True
        return self.call(inputs, state)

  def zero_state(self, batch_size, dtype):
    """Zero-filled state tensor(s) for a batch of `batch_size` (an int or a scalar tensor)."""
    with _ops.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
      return _zero_state(self.state_size, batch_size, dtype)

  def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
    if inputs is not None:
      inputs = _ops.convert_to_tensor(inputs)
      batch_size = _array_ops.shape(inputs)[0] if inputs.get_shape()[0].value is None \
          else inputs.get_shape()[0].value
      dtype = dtype or inputs.dtype
    return self.zero_state(batch_size, dtype)


LayerRNNCell = RNNCell


def _input_depth(inputs_shape):
  depth = _tensor_shape.TensorShape(inputs_shape)[-1].value
  if depth is None:
    raise ValueError("Expected inputs.shape[-1] to be known, saw shape: %s" % inputs_shape)
  return depth


class BasicRNNCell(RNNCell):
  """output = new_state = activation(concat([inputs, state]) @ kernel + bias)."""

  _base_name = "basic_rnn_cell"

  def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None, **kwargs):
    super(BasicRNNCell, self).__init__(name=name, dtype=dtype, _reuse=reuse, **kwargs)
    self._num_units = num_units
    self._activation = activation or _math_ops.tanh

  @property
  def state_size(self):
    return self._num_units

  @property
  def output_size(self):
    return self._num_units

  def build(self, inputs_shape):
    depth = _input_depth(inputs_shape)
    self._kernel = self.add_variable("kernel", shape=[depth + self._num_units, self._num_units])
    self._bias = self.add_variable("bias", shape=[self._num_units],
                                   initializer=_init_ops.zeros_initializer())
    self.built = True

  def call(self, inputs, state):
    pre = _nn_ops.bias_add(_math_ops.matmul(_array_ops.concat([inputs, state], 1),
                                            self._kernel), self._bias)
    output = self._activation(pre)
    return output, output


class LSTMStateTuple(collections.namedtuple("LSTMStateTuple", ("c", "h"))):
  """(c, h): the cell state and the output of an LSTM cell."""
  __slots__ = ()

  @property
  def dtype(self):
    c, h = self
    if c.dtype != h.dtype:
      raise TypeError("Inconsistent internal state: %s vs %s" % (str(c.dtype), str(h.dtype)))
    return c.dtype


class BasicLSTMCell(RNNCell):
  """LSTM without peepholes or projection: gates i, j, f, o from one kernel
  [input_depth + num_units, 4 * num_units]; forget_bias added to f."""

  _base_name = "basic_lstm_cell"

  def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None,
               reuse=None, name=None, dtype=None, **kwargs):
    super(BasicLSTMCell, self).__init__(name=name, dtype=dtype, _reuse=reuse, **kwargs)
    self._num_units = num_units
    self._forget_bias = forget_bias
    self._state_is_tuple = state_is_tuple
    self._activation = activation or _math_ops.tanh

  @property
  def state_size(self):
    if self._state_is_tuple:
      return LSTMStateTuple(self._num_units, self._num_units)
    return 2 * self._num_units

  @property
  def output_size(self):
    return self._num_units

  def build(self, inputs_shape):
    depth = _input_depth(inputs_shape)
    self._kernel = self.add_variable("kernel",
                                     shape=[depth + self._num_units, 4 * self._num_units])
    self._bias = self.add_variable("bias", shape=[4 * self._num_units],
                                   initializer=_init_ops.zeros_initializer())
    self.built = True

  def call(self, inputs, state):
    if self._state_is_tuple:
      c, h = state
    else:
      c, h = _array_ops.split(state, 2, axis=1)
    gates = _nn_ops.bias_add(_math_ops.matmul(_array_ops.concat([inputs, h], 1), self._kernel),
                             self._bias)
    i, j, f, o = _array_ops.split(gates, 4, axis=1)
    forget_bias = _ops.convert_to_tensor(self._forget_bias, dtype=f.dtype)
    new_c = (c * _math_ops.sigmoid(f + forget_bias)
             + _math_ops.sigmoid(i) * self._activation(j))
    new_h = self._activation(new_c) * _math_ops.sigmoid(o)
    if self._state_is_tuple:
      return new_h, LSTMStateTuple(new_c, new_h)
    return new_h, _array_ops.concat([new_c, new_h], 1)


class LSTMCell(RNNCell):
  """LSTM with optional peepholes (w_f_diag, w_i_diag, w_o_diag), cell clipping and an
  output projection (projection/kernel, num_proj wide, optionally clipped)."""

  _base_name = "lstm_cell"

  def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None,
               num_proj=None, proj_clip=None, num_unit_shards=None, num_proj_shards=None,
               forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None, name=None,
               dtype=None, **kwargs):
    super(LSTMCell, self).__init__(name=name, dtype=dtype, _reuse=reuse, **kwargs)
    if num_unit_shards is not None or num_proj_shards is not None:
      raise NotImplementedError("num_unit_shards and num_proj_shards (partitioned LSTM "
                                "weights) are not supported; they are deprecated in TF 1.x")
    self._num_units = num_units
    self._use_peepholes = use_peepholes
    self._cell_clip = cell_clip
    self._initializer = initializer
    self._num_proj = num_proj
    self._proj_clip = proj_clip
    self._forget_bias = forget_bias
    self._state_is_tuple = state_is_tuple
    self._activation = activation or _math_ops.tanh

  @property
  def state_size(self):
    out = self._num_proj or self._num_units
    if self._state_is_tuple:
      return LSTMStateTuple(self._num_units, out)
    return self._num_units + out

  @property
  def output_size(self):
    return self._num_proj or self._num_units

  def build(self, inputs_shape):
    depth = _input_depth(inputs_shape)
    h_depth = self._num_proj or self._num_units
    self._kernel = self.add_variable("kernel", shape=[depth + h_depth, 4 * self._num_units],
                                     initializer=self._initializer)
    self._bias = self.add_variable("bias", shape=[4 * self._num_units],
                                   initializer=_init_ops.zeros_initializer())
    if self._use_peepholes:
      self._w_f_diag = self.add_variable("w_f_diag", shape=[self._num_units],
                                         initializer=self._initializer)
      self._w_i_diag = self.add_variable("w_i_diag", shape=[self._num_units],
                                         initializer=self._initializer)
      self._w_o_diag = self.add_variable("w_o_diag", shape=[self._num_units],
                                         initializer=self._initializer)
    if self._num_proj is not None:
      self._proj_kernel = self.add_variable("projection/kernel",
                                            shape=[self._num_units, self._num_proj],
                                            initializer=self._initializer)
    self.built = True

  def call(self, inputs, state):
    out = self._num_proj or self._num_units
    if self._state_is_tuple:
      c_prev, m_prev = state
    else:
      c_prev = _array_ops.slice(state, [0, 0], [-1, self._num_units])
      m_prev = _array_ops.slice(state, [0, self._num_units], [-1, out])
    gates = _nn_ops.bias_add(
        _math_ops.matmul(_array_ops.concat([inputs, m_prev], 1), self._kernel), self._bias)
    i, j, f, o = _array_ops.split(gates, 4, axis=1)
    sigmoid = _math_ops.sigmoid
    if self._use_peepholes:
      c = (sigmoid(f + self._forget_bias + self._w_f_diag * c_prev) * c_prev
           + sigmoid(i + self._w_i_diag * c_prev) * self._activation(j))
    else:
      c = sigmoid(f + self._forget_bias) * c_prev + sigmoid(i) * self._activation(j)
    if self._cell_clip is not None:
      c = _math_ops.clip_by_value(c, -self._cell_clip, self._cell_clip)
    if self._use_peepholes:
      m = sigmoid(o + self._w_o_diag * c) * self._activation(c)
    else:
      m = sigmoid(o) * self._activation(c)
    if self._num_proj is not None:
      m = _math_ops.matmul(m, self._proj_kernel)
      if self._proj_clip is not None:
        m = _math_ops.clip_by_value(m, -self._proj_clip, self._proj_clip)
    if self._state_is_tuple:
      return m, LSTMStateTuple(c, m)
    return m, _array_ops.concat([c, m], 1)


class GRUCell(RNNCell):
  """Gated recurrent unit: gates/kernel and gates/bias (ones) give the reset and update
  gates, candidate/kernel and candidate/bias (zeros) the candidate state."""

  _base_name = "gru_cell"

  def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None,
               bias_initializer=None, name=None, dtype=None, **kwargs):
    super(GRUCell, self).__init__(name=name, dtype=dtype, _reuse=reuse, **kwargs)
    self._num_units = num_units
    self._activation = activation or _math_ops.tanh
    self._kernel_initializer = kernel_initializer
    self._bias_initializer = bias_initializer

  @property
  def state_size(self):
    return self._num_units

  @property
  def output_size(self):
    return self._num_units

  def build(self, inputs_shape):
    depth = _input_depth(inputs_shape)
    n = self._num_units
    self._gate_kernel = self.add_variable("gates/kernel", shape=[depth + n, 2 * n],
                                          initializer=self._kernel_initializer)
    self._gate_bias = self.add_variable(
        "gates/bias", shape=[2 * n],
        initializer=self._bias_initializer or _init_ops.constant_initializer(1.0))
    self._candidate_kernel = self.add_variable("candidate/kernel", shape=[depth + n, n],
                                               initializer=self._kernel_initializer)
    self._candidate_bias = self.add_variable(
        "candidate/bias", shape=[n],
        initializer=self._bias_initializer or _init_ops.zeros_initializer())
    self.built = True

  def call(self, inputs, state):
    gates = _math_ops.sigmoid(_nn_ops.bias_add(
        _math_ops.matmul(_array_ops.concat([inputs, state], 1), self._gate_kernel),
        self._gate_bias))
    r, u = _array_ops.split(gates, 2, axis=1)
    candidate = _nn_ops.bias_add(
        _math_ops.matmul(_array_ops.concat([inputs, r * state], 1), self._candidate_kernel),
        self._candidate_bias)
    c = self._activation(candidate)
    new_h = u * state + (1 - u) * c
    return new_h, new_h


class MultiRNNCell(RNNCell):
  """Cells stacked in layers: cell i runs in scope `cell_i` on the output of cell i - 1."""

  _base_name = "multi_rnn_cell"

  def __init__(self, cells, state_is_tuple=True):
    super(MultiRNNCell, self).__init__()
    if not cells:
      raise ValueError("Must specify at least one cell for MultiRNNCell.")
    if not isinstance(cells, (list, tuple)):
      raise TypeError("cells must be a list or tuple, but saw: %s." % (cells,))
    self._cells = list(cells)
    self._state_is_tuple = state_is_tuple
    if not state_is_tuple and any(_nest.is_nested(c.state_size) for c in self._cells):
      raise ValueError("Some cells return tuples of states, but the flag state_is_tuple is "
                       "not set.  State sizes are: %s"
                       % str([c.state_size for c in self._cells]))

  @property
  def state_size(self):
    if self._state_is_tuple:
      return tuple(cell.state_size for cell in self._cells)
    return sum(cell.state_size for cell in self._cells)

  @property
  def output_size(self):
    return self._cells[-1].output_size

  @property
  def variables(self):
    return [v for cell in self._cells for v in cell.variables]

  weights = variables

  @property
  def trainable_variables(self):
    return [v for cell in self._cells for v in cell.trainable_variables]

  trainable_weights = trainable_variables

  def zero_state(self, batch_size, dtype):
    with _ops.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
      if self._state_is_tuple:
        return tuple(cell.zero_state(batch_size, dtype) for cell in self._cells)
      return _zero_state(self.state_size, batch_size, dtype)

  def call(self, inputs, state):
    current = inputs
    position = 0
    new_states = []
    for i, cell in enumerate(self._cells):
      with _vs.variable_scope("cell_%d" % i):
        if self._state_is_tuple:
          if not _nest.is_nested(state):
            raise ValueError("Expected state to be a tuple of length %d, but received: %s"
                             % (len(self.state_size), state))
          cell_state = state[i]
        else:
          cell_state = _array_ops.slice(state, [0, position], [-1, cell.state_size])
          position += cell.state_size
        current, new_state = cell(current, cell_state)
        new_states.append(new_state)
    if self._state_is_tuple:
      return current, tuple(new_states)
    return current, _array_ops.concat(new_states, 1)


class _Wrapper(RNNCell):
  """A cell around another cell; it adds no variable scope of its own."""

  def __init__(self, cell):
    super(_Wrapper, self).__init__()
    if not callable(getattr(cell, "zero_state", None)) or not hasattr(cell, "state_size"):
      raise TypeError("The parameter cell is not a RNNCell.")
    self._cell = cell

  @property
  def wrapped_cell(self):
    return self._cell

  @property
  def state_size(self):
    return self._cell.state_size

  @property
  def output_size(self):
    return self._cell.output_size

  @property
  def variables(self):
    return self._cell.variables

  weights = variables

  @property
  def trainable_variables(self):
    return self._cell.trainable_variables

  trainable_weights = trainable_variables

  def zero_state(self, batch_size, dtype):
    with _ops.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
      return self._cell.zero_state(batch_size, dtype)

  def _wrapped_call(self, inputs, state, scope):
    raise NotImplementedError("Abstract method")

  def __call__(self, inputs, state, scope=None):
    return self._wrapped_call(inputs, state, scope)


def _keep_state_entry(substate):
  """Which parts of a state DropoutWrapper drops: an LSTM's h, never its c."""
  if isinstance(substate, LSTMStateTuple):
    return LSTMStateTuple(c=False, h=True)
  return True


class DropoutWrapper(_Wrapper):
  """Dropout on a cell's inputs, outputs and state (keep probabilities, 1.0 = none)."""

  def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
               variational_recurrent=False, input_size=None, dtype=None, seed=None,
               dropout_state_filter_visitor=None):
    super(DropoutWrapper, self).__init__(cell)
    if variational_recurrent:
      raise NotImplementedError("DropoutWrapper(variational_recurrent=True) is not supported "
                                "yet")
    for prob, attr in ((input_keep_prob, "input_keep_prob"),
                       (state_keep_prob, "state_keep_prob"),
                       (output_keep_prob, "output_keep_prob")):
      if isinstance(prob, numbers.Real) and not 0 < prob <= 1:
        raise ValueError("Parameter %s must be between 0 and 1: %d" % (attr, prob))
    self._input_keep_prob = input_keep_prob
    self._output_keep_prob = output_keep_prob
    self._state_keep_prob = state_keep_prob
    self._seed = seed
    self._state_filter = dropout_state_filter_visitor or _keep_state_entry
    del input_size, dtype

  def _entry_seed(self, salt, index):
    if self._seed is None:
      return None
    digest = hashlib.md5(("%s%s_%d" % (self._seed, salt, index)).encode()).hexdigest()
    return int(digest[:8], 16) & 0x7FFFFFFF

  def _drop(self, values, salt, keep_prob, keep_mask=None):
    flat = _nest.flatten(values)
    mask = _nest.flatten(keep_mask) if keep_mask is not None else [True] * len(flat)
    dropped = [_nn_ops.dropout(v, keep_prob=keep_prob, seed=self._entry_seed(salt, i))
               if drop else v for i, (v, drop) in enumerate(zip(flat, mask))]
    return _nest.pack_sequence_as(values, dropped)

  @staticmethod
  def _active(prob):
    return not isinstance(prob, numbers.Real) or prob < 1

  def _state_mask(self, state):
    """One flag per flattened state tensor: whether dropout applies to it. The filter
    sees each substructure from the top: False skips it, True descends into it (a leaf
    is dropped), a structure of bools decides child by child."""
    flags = []

    def skip(sub):
      flags.extend([False] * len(_nest.flatten(sub)))

    def visit(sub):
      decision = self._state_filter(sub)
      if _nest.is_nested(decision):
        for child, keep in zip(_nest._children(sub), _nest._children(decision)):  # pylint: disable=protected-access
          if keep:
            visit(child)
          else:
            skip(child)
      elif not decision:
        skip(sub)
      elif _nest.is_nested(sub):
        for child in _nest._children(sub):  # pylint: disable=protected-access
          visit(child)
      else:
        flags.append(True)

    visit(state)
    return flags

  def _wrapped_call(self, inputs, state, scope):
    if self._active(self._input_keep_prob):
      inputs = self._drop(inputs, "input", self._input_keep_prob)
    output, new_state = self._cell(inputs, state, scope=scope)
    if self._active(self._state_keep_prob):
      new_state = self._drop(new_state, "state", self._state_keep_prob,
                             self._state_mask(new_state))
    if self._active(self._output_keep_prob):
      output = self._drop(output, "output", self._output_keep_prob)
    return output, new_state


class ResidualWrapper(_Wrapper):
  """Adds the cell's inputs to its outputs (or combines them with residual_fn)."""

  def __init__(self, cell, residual_fn=None):
    super(ResidualWrapper, self).__init__(cell)
    self._residual_fn = residual_fn

  def _wrapped_call(self, inputs, state, scope):
    outputs, new_state = self._cell(inputs, state, scope=scope)

    def add(i, o):
      i, o = _ops.convert_to_tensor(i), _ops.convert_to_tensor(o)
      i.get_shape().assert_is_compatible_with(o.get_shape())
      return i + o

    if self._residual_fn is not None:
      return self._residual_fn(inputs, outputs), new_state
    _nest.assert_same_structure(inputs, outputs)
    return _nest.map_structure(add, inputs, outputs), new_state


class DeviceWrapper(_Wrapper):
  """Runs the cell (and makes its zero state) on `device`."""

  def __init__(self, cell, device):
    super(DeviceWrapper, self).__init__(cell)
    self._device = device

  def zero_state(self, batch_size, dtype):
    with _ops.name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
      with _ops.device(self._device):
        return self._cell.zero_state(batch_size, dtype)

  def _wrapped_call(self, inputs, state, scope):
    with _ops.device(self._device):
      return self._cell(inputs, state, scope=scope)
