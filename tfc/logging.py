"""tf.logging: a thin TF 1.15-shaped facade over the standard `logging` module."""
import logging as _logging
import sys as _sys

DEBUG = _logging.DEBUG
INFO = _logging.INFO
WARN = _logging.WARN
ERROR = _logging.ERROR
FATAL = _logging.FATAL

_logger = None


def get_logger():
  global _logger
  if _logger is None:
    logger = _logging.getLogger("tensorflow")
    if not logger.handlers:
      handler = _logging.StreamHandler(_sys.stderr)
      handler.setFormatter(_logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
      logger.addHandler(handler)
      logger.propagate = False
    if logger.level == _logging.NOTSET:
      logger.setLevel(WARN)
    _logger = logger
  return _logger


def log(level, msg, *args, **kwargs):
  get_logger().log(level, msg, *args, **kwargs)


def debug(msg, *args, **kwargs):
  get_logger().debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
  get_logger().info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
  get_logger().warning(msg, *args, **kwargs)


warn = warning


def error(msg, *args, **kwargs):
  get_logger().error(msg, *args, **kwargs)


def fatal(msg, *args, **kwargs):
  get_logger().fatal(msg, *args, **kwargs)


def vlog(level, msg, *args, **kwargs):
  get_logger().log(level, msg, *args, **kwargs)


_counts = {}


def log_every_n(level, msg, n, *args):
  key = (msg, level)
  c = _counts.get(key, 0)
  _counts[key] = c + 1
  if c % n == 0:
    log(level, msg, *args)


def log_first_n(level, msg, n, *args):
  key = (msg, level, "first")
  c = _counts.get(key, 0)
  _counts[key] = c + 1
  if c < n:
    log(level, msg, *args)


def log_if(level, msg, condition, *args):
  if condition:
    log(level, msg, *args)


def get_verbosity():
  return get_logger().getEffectiveLevel()


def set_verbosity(v):
  get_logger().setLevel(v)


def TaskLevelStatusMessage(msg):  # pylint: disable=invalid-name
  """Logs `msg` at ERROR level (TF's task status message)."""
  error(msg)


def flush():
  for h in get_logger().handlers:
    h.flush()
