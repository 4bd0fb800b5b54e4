"""Graph, Operation and Tensor: the Python faces of the `tfc._tfc` objects.

The C extension stores the graph (nodes, edges, attrs, shapes); this module
adds TF 1.15's Python-side state: name scopes, device/colocation/control
dependency stacks, collections, the default-graph and default-session stacks.
"""
# _thread, not threading: the same lock and thread-local types without
# importing threading (which `import tfc` need not pay for).
import _thread
import re

import numpy as np

from tfc import _tfc
from tfc import dtypes as _dtypes
from tfc import protos as _protos
from tfc.framework import device as _pydev
from tfc.framework import tensor_shape as _ts

_DT = _dtypes._INTERN
_TensorShape = _ts.TensorShape

_VALID_OP_NAME_REGEX = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\-/>]*$")
_VALID_SCOPE_NAME_REGEX = re.compile(r"^[A-Za-z0-9_.\-/>]*$")


class GraphKeys(object):
  """Standard names for graph collections (TF 1.15 `tf.GraphKeys`)."""
  GLOBAL_VARIABLES = "variables"
  LOCAL_VARIABLES = "local_variables"
  METRIC_VARIABLES = "metric_variables"
  MODEL_VARIABLES = "model_variables"
  TRAINABLE_VARIABLES = "trainable_variables"
  SUMMARIES = "summaries"
  QUEUE_RUNNERS = "queue_runners"
  TABLE_INITIALIZERS = "table_initializer"
  ASSET_FILEPATHS = "asset_filepaths"
  MOVING_AVERAGE_VARIABLES = "moving_average_variables"
  REGULARIZATION_LOSSES = "regularization_losses"
  CONCATENATED_VARIABLES = "concatenated_variables"
  SAVERS = "savers"
  WEIGHTS = "weights"
  BIASES = "biases"
  ACTIVATIONS = "activations"
  UPDATE_OPS = "update_ops"
  LOSSES = "losses"
  SAVEABLE_OBJECTS = "saveable_objects"
  RESOURCES = "resources"
  LOCAL_RESOURCES = "local_resources"
  TRAINABLE_RESOURCE_VARIABLES = "trainable_resource_variables"
  INIT_OP = "init_op"
  LOCAL_INIT_OP = "local_init_op"
  READY_OP = "ready_op"
  READY_FOR_LOCAL_INIT_OP = "ready_for_local_init_op"
  SUMMARY_OP = "summary_op"
  GLOBAL_STEP = "global_step"
  EVAL_STEP = "eval_step"
  TRAIN_OP = "train_op"
  COND_CONTEXT = "cond_context"
  WHILE_CONTEXT = "while_context"
  _SUMMARY_COLLECTION = "_SUMMARY_V2"
  _VARIABLE_COLLECTIONS = [
      GLOBAL_VARIABLES, LOCAL_VARIABLES, METRIC_VARIABLES, MODEL_VARIABLES,
      TRAINABLE_VARIABLES, MOVING_AVERAGE_VARIABLES, CONCATENATED_VARIABLES,
      TRAINABLE_RESOURCE_VARIABLES,
  ]
  _STREAMING_MODEL_PORTS = "streaming_model_ports"

  @classmethod
  def VARIABLES(cls):  # pylint: disable=invalid-name
    return cls.GLOBAL_VARIABLES


# ---------------------------------------------------------------------------
# Tensor


