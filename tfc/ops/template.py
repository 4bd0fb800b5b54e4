"""tf.make_template: a function whose tf.get_variable calls make variables the first time
and share them on every later call."""
import functools

from tfc import logging as _logging
from tfc.framework import ops as _ops
from tfc.ops import variable_scope as _vs


class Template(object):
  """Wraps `func` so that all its calls share the variables of the first one (made in one
  variable scope, `name` made unique, unless `unique_name` is given)."""

  def __init__(self, name, func, create_scope_now=False, unique_name=None, custom_getter=None):
    if name is None:
      raise ValueError("name cannot be None.")
    self._func = func
    self._name = name
    self._unique_name = unique_name
    self._custom_getter = custom_getter
    self._variable_scope = None
    self._variables_created = False
    if create_scope_now:
      scope_name = unique_name or _vs._get_unique_variable_scope(name)  # pylint: disable=protected-access
      with _vs._pure_variable_scope(scope_name, custom_getter=custom_getter) as scope:  # pylint: disable=protected-access
        self._variable_scope = scope

  def _call_func(self, args, kwargs):
    trainable_before = len(_ops.get_collection(_ops.GraphKeys.TRAINABLE_VARIABLES))
    global_before = len(_ops.get_collection(_ops.GraphKeys.GLOBAL_VARIABLES))
    result = self._func(*args, **kwargs)
    if self._variables_created:
      trainable = _ops.get_collection(_ops.GraphKeys.TRAINABLE_VARIABLES)
      if len(trainable) != trainable_before:
        raise ValueError("Trainable variable created when calling a template after the first "
                         "time, perhaps you used tf.Variable when you meant tf.get_variable: %s"
                         % (trainable[trainable_before:],))
      everything = _ops.get_collection(_ops.GraphKeys.GLOBAL_VARIABLES)
      if len(everything) != global_before:
        _logging.info("New variables created when calling a template after the first time, "
                      "perhaps you used tf.Variable when you meant tf.get_variable: %s",
                      everything[global_before:])
    else:
      self._variables_created = True
    return result

  def __call__(self, *args, **kwargs):
    if self._variable_scope is not None:
      with _vs.variable_scope(self._variable_scope, reuse=self._variables_created):
        return self._call_func(args, kwargs)
    with _vs.variable_scope(self._unique_name, self._name,
                            custom_getter=self._custom_getter) as scope:
      self._variable_scope = scope
      return self._call_func(args, kwargs)

  @property
  def name(self):
    return self._name

  @property
  def func(self):
    return self._func

  @property
  def variable_scope(self):
    return self._variable_scope

  @property
  def variable_scope_name(self):
    """The scope's name with a trailing '/' (so that it matches no longer name)."""
    if self._variable_scope is None:
      return None
    name = self._variable_scope.name
    return name if not name or name.endswith("/") else name + "/"

  def _scoped(self, key):
    if self._variable_scope is None:
      return []
    prefix = self.variable_scope_name
    return [v for v in _ops.get_collection(key) if v.op.name.startswith(prefix)]

  @property
  def variables(self):
    return self._scoped(_ops.GraphKeys.GLOBAL_VARIABLES)

  global_variables = variables

  @property
  def trainable_variables(self):
    return self._scoped(_ops.GraphKeys.TRAINABLE_VARIABLES)

  trainable_weights = trainable_variables

  @property
  def non_trainable_variables(self):
    trainable = set(id(v) for v in self.trainable_variables)
    return [v for v in self.variables if id(v) not in trainable]

  non_trainable_weights = non_trainable_variables

  @property
  def local_variables(self):
    return self._scoped(_ops.GraphKeys.LOCAL_VARIABLES)

  @property
  def weights(self):
    return self.trainable_variables + self.non_trainable_variables


def make_template(name_, func_, create_scope_now_=False, unique_name_=None,
                  custom_getter_=None, **kwargs):
  """A Template calling func_(*args, **kwargs, <kwargs given here>) with shared
  variables (TF 1.x's tf.make_template)."""
  if kwargs:
    func_ = functools.partial(func_, **kwargs)
  return Template(name_, func_, create_scope_now=create_scope_now_, unique_name=unique_name_,
                  custom_getter=custom_getter_)
