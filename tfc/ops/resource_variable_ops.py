"""Resource variables (TF 1.15 `ResourceVariable`, `use_resource=True`).

A resource variable is a handle (`VarHandleOp`, a scalar DT_RESOURCE tensor
naming the variable by container and shared name) that other ops read
(`ReadVariableOp`) and update through (`AssignVariableOp`,
`AssignAddVariableOp`, `ResourceScatterAdd`, `ResourceApplyAdam`, ...). Unlike a
ref variable, every read is an op of its own, so reads and writes are ordered
by the graph's control dependencies. The kernels are tfc's own
(csrc/kernels/resource_var.c); TensorFlow 2.x clients create the same ops.

`tf.Variable(..., use_resource=True)`, `tf.get_variable(..., use_resource=True)`
and a `variable_scope(use_resource=True)` make one; after
`tf.enable_resource_variables()` every new variable is one.
"""
import inspect

from tfc import dtypes as _dtypes
from tfc import protos as _protos
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _ts
from tfc.framework.op_def_library import _apply_op
from tfc.ops import array_ops as _array_ops
from tfc.ops import variables as _variables
from tfc.ops.gradient_registry import RegisterGradient, NoGradient

GraphKeys = _ops.GraphKeys


# -- raw op wrappers (TF's gen_resource_variable_ops names) ------------------------------

def var_handle_op(dtype, shape, container="", shared_name="", name=None):
  """A VarHandleOp: the scalar resource handle of variable (container, shared_name)."""
  return _apply_op("VarHandleOp", name, [], {
      "dtype": _dtypes.as_dtype(dtype).base_dtype,
      "shape": _ts.as_shape(shape)._as_tuple_or_none(),
      "container": container, "shared_name": shared_name}).outputs[0]


def read_variable_op(resource, dtype, name=None):
  """The variable's current value."""
  return _apply_op("ReadVariableOp", name, [resource],
                   {"dtype": _dtypes.as_dtype(dtype).base_dtype}).outputs[0]


def assign_variable_op(resource, value, name=None):
  """Sets the variable (creating it on first use); returns the Operation."""
  return _apply_op("AssignVariableOp", name, [resource, value])


def assign_add_variable_op(resource, value, name=None):
  return _apply_op("AssignAddVariableOp", name, [resource, value])


def assign_sub_variable_op(resource, value, name=None):
  return _apply_op("AssignSubVariableOp", name, [resource, value])


def resource_count_up_to(resource, limit, T, shape=None, name=None):  # pylint: disable=invalid-name
  """ResourceCountUpTo on a variable handle (of a variable of dtype T and
  static shape `shape`, which must be a scalar)."""
  if shape is not None:
    shape = _ts.as_shape(shape)
    if shape.ndims is not None and shape.ndims != 0:
      raise ValueError("Shape must be rank 0 but is rank %d for 'ResourceCountUpTo'" % shape.ndims)
  return _apply_op("ResourceCountUpTo", name, [resource],
                   {"limit": limit, "T": _dtypes.as_dtype(T).base_dtype}).outputs[0]


def var_is_initialized_op(resource, name=None):
  return _apply_op("VarIsInitializedOp", name, [resource]).outputs[0]


def destroy_resource_op(resource, ignore_lookup_error=True, name=None):
  return _apply_op("DestroyResourceOp", name, [resource],
                   {"ignore_lookup_error": bool(ignore_lookup_error)})


def resource_gather(resource, indices, dtype, batch_dims=0, validate_indices=True, name=None):
  return _apply_op("ResourceGather", name, [resource, indices],
                   {"dtype": _dtypes.as_dtype(dtype).base_dtype, "batch_dims": int(batch_dims),
                    "validate_indices": bool(validate_indices)}).outputs[0]


def _scatter(op_type):
  def fn(resource, indices, updates, name=None):
    return _apply_op(op_type, name, [resource, indices, updates])
  fn.__name__ = "resource_" + op_type[len("Resource"):].lower()
  fn.__doc__ = "%s(resource, indices, updates): the rows `indices` updated in place." % op_type
  return fn