class Tensor(_tfc.Tensor):
  """A symbolic handle to one output of an Operation (TF 1.15 `tf.Tensor`)."""

  # Makes NumPy defer to our reflected operators (np_array + tensor).
  __array_priority__ = 100

  OVERLOADABLE_OPERATORS = {
      "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__div__",
      "__rdiv__", "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__",
      "__rmod__", "__lt__", "__le__", "__gt__", "__ge__", "__and__", "__rand__", "__or__",
      "__ror__", "__xor__", "__rxor__", "__getitem__", "__pow__", "__rpow__", "__invert__",
      "__neg__", "__abs__", "__matmul__", "__rmatmul__",
  }

  @property
  def dtype(self):
    return _DT[self._dtype_enum]

  @property
  def shape(self):
    return _TensorShape._from_tuple(self._shape)

  def get_shape(self):
    return _TensorShape._from_tuple(self._shape)

  def _shape_tuple(self):
    return self._shape

  def _rank(self):
    s = self._shape
    return None if s is None else len(s)

  def set_shape(self, shape):
    if not isinstance(shape, _TensorShape):
      shape = _TensorShape(shape)
    self._set_shape(shape._as_tuple_or_none())

  @property
  def device(self):
    return self.op.device

  def consumers(self):
    """Operations that take this tensor as an input."""
    out = []
    for op in self.graph.get_operations():
      for t in op.inputs:
        if t is self:
          out.append(op)
          break
    return out

  def eval(self, feed_dict=None, session=None):
    return _eval_using_default_session(self, feed_dict, self.graph, session)

  def _as_node_def_input(self):
    if self.value_index == 0:
      return self.op.name
    return "%s:%d" % (self.op.name, self.value_index)

  def __repr__(self):
    return "<tf.Tensor '%s' shape=%s dtype=%s>" % (self.name, self.get_shape(),
                                                   _DT[self._dtype_enum].name)

  def __str__(self):
    shape = self._shape
    dev = self.op.device
    return "Tensor(\"%s\"%s%s%s)" % (
        self.name, (", shape=%s" % self.get_shape()) if shape is not None else "",
        ", dtype=%s" % _DT[self._dtype_enum].name, (", device=%s" % dev) if dev else "")

  def __hash__(self):
    return id(self)

  def __eq__(self, other):
    return self is other

  def __ne__(self, other):
    return self is not other

  def __bool__(self):
    raise TypeError("Using a `tf.Tensor` as a Python `bool` is not allowed. "
                    "Use `if t is not None:` instead of `if t:` to test if a "
                    "tensor is defined, and use TensorFlow ops such as "
                    "tf.cond to execute subgraphs conditioned on the value of "
                    "a tensor.")

  __nonzero__ = __bool__

  def __len__(self):
    raise TypeError("len is not well defined for symbolic Tensors. ({}) "
                    "Please call `x.shape` rather than `len(x)` for "
                    "shape information.".format(self.name))

  def __iter__(self):
    shape = self._shape
    if shape is None:
      raise TypeError("Cannot iterate over a tensor with unknown shape.")
    if not shape:
      raise TypeError("Cannot iterate over a scalar tensor.")
    if shape[0] is None:
      raise TypeError("Cannot iterate over a tensor with unknown first dimension.")
    return _tensor_iter(self, shape[0])

  def __array__(self, dtype=None, copy=None):
    raise NotImplementedError("Cannot convert a symbolic Tensor ({}) to a numpy array."
                              .format(self.name))

  def __reduce__(self):
    raise TypeError("can't pickle a tf.Tensor")

  def __copy__(self):
    return self

  def __deepcopy__(self, memo):
    return self


def _tensor_iter(t, n):
  for i in range(n):
    yield t[i]


# ---------------------------------------------------------------------------
# Operation


class Operation(_tfc.Operation):
  """A node in a Graph (TF 1.15 `tf.Operation`)."""

  _control_flow_context = None  # the CondContext/WhileContext the op was built in

  def _get_control_flow_context(self):
    return self._control_flow_context

  def _set_control_flow_context(self, ctx):
    self._control_flow_context = ctx

  def values(self):
    return self.outputs

  @property
  def node_def(self):
    """This op's `NodeDef` protocol buffer (name, op, inputs with ^control
    inputs, device and attrs), as Graph.as_graph_def writes it."""
    graph_def = _protos.GraphDef()
    graph_def.ParseFromString(self.graph._as_graph_def(first=self._id, end=self._id + 1))
    return graph_def.node[0]

  def get_attr(self, name):
    value = _tfc.Operation.get_attr(self, name)
    kind = _attr_kind(self.type, name)
    if kind == "type":
      return _DT[value]
    if kind == "list(type)":
      return [_DT[v] for v in value]
    if kind == "shape":
      return _TensorShape._from_tuple(value)
    if kind == "list(shape)":
      return [_TensorShape._from_tuple(v) for v in value]
    return value

  def colocation_groups(self):
    default = [("loc:@%s" % self.name).encode()]
    try:
      class_attr = _tfc.Operation.get_attr(self, "_class")
    except (ValueError, KeyError):
      return default
    groups = [c if isinstance(c, bytes) else c.encode() for c in class_attr]
    groups = [c for c in groups if c.startswith(b"loc:@")]
    return groups if groups else default

  def run(self, feed_dict=None, session=None):
    _run_using_default_session(self, feed_dict, self.graph, session)

  @property
  def traceback(self):
    return []

  def __repr__(self):
    return "<tf.Operation '%s' type=%s>" % (self.name, self.type)

  def __str__(self):
    return str(self.node_def)

  def __hash__(self):
    return id(self)

  def __eq__(self, other):
    return self is other

  def __ne__(self, other):
    return self is not other

  def __copy__(self):
    return self

  def __deepcopy__(self, memo):
    return self


_ATTR_KIND_CACHE = {}


def _attr_kind(op_type, name):
  key = (op_type, name)
  kind = _ATTR_KIND_CACHE.get(key)
  if kind is None:
    kind = ""
    try:
      for a in _tfc.op_def(op_type)["attrs"]:
        if a["name"] == name:
          kind = a["type"]
          break
    except KeyError:
      pass
    _ATTR_KIND_CACHE[key] = kind
  return kind


_tfc.set_classes(Operation, Tensor)


# ---------------------------------------------------------------------------
# Graph


class _DeviceEntry(object):
  __slots__ = ("spec", "func", "merged")

  def __init__(self, spec, func, merged):
    self.spec = spec        # device string for string specs, else None
    self.func = func        # callable for function specs, else None
    self.merged = merged    # effective device string when no function is involved, else None


_NULL_DEVICE = _DeviceEntry(None, None, "")


