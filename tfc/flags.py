"""tf.flags (also tf.app.flags): command-line flags, as TF 1.15 offers them.

TF 1.15's tf.flags is the absl-py flags library under another name, with two
differences that classic scripts rely on, both kept here:

* the DEFINE functions most used by old code (DEFINE_string, DEFINE_integer,
  DEFINE_float, DEFINE_boolean/DEFINE_bool) also accept the pre-absl keyword
  names ``flag_name``, ``default_value`` and ``docstring`` (a warning is
  logged when they are used);
* ``FLAGS`` parses ``sys.argv`` by itself the first time a flag's value is
  read before anything parsed the command line (absl would raise
  UnparsedFlagAccessError).

Everything else (flag types, validators, FlagValues, the error classes) is
absl.flags itself, so flags defined through tfc and through absl share one
registry. This module is loaded on first use of ``tf.flags`` / ``tf.app``;
``import tfc`` does not import absl.
"""
# pylint: disable=invalid-name,wildcard-import,unused-wildcard-import
import functools as _functools
import sys as _sys

from absl.flags import *  # noqa: F401,F403
from absl import flags as _absl_flags

# The wrappers below call absl's DEFINE functions; telling absl that this
# module defines no flags of its own makes it credit each flag to the script
# that called tf.flags.DEFINE_* (so --helpshort lists the script's flags).
_absl_flags.disclaim_key_flags()

_OLD_KEYWORDS = (("flag_name", "name"), ("default_value", "default"), ("docstring", "help"))


def _accept_old_keywords(define):
  """Returns `define` taking also the keyword names tf.flags had before absl.

  Contract: `flag_name=`, `default_value=` and `docstring=` are passed on as
  `name=`, `default=` and `help=`; a warning is logged once per call that
  used them; everything else goes to `define` unchanged.
  """

  @_functools.wraps(define)
  def define_flag(*args, **kwargs):
    renamed = False
    for old, new in _OLD_KEYWORDS:
      if old in kwargs:
        kwargs[new] = kwargs.pop(old)
        renamed = True
    if renamed:
      from tfc import logging as _tf_logging
      _tf_logging.warning("tf.flags: the keyword names flag_name, default_value and docstring "
                          "are deprecated; use name, default and help")
    return define(*args, **kwargs)

  return define_flag


DEFINE_string = _accept_old_keywords(_absl_flags.DEFINE_string)
DEFINE_boolean = _accept_old_keywords(_absl_flags.DEFINE_boolean)
DEFINE_bool = DEFINE_boolean
DEFINE_float = _accept_old_keywords(_absl_flags.DEFINE_float)
DEFINE_integer = _accept_old_keywords(_absl_flags.DEFINE_integer)


class _AutoParsingFlagValues(object):
  """absl's global FlagValues, parsing sys.argv when first read unparsed.

  Every attribute, item and call goes to absl.flags.FLAGS (setting a value,
  `FLAGS(argv)`, `FLAGS['name']`, `len`, iteration, `dir`); only reading a
  flag's value before the command line was parsed first parses `sys.argv`
  (unknown flags there raise absl's UnrecognizedFlagError, as in TF).
  """

  __slots__ = ("_flag_values",)

  def __init__(self, flag_values):
    object.__setattr__(self, "_flag_values", flag_values)

  def __getattr__(self, name):
    values = object.__getattribute__(self, "_flag_values")
    if not values.is_parsed() and name in values:
      values(_sys.argv)
    return getattr(values, name)

  def __setattr__(self, name, value):
    setattr(object.__getattribute__(self, "_flag_values"), name, value)

  def __delattr__(self, name):
    delattr(object.__getattribute__(self, "_flag_values"), name)

  def __dir__(self):
    return dir(object.__getattribute__(self, "_flag_values"))

  def __getitem__(self, name):
    return object.__getattribute__(self, "_flag_values")[name]

  def __setitem__(self, name, flag):
    object.__getattribute__(self, "_flag_values")[name] = flag

  def __contains__(self, name):
    return name in object.__getattribute__(self, "_flag_values")

  def __len__(self):
    return len(object.__getattribute__(self, "_flag_values"))

  def __iter__(self):
    return iter(object.__getattribute__(self, "_flag_values"))

  def __str__(self):
    return str(object.__getattribute__(self, "_flag_values"))

  def __call__(self, *args, **kwargs):
    return object.__getattribute__(self, "_flag_values")(*args, **kwargs)


FLAGS = _AutoParsingFlagValues(_absl_flags.FLAGS)
