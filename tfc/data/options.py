"""tf.data.Options and its option groups (ThreadingOptions,
OptimizationOptions, AutotuneOptions, DistributeOptions).

Options are plain value objects: every option starts unset (None), setting
one checks its type (TypeError as in TensorFlow) and an unknown name raises
AttributeError. `Dataset.with_options` attaches them to a dataset and
`Dataset.options()` gives the merged options of a dataset and its inputs.
tfc's C iterators need none of them to run: the graph rewrites and thread
pools they configure in TensorFlow are performance settings, so tfc records
them and leaves the elements as they are (the elements TF produces do not
depend on them, apart from `deterministic`, which tfc's iterators always are).
"""
import enum as _enum
import logging as _logging


class AutoShardPolicy(_enum.IntEnum):
  """How a dataset is sharded over the workers of a distributed input (TF's values)."""
  OFF = -1
  AUTO = 0
  FILE = 1
  DATA = 2
  HINT = 3


class AutotuneAlgorithm(_enum.Enum):
  """The algorithm tf.data's autotuner uses (TF's values)."""
  DEFAULT = 0
  HILL_CLIMB = 1
  GRADIENT_DESCENT = 2
  MAX_PARALLELISM = 3
  STAGE_BASED = 4


class _Option(object):
  """One option: its name, the type(s) it accepts, and a default factory for
  nested option groups (None for a leaf that starts unset)."""

  def __init__(self, name, ty, doc="", group=None):
    self.name = name
    self.ty = ty
    self.group = group
    self.__doc__ = doc

  def __get__(self, obj, objtype=None):
    if obj is None:
      return self
    value = obj._values.get(self.name)  # pylint: disable=protected-access
    if value is None and self.group is not None:
      value = self.group()
      obj._values[self.name] = value  # pylint: disable=protected-access
    return value

  def __set__(self, obj, value):
    if value is not None and not _type_ok(value, self.ty):
      raise TypeError('Property "%s" must be of type %s, got: %r (type: %s)'
                      % (self.name, self.ty, value, type(value)))
    obj._values[self.name] = value  # pylint: disable=protected-access


def _type_ok(value, ty):
  if ty is int:
    return isinstance(value, int) and not isinstance(value, bool)
  if ty is float:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
  return isinstance(value, ty)


class _OptionsBase(object):
  """Common behaviour of option groups: unknown names are refused, equality
  compares the values set."""

  def __init__(self):
    object.__setattr__(self, "_values", {})

  def __setattr__(self, name, value):
    if not isinstance(getattr(type(self), name, None), _Option):
      raise AttributeError("Cannot set the property %s on %s." % (name, type(self).__name__))
    object.__setattr__(self, name, value)

  def _options(self):
    return [v for c in type(self).__mro__ for v in vars(c).values() if isinstance(v, _Option)]

  def _set_values(self):
    out = {}
    for opt in self._options():
      v = self._values.get(opt.name)
      if isinstance(v, _OptionsBase):
        v = v._set_values() or None  # pylint: disable=protected-access
      if v is not None:
        out[opt.name] = v
    return out

  def __eq__(self, other):
    if type(self) is not type(other):
      return NotImplemented
    return self._set_values() == other._set_values()  # pylint: disable=protected-access

  def __ne__(self, other):
    r = self.__eq__(other)
    return r if r is NotImplemented else not r

  __hash__ = None

  def __repr__(self):
    return "%s(%s)" % (type(self).__name__,
                       ", ".join("%s=%r" % kv for kv in sorted(self._set_values().items())))


def _merge_into(result, other):
  """Sets in result every option other sets (nested groups merged; a value
  that changes is logged, the later one wins, as in TensorFlow)."""
  for opt in other._options():  # pylint: disable=protected-access
    theirs = other._values.get(opt.name)  # pylint: disable=protected-access
    if theirs is None:
      continue
    if isinstance(theirs, _OptionsBase):
      _merge_into(getattr(result, opt.name), theirs)
      continue
    mine = result._values.get(opt.name)  # pylint: disable=protected-access
    if mine is not None and mine != theirs:
      _logging.getLogger("tfc").warning("Changing the value of option %s from %r to %r",
                                        opt.name, mine, theirs)
    result._values[opt.name] = theirs  # pylint: disable=protected-access


class ThreadingOptions(_OptionsBase):
  """Thread pool settings (tf.data.experimental.ThreadingOptions)."""
  max_intra_op_parallelism = _Option("max_intra_op_parallelism", int,
                                     "The most intra-op parallelism an element may use.")
  private_threadpool_size = _Option("private_threadpool_size", int,
                                    "Threads of a pool of the dataset's own (0: the shared pool).")