class _ControlDependenciesController(object):
  """Context manager for `Graph.control_dependencies`."""

  def __init__(self, graph, control_inputs):
    self._graph = graph
    if control_inputs is None:
      control_inputs = []
      self._new_stack = True
    else:
      self._new_stack = False
    self._control_inputs_val = control_inputs
    self._seen_nodes = set()
    self._old_stack = None
    self._old_cf_context = None

  def __enter__(self):
    g = self._graph
    if self._new_stack:
      self._old_stack = g._control_dependencies_stack
      g._control_dependencies_stack = []
      # control_dependencies(None) also leaves any tf.cond/tf.while_loop context
      self._old_cf_context = g._get_control_flow_context()
      g._set_control_flow_context(None)
    g._control_dependencies_stack.append(self)

  def __exit__(self, unused_type, unused_value, unused_traceback):
    g = self._graph
    if g._control_dependencies_stack and g._control_dependencies_stack[-1] is self:
      g._control_dependencies_stack.pop()
    else:
      g._control_dependencies_stack.remove(self)
    if self._new_stack:
      g._control_dependencies_stack = self._old_stack
      g._set_control_flow_context(self._old_cf_context)

  @property
  def control_inputs(self):
    return self._control_inputs_val

  def add_op(self, op):
    self._seen_nodes.add(op)

  def op_in_group(self, op):
    return op in self._seen_nodes


class _GraphContext(object):
  """Generic save/restore context manager used by the Graph's stacks."""

  __slots__ = ("_enter", "_exit", "_value")

  def __init__(self, enter, exit_):
    self._enter = enter
    self._exit = exit_

  def __enter__(self):
    self._value = self._enter()
    return self._value

  def __exit__(self, *unused):
    self._exit()
    return False


class _GraphThreadState(_thread._local):
  """A graph's per-thread construction state."""

  def __init__(self):
    super(_GraphThreadState, self).__init__()
    self.name_stack = ""
    self.device_stack = []
    self.device_top = _NULL_DEVICE
    self.colocation_stack = []
    self.control_dependencies_stack = []


def _thread_local(field):
  """A property stored per thread in the graph's `_tl` (name scopes, device,
  colocation and control-dependency stacks are per thread, as in TF 1.15)."""
  def get(self):
    return getattr(self._tl, field)

  def set_(self, value):
    setattr(self._tl, field, value)

  return property(get, set_)


