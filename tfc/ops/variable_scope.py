"""tf.variable_scope / tf.get_variable (TF 1.15 semantics, ref variables only)."""
import copy
import enum
import inspect
import sys

from tfc import dtypes as _dtypes
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _ts
from tfc.ops import init_ops as _init_ops
from tfc.ops import variables as _variables


class _ReuseMode(enum.Enum):
  AUTO_REUSE = 1


AUTO_REUSE = _ReuseMode.AUTO_REUSE

_VARSTORE_KEY = ("__variable_store",)
_VARSCOPESTORE_KEY = ("__varscope",)


class _VariableStore(object):
  """Variables created by get_variable, by full name."""

  def __init__(self):
    self._vars = {}
    self._partitioned_vars = {}
    self._store_eager_variables = False

  def get_variable(self, name, shape=None, dtype=_dtypes.float32, initializer=None,
                   regularizer=None, reuse=None, trainable=None, collections=None,
                   caching_device=None, partitioner=None, validate_shape=True,
                   use_resource=None, custom_getter=None, constraint=None,
                   synchronization=None, aggregation=None):
    if custom_getter is not None and not callable(custom_getter):
      raise ValueError("Passed a custom_getter which is not callable: %s" % custom_getter)
    if partitioner is not None:
      raise NotImplementedError("tfc does not support partitioned variables yet")
    if trainable is None:
      trainable = True
    try:
      dtype = dtype.base_dtype
    except AttributeError:
      pass

    def _true_getter(name, shape=None, dtype=_dtypes.float32, initializer=None,
                     regularizer=None, reuse=None, trainable=None, collections=None,
                     caching_device=None, partitioner=None, validate_shape=True,
                     use_resource=None, constraint=None, synchronization=None,
                     aggregation=None, **unused_kwargs):
      if partitioner is not None:
        raise NotImplementedError("tfc does not support partitioned variables yet")
      return self._get_single_variable(name=name, shape=shape, dtype=dtype,
                                       initializer=initializer, regularizer=regularizer,
                                       reuse=reuse, trainable=trainable,
                                       collections=collections, caching_device=caching_device,
                                       validate_shape=validate_shape, constraint=constraint,
                                       use_resource=use_resource)

    if custom_getter is not None:
      custom_getter_kwargs = {
          "getter": _true_getter, "name": name, "shape": shape, "dtype": dtype,
          "initializer": initializer, "regularizer": regularizer, "reuse": reuse,
          "trainable": trainable, "collections": collections,
          "caching_device": caching_device, "partitioner": partitioner,
          "validate_shape": validate_shape, "use_resource": use_resource,
          "constraint": constraint,
      }
      return custom_getter(**custom_getter_kwargs)
    return _true_getter(name, shape=shape, dtype=dtype, initializer=initializer,
                        regularizer=regularizer, reuse=reuse, trainable=trainable,
                        collections=collections, caching_device=caching_device,
                        partitioner=partitioner, validate_shape=validate_shape,
                        use_resource=use_resource, constraint=constraint)

  def _get_single_variable(self, name, shape=None, dtype=_dtypes.float32, initializer=None,
                           regularizer=None, partition_info=None, reuse=None,
                           trainable=None, collections=None, caching_device=None,
                           validate_shape=True, constraint=None, use_resource=None):
    initializing_from_value = False
    if initializer is not None and not callable(initializer):
      initializing_from_value = True
    if shape is not None and initializing_from_value:
      raise ValueError("If initializer is a constant, do not specify shape.")
    dtype = _dtypes.as_dtype(dtype)
    shape = _ts.as_shape(shape)

    if name in self._vars:
      if reuse is False:
        var = self._vars[name]
        err_msg = ("Variable %s already exists, disallowed. Did you mean to set reuse=True or "
                   "reuse=tf.AUTO_REUSE in VarScope?" % name)
        stack = getattr(var, "_creation_stack", None) or []
        import traceback  # pylint: disable=g-import-not-at-top  (error path only)
        tb = [traceback.FrameSummary(fn, ln, name) for fn, ln, name in reversed(stack)
              if "/tfc/" not in fn][-5:]
        raise ValueError("%s Originally defined at:\n\n%s"
                         % (err_msg, "".join(traceback.format_list(tb))))
      found_var = self._vars[name]
      if not shape.is_compatible_with(found_var.get_shape()):
        raise ValueError("Trying to share variable %s, but specified shape %s and found shape "
                         "%s." % (name, shape, found_var.get_shape()))
      if not dtype.is_compatible_with(found_var.dtype):
        raise ValueError("Trying to share variable %s, but specified dtype %s and found dtype "
                         "%s." % (name, dtype.name, found_var.dtype.name))
      return found_var

    if reuse is True:
      raise ValueError("Variable %s does not exist, or was not created with "
                       "tf.get_variable(). Did you mean to set "
                       "reuse=tf.AUTO_REUSE in VarScope?" % name)

    if initializer is None:
      initializer, initializing_from_value = self._get_default_initializer(
          name=name, shape=shape, dtype=dtype)
    if initializing_from_value:
      init_val = initializer
      variable_dtype = None
    else:
      if inspect.isclass(initializer):
        initializer = initializer()
      if shape is not None and shape.is_fully_defined():
        shape_list = shape.as_list()
        init_val = lambda: initializer(shape_list, dtype=dtype, partition_info=partition_info)
        variable_dtype = dtype.base_dtype
      elif _takes_no_required_args(initializer):
        init_val = initializer
        variable_dtype = None
      else:
        raise ValueError("The initializer passed is not valid. It should be a callable with no "
                         "arguments and the shape should not be provided or an instance of "
                         "`tf.keras.initializers.*' and `shape` should be fully defined.")
    v = _variables.Variable(initial_value=init_val, name=name, trainable=trainable,
                            collections=collections, caching_device=caching_device,
                            dtype=variable_dtype, validate_shape=validate_shape,
                            constraint=constraint, use_resource=use_resource)
    frames = []
    f = sys._getframe(1)
    while f is not None and len(frames) < 12:
      frames.append((f.f_code.co_filename, f.f_lineno, f.f_code.co_name))
      f = f.f_back
    v._creation_stack = frames
    self._vars[name] = v

    if regularizer:
      with _ops.colocate_with(v):
        with _ops.name_scope(name + "/Regularizer/"):
          loss = regularizer(v)
        if loss is not None:
          _ops.add_to_collection(_ops.GraphKeys.REGULARIZATION_LOSSES, loss)
    return v

  def _get_default_initializer(self, name, shape=None, dtype=_dtypes.float32):
    del shape
    if dtype.is_floating:
      return _init_ops.glorot_uniform_initializer(), False
    if dtype.is_integer or dtype.is_unsigned or dtype.is_bool or dtype == _dtypes.string:
      return _init_ops.zeros_initializer(), False
    raise ValueError("An initializer for variable %s of %s is required"
                     % (name, dtype.base_dtype))


