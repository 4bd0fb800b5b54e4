"""The global step: tf.train.get_global_step / create_global_step / get_or_create_global_step."""
from tfc import dtypes as _dtypes
from tfc import logging as _logging
from tfc.framework import ops as _ops
from tfc.ops import init_ops as _init_ops
from tfc.ops import variable_scope as _variable_scope
from tfc.ops import variables as _variables

GLOBAL_STEP_READ_KEY = "global_step_read_op_cache"


def global_step(sess, global_step_tensor):
  """The global step's current value, as a Python int."""
  return int(sess.run(global_step_tensor))


def assert_global_step(global_step_tensor):
  """Raises TypeError unless `global_step_tensor` is a scalar integer Variable or Tensor."""
  if not isinstance(global_step_tensor, (_variables.Variable, _ops.Tensor)):
    raise TypeError('Existing "global_step" must be a Variable or Tensor: %s.' %
                    global_step_tensor)
  if not global_step_tensor.dtype.base_dtype.is_integer:
    raise TypeError('Existing "global_step" does not have integer type: %s' %
                    global_step_tensor.dtype)
  shape = global_step_tensor.get_shape()
  if shape.ndims != 0 and shape.is_fully_defined():
    raise TypeError('Existing "global_step" is not scalar: %s' % shape)


def get_global_step(graph=None):
  """The GLOBAL_STEP collection's one member, else the tensor 'global_step:0', else None."""
  graph = graph or _ops.get_default_graph()
  global_step_tensor = None
  global_step_tensors = graph.get_collection(_ops.GraphKeys.GLOBAL_STEP)
  if len(global_step_tensors) == 1:
    global_step_tensor = global_step_tensors[0]
  elif not global_step_tensors:
    try:
      global_step_tensor = graph.get_tensor_by_name("global_step:0")
    except KeyError:
      return None
  else:
    _logging.error("Multiple tensors in global_step collection.")
    return None
  assert_global_step(global_step_tensor)
  return global_step_tensor


def create_global_step(graph=None):
  """Creates the int64 scalar variable 'global_step' (GLOBAL_VARIABLES + GLOBAL_STEP)."""
  graph = graph or _ops.get_default_graph()
  if get_global_step(graph) is not None:
    raise ValueError('"global_step" already exists.')
  with graph.as_default() as g, g.name_scope(None):
    return _variable_scope.get_variable(
        _ops.GraphKeys.GLOBAL_STEP, shape=[], dtype=_dtypes.int64,
        initializer=_init_ops.zeros_initializer(), trainable=False,
        collections=[_ops.GraphKeys.GLOBAL_VARIABLES, _ops.GraphKeys.GLOBAL_STEP])


def get_or_create_global_step(graph=None):
  """The graph's global step, created first when it has none."""
  graph = graph or _ops.get_default_graph()
  global_step_tensor = get_global_step(graph)
  if global_step_tensor is None:
    global_step_tensor = create_global_step(graph)
  return global_step_tensor


def _get_global_step_read(graph=None):
  """The cached read of the global step (collection GLOBAL_STEP_READ_KEY), or None."""
  graph = graph or _ops.get_default_graph()
  reads = graph.get_collection(GLOBAL_STEP_READ_KEY)
  if len(reads) > 1:
    raise RuntimeError("There are multiple items in collection {}. There should be only "
                       "one.".format(GLOBAL_STEP_READ_KEY))
  return reads[0] if reads else None


def _get_or_create_global_step_read(graph=None):
  """A tensor with the global step's value (its initial value while the variable is
  uninitialized), made once per graph under `global_step/`; None without a global step."""
  graph = graph or _ops.get_default_graph()
  read = _get_global_step_read(graph)
  if read is not None:
    return read
  gs = get_global_step(graph)
  if gs is None:
    return None
  from tfc.ops import control_flow_ops as _cf  # pylint: disable=g-import-not-at-top
  with graph.as_default() as g, g.name_scope(None):
    with g.name_scope(gs.op.name + "/"):
      if isinstance(gs, _variables.Variable):
        value = _cf.cond(_variables.is_variable_initialized(gs), gs.read_value,
                         lambda: gs.initial_value)
      else:
        value = gs
      read = value + 0
      _ops.add_to_collection(GLOBAL_STEP_READ_KEY, read)
  return _get_global_step_read(graph)


def _increment_global_step(increment, graph=None):
  """assign_add(global_step, increment) after the cached read of the global step."""
  graph = graph or _ops.get_default_graph()
  gs = get_global_step(graph)
  if gs is None:
    raise ValueError("Global step tensor should be created by "
                     "tf.train.get_or_create_global_step before calling increment.")
  read = _get_or_create_global_step_read(graph)
  from tfc.ops import state_ops as _state_ops  # pylint: disable=g-import-not-at-top
  with graph.as_default() as g, g.name_scope(None):
    with g.name_scope(gs.op.name + "/"):
      with _ops.control_dependencies([read]):
        return _state_ops.assign_add(gs, increment)
