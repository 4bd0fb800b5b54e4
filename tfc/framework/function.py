"""Functions in graphs: TF 1.15's `tensorflow.python.framework.function`
(`Defun`) and the tracer that turns a Python callable into a FunctionDef of
the graph's function library.

`trace(func, input_types, input_shapes=None, name=None)` is the mechanism
shared by Defun and input pipelines (Dataset.map): it calls `func` once on
placeholders in a graph of its own, writes that graph as a FunctionDef (C:
Graph._function_from_graph) and returns a `TracedFunction`. Tensors of
enclosing graphs that `func` uses are captured: each becomes an extra
argument of the function (after the declared ones) and `captured_inputs`
lists the outer tensors to pass for them. `TracedFunction.add_to_graph(g)`
adds the function and every function it calls to g's library; the C runtime
then instantiates it once per session and runs it from kernels (call ops,
If/While/Case, dataset kernels; see docs/functions.md).

Variables a Defun's body creates with tf.get_variable are lifted as in TF
1.15: they are created in the calling graph, under the variable scope the
call is made in (collections and the variable store are shared with that
graph), and the body reads them through captured arguments (a ref
variable's `read` tensor, a resource variable's value read outside), so
tf.gradients reaches them through the call. `noinline`, `compiled` and
`separate_compiled_gradients` are accepted and ignored.
"""
import hashlib

from tfc import dtypes as _dtypes
from tfc.framework import nest as _nest
from tfc.framework import ops as _ops
from tfc.framework import tensor_shape as _tensor_shape

__all__ = ["Defun", "trace", "TracedFunction"]

from tfc.framework import op_def_library as _op_def_library

# Number of function graphs being traced.
_TRACING = [0]


class _FuncGraph(_ops.Graph):
  """The graph a function is traced in: captures tensors of outer graphs."""

  def __init__(self, outer_graph):
    super(_FuncGraph, self).__init__()
    self._outer_graph = outer_graph
    self._captures = {}      # outer tensor id -> (outer tensor, placeholder)
    self._capture_order = []
    self._is_function_graph = True
    self._seed = getattr(outer_graph, "seed", None)

  def _capture(self, tensor):
    """The placeholder standing for `tensor` of an enclosing graph."""
    if tensor.graph is self:
      return tensor
    key = id(tensor)
    hit = self._captures.get(key)
    if hit is not None:
      return hit[1]
    outer = tensor
    og = self._outer_graph
    if tensor.graph is not og and getattr(og, "_is_function_graph", False):
      outer = og._capture(tensor)
    from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
    with self.as_default(), _ops.control_dependencies(None):
      ph = array_ops.placeholder(tensor.dtype.base_dtype, tensor._shape,
                                 name="captured_%d" % len(self._capture_order))
    self._captures[key] = (outer, ph)
    self._capture_order.append(key)
    return ph

  @property
  def captured(self):
    """[(outer tensor, placeholder)] in capture order."""
    return [self._captures[k] for k in self._capture_order]


def _capture_inputs(graph, values):
  """op_def_library hook: when the default graph is a function graph being
  traced, returns (graph, values with outer tensors captured)."""
  dg = _ops.get_default_graph()
  if not getattr(dg, "_is_function_graph", False):
    return graph, values
  if graph is not None and graph is not dg:
    return graph, values

  def fix(v):
    if isinstance(v, _ops.Tensor) and v.graph is not dg:
      return dg._capture(v)
    if isinstance(v, (list, tuple)):
      return type(v)(fix(x) for x in v)
    return v
  return dg, [fix(v) for v in values]