def _takes_no_required_args(fn):
  try:
    sig = inspect.signature(fn)
  except (TypeError, ValueError):
    return False
  for p in sig.parameters.values():
    if p.default is inspect.Parameter.empty and p.kind in (p.POSITIONAL_ONLY,
                                                           p.POSITIONAL_OR_KEYWORD):
      return False
  return True


class VariableScope(object):
  """A variable scope: name prefix plus defaults for get_variable."""

  def __init__(self, reuse, name="", initializer=None, regularizer=None, caching_device=None,
               partitioner=None, custom_getter=None, name_scope="", dtype=_dtypes.float32,
               use_resource=None, constraint=None):
    self._name = name
    self._initializer = initializer
    self._regularizer = regularizer
    self._reuse = reuse
    self._caching_device = caching_device
    self._partitioner = partitioner
    self._custom_getter = custom_getter
    self._name_scope = name_scope
    self._dtype = dtype
    self._use_resource = use_resource
    self._constraint = constraint

  @property
  def name(self):
    return self._name

  @property
  def original_name_scope(self):
    return self._name_scope

  @property
  def reuse(self):
    return self._reuse

  @property
  def initializer(self):
    return self._initializer

  @property
  def dtype(self):
    return self._dtype

  @property
  def use_resource(self):
    return self._use_resource

  @property
  def regularizer(self):
    return self._regularizer

  @property
  def caching_device(self):
    return self._caching_device

  @property
  def partitioner(self):
    return self._partitioner

  @property
  def custom_getter(self):
    return self._custom_getter

  @property
  def constraint(self):
    return self._constraint

  def reuse_variables(self):
    self._reuse = True

  def set_initializer(self, initializer):
    self._initializer = initializer

  def set_dtype(self, dtype):
    self._dtype = dtype

  def set_use_resource(self, use_resource):
    self._use_resource = use_resource

  def set_regularizer(self, regularizer):
    self._regularizer = regularizer

  def set_caching_device(self, caching_device):
    self._caching_device = caching_device

  def set_partitioner(self, partitioner):
    self._partitioner = partitioner

  def set_custom_getter(self, custom_getter):
    self._custom_getter = custom_getter

  def get_collection(self, name):
    scope = self._name + "/" if self._name else ""
    return _ops.get_collection(name, scope)

  def trainable_variables(self):
    return self.get_collection(_ops.GraphKeys.TRAINABLE_VARIABLES)

  def global_variables(self):
    return self.get_collection(_ops.GraphKeys.GLOBAL_VARIABLES)

  def local_variables(self):
    return self.get_collection(_ops.GraphKeys.LOCAL_VARIABLES)

  def get_variable(self, var_store, name, shape=None, dtype=None, initializer=None,
                   regularizer=None, reuse=None, trainable=None, collections=None,
                   caching_device=None, partitioner=None, validate_shape=True,
                   use_resource=None, custom_getter=None, constraint=None,
                   synchronization=None, aggregation=None):
    if regularizer is None:
      regularizer = self._regularizer
    if caching_device is None:
      caching_device = self._caching_device
    if partitioner is None:
      partitioner = self._partitioner
    if custom_getter is None:
      custom_getter = self._custom_getter
    if reuse is None:
      reuse = self._reuse
    if use_resource is None:
      use_resource = self._use_resource
    full_name = self.name + "/" + name if self.name else name
    with _ops.name_scope(None):
      if dtype is not None and isinstance(initializer, _ops.Tensor):
        if not _dtypes.as_dtype(dtype).is_compatible_with(initializer.dtype):
          raise ValueError("Initializer type '%s' and explicit dtype '%s' don't match."
                           % (initializer.dtype.base_dtype, dtype))
      if initializer is None:
        initializer = self._initializer
      if constraint is None:
        constraint = self._constraint
      if dtype is None:
        dtype = self._dtype
      return var_store.get_variable(full_name, shape=shape, dtype=dtype,
                                    initializer=initializer, regularizer=regularizer,
                                    reuse=reuse, trainable=trainable, collections=collections,
                                    caching_device=caching_device, partitioner=partitioner,
                                    validate_shape=validate_shape, use_resource=use_resource,
                                    custom_getter=custom_getter, constraint=constraint)