class Graph(_tfc.Graph):
  """A TensorFlow computation graph (TF 1.15 `tf.Graph`)."""

  _cf_context = None  # the control-flow context new ops are built in (tf.cond/tf.while_loop)

  def _get_control_flow_context(self):
    return self._cf_context

  def _set_control_flow_context(self, ctx):
    self._cf_context = ctx

  def __init__(self):
    super(Graph, self).__init__()
    self._lock = _thread.RLock()
    # Name scope, device, colocation and control-dependency stacks are per
    # thread, as in TF 1.15: threads building ops in one graph do not see
    # each other's scopes.
    self._tl = _GraphThreadState()
    self._names_in_use = {}
    self._collections = {}
    self._seed = None
    self._attr_scope_map = {}
    self._gradient_override_map = {}
    self._kernel_label_map = {}
    self._unfetchable_ops = set()
    self._unfeedable_tensors = set()
    self._building_function = False
    self._container = ""
    self._graph_key = "grap-key-%d/" % (id(self),)

  # -- per-thread stacks ----------------------------------------------------------

  _name_stack = _thread_local("name_stack")
  _device_stack = _thread_local("device_stack")
  _device_top = _thread_local("device_top")
  _colocation_stack = _thread_local("colocation_stack")
  _control_dependencies_stack = _thread_local("control_dependencies_stack")

  # -- identity ---------------------------------------------------------------

  @property
  def _last_id(self):
    return self._version

  @property
  def version(self):
    return self._version

  @property
  def building_function(self):
    return self._building_function

  @property
  def seed(self):
    return self._seed

  @seed.setter
  def seed(self, seed):
    self._seed = seed

  def finalize(self):
    self._finalize()

  def _check_not_finalized(self):
    if self.finalized:
      raise RuntimeError("Graph is finalized and cannot be modified.")

  def _unsafe_unfinalize(self):
    """Makes a finalized graph writable again (MonitoredSession.close uses it)."""
    _tfc.Graph._unsafe_unfinalize(self)

  def as_default(self):
    return _default_graph_stack.get_controller(self)

  # -- names -------------------------------------------------------------------

  def unique_name(self, name, mark_as_used=True):
    if self._name_stack:
      name = self._name_stack + "/" + name
    name_key = name.lower()
    names_in_use = self._names_in_use
    i = names_in_use.get(name_key, 0)
    if mark_as_used:
      names_in_use[name_key] = i + 1
    if i > 0:
      base_name_key = name_key
      while name_key in names_in_use:
        name_key = "%s_%d" % (base_name_key, i)
        i += 1
      if mark_as_used:
        names_in_use[name_key] = 1
      name = "%s_%d" % (name, i - 1)
    return name

  def get_name_scope(self):
    return self._name_stack

  def _enter_name_scope(self, name):
    """Sets the name stack for `name` as `name_scope` does; returns (old, scope)."""
    old = self._name_stack
    if not name:
      new = ""
    else:
      if old:
        if not _VALID_SCOPE_NAME_REGEX.match(name):
          raise ValueError("'%s' is not a valid scope name" % name)
      elif not _VALID_OP_NAME_REGEX.match(name):
        raise ValueError("'%s' is not a valid scope name" % name)
      if name[-1] == "/":
        new = name[:-1]
      else:
        new = self.unique_name(name)
    self._name_stack = new
    return old, (new + "/" if new else "")

  def name_scope(self, name):
    if isinstance(name, bytes):
      name = name.decode()
    state = []

    def enter():
      old, scope = self._enter_name_scope(name)
      state.append(old)
      return scope

    def exit_():
      self._name_stack = state.pop()

    return _GraphContext(enter, exit_)

  # -- devices -----------------------------------------------------------------

  def device(self, device_name_or_function):
    """Context manager that sets the default device of new ops."""
    d = device_name_or_function

    def enter():
      top = self._device_top
      if d is None:
        entry = _DeviceEntry(None, None, "")
      elif isinstance(d, (str, bytes, _pydev.DeviceSpec)):
        if isinstance(d, bytes):
          spec = d.decode()
        elif isinstance(d, _pydev.DeviceSpec):
          spec = d.to_string()
        else:
          spec = d
        _pydev.DeviceSpec.from_string(spec)  # validates
        merged = None if top.merged is None else _pydev.merge_strings(spec, top.merged)
        entry = _DeviceEntry(spec, None, merged)
      elif callable(d):
        entry = _DeviceEntry(None, d, None)
      else:
        raise TypeError("Expected a string, DeviceSpec, function or None for a device, "
                        "got %r" % (d,))
      self._device_stack.append(self._device_top)
      self._device_top = entry

    def exit_():
      self._device_top = self._device_stack.pop()

    return _GraphContext(enter, exit_)

  def _apply_device_functions(self, op):
    """Slow path: applies the device stack (innermost first) to a created op."""
    entries = self._device_stack[1:] + [self._device_top]
    for entry in reversed(entries):
      if entry.spec is None and entry.func is None:
        break
      if entry.func is not None:
        dev = entry.func(op)
        if isinstance(dev, _pydev.DeviceSpec):
          dev = dev.to_string()
        op._set_device(dev or "")
      else:
        op._set_device(_pydev.merge_strings(op.device, entry.spec))

  def colocate_with(self, op, ignore_existing=False):
    """Context manager: new ops are colocated with `op`."""
    if op is None and not ignore_existing:
      raise ValueError("Trying to reset colocation (op is None) but ignore_existing is not True")
    op = _op_to_colocate_with(op)
    state = []

    def enter():
      state.append((self._colocation_stack, self._device_stack, self._device_top))
      if ignore_existing:
        self._colocation_stack = []
      if op is not None:
        self._colocation_stack = self._colocation_stack + [op]
        self._device_stack = []
        self._device_top = _NULL_DEVICE_FOR_COLOCATION

    def exit_():
      self._colocation_stack, self._device_stack, self._device_top = state.pop()

    return _GraphContext(enter, exit_)

  def _colocation_attrs(self):
    groups = set()
    device = None
    for cop in self._colocation_stack:
      groups.update(cop.colocation_groups())
      if cop.device:
        device = cop.device
    return sorted(groups), device

  # -- control dependencies -----------------------------------------------------

  def _current_control_dependencies(self):
    ret = set()
    for controller in self._control_dependencies_stack:
      for op in controller.control_inputs:
        ret.add(op)
    return ret

  def control_dependencies(self, control_inputs):
    if control_inputs is None:
      return _ControlDependenciesController(self, None)
    control_ops = []
    current = self._current_control_dependencies()
    for c in control_inputs:
      if hasattr(c, "_as_graph_element") and not isinstance(c, (Tensor, Operation)):
        c = c._as_graph_element()
        if c is None:
          raise TypeError("Control input must be Operation or Tensor: %s" % c)
      if isinstance(c, Tensor):
        c = c.op
      elif not isinstance(c, Operation):
        if isinstance(c, str):
          c = self.as_graph_element(c)
          if isinstance(c, Tensor):
            c = c.op
        else:
          raise TypeError("Control input must be Operation or Tensor: %s" % c)
      if c not in current:
        control_ops.append(c)
        current.add(c)
    return _ControlDependenciesController(self, control_ops)

  def _control_dependencies_for_inputs(self, input_ops):
    ret = []
    for controller in self._control_dependencies_stack:
      dominated = False
      for op in input_ops:
        if controller.op_in_group(op):
          dominated = True
          break
      if not dominated:
        ret.extend(c for c in controller.control_inputs if c not in input_ops)
    return ret

  def _record_op_seen_by_control_dependencies(self, op):
    for controller in self._control_dependencies_stack:
      controller.add_op(op)

  # -- attr / gradient / kernel-label scopes ---------------------------------------

  def _attr_scope(self, attr_map):
    if not isinstance(attr_map, dict):
      raise TypeError("attr_map must be a dictionary mapping strings to AttrValue protocol buffers")
    saved = []

    def enter():
      saved.append(self._attr_scope_map)
      new = dict(self._attr_scope_map)
      for k, v in attr_map.items():
        if v is None:
          new.pop(k, None)
        else:
          new[k] = v
      self._attr_scope_map = new

    def exit_():
      self._attr_scope_map = saved.pop()

    return _GraphContext(enter, exit_)

  def gradient_override_map(self, op_type_map):
    if not isinstance(op_type_map, dict):
      raise TypeError("op_type_map must be a dictionary mapping strings to strings")
    saved = []

    def enter():
      self._record_gradient_overrides()
      saved.append(dict(self._gradient_override_map))
      for op_type, mapped in op_type_map.items():
        if not (isinstance(op_type, str) and isinstance(mapped, str)):
          raise TypeError("op_type_map must be a dictionary mapping strings to strings")
        self._gradient_override_map[op_type] = mapped

    def exit_():
      self._record_gradient_overrides()
      self._gradient_override_map = saved.pop()

    return _GraphContext(enter, exit_)

  def _record_gradient_overrides(self):
    """Notes, for the ops created since the last call, the gradient type that
    the override map in force names for them (op name -> type)."""
    n = self._num_ops()
    start = self.__dict__.get("_gradient_override_seen", 0)
    done = self.__dict__.setdefault("_gradient_override_ops", {})
    if self._gradient_override_map:
      op_at = self._op_at
      for i in range(start, n):
        op = op_at(i)
        mapped = self._gradient_override_map.get(op.type)
        if mapped is not None:
          done[op.name] = mapped
    self._gradient_override_seen = n

  def _gradient_override_type(self, op):
    """The gradient op type an override map gave `op` at creation, or None."""
    if self._gradient_override_map:
      self._record_gradient_overrides()
    done = self.__dict__.get("_gradient_override_ops")
    return done.get(op.name) if done else None

  def _kernel_label_map(self, op_to_kernel_label_map):  # pylint: disable=method-hidden
    raise NotImplementedError("kernel labels are not supported by tfc")

  def container(self, container_name):
    saved = []

    def enter():
      saved.append(self._container)
      self._container = container_name

    def exit_():
      self._container = saved.pop()

    return _GraphContext(enter, exit_)

  # -- op creation ------------------------------------------------------------------

  def create_op(self, op_type, inputs, dtypes=None, input_types=None, name=None, attrs=None,
                op_def=None, compute_shapes=True, compute_device=True):
    """Creates an op in this graph (TF 1.15 `Graph.create_op`, positional inputs)."""
    from tfc.framework import op_def_library
    if name is None:
      name = op_type
    if name and name[-1] != "/":
      name = self.unique_name(name) + "/"
    return op_def_library._apply_op(op_type, name, list(inputs), attrs, graph=self)

  # -- lookup -------------------------------------------------------------------------

  def get_operations(self):
    ops_fn = getattr(self, "_ops", None)
    if ops_fn is not None:
      return list(ops_fn())
    op_at = self._op_at
    return [op_at(i) for i in range(self._num_ops())]

  def get_operation_by_name(self, name):
    if not isinstance(name, str):
      raise TypeError("Operation names are strings (or similar), not %s." % type(name).__name__)
    return self.as_graph_element(name, allow_tensor=False, allow_operation=True)

  def _get_operation_by_name_unsafe(self, name):
    return self._op_by_name(name)

  def get_tensor_by_name(self, name):
    if not isinstance(name, str):
      raise TypeError("Tensor names are strings (or similar), not %s." % type(name).__name__)
    return self.as_graph_element(name, allow_tensor=True, allow_operation=False)

  def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
    if allow_tensor and allow_operation:
      types_str = "Tensor or Operation"
    elif allow_tensor:
      types_str = "Tensor"
    elif allow_operation:
      types_str = "Operation"
    else:
      raise ValueError("allow_tensor and allow_operation can't both be False.")

    if not isinstance(obj, (Tensor, Operation, str, bytes)):
      conv = getattr(obj, "_as_graph_element", None)
      if conv is not None:
        temp = conv()
        if temp is not None:
          obj = temp
    if isinstance(obj, bytes):
      obj = obj.decode()
    if isinstance(obj, str):
      name = obj
      if ":" in name and allow_tensor:
        try:
          op_name, out_n = name.split(":")
          out_n = int(out_n)
        except (ValueError, TypeError):
          raise ValueError("The name %s looks a like a Tensor name, but is not a valid one. "
                           "Tensor names must be of the form \"<op_name>:<output_index>\"."
                           % repr(name))
        op = self._op_by_name(op_name)
        if op is None:
          raise KeyError("The name %s refers to a Tensor which does not exist. The operation, "
                         "%s, does not exist in the graph." % (repr(name), repr(op_name)))
        outs = op.outputs
        if out_n < 0 or out_n >= len(outs):
          raise KeyError("The name %s refers to a Tensor which does not exist. The operation, "
                         "%s, exists but only has %s outputs."
                         % (repr(name), repr(op_name), len(outs)))
        return outs[out_n]
      elif ":" in name and not allow_tensor:
        raise ValueError("Name %s appears to refer to a Tensor, not a %s." % (repr(name), types_str))
      elif ":" not in name and allow_operation:
        op = self._op_by_name(name)
        if op is None:
          raise KeyError("The name %s refers to an Operation not in the graph." % repr(name))
        return op
      else:
        if self._op_by_name(name) is not None:
          err_msg = "The name %s refers to an Operation, not a %s." % (repr(name), types_str)
        else:
          err_msg = ("The name %s looks like an (invalid) Operation name, not a %s."
                     % (repr(name), types_str))
        err_msg += " Tensor names must be of the form \"<op_name>:<output_index>\"."
        raise ValueError(err_msg)
    elif isinstance(obj, Tensor) and allow_tensor:
      if obj.graph is not self:
        raise ValueError("Tensor %s is not an element of this graph." % obj)
      return obj
    elif isinstance(obj, Operation) and allow_operation:
      if obj.graph is not self:
        raise ValueError("Operation %s is not an element of this graph." % obj)
      return obj
    raise TypeError("Can not convert a %s into a %s." % (type(obj).__name__, types_str))

  # -- collections -----------------------------------------------------------------

  def add_to_collection(self, name, value):
    self._check_not_finalized()
    coll = self._collections.get(name)
    if coll is None:
      self._collections[name] = [value]
    else:
      coll.append(value)

  def add_to_collections(self, names, value):
    names = (names,) if isinstance(names, str) else set(names)
    for name in names:
      self.add_to_collection(name, value)

  def get_collection_ref(self, name):
    coll = self._collections.get(name)
    if coll is None:
      coll = []
      self._collections[name] = coll
    return coll

  def get_collection(self, name, scope=None):
    coll = self._collections.get(name)
    if coll is None:
      return []
    if scope is None:
      return list(coll)
    regex = re.compile(scope)
    c = []
    for item in coll:
      try:
        if regex.match(item.name):
          c.append(item)
      except (AttributeError, TypeError):
        pass
    return c

  def get_all_collection_keys(self):
    return [x for x in self._collections if isinstance(x, str)]

  def clear_collection(self, name):
    self._check_not_finalized()
    self._collections.pop(name, None)

  # -- fetch/feed guards ---------------------------------------------------------------

  def prevent_feeding(self, tensor):
    self._unfeedable_tensors.add(tensor)

  def is_feedable(self, tensor):
    return tensor not in self._unfeedable_tensors

  def prevent_fetching(self, op):
    self._unfetchable_ops.add(op)

  def is_fetchable(self, tensor_or_op):
    if isinstance(tensor_or_op, Tensor):
      return tensor_or_op.op not in self._unfetchable_ops
    return tensor_or_op not in self._unfetchable_ops