def _lift_variables(fg, outer, lifted):
  """Makes tf.get_variable inside function graph fg create (or reuse) the
  variable in `outer` under outer's current variable scope, as TF 1.15's
  Defun does; `lifted` ({name: variable}) keeps the variables of earlier
  traces of the same function, so tracing again reuses them. Must run with
  fg as the default graph."""
  from tfc.ops import variable_scope as vs  # pylint: disable=g-import-not-at-top
  with outer.as_default():
    outer_scope = vs.get_variable_scope()
  keys = list(_ops.GraphKeys._VARIABLE_COLLECTIONS) + [vs._VARSTORE_KEY]  # pylint: disable=protected-access
  for key in keys:  # shared by reference, as TF's collections_ref
    shared = outer._collections.get(key)
    if shared is None:
      shared = outer._collections[key] = []
    fg._collections[key] = shared

  def getvar(getter, name, shape=None, dtype=None, initializer=None, regularizer=None,
             reuse=None, trainable=None, collections=None, caching_device=None,
             partitioner=None, validate_shape=True, use_resource=None, constraint=None,
             **unused):
    del getter, unused
    var = lifted.get(name)
    with outer.as_default():
      if var is None:
        var = outer_scope.get_variable(
            vs._get_default_variable_store(), name, shape=shape, dtype=dtype,  # pylint: disable=protected-access
            initializer=initializer, regularizer=regularizer, reuse=reuse, trainable=trainable,
            collections=collections, caching_device=caching_device, partitioner=partitioner,
            validate_shape=validate_shape, use_resource=use_resource, constraint=constraint)
        lifted[name] = var
      if getattr(var, "handle", None) is not None:
        return var.value()  # a resource variable is read outside, passed by value
    return var
  vs.get_variable_scope().set_custom_getter(getvar)


def _arg_name(i, names):
  if names and i < len(names) and names[i]:
    n = "".join(c if c.isalnum() or c == "_" else "_" for c in names[i])
    if n and (n[0].isalpha()):
      return n.lower()
  return "arg%d" % i


class TracedFunction(object):
  """A Python callable traced into a FunctionDef (see `trace`)."""

  def __init__(self, name, definition, input_types, output_types, output_shapes, structure,
               captured_inputs, dependencies, stateful, python_func=None):
    self.name = name
    self.definition_bytes = definition
    self.input_types = list(input_types)
    self.output_types = list(output_types)
    self.output_shapes = list(output_shapes)
    self.structured_outputs = structure
    self.captured_inputs = list(captured_inputs)
    self._dependencies = list(dependencies)   # [(name, FunctionDef bytes)]
    self.stateful = stateful
    self.python_func = python_func

  @property
  def definition(self):
    """The FunctionDef message."""
    from tfc import protos  # pylint: disable=g-import-not-at-top
    fd = protos.FunctionDef()
    fd.ParseFromString(self.definition_bytes)
    return fd

  def add_to_graph(self, g):
    """Adds the function and the functions it calls to g's library."""
    have = set(g._function_names())
    for n, fd in self._dependencies:
      if n not in have:
        g._add_function(fd)
    if self.name not in have:
      g._add_function(self.definition_bytes)


