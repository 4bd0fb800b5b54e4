"""tf.Variable (TF 1.15 RefVariable semantics) and the variable collections helpers."""
import inspect
import os

from tfc import _tfc
from tfc import dtypes as _dtypes
from tfc import protos as _protos
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _ts
from tfc.framework.op_def_library import _apply_op
from tfc.ops import array_ops as _array_ops
from tfc.ops import control_flow_ops as _cf
from tfc.ops import math_ops as _math_ops  # noqa: F401  (installs Tensor operators)
from tfc.ops import state_ops as _state_ops

GraphKeys = _ops.GraphKeys

# Whether new variables are resource variables by default
# (tf.enable_resource_variables() / tf.disable_resource_variables()).
_DEFAULT_USE_RESOURCE = [False]
# ResourceVariable, set when tfc.ops.resource_variable_ops is imported.
_RESOURCE_VARIABLE_CLASS = [None]
_USE_RESOURCE_POSITION = 11   # use_resource's index among Variable's positional arguments


def _resource_variable_class():
  if _RESOURCE_VARIABLE_CLASS[0] is None:
    from tfc.ops import resource_variable_ops  # noqa: F401  pylint: disable=g-import-not-at-top
  return _RESOURCE_VARIABLE_CLASS[0]


class Variable(_tfc.Variable):
  """A mutable tensor kept across Session.run calls (VariableV2 + Assign + read Identity).

  `Variable(..., use_resource=True)` (or any variable after
  `tf.enable_resource_variables()`, or one restored from a VariableDef with
  is_resource) is a `ResourceVariable` instead, as in TF 1.15.
  """

  __array_priority__ = 100

  def __new__(cls, *args, **kwargs):
    if cls is Variable:
      use_resource = kwargs.get("use_resource")
      if use_resource is None and len(args) > _USE_RESOURCE_POSITION:
        use_resource = args[_USE_RESOURCE_POSITION]
      variable_def = kwargs.get("variable_def")
      if variable_def is not None:
        use_resource = bool(getattr(variable_def, "is_resource", False))
      elif use_resource is None:
        use_resource = _DEFAULT_USE_RESOURCE[0]
      if use_resource:
        return _tfc.Variable.__new__(_resource_variable_class())
    return _tfc.Variable.__new__(cls)

  def __init__(self, initial_value=None, trainable=None, collections=None, validate_shape=True,
               caching_device=None, name=None, variable_def=None, dtype=None,
               expected_shape=None, import_scope=None, constraint=None, use_resource=None,
               synchronization=None, aggregation=None, shape=None):
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
                           expected_shape=expected_shape, constraint=constraint)

  def _init_from_args(self, initial_value=None, trainable=True, collections=None,
                      validate_shape=True, caching_device=None, name=None, dtype=None,
                      expected_shape=None, constraint=None):
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
    # a variable (and its initializer) never belongs to a cond or while loop
    with _cf._OuterContext(g, None), \
        _ops.name_scope(name, "Variable", [] if init_from_fn else [initial_value]) as name:
      if init_from_fn:
        true_name = _ops.name_from_scope_name(name)
        with g._attr_scope({"_class": [("loc:@%s" % true_name).encode()]}):
          with _ops.name_scope("Initializer"), _ops.device(None):
            self._initial_value = _ops.convert_to_tensor(initial_value(), name="initial_value",
                                                         dtype=dtype)
          shape = (self._initial_value.get_shape() if validate_shape
                   else _ts.unknown_shape())
          self._variable = _state_ops.variable_op_v2(shape, self._initial_value.dtype.base_dtype,
                                                     name=name)
          self._build_rest(name, validate_shape, caching_device)
      else:
        self._initial_value = _ops.convert_to_tensor(initial_value, name="initial_value",
                                                     dtype=dtype)
        shape = (self._initial_value.get_shape() if validate_shape else _ts.unknown_shape())
        self._variable = _state_ops.variable_op_v2(shape, self._initial_value.dtype.base_dtype,
                                                   name=name)
        self._build_rest(name, validate_shape, caching_device)
    g.add_to_collections(collections, self)
    self._caching_device = caching_device
    self._save_slice_info = None
    self._constraint = constraint
    self._trainable = bool(trainable)

  def _build_rest(self, name, validate_shape, caching_device):
    if validate_shape:
      initial_value_shape = self._initial_value.get_shape()
      if not initial_value_shape.is_fully_defined():
        raise ValueError("initial_value must have a shape specified: %s" % self._initial_value)
    with _ops.colocate_with(self._variable.op):
      self._initializer_op = _state_ops.assign(self._variable, self._initial_value,
                                               validate_shape=validate_shape).op
    if caching_device is not None:
      with _ops.device(caching_device):
        self._snapshot = _array_ops.identity(self._variable, name="read")
    else:
      with _ops.colocate_with(self._variable.op):
        self._snapshot = _array_ops.identity(self._variable, name="read")

  def _init_from_proto(self, variable_def, import_scope=None):
    g = _ops.get_default_graph()
    self._variable = g.as_graph_element(
        _ops.prepend_name_scope(variable_def.variable_name, import_scope=import_scope))
    self._initializer_op = g.as_graph_element(
        _ops.prepend_name_scope(variable_def.initializer_name, import_scope=import_scope))
    if getattr(variable_def, "initial_value_name", ""):
      self._initial_value = g.as_graph_element(
          _ops.prepend_name_scope(variable_def.initial_value_name, import_scope=import_scope))
    else:
      self._initial_value = None
    self._trainable = getattr(variable_def, "trainable", True)
    self._snapshot = g.as_graph_element(
        _ops.prepend_name_scope(variable_def.snapshot_name, import_scope=import_scope))
    self._caching_device = None
    self._save_slice_info = None
    self._constraint = None

  # -- properties --------------------------------------------------------------------

  def __repr__(self):
    return "<tf.Variable '%s' shape=%s dtype=%s>" % (self.name, self.get_shape(),
                                                     self.dtype.name)


  @property
  def _shared_name(self):
    return self.name[:self.name.index(":")]


  @property
  def constraint(self):
    return self._constraint

  @property
  def trainable(self):
    return self._trainable

  @property
  def synchronization(self):
    """The tf.VariableSynchronization given at construction (AUTO by default)."""
    from tfc.ops import variable_policies  # pylint: disable=g-import-not-at-top
    return getattr(self, "_synchronization", variable_policies.VariableSynchronization.AUTO)

  @property
  def aggregation(self):
    """The tf.VariableAggregation given at construction (NONE by default)."""
    from tfc.ops import variable_policies  # pylint: disable=g-import-not-at-top
    return getattr(self, "_aggregation", variable_policies.VariableAggregation.NONE)



  @property
  def dtype(self):
    return self._variable.dtype



  @property
  def shape(self):
    return self._variable.get_shape()

  def get_shape(self):
    return self._variable.get_shape()

  def set_shape(self, shape):
    self._ref().set_shape(shape)
    self.value().set_shape(shape)

  def value(self):
    return self._snapshot

  def read_value(self):
    return _array_ops.identity(self._variable, name="read")

  def _ref(self):
    return self._variable

  def _as_graph_element(self):
    return self._variable

  def _AsTensor(self):  # pylint: disable=invalid-name
    return self._snapshot

  def __iter__(self):
    raise TypeError("'Variable' object is not iterable.")

  def __bool__(self):
    return True

  def __hash__(self):
    return id(self)

  def __eq__(self, other):
    return self is other

  def __ne__(self, other):
    return self is not other

  def eval(self, session=None):
    return self._variable.eval(session=session)

  def initialized_value(self):
    """The variable's value once it is initialized, else its initial value:
    cond(is_variable_initialized(v), v.read_value, lambda: v.initial_value),
    built outside any control context (TF 1.15). Fetching it never runs the
    initializer, so it does not reset a variable that training changed."""
    with _ops.init_scope():
      return _cf.cond(is_variable_initialized(self), self.read_value,
                      lambda: self.initial_value)

  def assign(self, value, use_locking=False, name=None, read_value=True):
    a = _state_ops.assign(self._variable, value, use_locking=use_locking, name=name)
    return a if read_value else a.op

  def assign_add(self, delta, use_locking=False, name=None, read_value=True):
    a = _state_ops.assign_add(self._variable, delta, use_locking=use_locking, name=name)
    return a if read_value else a.op

  def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
    a = _state_ops.assign_sub(self._variable, delta, use_locking=use_locking, name=name)
    return a if read_value else a.op

  def scatter_update(self, sparse_delta, use_locking=False, name=None):
    """ScatterUpdate of `sparse_delta.values` into the rows `sparse_delta.indices`."""
    if not (hasattr(sparse_delta, "indices") and hasattr(sparse_delta, "values")):
      raise TypeError("sparse_delta is not IndexedSlices: %s" % (sparse_delta,))
    return _state_ops.scatter_update(self._variable, sparse_delta.indices, sparse_delta.values,
                                     use_locking=use_locking, name=name)

  def count_up_to(self, limit):
    return _state_ops.count_up_to(self._variable, limit=limit)

  def load(self, value, session=None):
    session = session or _ops.get_default_session()
    if session is None:
      raise ValueError("Either session argument should be provided or default session "
                       "should be established")
    session.run(self._initializer_op, {self._initializer_op.inputs[1]: value})

  def to_proto(self, export_scope=None):
    """A VariableDef naming this variable's ops (None outside `export_scope`)."""
    if export_scope is None or self._variable.name.startswith(export_scope):
      var_def = _protos.VariableDef()
      var_def.variable_name = _ops.strip_name_scope(self._variable.name, export_scope)
      if self._initial_value is not None:
        var_def.initial_value_name = _ops.strip_name_scope(self._initial_value.name,
                                                           export_scope)
      var_def.trainable = self._trainable
      var_def.initializer_name = _ops.strip_name_scope(self.initializer.name, export_scope)
      var_def.snapshot_name = _ops.strip_name_scope(self._snapshot.name, export_scope)
      return var_def
    return None

  @staticmethod
  def from_proto(variable_def, import_scope=None):
    return Variable(variable_def=variable_def, import_scope=import_scope)

  @staticmethod
  def _TensorConversionFunction(v, dtype=None, name=None, as_ref=False):  # pylint: disable=invalid-name
    if dtype is not None and not dtype.is_compatible_with(v.dtype):
      raise ValueError("Incompatible type conversion requested to type '%s' for variable "
                       "of type '%s'" % (dtype.name, v.dtype.name))
    if as_ref:
      return v._ref()
    return v.value()

  def _get_save_slice_info(self):
    return self._save_slice_info

  def _set_save_slice_info(self, save_slice_info):
    self._save_slice_info = save_slice_info