class _VariableScopeStore(object):
  def __init__(self):
    self.current_scope = VariableScope(False)
    self.variable_scopes_count = {}

  def open_variable_scope(self, scope_name):
    self.variable_scopes_count[scope_name] = self.variable_scopes_count.get(scope_name, 0) + 1

  def close_variable_subscopes(self, scope_name):
    for k in list(self.variable_scopes_count.keys()):
      if scope_name is None or k.startswith(scope_name + "/"):
        self.variable_scopes_count[k] = 0

  def variable_scope_count(self, scope_name):
    return self.variable_scopes_count.get(scope_name, 0)


def get_variable_scope_store():
  scope_store = _ops.get_collection(_VARSCOPESTORE_KEY)
  if not scope_store:
    scope_store = _VariableScopeStore()
    _ops.add_to_collection(_VARSCOPESTORE_KEY, scope_store)
  else:
    scope_store = scope_store[0]
  return scope_store


def get_variable_scope():
  return get_variable_scope_store().current_scope


def _get_default_variable_store():
  store = _ops.get_collection(_VARSTORE_KEY)
  if store:
    return store[0]
  store = _VariableStore()
  _ops.add_to_collection(_VARSTORE_KEY, store)
  return store


def get_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                 trainable=None, collections=None, caching_device=None, partitioner=None,
                 validate_shape=True, use_resource=None, custom_getter=None, constraint=None,
                 synchronization=None, aggregation=None):
  """Gets an existing variable or creates a new one (TF 1.15 `tf.get_variable`)."""
  return get_variable_scope().get_variable(
      _get_default_variable_store(), name, shape=shape, dtype=dtype, initializer=initializer,
      regularizer=regularizer, trainable=trainable, collections=collections,
      caching_device=caching_device, partitioner=partitioner, validate_shape=validate_shape,
      use_resource=use_resource, custom_getter=custom_getter, constraint=constraint)


