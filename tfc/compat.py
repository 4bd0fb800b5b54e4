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


def __getattr__(name):
  if name == "v1":
    return _sys.modules["tfc"]
  raise AttributeError("module 'tfc.compat' has no attribute %r" % name)