# Variable.__new__ takes (*args, **kwargs); show __init__'s parameters instead.
Variable.__signature__ = inspect.signature(Variable.__init__).replace(
    parameters=list(inspect.signature(Variable.__init__).parameters.values())[1:])


def _overload_operator(operator):
  tensor_oper = getattr(_ops.Tensor, operator)

  def _run_op(a, *args):
    return tensor_oper(a.value(), *args)

  _run_op.__name__ = operator
  setattr(Variable, operator, _run_op)


for _op_name in _ops.Tensor.OVERLOADABLE_OPERATORS:
  if _op_name != "__getitem__":
    _overload_operator(_op_name)


def _slice_helper_var(var, slice_spec):
  return _array_ops._slice_helper(var.value(), slice_spec, var)


Variable.__getitem__ = _slice_helper_var

_ops.register_tensor_conversion_function(Variable, Variable._TensorConversionFunction)

RefVariable = Variable
VariableV1 = Variable


# -- collections helpers -----------------------------------------------------------------


def global_variables(scope=None):
  return _ops.get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


def all_variables():
  return global_variables()


def local_variables(scope=None):
  return _ops.get_collection(GraphKeys.LOCAL_VARIABLES, scope)


def trainable_variables(scope=None):
  return _ops.get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


def model_variables(scope=None):
  return _ops.get_collection(GraphKeys.MODEL_VARIABLES, scope)


