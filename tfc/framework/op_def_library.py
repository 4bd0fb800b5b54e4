"""Op construction: the one path every op wrapper goes through.

`_apply_op(op_type, name, inputs, attrs)` converts Python values to Tensors
with the dtype implied by the op definition (`_tfc.op_def`, cached), applies
the graph's name scope, device stack, colocation, control dependencies and attr
scope, and calls `graph._add_op`.
"""
from tfc import _tfc
from tfc import dtypes as _dtypes
from tfc.framework import device as _pydev
from tfc.framework import ops as _ops

_DT = _dtypes._INTERN
_Tensor = _ops.Tensor
_VALID_OP_NAME_REGEX = _ops._VALID_OP_NAME_REGEX
_VALID_SCOPE_NAME_REGEX = _ops._VALID_SCOPE_NAME_REGEX

# Input arg kinds.
_SINGLE = 0       # one tensor
_NUMBER_LIST = 1  # N * T
_TYPE_LIST = 2    # list(type)
_FIXED_LIST = 3   # N * int32 (fixed type, number attr)


class _ArgPlan(object):
  __slots__ = ("name", "kind", "fixed", "type_attr", "number_attr", "type_list_attr", "is_ref")

  def __init__(self, a):
    self.name = a["name"]
    self.fixed = a.get("type") or 0
    self.type_attr = a.get("type_attr")
    self.number_attr = a.get("number_attr")
    self.type_list_attr = a.get("type_list_attr")
    self.is_ref = bool(a.get("is_ref"))
    if self.type_list_attr:
      self.kind = _TYPE_LIST
    elif self.number_attr:
      self.kind = _NUMBER_LIST if self.type_attr else _FIXED_LIST
    else:
      self.kind = _SINGLE


class _OpPlan(object):
  __slots__ = ("op_type", "inputs", "input_names", "attr_types", "type_defaults", "allowed",
               "n_inputs", "attr_names")

  def __init__(self, op_type, od):
    self.op_type = op_type
    self.inputs = [_ArgPlan(a) for a in od["inputs"]]
    self.input_names = [a.name for a in self.inputs]
    self.n_inputs = len(self.inputs)
    self.attr_types = {}
    self.type_defaults = {}
    self.allowed = {}
    for at in od["attrs"]:
      self.attr_types[at["name"]] = at["type"]
      if at["type"] == "type":
        if "default" in at and at["default"] is not None:
          self.type_defaults[at["name"]] = _DT[_enum(at["default"])]
        av = at.get("allowed_values")
        if av:
          self.allowed[at["name"]] = frozenset(_enum(x) for x in av)
      elif at["type"] == "list(type)":
        av = at.get("allowed_values")
        if av:
          self.allowed[at["name"]] = frozenset(_enum(x) for x in av)
    self.attr_names = frozenset(self.attr_types)


def _enum(x):
  if isinstance(x, int):
    return x
  return _dtypes.as_dtype(x).as_datatype_enum


_PLANS = {}
_OP_DEFS = {}
# Set by tfc.framework.function while a function is traced: (graph, values)
# -> (graph, values) with tensors of enclosing graphs captured.
_CAPTURE = [None]


def _op_def(op_type):
  """`_tfc.op_def(op_type)`, cached."""
  od = _OP_DEFS.get(op_type)
  if od is None:
    od = _tfc.op_def(op_type)
    _OP_DEFS[op_type] = od
  return od


def _plan(op_type, graph=None):
  p = _PLANS.get(op_type)
  if p is None:
    try:
      od = _op_def(op_type)
    except KeyError:
      # a function of the graph's library, called by name (not cached: per graph)
      g = graph if graph is not None else _ops.get_default_graph()
      sig = g._function_signature(op_type) if hasattr(g, "_function_signature") else None
      if sig is None:
        raise ValueError("Op type not registered '%s' in binary running on this machine." % op_type)
      return _OpPlan(op_type, sig)
    p = _OpPlan(op_type, od)
    _PLANS[op_type] = p
  return p