def trace(func, input_types, input_shapes=None, name=None, arg_names=None, graph=None,
          lifted_variables=None):
  """Traces `func(*placeholders)` into a FunctionDef.

  Args:
    func: a callable taking one tensor per input type and returning a tensor,
      a (nested) structure of tensors or values convertible to tensors, or
      None / an Operation (no results).
    input_types: DTypes of the arguments.
    input_shapes: optional shapes (TensorShape, lists or None) per argument.
    name: the function's name; default: func's name and a hash of the body.
    arg_names: optional argument names.
    graph: the graph the function will be called from (default: the default
      graph); tensors of it that func uses are captured.
    lifted_variables: a dict to make tf.get_variable in func create its
      variables in `graph` (TF 1.15's Defun; see _lift_variables), or None:
      no variable scope handling.
  Returns:
    A TracedFunction.
  """
  input_types = [_dtypes.as_dtype(t) for t in input_types]
  if input_shapes is None:
    input_shapes = [None] * len(input_types)
  if len(input_shapes) != len(input_types):
    raise ValueError("input_shapes must have one entry per input type")
  outer = graph if graph is not None else _ops.get_default_graph()
  fg = _FuncGraph(outer)
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  _TRACING[0] += 1
  _op_def_library._CAPTURE[0] = _capture_inputs
  try:
    with fg.as_default():
      if lifted_variables is not None:
        _lift_variables(fg, outer, lifted_variables)
      args = []
      for i, (dt, sh) in enumerate(zip(input_types, input_shapes)):
        shape = None if sh is None else _tensor_shape.as_shape(sh)
        if shape is not None and shape.dims is None:
          shape = None
        args.append(array_ops.placeholder(dt, shape, name=_arg_name(i, arg_names)))
      result = func(*args)
      if result is None or isinstance(result, _ops.Operation):
        flat = []
        structure = None
      else:
        structure = result
        flat = [_ops.convert_to_tensor(x) for x in _nest.flatten(result)]
        for t in flat:
          if t.graph is not fg:
            raise ValueError("Function %s returned a tensor of another graph" % func)
  finally:
    _TRACING[0] -= 1
    if not _TRACING[0]:
      _op_def_library._CAPTURE[0] = None
  captured = fg.captured
  arg_ops = [a.op for a in args] + [ph.op for _, ph in captured]
  ret_names = ["output_%d" % i for i in range(len(flat))]
  if name is not None:
    body = fg._function_from_graph(name, arg_ops, flat, ret_names)
  else:
    base = getattr(func, "__name__", "function")
    base = "".join(c if c.isalnum() or c == "_" else "_" for c in base).strip("_") or "function"
    body = fg._function_from_graph(base, arg_ops, flat, ret_names)
    digest = hashlib.sha1(body).hexdigest()[:11]
    name = "%s_%s" % (base, digest)
    body = fg._function_from_graph(name, arg_ops, flat, ret_names)
  deps = [(n, fg._function_def(n)) for n in fg._function_names()]
  from tfc import protos  # pylint: disable=g-import-not-at-top
  stateful = protos.FunctionDef.FromString(body).signature.is_stateful
  return TracedFunction(name, body, input_types + [o.dtype.base_dtype for o, _ in captured],
                        [t.dtype.base_dtype for t in flat], [t.shape for t in flat],
                        structure, [o for o, _ in captured], deps, stateful, func)


def _call(graph, fname, inputs, name=None, attrs=None):
  """Adds a node calling function `fname` of graph's library; the Operation."""
  from tfc.framework import op_def_library  # pylint: disable=g-import-not-at-top
  return op_def_library._apply_op(fname, name or fname, list(inputs), attrs or {}, graph=graph)


# Defun-defined functions per graph: graph -> {name: _DefinedFunction}
def _registry(g):
  reg = getattr(g, "_tfc_defined_functions", None)
  if reg is None:
    reg = {}
    g._tfc_defined_functions = reg
  return reg