resource_scatter_update = _scatter("ResourceScatterUpdate")
resource_scatter_add = _scatter("ResourceScatterAdd")
resource_scatter_sub = _scatter("ResourceScatterSub")
resource_scatter_mul = _scatter("ResourceScatterMul")
resource_scatter_div = _scatter("ResourceScatterDiv")
resource_scatter_min = _scatter("ResourceScatterMin")
resource_scatter_max = _scatter("ResourceScatterMax")


def _handle_shape(handle):
  """The static shape recorded on the VarHandleOp behind `handle` (unknown otherwise)."""
  op = handle.op
  while op.type == "Identity" and op.inputs:
    op = op.inputs[0].op
  if op.type != "VarHandleOp":
    return _ts.unknown_shape()
  return _ts.as_shape(op.get_attr("shape"))


def _handle_dtype(handle):
  op = handle.op
  while op.type == "Identity" and op.inputs:
    op = op.inputs[0].op
  return op.get_attr("dtype") if op.type == "VarHandleOp" else None


def is_resource_variable(var):
  """True for a ResourceVariable (a variable accessed through a handle)."""
  return isinstance(var, ResourceVariable)


# -- the variable class -----------------------------------------------------------------

class ResourceVariable(_variables.Variable):
  """A variable behind a resource handle; reads are ops ordered by control dependencies."""

  def __init__(self, initial_value=None, trainable=None, collections=None, validate_shape=True,
               caching_device=None, name=None, dtype=None, variable_def=None,
               import_scope=None, constraint=None, use_resource=None, synchronization=None,
               aggregation=None, shape=None, expected_shape=None):
    if variable_def:
      if initial_value is not None:
        raise ValueError("variable_def and initial_value are mutually exclusive.")
      self._init_from_proto(variable_def, import_scope=import_scope)
    else:
      from tfc.ops import variable_policies  # pylint: disable=g-import-not-at-top
      self._synchronization, self._aggregation, trainable = variable_policies.validate(
          synchronization, aggregation, trainable, name)
      self._init_from_args(initial_value=initial_value, trainable=trainable,
                           collections=collections, validate_shape=validate_shape,
                           caching_device=caching_device, name=name, dtype=dtype,
                           constraint=constraint, shape=shape)

  def _init_from_args(self, initial_value=None, trainable=True, collections=None,
                      validate_shape=True, caching_device=None, name=None, dtype=None,
                      constraint=None, shape=None, **unused):
    if initial_value is None:
      raise ValueError("initial_value must be specified.")
    init_from_fn = callable(initial_value)
    if collections is None:
      collections = [GraphKeys.GLOBAL_VARIABLES]
    if not isinstance(collections, (list, tuple, set)):
      raise ValueError("collections argument to Variable constructor must be a list, tuple, "
                       "or set. Got %s of type %s" % (collections, type(collections)))
    if constraint is not None and not callable(constraint):
      raise ValueError("The `constraint` argument must be a callable.")
    if trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
      collections = list(collections) + [GraphKeys.TRAINABLE_VARIABLES]
    if dtype is not None:
      dtype = _dtypes.as_dtype(dtype)
    g = _ops.get_default_graph()
    with _ops.name_scope(name, "Variable", [] if init_from_fn else [initial_value]) as name:
      handle_name = _ops.name_from_scope_name(name)
      with g._attr_scope({"_class": [("loc:@%s" % handle_name).encode()]}):  # pylint: disable=protected-access
        with _ops.name_scope("Initializer"), _ops.device(None):
          value = initial_value() if init_from_fn else initial_value
          self._initial_value = _ops.convert_to_tensor(value, name="initial_value", dtype=dtype)
      if shape is not None:
        var_shape = _ts.as_shape(shape)
      elif validate_shape:
        var_shape = self._initial_value.get_shape()
      else:
        var_shape = _ts.unknown_shape()
      if validate_shape and not var_shape.is_fully_defined() and shape is None:
        raise ValueError("initial_value must have a shape specified: %s" % self._initial_value)
      self._dtype = self._initial_value.dtype.base_dtype
      self._shape = var_shape
      self._handle = var_handle_op(self._dtype, var_shape, shared_name=handle_name,
                                   container=g._container or "", name=name)  # pylint: disable=protected-access
      with _ops.colocate_with(self._handle.op):
        with _ops.name_scope("IsInitialized"):
          self._is_initialized_op = var_is_initialized_op(self._handle)
        with _ops.name_scope("Assign") as n:
          self._initializer_op = assign_variable_op(self._handle, self._initial_value, name=n)
        with _ops.name_scope("Read"):
          value = read_variable_op(self._handle, self._dtype, name="ReadVariableOp")
          value.set_shape(var_shape)
      if caching_device is not None:
        with _ops.device(caching_device):
          value = _array_ops.identity(value)
      self._graph_element = value
      self._snapshot = value
    g.add_to_collections(collections, self)
    self._caching_device = caching_device
    self._save_slice_info = None
    self._constraint = constraint
    self._trainable = bool(trainable)
    self._variable = self._handle

  def _init_from_proto(self, variable_def, import_scope=None):
    g = _ops.get_default_graph()

    def elem(name):
      return g.as_graph_element(_ops.prepend_name_scope(name, import_scope=import_scope))

    self._handle = elem(variable_def.variable_name)
    self._variable = self._handle
    self._dtype = _dtypes.as_dtype(self._handle.op.get_attr("dtype"))
    self._shape = _handle_shape(self._handle)
    self._initializer_op = elem(variable_def.initializer_name)
    if getattr(variable_def, "initial_value_name", ""):
      self._initial_value = elem(variable_def.initial_value_name)
    else:
      self._initial_value = None
    self._trainable = getattr(variable_def, "trainable", True)
    if variable_def.snapshot_name:
      self._snapshot = elem(variable_def.snapshot_name)
    else:
      with _ops.colocate_with(self._handle.op):
        self._snapshot = read_variable_op(self._handle, self._dtype)
    self._graph_element = self._snapshot
    self._is_initialized_op = None
    self._caching_device = None
    self._save_slice_info = None
    self._constraint = None

  # -- properties ------------------------------------------------------------------------

  def __repr__(self):
    return "<tf.Variable '%s' shape=%s dtype=%s>" % (self.name, self.get_shape(),
                                                     self.dtype.name)

  @property
  def handle(self):
    """The resource handle tensor (VarHandleOp's output)."""
    return self._handle

  @property
  def dtype(self):
    return self._dtype

  @property
  def shape(self):
    return self._shape

  def get_shape(self):
    return self._shape

  def set_shape(self, shape):
    self._shape = self._shape.merge_with(shape)
    self._snapshot.set_shape(self._shape)

  @property
  def create(self):
    return self._initializer_op

  def _as_graph_element(self):
    return self._graph_element

  def _ref(self):
    """The handle: what gradients and optimizers address (TF: as_ref conversion)."""
    return self._handle

  def value(self):
    """A fresh ReadVariableOp of the variable (as TF: each call adds a read)."""
    return self._read_variable_op()

  def _read_variable_op(self):
    with _ops.colocate_with(self._handle.op):
      result = read_variable_op(self._handle, self._dtype)
    result.set_shape(self._shape)
    return result

  def read_value(self):
    """A fresh read of the variable (ordered after the enclosing control dependencies)."""
    with _ops.name_scope("Read"):
      value = self._read_variable_op()
    return _array_ops.identity(value)

  def sparse_read(self, indices, name=None):
    """ResourceGather: the rows `indices` of the variable."""
    with _ops.name_scope("Gather" if name is None else name) as name:
      return resource_gather(self._handle, indices, self._dtype, name=name)

  def is_initialized(self, name=None):
    return var_is_initialized_op(self._handle, name=name)

  def eval(self, session=None):
    session = session or _ops.get_default_session()
    if session is None:
      raise ValueError("Cannot evaluate a variable without a default session")
    return session.run(self._graph_element)

  def initialized_value(self):
    """The variable's value once it is initialized, else its initial value (a
    cond on VarIsInitializedOp, as TF 1.15 builds it)."""
    with _ops.init_scope():
      from tfc.ops import control_flow_ops as _cf  # pylint: disable=g-import-not-at-top
      return _cf.cond(_variables.is_variable_initialized(self), self.read_value,
                      lambda: self.initial_value)

  def _lazy_read(self, op, read_value):
    if not read_value:
      return op
    with _ops.control_dependencies([op]):
      return self._read_variable_op()

  def assign(self, value, use_locking=None, name=None, read_value=True):
    with _ops.name_scope(name, "AssignVariableOp", [self._handle, value]) as name:
      value = _ops.convert_to_tensor(value, dtype=self._dtype)
      if not self._shape.is_compatible_with(value.get_shape()):
        raise ValueError("Shapes %s and %s are incompatible" % (self._shape, value.get_shape()))
      op = assign_variable_op(self._handle, value, name=name)
    return self._lazy_read(op, read_value)

  def assign_add(self, delta, use_locking=None, name=None, read_value=True):
    with _ops.name_scope(name, "AssignAddVariableOp", [self._handle, delta]) as name:
      op = assign_add_variable_op(self._handle, _ops.convert_to_tensor(delta, dtype=self._dtype),
                                  name=name)
    return self._lazy_read(op, read_value)

  def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
    with _ops.name_scope(name, "AssignSubVariableOp", [self._handle, delta]) as name:
      op = assign_sub_variable_op(self._handle, _ops.convert_to_tensor(delta, dtype=self._dtype),
                                  name=name)
    return self._lazy_read(op, read_value)

  def _scatter(self, fn, sparse_delta, name):
    if not (hasattr(sparse_delta, "indices") and hasattr(sparse_delta, "values")):
      raise TypeError("sparse_delta is not IndexedSlices: %s" % (sparse_delta,))
    op = fn(self._handle, sparse_delta.indices,
            _ops.convert_to_tensor(sparse_delta.values, dtype=self._dtype), name=name)
    return self._lazy_read(op, True)

  def scatter_update(self, sparse_delta, use_locking=False, name=None):
    return self._scatter(resource_scatter_update, sparse_delta, name)

  def scatter_add(self, sparse_delta, use_locking=False, name=None):
    return self._scatter(resource_scatter_add, sparse_delta, name)

  def scatter_sub(self, sparse_delta, use_locking=False, name=None):
    return self._scatter(resource_scatter_sub, sparse_delta, name)

  def scatter_mul(self, sparse_delta, use_locking=False, name=None):
    return self._scatter(resource_scatter_mul, sparse_delta, name)

  def scatter_div(self, sparse_delta, use_locking=False, name=None):
    return self._scatter(resource_scatter_div, sparse_delta, name)

  def scatter_min(self, sparse_delta, use_locking=False, name=None):
    return self._scatter(resource_scatter_min, sparse_delta, name)

  def scatter_max(self, sparse_delta, use_locking=False, name=None):
    return self._scatter(resource_scatter_max, sparse_delta, name)

  def count_up_to(self, limit):
    """Increments this scalar int32/int64 variable until it reaches limit;
    the op outputs the value before the increment and raises
    OutOfRangeError once the value is at limit."""
    return resource_count_up_to(self.handle, limit, self.dtype, self.shape)

  def load(self, value, session=None):
    session = session or _ops.get_default_session()
    if session is None:
      raise ValueError("Either session argument should be provided or default session "
                       "should be established")
    session.run(self._initializer_op, {self._initializer_op.inputs[1]: value})

  def to_proto(self, export_scope=None):
    """A VariableDef (is_resource=True) naming this variable's ops."""
    if export_scope is None or self._handle.name.startswith(export_scope):
      var_def = _protos.VariableDef()
      var_def.variable_name = _ops.strip_name_scope(self._handle.name, export_scope)
      if self._initial_value is not None:
        var_def.initial_value_name = _ops.strip_name_scope(self._initial_value.name,
                                                           export_scope)
      var_def.initializer_name = _ops.strip_name_scope(self._initializer_op.name, export_scope)
      var_def.snapshot_name = _ops.strip_name_scope(self._graph_element.name, export_scope)
      var_def.is_resource = True
      var_def.trainable = self._trainable
      return var_def
    return None

  @staticmethod
  def from_proto(variable_def, import_scope=None):
    return ResourceVariable(variable_def=variable_def, import_scope=import_scope)

  @staticmethod
  def _TensorConversionFunction(v, dtype=None, name=None, as_ref=False):  # pylint: disable=invalid-name
    if dtype is not None and not dtype.is_compatible_with(v.dtype):
      raise ValueError("Incompatible type conversion requested to type '%s' for variable "
                       "of type '%s'" % (dtype.name, v.dtype.name))
    if as_ref:
      return v._handle  # pylint: disable=protected-access
    return v._read_variable_op()  # pylint: disable=protected-access