class _NullDeviceForColocation(_DeviceEntry):
  __slots__ = ()


# Inside colocate_with the device stack is suspended: ops take the colocated op's device.
_NULL_DEVICE_FOR_COLOCATION = _DeviceEntry("", None, "")


def _op_to_colocate_with(v):
  if v is None:
    return None
  if isinstance(v, Operation):
    return v
  if isinstance(v, Tensor):
    return v.op
  op = getattr(v, "op", None)
  if isinstance(op, Operation):
    return op
  return convert_to_tensor(v, as_ref=True).op


# ---------------------------------------------------------------------------
# Default graph / session stacks


class _DefaultStack(_thread._local):
  def __init__(self):
    super(_DefaultStack, self).__init__()
    self.stack = []

  def get_default(self):
    return self.stack[-1] if self.stack else None

  def reset(self):
    self.stack = []

  def is_cleared(self):
    return not self.stack

  def get_controller(self, default):
    return _StackController(self, default)


class _StackController(object):
  __slots__ = ("_stack", "_obj")

  def __init__(self, stack, obj):
    self._stack = stack
    self._obj = obj

  def __enter__(self):
    self._stack.stack.append(self._obj)
    return self._obj

  def __exit__(self, *unused):
    stack = self._stack.stack
    if stack and stack[-1] is self._obj:
      stack.pop()
    elif self._obj in stack:
      stack.remove(self._obj)
    return False