class _DefinedFunction(object):
  """A function defined with Defun: callable inside graphs."""

  def __init__(self, func, input_types, func_name=None, grad_func=None, python_grad_func=None,
               out_names=None, shape_func=None, **kwargs):
    self._func = func
    self._input_types = [_dtypes.as_dtype(t) for t in input_types]
    self._func_name = func_name
    self._grad_func = grad_func
    self._python_grad_func = python_grad_func
    self._out_names = out_names
    self._shape_func = shape_func
    self._extra_kwargs = kwargs
    self._traced = {}   # id(graph) -> TracedFunction (captures depend on the graph)
    self._lifted = {}   # id(graph) -> {name: variable the body created with get_variable}

  def _trace(self, g):
    t = self._traced.get(id(g))
    if t is None:
      try:
        import inspect  # pylint: disable=g-import-not-at-top
        names = list(inspect.signature(self._func).parameters)
      except (TypeError, ValueError):
        names = None
      t = trace(self._func, self._input_types, name=self._func_name, arg_names=names, graph=g,
                lifted_variables=self._lifted.setdefault(id(g), {}))
      self._traced[id(g)] = t
    return t

  @property
  def name(self):
    """The function's name in the library."""
    return self._trace(_ops.get_default_graph()).name

  @property
  def definition(self):
    """The FunctionDef."""
    return self._trace(_ops.get_default_graph()).definition

  @property
  def declared_input_types(self):
    return tuple(self._input_types)

  @property
  def captured_inputs(self):
    return self._trace(_ops.get_default_graph()).captured_inputs

  @property
  def grad_func_name(self):
    return self._grad_func.name if self._grad_func is not None else None

  @property
  def python_grad_func(self):
    return self._python_grad_func

  def _output_shapes_for(self, g, inputs, t):
    """Static output shapes of a call on `inputs` (TF infers them from the
    body with the call's input shapes): the function traced again, once per
    set of input shapes, in a graph that is thrown away."""
    shapes = tuple(None if x._shape is None else tuple(x._shape) for x in inputs)
    if all(s is None for s in shapes):
      return t.output_shapes
    cache = self.__dict__.setdefault("_shape_cache", {})
    key = (id(g), shapes)
    got = cache.get(key)
    if got is None:
      try:
        got = trace(self._func, self._input_types, [x.shape for x in inputs],
                    name=t.name, graph=g,
                    lifted_variables=self._lifted.setdefault(id(g), {})).output_shapes
      except (ValueError, TypeError):
        got = t.output_shapes
      cache[key] = got
    return got

  def add_to_graph(self, g):
    """Adds the function (and what it calls) to g's library."""
    t = self._trace(g)
    t.add_to_graph(g)
    _registry(g)[t.name] = self
    if self._grad_func is not None:
      self._grad_func.add_to_graph(g)
      if g._function_gradient(t.name) is None:
        g._add_gradient_def(t.name, self._grad_func._trace(g).name)
    return t

  def __call__(self, *args, **kwargs):
    name = kwargs.pop("name", None)
    if kwargs:
      raise ValueError("Unknown keyword arguments: %s" % sorted(kwargs))
    if len(args) != len(self._input_types):
      raise ValueError("Function %s expects %d arguments, got %d"
                       % (self._func_name or self._func.__name__, len(self._input_types),
                          len(args)))
    g = _ops.get_default_graph()
    t = self.add_to_graph(g)
    inputs = []
    for a, dt in zip(args, self._input_types):
      x = _ops.convert_to_tensor(a, dtype=dt)
      if x.dtype.base_dtype != dt:
        raise ValueError("Function %s: argument of type %s where %s is expected"
                         % (t.name, x.dtype.name, dt.name))
      inputs.append(x)
    inputs += t.captured_inputs
    op = _call(g, t.name, inputs, name=name)
    outs = op.outputs
    if self._shape_func is not None:
      for o, s in zip(outs, self._shape_func(op)):
        o.set_shape(s)
    else:
      for o, s in zip(outs, self._output_shapes_for(g, inputs[:len(self._input_types)], t)):
        o.set_shape(s)
    if not outs:
      return op
    if len(outs) == 1:
      return outs[0]
    return tuple(outs)


class _OverloadedFunction(object):
  """A Defun without input types: one definition per call's input dtypes."""

  def __init__(self, func, **kwargs):
    self._func = func
    self._kwargs = kwargs
    self._overloads = {}

  def instantiate(self, input_types):
    key = tuple(_dtypes.as_dtype(t) for t in input_types)
    df = self._overloads.get(key)
    if df is None:
      kw = dict(self._kwargs)
      if kw.get("func_name"):
        kw["func_name"] = "%s_%s" % (kw["func_name"], "_".join(t.name for t in key))
      df = _DefinedFunction(self._func, key, **kw)
      self._overloads[key] = df
    return df

  def __call__(self, *args, **kwargs):
    tensors = [_ops.convert_to_tensor(a) for a in args]
    return self.instantiate([t.dtype.base_dtype for t in tensors])(*tensors, **kwargs)