ResourceVariable.__signature__ = inspect.signature(ResourceVariable.__init__).replace(
    parameters=list(inspect.signature(ResourceVariable.__init__).parameters.values())[1:])

_ops.register_tensor_conversion_function(ResourceVariable,
                                         ResourceVariable._TensorConversionFunction)


def _overload_operator(operator):
  tensor_oper = getattr(_ops.Tensor, operator)

  def _run_op(a, *args):
    return tensor_oper(a._read_variable_op(), *args)  # pylint: disable=protected-access

  _run_op.__name__ = operator
  setattr(ResourceVariable, operator, _run_op)


for _op_name in _ops.Tensor.OVERLOADABLE_OPERATORS:
  if _op_name != "__getitem__":
    _overload_operator(_op_name)

ResourceVariable.__getitem__ = lambda var, spec: _array_ops._slice_helper(  # pylint: disable=protected-access
    var._read_variable_op(), spec, var)  # pylint: disable=protected-access


# -- the process-wide default -----------------------------------------------------------

def enable_resource_variables():
  """Makes every variable created afterwards a ResourceVariable (TF 2.x's default)."""
  _variables._DEFAULT_USE_RESOURCE[0] = True  # pylint: disable=protected-access


def disable_resource_variables():
  """Back to ref variables (TF 1.x's default) for variables created afterwards."""
  _variables._DEFAULT_USE_RESOURCE[0] = False  # pylint: disable=protected-access