class _DefaultGraphStack(_DefaultStack):
  _global_default_graph = None

  def get_default(self):
    if self.stack:
      return self.stack[-1]
    g = _DefaultGraphStack._global_default_graph
    if g is None:
      with _global_lock:
        g = _DefaultGraphStack._global_default_graph
        if g is None:
          g = Graph()
          _DefaultGraphStack._global_default_graph = g
    return g

  def reset(self):
    super(_DefaultGraphStack, self).reset()
    _DefaultGraphStack._global_default_graph = None


_global_lock = _thread.allocate_lock()
_default_graph_stack = _DefaultGraphStack()
_default_session_stack = _DefaultStack()


def get_default_graph():
  """Returns the default graph for the current thread."""
  stack = _default_graph_stack.stack
  if stack:
    return stack[-1]
  return _default_graph_stack.get_default()


def reset_default_graph():
  """Clears the default graph stack and resets the global default graph."""
  if not _default_graph_stack.is_cleared():
    raise AssertionError("Do not use tf.reset_default_graph() to clear "
                         "nested graphs. If you need a cleared graph, "
                         "exit the nesting and create a new graph.")
  _default_graph_stack.reset()


def get_default_session():
  return _default_session_stack.get_default()


def default_session(session):
  return _default_session_stack.get_controller(session)