def get_local_variable(name, shape=None, dtype=None, initializer=None, regularizer=None,
                       trainable=False, collections=None, caching_device=None,
                       partitioner=None, validate_shape=True, use_resource=None,
                       custom_getter=None, constraint=None, synchronization=None,
                       aggregation=None):
  if collections:
    collections = list(collections) + [_ops.GraphKeys.LOCAL_VARIABLES]
  else:
    collections = [_ops.GraphKeys.LOCAL_VARIABLES]
  return get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                      regularizer=regularizer, trainable=False, collections=collections,
                      caching_device=caching_device, partitioner=partitioner,
                      validate_shape=validate_shape, use_resource=use_resource,
                      custom_getter=custom_getter, constraint=constraint)


class _pure_variable_scope(object):  # pylint: disable=invalid-name
  """Variable-scope half of variable_scope (no name scope)."""

  def __init__(self, name_or_scope, reuse=None, initializer=None, regularizer=None,
               caching_device=None, partitioner=None, custom_getter=None, old_name_scope=None,
               dtype=_dtypes.float32, use_resource=None, constraint=None):
    self._name_or_scope = name_or_scope
    self._reuse = reuse
    self._initializer = initializer
    self._regularizer = regularizer
    self._caching_device = caching_device
    self._partitioner = partitioner
    self._custom_getter = custom_getter
    self._old_name_scope = old_name_scope
    self._dtype = dtype
    self._use_resource = use_resource
    self._constraint = constraint
    self._var_store = _get_default_variable_store()
    self._var_scope_store = get_variable_scope_store()
    self._last_variable_scope_object = None
    if isinstance(self._name_or_scope, VariableScope):
      self._new_name = self._name_or_scope.name
      name_scope = self._name_or_scope._name_scope
      variable_scope_object = VariableScope(
          self._name_or_scope.reuse if not self._reuse else self._reuse,
          name=self._new_name, initializer=self._name_or_scope.initializer,
          regularizer=self._name_or_scope.regularizer,
          caching_device=self._name_or_scope.caching_device,
          partitioner=self._name_or_scope.partitioner, dtype=self._name_or_scope.dtype,
          custom_getter=self._name_or_scope.custom_getter, name_scope=name_scope,
          use_resource=self._name_or_scope.use_resource,
          constraint=self._name_or_scope.constraint)
      self._apply_overrides(variable_scope_object)
      self._cached_variable_scope_object = variable_scope_object

  def _apply_overrides(self, scope):
    if self._initializer is not None:
      scope.set_initializer(self._initializer)
    if self._regularizer is not None:
      scope.set_regularizer(self._regularizer)
    if self._caching_device is not None:
      scope.set_caching_device(self._caching_device)
    if self._partitioner is not None:
      scope.set_partitioner(self._partitioner)
    if self._custom_getter is not None:
      scope.set_custom_getter(_maybe_wrap_custom_getter(self._custom_getter,
                                                        scope.custom_getter))
    if self._dtype is not None:
      scope.set_dtype(self._dtype)
    if self._use_resource is not None:
      scope.set_use_resource(self._use_resource)
    if self._constraint is not None:
      scope._constraint = self._constraint

  def __enter__(self):
    self._old = self._var_scope_store.current_scope
    if isinstance(self._name_or_scope, VariableScope):
      self._var_scope_store.open_variable_scope(self._new_name)
      self._old_subscopes = copy.copy(self._var_scope_store.variable_scopes_count)
      variable_scope_object = self._cached_variable_scope_object
    else:
      self._new_name = (self._old.name + "/" + self._name_or_scope if self._old.name
                        else self._name_or_scope)
      self._reuse = self._reuse or self._old.reuse
      if self._old_name_scope is None:
        name_scope = self._name_or_scope
      else:
        name_scope = self._old_name_scope
      variable_scope_object = VariableScope(
          self._reuse, name=self._new_name, initializer=self._old.initializer,
          regularizer=self._old.regularizer, caching_device=self._old.caching_device,
          partitioner=self._old.partitioner, dtype=self._old.dtype,
          use_resource=self._old.use_resource, custom_getter=self._old.custom_getter,
          name_scope=name_scope, constraint=self._old.constraint)
      self._apply_overrides(variable_scope_object)
      self._var_scope_store.open_variable_scope(self._new_name)
    self._var_scope_store.current_scope = variable_scope_object
    self._last_variable_scope_object = variable_scope_object
    return variable_scope_object

  def __exit__(self, type_arg, value_arg, traceback_arg):
    if isinstance(self._name_or_scope, VariableScope):
      self._var_scope_store.variable_scopes_count = self._old_subscopes
    else:
      self._var_scope_store.close_variable_subscopes(self._new_name)
    self._var_scope_store.current_scope = self._old