def moving_average_variables(scope=None):
  return _ops.get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, scope)


def variables_initializer(var_list, name="init"):
  if var_list:
    return _cf.group(*[v.initializer for v in var_list], name=name)
  return _cf.no_op(name=name)


def initialize_variables(var_list, name="init"):
  return variables_initializer(var_list, name=name)


def global_variables_initializer():
  return variables_initializer(global_variables())


def initialize_all_variables():
  return global_variables_initializer()


def local_variables_initializer():
  return variables_initializer(local_variables())


def initialize_local_variables():
  return local_variables_initializer()


def is_variable_initialized(variable):
  return _state_ops.is_variable_initialized(variable)


def assert_variables_initialized(var_list=None):
  if var_list is None:
    var_list = global_variables() + local_variables()
  if not var_list:
    var_list = []
    for op in _ops.get_default_graph().get_operations():
      if op.type in ("Variable", "VariableV2", "AutoReloadVariable"):
        var_list.append(op.outputs[0])
  if not var_list:
    return None
  ranks = []
  for var in var_list:
    with _ops.colocate_with(var.op):
      ranks.append(_apply_op("Rank", None, [var]).outputs[0])
  if len(ranks) == 1:
    return ranks[0]
  return _array_ops.stack(ranks)


def report_uninitialized_variables(var_list=None, name="report_uninitialized_variables"):
  """A 1-D string tensor with the names of the uninitialized variables."""
  if var_list is None:
    var_list = global_variables() + local_variables()
    if not var_list:
      var_list = []
      for op in _ops.get_default_graph().get_operations():
        if op.type in ("Variable", "VariableV2", "AutoReloadVariable"):
          var_list.append(op.outputs[0])
  with _ops.name_scope(name):
    if var_list:
      init_vars = [_state_ops.is_variable_initialized(v) for v in var_list]
    local_device = os.environ.get("TF_DEVICE_FOR_UNINITIALIZED_VARIABLE_REPORTING", "/cpu:0")
    with _ops.device(local_device):
      from tfc.framework import constant_op  # pylint: disable=g-import-not-at-top
      if not var_list:
        return constant_op.constant([], dtype=_dtypes.string)
      variables_mask = _math_ops.logical_not(_array_ops.stack(init_vars))
      variable_names_tensor = constant_op.constant([s.op.name for s in var_list])
      return _array_ops.boolean_mask(variable_names_tensor, variables_mask)
