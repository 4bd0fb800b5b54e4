"""tf.random namespace (TF 1.15 compat.v1 names)."""
from tfc.ops.random_ops import (random_normal as normal, random_uniform as uniform,  # noqa: F401
                                truncated_normal, random_shuffle as shuffle, multinomial,
                                categorical)
from tfc.framework.random_seed import set_random_seed, get_seed  # noqa: F401

# Names that load their module on first use: name -> (module, attribute).
_LAZY = {}
_LAZY.update((_n, ("tfc.ops.stateless_random_ops", _n)) for _n in (
    "stateless_multinomial", "stateless_categorical", "stateless_truncated_normal"))
_LAZY.update((_n, ("tfc.ops.candidate_sampling_ops", _n)) for _n in (
    "uniform_candidate_sampler", "log_uniform_candidate_sampler",
    "learned_unigram_candidate_sampler", "fixed_unigram_candidate_sampler",
    "all_candidate_sampler"))
_LAZY.update({"experimental": ("tfc.random_experimental", None),
              "split": ("tfc.ops.stateless_random_ops", "split"),
              "fold_in": ("tfc.ops.stateless_random_ops", "fold_in"),
              "Algorithm": ("tfc.ops.random_ops_util", "Algorithm"),
              "create_rng_state": ("tfc.ops.random_ops_util", "create_rng_state")})
_LAZY.update({"stateless_uniform": ("tfc.ops.stateless_random_ops", "stateless_random_uniform"),
              "stateless_normal": ("tfc.ops.stateless_random_ops", "stateless_random_normal"),
              "stateless_gamma": ("tfc.ops.stateless_random_ops", "stateless_random_gamma"),
              "stateless_poisson": ("tfc.ops.stateless_random_ops", "stateless_random_poisson"),
              "stateless_parameterized_truncated_normal": (
                  "tfc.ops.stateless_random_ops", "stateless_parameterized_truncated_normal"),
              "stateless_binomial": ("tfc.ops.stateless_random_ops",
                                     "stateless_random_binomial"),
              "gamma": ("tfc.ops.random_ops", "random_gamma"),
              "poisson": ("tfc.ops.random_ops", "random_poisson")})


def __getattr__(name):
  """The stateless ops, samplers and generators load on first use."""
  entry = _LAZY.get(name)
  if entry is None:
    raise AttributeError("module 'tfc.random' has no attribute %r" % name)
  import importlib  # pylint: disable=g-import-not-at-top
  value = importlib.import_module(entry[0])
  if entry[1] is not None:
    value = getattr(value, entry[1])
  globals()[name] = value
  return value


def __dir__():
  return sorted(set(globals()) | set(_LAZY))