def _maybe_wrap_custom_getter(custom_getter, old_getter):
  if old_getter is None:
    return custom_getter

  def wrapped_custom_getter(getter, *args, **kwargs):
    return custom_getter(lambda *a, **kw: old_getter(getter, *a, **kw), *args, **kwargs)
  return wrapped_custom_getter


def _get_unique_variable_scope(prefix):
  var_scope_store = get_variable_scope_store()
  current_scope = get_variable_scope()
  name = current_scope.name + "/" + prefix if current_scope.name else prefix
  if var_scope_store.variable_scope_count(name) == 0:
    return prefix
  idx = 1
  while var_scope_store.variable_scope_count(name + ("_%d" % idx)) > 0:
    idx += 1
  return prefix + ("_%d" % idx)


class variable_scope(object):  # pylint: disable=invalid-name
  """Context manager for variable scopes (and the matching name scope)."""

  def __init__(self, name_or_scope, default_name=None, values=None, initializer=None,
               regularizer=None, caching_device=None, partitioner=None, custom_getter=None,
               reuse=None, dtype=None, use_resource=None, constraint=None,
               auxiliary_name_scope=True):
    self._name_or_scope = name_or_scope
    self._default_name = default_name
    self._values = values
    self._initializer = initializer
    self._regularizer = regularizer
    self._caching_device = caching_device
    self._partitioner = partitioner
    self._custom_getter = custom_getter
    self._reuse = reuse
    self._dtype = dtype
    self._use_resource = use_resource
    self._constraint = constraint
    if self._default_name is None and self._name_or_scope is None:
      raise TypeError("If default_name is None then name_or_scope is required")
    if self._reuse is False:
      self._reuse = None
    if not (self._reuse is True or self._reuse is None or self._reuse is AUTO_REUSE):
      raise ValueError("The reuse parameter must be True or False or None.")
    if self._values is None:
      self._values = []
    self._in_graph_mode = True
    self._graph = _ops._get_graph_from_inputs(self._values)
    self._auxiliary_name_scope = auxiliary_name_scope
    self._current_name_scope = None
    self._graph_context_manager = None
    self._cached_pure_variable_scope = None

  def __enter__(self):
    if self._graph is not _ops.get_default_graph():
      self._graph_context_manager = self._graph.as_default()
      self._graph_context_manager.__enter__()
    try:
      return self._enter_scope_uncached()
    except:
      if self._graph_context_manager is not None:
        self._graph_context_manager.__exit__(None, None, None)
      raise

  def _pure(self, name_or_scope, old_name_scope):
    return _pure_variable_scope(
        name_or_scope, reuse=self._reuse, caching_device=self._caching_device,
        partitioner=self._partitioner, custom_getter=self._custom_getter,
        old_name_scope=old_name_scope, initializer=self._initializer,
        regularizer=self._regularizer, dtype=self._dtype, use_resource=self._use_resource,
        constraint=self._constraint)

  def _enter_scope_uncached(self):
    if self._auxiliary_name_scope:
      current_name_scope = None
    else:
      name_scope = _ops.get_name_scope()
      if name_scope:
        name_scope += "/"
        current_name_scope = _ops.name_scope(name_scope)
      else:
        current_name_scope = _ops.name_scope(name_scope)

    if self._name_or_scope is not None:
      if not isinstance(self._name_or_scope, (VariableScope, str)):
        raise TypeError("VariableScope: name_or_scope must be a string or VariableScope.")
      if isinstance(self._name_or_scope, str):
        name_scope = self._name_or_scope
      else:
        name_scope = self._name_or_scope.name.split("/")[-1]
      if name_scope or current_name_scope:
        current_name_scope = current_name_scope or _ops.name_scope(name_scope)
        current_name_scope_name = current_name_scope.__enter__()
        self._current_name_scope = current_name_scope
        if isinstance(self._name_or_scope, str):
          old_name_scope = current_name_scope_name
        else:
          old_name_scope = self._name_or_scope.original_name_scope
        pure = self._pure(self._name_or_scope, old_name_scope)
      else:
        self._current_name_scope = None
        pure = self._pure(self._name_or_scope, None)
      try:
        entered = pure.__enter__()
      except:
        if self._current_name_scope is not None:
          self._current_name_scope.__exit__(None, None, None)
        raise
      self._cached_pure_variable_scope = pure
      return entered

    if self._reuse:
      raise ValueError("reuse=True cannot be used without a name_or_scope")
    current_name_scope = current_name_scope or _ops.name_scope(self._default_name)
    current_name_scope_name = current_name_scope.__enter__()
    self._current_name_scope = current_name_scope
    unique_default_name = _get_unique_variable_scope(self._default_name)
    pure = self._pure(unique_default_name, current_name_scope_name)
    try:
      entered = pure.__enter__()
    except:
      current_name_scope.__exit__(None, None, None)
      raise
    self._cached_pure_variable_scope = pure
    return entered

  def __exit__(self, type_arg, value_arg, traceback_arg):
    try:
      self._cached_pure_variable_scope.__exit__(type_arg, value_arg, traceback_arg)
    finally:
      try:
        if self._current_name_scope:
          self._current_name_scope.__exit__(type_arg, value_arg, traceback_arg)
      finally:
        if self._graph_context_manager is not None:
          self._graph_context_manager.__exit__(type_arg, value_arg, traceback_arg)


def variable_op_scope(values, name_or_scope, default_name=None, initializer=None,
                      regularizer=None, caching_device=None, partitioner=None,
                      custom_getter=None, reuse=None, dtype=None, use_resource=None,
                      constraint=None):
  return variable_scope(name_or_scope, default_name=default_name, values=values,
                        initializer=initializer, regularizer=regularizer,
                        caching_device=caching_device, partitioner=partitioner,
                        custom_getter=custom_getter, reuse=reuse, dtype=dtype,
                        use_resource=use_resource, constraint=constraint)


def no_regularizer(_):
  return None