class Defun(object):
  """Decorator that defines a function of the graph (TF 1.15's Defun).

      @function.Defun(tf.float32, tf.float32)
      def axpy(a, b):
        return a * 3.0 + b

      y = axpy(x, tf.constant(1.0))   # a node whose op is the function's name

  Keyword arguments: func_name, grad_func (a Defun-defined gradient taking
  the inputs and the output gradients), python_grad_func (a Python gradient
  function `(op, *grads) -> grads`), out_names, shape_func (`op -> shapes`);
  noinline, compiled, separate_compiled_gradients are accepted.
  """

  def __init__(self, *input_types, **kwargs):
    self._input_types = input_types
    self._kwargs = kwargs

  def __call__(self, func):
    if not callable(func):
      raise ValueError("func %s must be callable" % func)
    kw = dict(self._kwargs)
    for ignored in ("noinline", "compiled", "separate_compiled_gradients"):
      kw.pop(ignored, None)
    if not self._input_types:
      return _OverloadedFunction(func, **kw)
    return _DefinedFunction(func, self._input_types, **kw)


def _called_function(op):
  """The library function a call op runs (op type, or PartitionedCall's f)."""
  if op.type in ("PartitionedCall", "StatefulPartitionedCall"):
    f = op.get_attr("f")
    if isinstance(f, bytes):
      f = f.decode()
    return getattr(f, "name", f)
  return op.type


def _imported_gradient(op, fname):
  """Gradient of a call of a function that has no Python code (it came from
  a GraphDef): a gradient function traced from the function's body (imported
  into the trace) with tf.gradients, called with the inputs and the output
  gradients."""
  return _body_gradient(op.graph, fname, [t.dtype.base_dtype for t in op.inputs],
                        [t.dtype.base_dtype for t in op.outputs])


def _body_gradient(g, fname, in_types, out_types):
  """The Defun computing the gradient of library function `fname` of g:
  (inputs..., output gradients...) -> input gradients. Cached per graph."""
  cache = getattr(g, "_tfc_imported_grads", None)
  if cache is None:
    cache = g._tfc_imported_grads = {}
  n_in = len(in_types)
  gdf = cache.get(fname)
  if gdf is None:
    body, ret_names = g._function_body(fname)
    sig = g._function_signature(fname)
    arg_names = [a["name"] for a in sig["inputs"]]
    lib = [(n, g._function_def(n)) for n in g._function_names()]

    def grad_body(*a):
      from tfc import protos  # pylint: disable=g-import-not-at-top
      from tfc.framework import importer  # pylint: disable=g-import-not-at-top
      from tfc.ops import array_ops, gradients_impl  # pylint: disable=g-import-not-at-top
      fg = _ops.get_default_graph()
      have = set(fg._function_names())
      for n, fd in lib:
        if n not in have:
          fg._add_function(fd)
      xs = list(a[:n_in])
      ys = importer.import_graph_def(
          protos.GraphDef.FromString(body), name="body",
          input_map={"%s:0" % nm: x for nm, x in zip(arg_names, xs)},
          return_elements=ret_names)
      gs = gradients_impl.gradients(ys, xs, grad_ys=list(a[n_in:]))
      return [gr if gr is not None else array_ops.zeros_like(x) for gr, x in zip(gs, xs)]
    gdf = _DefinedFunction(grad_body, list(in_types) + list(out_types), func_name=fname + "_grad")
    cache[fname] = gdf
  return gdf


def _branch_gradient(op, *dys, branches, index_input):
  """Gradient of If/StatelessIf/Case: the same op over the branches'
  gradient functions, on (inputs..., output gradients...)."""
  from tfc.framework import op_def_library  # pylint: disable=g-import-not-at-top
  g = op.graph
  data = list(op.inputs)[1:]
  in_types = [t.dtype.base_dtype for t in data]
  out_types = [t.dtype.base_dtype for t in op.outputs]
  dys = [d if d is not None else _zeros(o) for d, o in zip(dys, op.outputs)]
  names = []
  for b in branches:
    gdf = _body_gradient(g, b, in_types, out_types)
    names.append(gdf.add_to_graph(g).name)
  attrs = {"Tin": in_types + out_types, "Tout": in_types}
  if op.type in ("Case", "StatelessCase"):
    attrs["branches"] = names
  else:
    attrs["then_branch"], attrs["else_branch"] = names
    attrs["Tcond"] = op.inputs[0].dtype.base_dtype
  grad_op = op_def_library._apply_op(op.type, op.name.split("/")[-1] + "_grad",
                                     [op.inputs[0], data + dys], attrs, graph=g)
  return [None] + list(grad_op.outputs)


