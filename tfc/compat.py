"""tf.compat: `compat.v1` is the tfc package itself (TF 1.x API)."""
import sys as _sys


def as_bytes(bytes_or_text, encoding="utf-8"):
  if isinstance(bytes_or_text, str):
    return bytes_or_text.encode(encoding)
  if isinstance(bytes_or_text, (bytes, bytearray)):
    return bytes(bytes_or_text)
  raise TypeError("Expected binary or unicode string, got %r" % (bytes_or_text,))


def as_text(bytes_or_text, encoding="utf-8"):
  if isinstance(bytes_or_text, str):
    return bytes_or_text
  if isinstance(bytes_or_text, (bytes, bytearray)):
    return bytes_or_text.decode(encoding)
  raise TypeError("Expected binary or unicode string, got %r" % bytes_or_text)


as_str = as_text
as_str_any = lambda value: as_str(value) if isinstance(value, bytes) else str(value)  # noqa: E731
bytes_or_text_types = (bytes, str)
integral_types = (int,)
real_types = (int, float)
complex_types = (int, float, complex)


def forward_compatible(year, month, day):
  return True


def forward_compatibility_horizon(year, month, day):
  """Context manager moving the forward-compatibility date (TF tests use it); tfc's
  forward_compatible() is always True, so it changes nothing."""
  import contextlib  # pylint: disable=g-import-not-at-top

  @contextlib.contextmanager
  def horizon():
    yield

  return horizon()


def path_to_str(path):
  """`path` as a string when it is an os.PathLike (pathlib.Path), else unchanged."""
  if hasattr(path, "__fspath__"):
    path = as_str_any(path.__fspath__())
  return path


def __getattr__(name):
  if name == "v1":
    return _sys.modules["tfc"]
  if name in ("dimension_value", "dimension_at_index"):
    from tfc.framework import tensor_shape  # pylint: disable=g-import-not-at-top
    return getattr(tensor_shape, name)
  raise AttributeError("module 'tfc.compat' has no attribute %r" % name)