def _eval_using_default_session(tensors, feed_dict, graph, session=None):
  if session is None:
    session = get_default_session()
    if session is None:
      raise ValueError("Cannot evaluate tensor using `eval()`: No default "
                       "session is registered. Use `with "
                       "sess.as_default()` or pass an explicit session to "
                       "`eval(session=sess)`")
    if session.graph is not graph:
      raise ValueError("Cannot use the default session to evaluate tensor: "
                       "the tensor's graph is different from the session's "
                       "graph. Pass an explicit session to "
                       "`eval(session=sess)`.")
  elif session.graph is not graph:
    raise ValueError("Cannot use the given session to evaluate tensor: "
                     "the tensor's graph is different from the session's "
                     "graph.")
  return session.run(tensors, feed_dict)


def _run_using_default_session(operation, feed_dict, graph, session=None):
  if session is None:
    session = get_default_session()
    if session is None:
      raise ValueError("Cannot execute operation using `run()`: No default "
                       "session is registered. Use `with "
                       "sess.as_default():` or pass an explicit session to "
                       "`run(session=sess)`")
    if session.graph is not graph:
      raise ValueError("Cannot use the default session to execute operation: "
                       "the operation's graph is different from the "
                       "session's graph. Pass an explicit session to "
                       "run(session=sess).")
  elif session.graph is not graph:
    raise ValueError("Cannot use the given session to execute operation: "
                     "the operation's graph is different from the session's "
                     "graph.")
  session.run(operation, feed_dict)


# ---------------------------------------------------------------------------
# Module-level context managers and collection helpers


def _get_graph_from_inputs(op_input_list):
  """The graph of the first graph element in the inputs, else the default graph."""
  g = None
  for x in op_input_list:
    if isinstance(x, (Tensor, Operation)):
      xg = x.graph
    else:
      xg = getattr(x, "graph", None)
      if not isinstance(xg, Graph):
        continue
    if g is None:
      g = xg
    elif xg is not g:
      raise ValueError("%s must be from the same graph as %s." % (x, op_input_list[0]))
  return g if g is not None else get_default_graph()


class name_scope(object):  # pylint: disable=invalid-name
  """TF 1.15 `tf.name_scope(name, default_name=None, values=None)`."""

  __slots__ = ("_name", "_default_name", "_values", "_g", "_old", "_gm")

  def __init__(self, name, default_name=None, values=None):
    self._name = default_name if name is None else name
    self._default_name = default_name
    self._values = values
    self._g = None
    self._gm = None

  @property
  def name(self):
    return self._name

  def __enter__(self):
    name = self._name
    if name is None and self._values is not None:
      raise ValueError("At least one of name (%s) and default_name (%s) must be provided."
                       % (self._name, self._default_name))
    g = None
    if self._values:
      g = _get_graph_from_inputs(self._values)
      if g is not get_default_graph():
        self._gm = g.as_default()
        self._gm.__enter__()
    if g is None:
      g = get_default_graph()
    if isinstance(name, bytes):
      name = name.decode()
    self._g = g
    self._old, scope = g._enter_name_scope(name)
    return scope

  def __exit__(self, *unused):
    self._g._name_stack = self._old
    if self._gm is not None:
      self._gm.__exit__(None, None, None)
      self._gm = None
    return False


def name_from_scope_name(name):
  return name[:-1] if (name and name[-1] == "/") else name


def control_dependencies(control_inputs):
  return get_default_graph().control_dependencies(control_inputs)


def device(device_name_or_function):
  return get_default_graph().device(device_name_or_function)


def colocate_with(op, ignore_existing=False):
  return get_default_graph().colocate_with(op, ignore_existing)


def container(container_name):
  return get_default_graph().container(container_name)


def add_to_collection(name, value):
  get_default_graph().add_to_collection(name, value)


def add_to_collections(names, value):
  get_default_graph().add_to_collections(names, value)


def get_collection_ref(key):
  return get_default_graph().get_collection_ref(key)


def get_collection(key, scope=None):
  return get_default_graph().get_collection(key, scope)


def get_all_collection_keys():
  return get_default_graph().get_all_collection_keys()


def init_scope():
  return _GraphContext(lambda: None, lambda: None)


def executing_eagerly():
  return False


def get_name_scope():
  return get_default_graph().get_name_scope()


# ---------------------------------------------------------------------------
# Tensor conversion

_tensor_conversion_registry = []  # (priority, base_type, fn)
_conversion_cache = {}