def resource_variables_enabled():
  """True when new variables are ResourceVariables by default."""
  return bool(_variables._DEFAULT_USE_RESOURCE[0])  # pylint: disable=protected-access


_variables._RESOURCE_VARIABLE_CLASS[0] = ResourceVariable  # pylint: disable=protected-access


# -- gradients ----------------------------------------------------------------------------

@RegisterGradient("ReadVariableOp")
def _read_grad(unused_op, grad):
  """The gradient of a read flows to the handle (what optimizers differentiate against)."""
  return grad


@RegisterGradient("ResourceGather")
def _resource_gather_grad(op, grad):
  """Dense gradient of the gathered rows, shaped like the variable."""
  handle, indices = op.inputs
  if op.get_attr("batch_dims"):
    raise LookupError("No gradient defined for ResourceGather with batch_dims")
  shape = _handle_shape(handle)
  flat_idx = _array_ops.reshape(indices, [-1])
  if shape.is_fully_defined():
    sp = shape.as_list()
    rows = _array_ops.reshape(grad, [-1] + sp[1:])
    n = sp[0]
  else:
    # a handle whose variable is not in sight (a function argument, e.g. in a
    # While body): the shape at run time, from a read of the variable
    sp = _array_ops.shape(read_variable_op(handle, op.get_attr("dtype")))
    rows = _array_ops.reshape(grad, _array_ops.concat([[-1], sp[1:]], 0))
    n = sp[0]
  dense = _apply_op("UnsortedSegmentSum", None, [rows, flat_idx, n]).outputs[0]
  return [dense, None]


for _t in ("VarHandleOp", "VarIsInitializedOp", "AssignVariableOp", "AssignAddVariableOp",
           "AssignSubVariableOp", "DestroyResourceOp", "ResourceScatterUpdate",
           "ResourceScatterAdd", "ResourceScatterSub", "ResourceScatterMul",
           "ResourceScatterDiv", "ResourceScatterMin", "ResourceScatterMax"):
  NoGradient(_t)