def _func_name(v):
  if isinstance(v, bytes):
    v = v.decode()
  return getattr(v, "name", v)


def _if_gradient(op, *dys):
  return _branch_gradient(op, *dys, index_input=0,
                          branches=[_func_name(op.get_attr("then_branch")),
                                    _func_name(op.get_attr("else_branch"))])


def _case_gradient(op, *dys):
  return _branch_gradient(op, *dys, index_input=0,
                          branches=[_func_name(b) for b in op.get_attr("branches")])


def _import_body(fname, lib, arg_names, ret_names, body, xs):
  """Imports library function `fname`'s body into the default (function)
  graph with its arguments mapped to xs; returns its results."""
  from tfc import protos  # pylint: disable=g-import-not-at-top
  from tfc.framework import importer  # pylint: disable=g-import-not-at-top
  fg = _ops.get_default_graph()
  have = set(fg._function_names())
  for n, fd in lib:
    if n not in have:
      fg._add_function(fd)
  return importer.import_graph_def(
      protos.GraphDef.FromString(body), name=fname,
      input_map={"%s:0" % nm: x for nm, x in zip(arg_names, xs)},
      return_elements=ret_names)


def _read_dtypes(g, fname):
  """For each argument of library function `fname`: the dtype its body reads
  it as (the `dtype` attr of a ReadVariableOp, ResourceGather, ... taking
  it), or None."""
  from tfc import protos  # pylint: disable=g-import-not-at-top
  body, _ = g._function_body(fname)
  args = [a["name"] for a in g._function_signature(fname)["inputs"]]
  gd = protos.GraphDef.FromString(body)
  found = {}
  for nd in gd.node:
    if "dtype" not in nd.attr or nd.op in ("Placeholder", "PlaceholderV2", "Const"):
      continue
    for inp in nd.input:
      name = inp.split(":")[0]
      if name in args and name not in found:
        found[name] = _dtypes.as_dtype(nd.attr["dtype"].type)
  return [found.get(a) for a in args]