def register_tensor_conversion_function(base_type, conversion_func, priority=100):
  """Registers `conversion_func(value, dtype=None, name=None, as_ref=False)` for `base_type`."""
  if not callable(conversion_func):
    raise TypeError("conversion_func must be callable.")
  _tensor_conversion_registry.append((priority, base_type, conversion_func))
  _tensor_conversion_registry.sort(key=lambda e: e[0])
  _conversion_cache.clear()


def _conversion_func_for(value_type):
  try:
    return _conversion_cache[value_type]
  except KeyError:
    pass
  fn = None
  for _, base_type, func in _tensor_conversion_registry:
    if issubclass(value_type, base_type):
      fn = func
      break
  _conversion_cache[value_type] = fn
  return fn


def convert_to_tensor(value, dtype=None, name=None, preferred_dtype=None, dtype_hint=None,
                      as_ref=False):
  """Converts `value` (Tensor, Variable, NumPy array, Python scalar or list) to a Tensor."""
  if isinstance(value, Tensor):
    if dtype is not None:
      dtype = _dtypes.as_dtype(dtype)
      if not dtype.is_compatible_with(value.dtype):
        raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r"
                         % (dtype.name, value.dtype.name, value))
    return value
  return _convert_slow(value, dtype, name, preferred_dtype or dtype_hint, as_ref,
                       get_default_graph())


def internal_convert_to_tensor(value, dtype=None, name=None, as_ref=False, preferred_dtype=None):
  return convert_to_tensor(value, dtype, name, preferred_dtype, as_ref=as_ref)


def _convert_slow(value, dtype, name, preferred_dtype, as_ref, graph):
  if dtype is not None:
    dtype = _dtypes.as_dtype(dtype)
  if isinstance(value, Tensor):
    return convert_to_tensor(value, dtype, name)
  if isinstance(value, Operation):
    raise TypeError("Can't convert Operation '%s' to Tensor (target dtype=%s, name=%r, "
                    "as_ref=%s)" % (value.name, dtype, name, as_ref))
  fn = _conversion_func_for(type(value))
  if fn is not None:
    ret = fn(value, dtype=dtype, name=name, as_ref=as_ref)
    if ret is NotImplemented:
      raise TypeError("Could not convert %r to a Tensor" % (value,))
    if dtype is not None and not dtype.is_compatible_with(ret.dtype):
      raise RuntimeError("Conversion function %r for type %s returned incompatible dtype: "
                         "requested = %s, actual = %s" % (fn, type(value), dtype.name,
                                                          ret.dtype.name))
    return ret
  from tfc.framework import constant_op  # pylint: disable=g-import-not-at-top
  if (preferred_dtype is not None and dtype is None and
      not (isinstance(value, (np.ndarray, np.generic)) and
           value.dtype != _dtypes.as_dtype(preferred_dtype).as_numpy_dtype)):
    # A NumPy value keeps its own dtype; the preferred dtype only guides
    # untyped Python values (as TF's conversion does).
    try:
      return constant_op._constant_in_graph(graph, value, _dtypes.as_dtype(preferred_dtype),
                                            None, name or "Const", False, True)
    except (TypeError, ValueError):
      pass
  return constant_op._constant_in_graph(graph, value, dtype, None, name or "Const", False, True)


def convert_n_to_tensor(values, dtype=None, name=None, preferred_dtype=None):
  if not isinstance(values, (list, tuple)):
    raise TypeError("values must be a sequence.")
  ret = []
  for i, value in enumerate(values):
    n = None if name is None else "%s_%d" % (name, i)
    ret.append(convert_to_tensor(value, dtype=dtype, name=n, preferred_dtype=preferred_dtype))
  return ret


def convert_to_tensor_or_indexed_slices(value, dtype=None, name=None):
  """`value` itself when it is an IndexedSlices (of a compatible dtype), else
  convert_to_tensor(value, dtype, name)."""
  if getattr(value, "_tfc_indexed_slices", False):
    if dtype and not _dtypes.as_dtype(dtype).is_compatible_with(value.dtype):
      raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r"
                       % (_dtypes.as_dtype(dtype).name, value.dtype.name, str(value)))
    return value
  return convert_to_tensor(value, dtype, name)


def is_dense_tensor_like(t):
  return isinstance(t, Tensor)


def tensor_id(tensor):
  return tensor._id


def enable_eager_execution(*unused_args, **unused_kwargs):
  raise NotImplementedError("tfc implements TF 1.x graph mode only; eager execution is not "
                            "available.")


def disable_eager_execution():
  pass


def strip_name_scope(name, export_scope):
  if export_scope:
    if export_scope[-1] == "/":
      export_scope = export_scope[:-1]
    try:
      str_to_replace = r"([\^]|loc:@|^)" + export_scope + r"[\/]+(.*)"
      return re.sub(str_to_replace, r"\1\2", name, count=1)
    except TypeError:
      return name
  return name


def prepend_name_scope(name, import_scope):
  if import_scope:
    if import_scope[-1] == "/":
      import_scope = import_scope[:-1]
    try:
      str_to_replace = r"([\^]|loc:@|^)(.*)"
      return re.sub(str_to_replace, r"\1" + import_scope + r"/\2", name)
    except TypeError:
      return name
  return name
