"""tf.TensorArray (TF 1.15's graph-mode TensorArray over the TensorArrayV3 ops).

A TensorArray is a handle (a resource tensor naming the array) plus a `flow`
scalar that orders the operations on it: every write returns a new
TensorArray object with a new flow, and reads take the flow of the writes they
must follow. Inside tf.while_loop a TensorArray is a loop variable (its flow
is what the loop carries).
"""
import contextlib

from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _tensor_shape
from tfc.framework.op_def_library import _apply_op


def _check_dtypes(value, dtype):
  if value.dtype.base_dtype != dtype:
    raise ValueError("TensorArray dtype is %s but Op is trying to write dtype %s."
                     % (dtype.name, value.dtype.base_dtype.name))


def _shape_attr(shape):
  return _tensor_shape.as_shape(shape) if shape is not None else _tensor_shape.unknown_shape()


class TensorArray(object):
  """Class wrapping dynamic-sized, per-time-step, write-once Tensor arrays
  (TF 1.15 `tf.TensorArray`)."""

  def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
               tensor_array_name=None, handle=None, flow=None, infer_shape=True,
               element_shape=None, colocate_with_first_write_call=True, name=None):
    if clear_after_read is None:
      clear_after_read = True
    if handle is not None and tensor_array_name:
      raise ValueError("Cannot construct with both handle and tensor_array_name")
    if handle is not None and not isinstance(handle, _ops.Tensor):
      raise TypeError("Handle must be a Tensor")
    if handle is None and size is None:
      raise ValueError("Size must be provided if handle is not provided")
    if handle is not None and size is not None:
      raise ValueError("Cannot provide both a handle and size at the same time")
    if handle is not None and element_shape is not None:
      raise ValueError("Cannot provide both a handle and element_shape at the same time")
    if handle is not None and dynamic_size is not None:
      raise ValueError("Cannot provide both a handle and dynamic_size at the same time")
    dynamic_size = dynamic_size or False
    self._dtype = _dtypes.as_dtype(dtype).base_dtype
    self._dynamic_size = dynamic_size
    self._colocate_with_first_write_call = colocate_with_first_write_call
    self._colocate_with = [] if colocate_with_first_write_call else None
    # the static element shape: from element_shape or the first write
    self._element_shape = [_tensor_shape.as_shape(element_shape)
                           if element_shape is not None else _tensor_shape.unknown_shape()]
    self._infer_shape = infer_shape
    with _ops.name_scope(name, "TensorArray", [handle, size, flow]) as scope:
      if handle is not None:
        self._handle = handle
        if flow is None:
          raise ValueError("flow must not be None if handle is not None.")
        self._flow = flow
      else:
        attrs = {"dtype": self._dtype, "element_shape": _shape_attr(element_shape),
                 "identical_element_shapes": bool(infer_shape),
                 "dynamic_size": bool(dynamic_size), "clear_after_read": bool(clear_after_read),
                 "tensor_array_name": tensor_array_name or ""}
        size = _ops.convert_to_tensor(size, dtype=_dtypes.int32, name="size")
        if colocate_with_first_write_call:
          # as TF: made with no device; its writers are colocated with the
          # first value written, and the placer puts it beside them
          with _ops.device(None), _ops.colocate_with(None, ignore_existing=True):
            op = _apply_op("TensorArrayV3", scope, [size], attrs)
        else:
          op = _apply_op("TensorArrayV3", scope, [size], attrs)
        self._handle, self._flow = op.outputs[0], op.outputs[1]

  @property
  def flow(self):
    """The flow Tensor forcing ops leading to this TensorArray state."""
    return self._flow

  @property
  def dtype(self):
    return self._dtype

  @property
  def handle(self):
    return self._handle

  @property
  def element_shape(self):
    return self._element_shape[0]

  @property
  def dynamic_size(self):
    return self._dynamic_size

  def _merge_element_shape(self, shape):
    if not self.element_shape.is_compatible_with(shape):
      raise ValueError("Inconsistent shapes: saw %s but expected %s (and infer_shape=True)"
                       % (shape, self.element_shape))
    self._element_shape[0] = self.element_shape.merge_with(shape)

  def _check_element_shape(self, shape):
    if self._infer_shape:
      self._merge_element_shape(shape)

  @contextlib.contextmanager
  def _maybe_colocate_with(self, value):
    if not self._colocate_with_first_write_call:
      yield
    else:
      if not self._colocate_with:
        self._colocate_with.append(value)
      with _ops.colocate_with(self._colocate_with[0]):
        yield

  def _with_flow(self, flow):
    ta = TensorArray(dtype=self._dtype, handle=self._handle, flow=flow,
                     infer_shape=self._infer_shape,
                     colocate_with_first_write_call=self._colocate_with_first_write_call)
    ta._dynamic_size = self._dynamic_size
    ta._colocate_with = self._colocate_with
    ta._element_shape = self._element_shape  # shared
    return ta

  def identity(self):
    """A TensorArray with the same content and an identity flow."""
    flow = _apply_op("Identity", None, [self._flow]).outputs[0]
    return self._with_flow(flow)

  def grad(self, source, flow=None, name=None):
    """The gradient TensorArray of this one for gradient source `source`."""
    if flow is None:
      flow = self.flow
    with _ops.name_scope(name, "TensorArrayGrad", [self._handle]):
      with _ops.colocate_with(self._handle):
        op = _apply_op("TensorArrayGradV3", name or "TensorArrayGradV3",
                       [self._handle, flow], {"source": source})
        g_handle = op.outputs[0]
        with _ops.control_dependencies([g_handle]):
          flow = _apply_op("Identity", "gradient_flow", [flow]).outputs[0]
        g = TensorArray(dtype=self._dtype, handle=g_handle, flow=flow,
                        infer_shape=self._infer_shape, colocate_with_first_write_call=False)
        g._element_shape = self._element_shape
        return g

  def read(self, index, name=None):
    """The element at `index`."""
    value = _apply_op("TensorArrayReadV3", name or "TensorArrayReadV3",
                      [self._handle, _ops.convert_to_tensor(index, dtype=_dtypes.int32),
                       self._flow], {"dtype": self._dtype}).outputs[0]
    if self._element_shape and self._element_shape[0].dims is not None:
      value.set_shape(self._element_shape[0].dims)
    return value

  def write(self, index, value, name=None):
    """Writes `value` at `index`; returns the TensorArray to use afterwards."""
    with _ops.name_scope(name, "TensorArrayWrite", [self._handle, index, value]):
      value = _ops.convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
      _check_dtypes(value, self._dtype)
      if self._infer_shape:
        self._merge_element_shape(value.shape)
      index = _ops.convert_to_tensor(index, dtype=_dtypes.int32, name="index")
      with self._maybe_colocate_with(value):
        flow_out = _apply_op("TensorArrayWriteV3", None,
                             [self._handle, index, value, self._flow]).outputs[0]
      return self._with_flow(flow_out)

  def stack(self, name=None):
    """All the elements packed into one tensor (a new leading dimension)."""
    from tfc.ops import math_ops as _math_ops
    with _ops.colocate_with(self._handle):
      with _ops.name_scope(name, "TensorArrayStack", [self._handle]):
        return self.gather(_math_ops.range(0, self.size()), name=name)

  def gather(self, indices, name=None):
    """The elements at `indices`, packed into one tensor."""
    element_shape = self._element_shape[0] if self._element_shape else \
        _tensor_shape.unknown_shape()
    value = _apply_op("TensorArrayGatherV3", name or "TensorArrayGatherV3",
                      [self._handle, _ops.convert_to_tensor(indices, dtype=_dtypes.int32),
                       self._flow],
                      {"dtype": self._dtype, "element_shape": element_shape}).outputs[0]
    if self.element_shape.dims is not None:
      value.set_shape([None] + self.element_shape.dims)
    return value

  def concat(self, name=None):
    """All the elements concatenated along their first dimension."""
    es = self.element_shape
    except0 = es[1:] if es.dims is not None and es.ndims >= 1 else _tensor_shape.unknown_shape()
    op = _apply_op("TensorArrayConcatV3", name or "TensorArrayConcatV3",
                   [self._handle, self._flow],
                   {"dtype": self._dtype, "element_shape_except0": except0})
    value = op.outputs[0]
    if es.dims is not None and es.ndims >= 1:
      value.set_shape([None] + es.dims[1:])
    return value

  def unstack(self, value, name=None):
    """Writes value[i] at index i for every row of `value`."""
    from tfc.ops import array_ops as _array_ops
    from tfc.ops import math_ops as _math_ops
    with _ops.name_scope(name, "TensorArrayUnstack", [self._handle, value]):
      num_elements = _array_ops.shape(value)[0]
      return self.scatter(indices=_math_ops.range(0, num_elements), value=value, name=name)

  def scatter(self, indices, value, name=None):
    """Writes value[i] at indices[i]."""
    with _ops.name_scope(name, "TensorArrayScatter", [self._handle, value, indices]):
      value = _ops.convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
      _check_dtypes(value, self._dtype)
      if value.shape.ndims is not None and value.shape.ndims >= 1:
        self._check_element_shape(value.shape[1:])
      indices = _ops.convert_to_tensor(indices, dtype=_dtypes.int32)
      with self._maybe_colocate_with(value):
        flow_out = _apply_op("TensorArrayScatterV3", None,
                             [self._handle, indices, value, self._flow]).outputs[0]
      return self._with_flow(flow_out)

  def split(self, value, lengths, name=None):
    """Writes consecutive row ranges of `value` (of the given lengths)."""
    from tfc.ops import math_ops as _math_ops
    with _ops.name_scope(name, "TensorArraySplit", [self._handle, value, lengths]):
      value = _ops.convert_to_tensor(value, dtype=self._dtype, name="value")
      with self._maybe_colocate_with(value):
        lengths_64 = _math_ops.cast(lengths, _dtypes.int64)
        flow_out = _apply_op("TensorArraySplitV3", None,
                             [self._handle, value, lengths_64, self._flow]).outputs[0]
      return self._with_flow(flow_out)

  def size(self, name=None):
    """The current number of elements (an int32 scalar)."""
    return _apply_op("TensorArraySizeV3", name or "TensorArraySizeV3",
                     [self._handle, self.flow]).outputs[0]

  def close(self, name=None):
    """Closes the array (its values are dropped)."""
    return _apply_op("TensorArrayCloseV3", name or "TensorArrayCloseV3", [self._handle])


def build_ta_with_new_flow(old_ta, flow):
  """A TensorArray sharing old_ta's handle and element shape, with `flow`."""
  return old_ta._with_flow(flow)