def _while_gradient_functions(g, cond_name, body_name, types, acc_types):
  """The four functions the gradient of a While over (cond, body) with loop
  variable dtypes `types` uses, added to g's library; cached per graph:
    history cond/body: (vars..., count, stacks...) -> the loop itself, pushing
      each iteration's loop variables onto one stack per variable and counting;
    gradient cond/body: (n, grads..., stacks...) -> while n > 0, pop the
      variables of iteration n - 1 and take the body's gradient at them.
  acc_types: the gradient's dtype per loop variable: its own for floating
  point ones, the variable's dtype for a resource the body reads (its
  gradients are summed over the iterations), else None (no gradient).
  Returns their names."""
  cache = getattr(g, "_tfc_while_grads", None)
  if cache is None:
    cache = g._tfc_while_grads = {}
  key = (cond_name, body_name, tuple(types), tuple(acc_types))
  if key in cache:
    return cache[key]
  from tfc.ops import control_flow_ops, gradients_impl, math_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import control_flow_state as cfs  # pylint: disable=g-import-not-at-top
  m = len(types)
  res = [_dtypes.resource] * m
  lib = [(n, g._function_def(n)) for n in g._function_names()]
  cbody, cret = g._function_body(cond_name)
  bbody, bret = g._function_body(body_name)
  cargs = [a["name"] for a in g._function_signature(cond_name)["inputs"]]
  bargs = [a["name"] for a in g._function_signature(body_name)["inputs"]]
  diff = [t.is_floating or t.is_complex for t in types]
  reads = [types[i] == _dtypes.resource and acc_types[i] is not None for i in range(m)]
  carried = [acc_types[i] if acc_types[i] is not None else types[i] for i in range(m)]

  def hist_cond(*a):
    return _import_body(cond_name, lib, cargs, cret, cbody, list(a[:m]))[0]

  def hist_body(*a):
    xs, count, hs = list(a[:m]), a[m], list(a[m + 1:])
    ys = _import_body(body_name, lib, bargs, bret, bbody, xs)
    pushes = [cfs._stack_push(h, x, False).op for h, x in zip(hs, xs)]
    with _ops.control_dependencies(pushes):
      outs = [control_flow_ops._identity(y) for y in ys] + [count + 1]
    return outs + hs

  def grad_cond(*a):
    return math_ops.greater(a[0], 0)

  def grad_body(*a):
    n, dys, hs = a[0], list(a[1:m + 1]), list(a[m + 1:])
    xs = [cfs._stack_pop(h, t) for h, t in zip(hs, types)]
    ys = _import_body(body_name, lib, bargs, bret, bbody, xs)
    idx = [i for i in range(m) if diff[i]]
    ridx = [i for i in range(m) if reads[i]]
    gs = gradients_impl.gradients([ys[i] for i in idx], [xs[i] for i in idx + ridx],
                                  grad_ys=[dys[i] for i in idx]) if idx else []
    new = list(dys)
    for i, gr in zip(idx + ridx, gs):
      if reads[i]:
        # a variable read in the body: its gradients add up over the iterations
        new[i] = dys[i] if gr is None else dys[i] + _ops.convert_to_tensor(gr)
      else:
        new[i] = gr if gr is not None else _zeros(xs[i])
    return [n - 1] + new + hs

  base = body_name
  names = []
  for fn, in_types, suffix in [(hist_cond, list(types) + [_dtypes.int32] + res, "_hist_cond"),
                               (hist_body, list(types) + [_dtypes.int32] + res, "_hist_body"),
                               (grad_cond, [_dtypes.int32] + carried + res, "_grad_cond"),
                               (grad_body, [_dtypes.int32] + carried + res, "_grad_body")]:
    names.append(_DefinedFunction(fn, in_types, func_name=base + suffix).add_to_graph(g).name)
  cache[key] = names
  return names


def _while_gradient(op, *dys):
  """Gradient of While/StatelessWhile (what TF 2's while_v2 gradient
  computes): a history loop replays the forward loop, saving each
  iteration's loop variables on stacks and counting the iterations; a
  gradient loop then runs that many times backwards, popping the variables
  of each iteration and applying the body's gradient (traced from the body
  as the library stores it, nested functional ops differentiated in turn)
  to the running loop-variable gradients. A resource loop variable the body
  reads (a captured variable) gets the sum of its gradients over the
  iterations; other loop variables that are not floating point get None."""
  from tfc.framework import constant_op  # pylint: disable=g-import-not-at-top
  from tfc.ops import control_flow_state as cfs  # pylint: disable=g-import-not-at-top
  g = op.graph
  xs = list(op.inputs)
  types = [t.dtype.base_dtype for t in xs]
  m = len(types)
  diff = [t.is_floating or t.is_complex for t in types]
  body_name = _func_name(op.get_attr("body"))
  read_as = _read_dtypes(g, body_name) if _dtypes.resource in types else [None] * m
  acc_types = [types[i] if diff[i] else
               (read_as[i] if types[i] == _dtypes.resource and read_as[i] is not None
                and (read_as[i].is_floating or read_as[i].is_complex) else None)
               for i in range(m)]
  hc, hb, gc, gb = _while_gradient_functions(g, _func_name(op.get_attr("cond")), body_name, types,
                                             acc_types)
  base = op.name.split("/")[-1]
  try:
    par = op.get_attr("parallel_iterations")
  except ValueError:
    par = 10
  with _ops.control_dependencies(None):
    hs = [cfs._stack_v2(t, name=base + "_acc") for t in types]
    zero = constant_op.constant(0, _dtypes.int32)
  res = [_dtypes.resource] * m
  hist = _op_def_library._apply_op(
      "While", base + "_grad_history", [xs + [zero] + hs],
      {"T": types + [_dtypes.int32] + res, "cond": hc, "body": hb, "parallel_iterations": par}, graph=g)
  count = hist.outputs[m]
  from tfc.ops import resource_variable_ops  # pylint: disable=g-import-not-at-top
  init = []
  for i, (d, o) in enumerate(zip(dys, op.outputs)):
    if diff[i]:
      init.append(d if d is not None else _zeros(o))
    elif acc_types[i] is not None:
      # the summed gradient of a variable the body reads starts at zeros of it
      init.append(_zeros(resource_variable_ops.read_variable_op(xs[i], acc_types[i])))
    else:
      init.append(xs[i])
  carried = [acc_types[i] if acc_types[i] is not None else types[i] for i in range(m)]
  grad = _op_def_library._apply_op(
      "While", base + "_grad", [[count] + init + list(hist.outputs[m + 1:])],
      {"T": [_dtypes.int32] + carried + res, "cond": gc, "body": gb, "parallel_iterations": par}, graph=g)
  return [grad.outputs[1 + i] if acc_types[i] is not None else None for i in range(m)]