def _has_op(op_type):
  try:
    _plan(op_type)
    return True
  except ValueError:
    return False


def _op_name(g, name):
  """The exact op name for `name` (TF's create_op rules: 'x/' is exact, else uniquified)."""
  if name[-1] == "/":
    return name[:-1]
  if g._name_stack:
    if not _VALID_SCOPE_NAME_REGEX.match(name):
      raise ValueError("'%s' is not a valid scope name" % name)
  elif not _VALID_OP_NAME_REGEX.match(name):
    raise ValueError("'%s' is not a valid scope name" % name)
  return g.unique_name(name)


def _find_graph(values):
  for v in values:
    if isinstance(v, _Tensor):
      return v.graph
    if isinstance(v, (list, tuple)):
      for x in v:
        if isinstance(x, _Tensor):
          return x.graph
    else:
      g = getattr(v, "graph", None)
      if isinstance(g, _ops.Graph):
        return g
  return None


def _convert(g, value, dtype, name, as_ref, preferred=None):
  """Converts a non-Tensor input value inside the op's name scope."""
  if isinstance(value, _Tensor):
    return value
  return _ops._convert_slow(value, dtype, name, preferred, as_ref, g)


def _type_error_for_value(value, dtype, arg_name, op_type, err):
  return TypeError("Expected %s passed to parameter '%s' of op '%s', got %s of type '%s' "
                   "instead. Error: %s" % (dtype.name, arg_name, op_type, repr(value),
                                           type(value).__name__, err))


def _check_allowed(plan, attr, enum, arg_name):
  allowed = plan.allowed.get(attr)
  if allowed is not None and (enum % 100 if enum > 100 else enum) not in allowed:
    raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed "
                    "values: %s" % (arg_name, _DT[enum].base_dtype.name,
                                    ", ".join(_DT[x].name for x in sorted(allowed))))