class OptimizationOptions(_OptionsBase):
  """Static graph rewrites of the input pipeline (tf.data.experimental.OptimizationOptions)."""
  apply_default_optimizations = _Option("apply_default_optimizations", bool)
  filter_fusion = _Option("filter_fusion", bool)
  filter_parallelization = _Option("filter_parallelization", bool)
  inject_prefetch = _Option("inject_prefetch", bool)
  map_and_batch_fusion = _Option("map_and_batch_fusion", bool)
  map_and_filter_fusion = _Option("map_and_filter_fusion", bool)
  map_fusion = _Option("map_fusion", bool)
  map_parallelization = _Option("map_parallelization", bool)
  noop_elimination = _Option("noop_elimination", bool)
  parallel_batch = _Option("parallel_batch", bool)
  seq_interleave_prefetch = _Option("seq_interleave_prefetch", bool)
  shuffle_and_repeat_fusion = _Option("shuffle_and_repeat_fusion", bool)


class AutotuneOptions(_OptionsBase):
  """The autotuner's settings (tf.data.experimental.AutotuneOptions)."""
  enabled = _Option("enabled", bool)
  cpu_budget = _Option("cpu_budget", int)
  ram_budget = _Option("ram_budget", int)
  autotune_algorithm = _Option("autotune_algorithm", AutotuneAlgorithm)
  initial_parallelism = _Option("initial_parallelism", int)
  min_parallelism = _Option("min_parallelism", int)


class DistributeOptions(_OptionsBase):
  """How a distributed input is sharded (tf.data.experimental.DistributeOptions)."""
  auto_shard_policy = _Option("auto_shard_policy", AutoShardPolicy)
  num_devices = _Option("num_devices", int)

  def __init__(self):
    super(DistributeOptions, self).__init__()


def _external_state_policy_type():
  from tfc.data import experimental as _experimental  # pylint: disable=g-import-not-at-top
  return _experimental.ExternalStatePolicy


class _PolicyOption(_Option):
  """experimental_external_state_policy: an ExternalStatePolicy."""

  def __set__(self, obj, value):
    if value is not None and not isinstance(value, _external_state_policy_type()):
      raise TypeError('Property "%s" must be of type %s, got: %r (type: %s)'
                      % (self.name, _external_state_policy_type(), value, type(value)))
    obj._values[self.name] = value  # pylint: disable=protected-access


class Options(_OptionsBase):
  """Options of a dataset (tf.data.Options): set them and pass the object to
  `Dataset.with_options`."""
  autotune = _Option("autotune", AutotuneOptions, group=AutotuneOptions)
  deterministic = _Option("deterministic", bool, "Whether elements come in their deterministic order.")
  experimental_distribute = _Option("experimental_distribute", DistributeOptions, group=DistributeOptions)
  experimental_external_state_policy = _PolicyOption("experimental_external_state_policy", object)
  experimental_optimization = _Option("experimental_optimization", OptimizationOptions,
                                      group=OptimizationOptions)
  experimental_slack = _Option("experimental_slack", bool)
  experimental_symbolic_checkpoint = _Option("experimental_symbolic_checkpoint", bool)
  experimental_warm_start = _Option("experimental_warm_start", bool)
  dataset_name = _Option("dataset_name", str)
  threading = _Option("threading", ThreadingOptions, group=ThreadingOptions)

  # TF 1.15's spellings of the same options.
  @property
  def experimental_threading(self):
    return self.threading

  @experimental_threading.setter
  def experimental_threading(self, value):
    self.threading = value

  @property
  def experimental_deterministic(self):
    return self.deterministic

  @experimental_deterministic.setter
  def experimental_deterministic(self, value):
    self.deterministic = value

  def __setattr__(self, name, value):
    if name in ("experimental_threading", "experimental_deterministic"):
      object.__setattr__(self, name, value)
      return
    super(Options, self).__setattr__(name, value)

  def merge(self, options):
    """A new Options with this object's options, then those options sets
    (the later value wins)."""
    return merge_options(self, options)


def merge_options(*options_list):
  """Merges Options objects in order (later ones win); returns a new one."""
  result = Options()
  for options in options_list:
    if options is None:
      continue
    if not isinstance(options, Options):
      raise TypeError("Argument `options` must be of type tf.data.Options, got %r" % (options,))
    _merge_into(result, options)
  return result