def _gradient_for_call(op):
  """The gradient function of a call of a library function (op.type is the
  function's name, or a PartitionedCall), or None: for a Defun-defined one
  python_grad_func, else grad_func, else the gradient of the traced Python
  function; for one imported from a GraphDef, the gradient of its body."""
  if op.type in ("If", "StatelessIf"):
    return _if_gradient
  if op.type in ("Case", "StatelessCase"):
    return _case_gradient
  if op.type in ("While", "StatelessWhile"):
    return _while_gradient
  df = _registry(op.graph).get(op.type)
  if df is None:
    fname = _called_function(op)
    if not fname or op.graph._function_signature(fname) is None:
      return None
    return _library_gradient(fname)
  if df._python_grad_func is not None:
    return df._python_grad_func
  n_in = len(df._input_types)
  if df._grad_func is not None:
    grad = df._grad_func

    def call_grad(op, *dys):
      outs = grad(*(list(op.inputs)[:n_in] + list(dys)))
      outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
      return outs + [None] * (len(op.inputs) - n_in)
    return call_grad

  t = df._trace(op.graph)
  if t.captured_inputs:
    # Captured tensors (the reads of variables the body created among them)
    # take gradients too: the body's gradient over every argument.
    return _library_gradient(t.name)
  out_types = t.output_types

  def symbolic(op, *dys):
    from tfc.ops import gradients_impl  # pylint: disable=g-import-not-at-top

    def grad_body(*a):
      xs = list(a[:n_in])
      ys = df._func(*xs)
      ys = [_ops.convert_to_tensor(y) for y in _nest.flatten(ys)]
      gs = gradients_impl.gradients(ys, xs, grad_ys=list(a[n_in:]))
      from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
      return [g if g is not None else array_ops.zeros_like(x) for g, x in zip(gs, xs)]
    key = "_tfc_grad_defun"
    gdf = getattr(df, key, None)
    if gdf is None:
      gdf = _DefinedFunction(grad_body, list(df._input_types) + list(out_types),
                             func_name=(t.name + "_grad"))
      setattr(df, key, gdf)
    dys = [d if d is not None else _zeros(o) for d, o in zip(dys, op.outputs)]
    outs = gdf(*(list(op.inputs)[:n_in] + dys))
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    return outs + [None] * (len(op.inputs) - n_in)
  return symbolic


def _library_gradient(fname):
  """The gradient function of a call of library function `fname`: the
  gradient of its body (as stored in the library) over every argument."""
  def imported(op, *dys):
    gdf = _imported_gradient(op, fname)
    dys = [d if d is not None else _zeros(o) for d, o in zip(dys, op.outputs)]
    outs = gdf(*(list(op.inputs) + dys))
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    return outs[:len(op.inputs)]
  return imported


def _zeros(t):
  from tfc.ops import array_ops  # pylint: disable=g-import-not-at-top
  return array_ops.zeros_like(t)