def _apply_op(op_type, name, inputs, attrs=None, graph=None):
  """Creates an op of `op_type` and returns the Operation.

  Args:
    op_type: registered op type name.
    name: None (use `op_type`), a name to uniquify in the current scope, or a
      name ending in '/' that is used exactly (a scope returned by name_scope).
    inputs: list in op_def order, or dict by input arg name. Entries are
      Tensors, Variables, or Python/NumPy values (converted); list args take
      lists.
    attrs: dict of explicit attrs (DTypes allowed for type attrs).
    graph: the graph to use (default: the graph of the inputs, else default).
  """
  plan = _PLANS.get(op_type)
  if plan is None:
    plan = _plan(op_type, graph)
  if inputs.__class__ is dict:
    missing = [n for n in plan.input_names if n not in inputs]
    if missing:
      raise TypeError("No argument for input %s found in %s" % (missing[0], op_type))
    values = [inputs[n] for n in plan.input_names]
  else:
    values = inputs
    if len(values) != plan.n_inputs:
      raise TypeError("%s takes %d inputs, got %d" % (op_type, plan.n_inputs, len(values)))

  if _CAPTURE[0] is not None:
    graph, values = _CAPTURE[0](graph, values)
  g = graph
  if g is None:
    g = _find_graph(values)
    if g is None:
      g = _ops.get_default_graph()
  if name is None:
    name = op_type
  opname = _op_name(g, name)

  if attrs:
    attrs = dict(attrs)
    for k, v in attrs.items():
      if isinstance(v, _dtypes.DType):
        attrs[k] = v._type_enum
  else:
    attrs = {}

  inferred = {}   # type attr -> (enum, source arg name)
  ref_ops = None  # ops producing ref inputs: the new op is colocated with them
  final = []
  input_ops = []
  old_stack = None
  try:
    for arg, v in zip(plan.inputs, values):
      kind = arg.kind
      if kind == _SINGLE:
        if v.__class__ is not _Tensor and not isinstance(v, _Tensor):
          if old_stack is None:
            old_stack = g._name_stack
            g._name_stack = opname
          dtype = None
          preferred = None
          if arg.fixed:
            dtype = _DT[arg.fixed]
          elif arg.type_attr:
            src = inferred.get(arg.type_attr)
            if src is not None:
              dtype = _DT[src[0]]
            elif arg.type_attr in attrs:
              dtype = _DT[_enum(attrs[arg.type_attr])]
            else:
              preferred = plan.type_defaults.get(arg.type_attr)
          try:
            v = _convert(g, v, dtype, arg.name, arg.is_ref, preferred)
          except (TypeError, ValueError) as err:
            if dtype is None or isinstance(err, ValueError):
              raise
            raise _type_error_for_value(v, dtype, arg.name, op_type, err)
        e = v._dtype_enum
        if arg.is_ref:
          if e < 100:
            raise TypeError("'%s' Op requires that input '%s' be a mutable tensor "
                            "(e.g.: a tf.Variable)" % (op_type, arg.name))
          e -= 100
          if ref_ops is None:
            ref_ops = [v.op]
          else:
            ref_ops.append(v.op)
        elif e > 100:
          e -= 100
        if arg.fixed:
          if e != arg.fixed:
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match expected "
                            "type of %s." % (arg.name, op_type, _DT[e].name,
                                             _DT[arg.fixed].name))
        elif arg.type_attr:
          ta = arg.type_attr
          src = inferred.get(ta)
          if src is None:
            if ta in attrs:
              want = _enum(attrs[ta])
              if want != e:
                raise TypeError("Input '%s' of '%s' Op has type %s that does not match "
                                "expected type of %s." % (arg.name, op_type, _DT[e].name,
                                                          _DT[want].name))
            _check_allowed(plan, ta, e, arg.name)
            inferred[ta] = (e, arg.name)
          elif src[0] != e:
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match type %s "
                            "of argument '%s'." % (arg.name, op_type, _DT[e].name,
                                                   _DT[src[0]].name, src[1]))
        final.append(v)
        input_ops.append(v.op)
      else:
        if isinstance(v, _Tensor) or not isinstance(v, (list, tuple)):
          raise TypeError("Expected list for '%s' argument to '%s' Op, not %s."
                          % (arg.name, op_type, v))
        if old_stack is None and not all(isinstance(x, _Tensor) for x in v):
          old_stack = g._name_stack
          g._name_stack = opname
        if kind == _TYPE_LIST:
          lst = [_convert(g, x, None, arg.name, arg.is_ref) for x in v]
          attrs[arg.type_list_attr] = [x._dtype_enum % 100 if x._dtype_enum > 100
                                       else x._dtype_enum for x in lst]
        else:
          if kind == _FIXED_LIST:
            dtype = _DT[arg.fixed]
          else:
            src = inferred.get(arg.type_attr)
            if src is not None:
              dtype = _DT[src[0]]
            elif arg.type_attr in attrs:
              dtype = _DT[_enum(attrs[arg.type_attr])]
            else:
              dtype = None
              for x in v:
                if isinstance(x, _Tensor):
                  dtype = x.dtype.base_dtype
                  break
                xd = getattr(x, "dtype", None)
                if isinstance(xd, _dtypes.DType):
                  dtype = xd.base_dtype
                  break
          lst = []
          for i, x in enumerate(v):
            try:
              lst.append(_convert(g, x, dtype, "%s_%d" % (arg.name, i) if len(v) > 1
                                  else arg.name, arg.is_ref))
            except TypeError as err:
              if dtype is None:
                raise
              raise _type_error_for_value(x, dtype, arg.name, op_type, err)
          enums = [x._dtype_enum % 100 if x._dtype_enum > 100 else x._dtype_enum for x in lst]
          attrs[arg.number_attr] = len(lst)
          if kind == _NUMBER_LIST:
            if enums:
              if any(x != enums[0] for x in enums):
                raise TypeError("Tensors in list passed to '%s' of '%s' Op have types [%s] "
                                "that don't all match." % (arg.name, op_type,
                                                           ", ".join(_DT[x].name for x in enums)))
              ta = arg.type_attr
              src = inferred.get(ta)
              if src is None:
                _check_allowed(plan, ta, enums[0], arg.name)
                inferred[ta] = (enums[0], arg.name)
              elif src[0] != enums[0]:
                raise TypeError("Input '%s' of '%s' Op has type %s that does not match type "
                                "%s of argument '%s'." % (arg.name, op_type,
                                                          _DT[enums[0]].name,
                                                          _DT[src[0]].name, src[1]))
          elif any(x != arg.fixed for x in enums):
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match expected "
                            "type of %s." % (arg.name, op_type,
                                             _DT[[x for x in enums if x != arg.fixed][0]].name,
                                             _DT[arg.fixed].name))
        final.append(lst)
        input_ops.extend(x.op for x in lst)
  finally:
    if old_stack is not None:
      g._name_stack = old_stack

  for ta, (e, _) in inferred.items():
    if ta not in attrs:
      attrs[ta] = e
  if ref_ops is not None and "_class" not in attrs and not g._colocation_stack:
    # as in TF, an op taking a ref input goes where that input lives, whatever
    # the device scope says (an Assign made under a ps device scope to a
    # worker's local variable runs on the worker)
    import contextlib  # pylint: disable=g-import-not-at-top
    with contextlib.ExitStack() as stack:
      for rop in ref_ops:
        stack.enter_context(g.colocate_with(rop))
      return _finish_op(g, op_type, opname, final, attrs, input_ops)
  return _finish_op(g, op_type, opname, final, attrs, input_ops)


def _finish_op(g, op_type, opname, inputs, attrs, input_ops):
  """Applies device/colocation/control-dependency/attr scopes and adds the op."""
  tl = g._tl
  device = tl.device_top.merged
  coloc_device = None
  if tl.colocation_stack:
    groups, coloc_device = g._colocation_attrs()
    attrs["_class"] = groups
    if coloc_device and device == "":
      device = coloc_device
      coloc_device = None
  if g._attr_scope_map:
    for k, v in g._attr_scope_map.items():
      if k not in attrs:
        attrs[k] = v
  if tl.control_dependencies_stack:
    control = g._control_dependencies_for_inputs(input_ops)
  else:
    control = ()
  cf_context = g._cf_context
  if cf_context is not None and control:
    control = cf_context._filter_control_inputs(control)
  if device is None:
    op = g._add_op(op_type, opname, inputs, attrs, "", control)
    g._apply_device_functions(op)
    if coloc_device and not op.device:
      op._set_device(coloc_device)
  else:
    op = g._add_op(op_type, opname, inputs, attrs, device, control)
  if tl.control_dependencies_stack:
    g._record_op_seen_by_control_dependencies(op)
  if cf_context is not None:
    op._control_flow_context = cf_context
    cf_context._add_op(op)
  return op


def _apply_op_out(op_type, name, inputs, attrs=None):
  """`_apply_op` returning the first output."""
  return _apply_op(op_type, name, inputs, attrs).outputs[0]


class OpDefLibrary(object):
  """Compatibility shim: `apply_op(op_type_name, name=None, **keywords)`."""

  def apply_op(self, op_type_name, name=None, **keywords):
    plan = _plan(op_type_name)
    inputs = {k: keywords.pop(k) for k in plan.input_names if k in keywords}
    op = _apply_op(op_type_name, name, inputs, keywords)
    outs = op.outputs
    if not outs:
      return op
    if len(outs) == 1:
      return outs[0]
    return outs


_ = _pydev
