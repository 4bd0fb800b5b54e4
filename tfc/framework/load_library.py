"""tf.load_op_library, tf.load_library and tf.load_file_system_library.

TensorFlow's custom-op libraries are C++ shared objects linked against
libtensorflow_framework; they register ops and kernels with TF's own
registries, which tfc does not have. These functions load a library the way TF
does (dlopen with RTLD_NOW | RTLD_LOCAL) so that the outcome matches TF's: a
missing file, a missing dependency or an unresolved symbol (every TF custom-op
library needs TF's C++ runtime) raises tf.errors.NotFoundError with the loader's
message. A library that loads registers no op with tfc: the returned module has
an empty OP_LIST.
"""
import ctypes as _ctypes
import errno as _errno
import os as _os
import types as _types

from tfc import errors as _errors

_LOADED = {}


def _dlopen(path):
  """dlopen(path) as TF does; NotFoundError(message of the loader) on failure."""
  if path in _LOADED:
    return _LOADED[path]
  try:
    handle = _ctypes.CDLL(path, mode=_os.RTLD_NOW | _os.RTLD_LOCAL)
  except OSError as e:
    raise _errors.NotFoundError(None, None, str(e)) from None
  _LOADED[path] = handle
  return handle


def load_op_library(library_filename):
  """Loads a shared library and returns a module of the op wrappers it registers.

  Raises tf.errors.NotFoundError when the library (or one of its dependencies or
  symbols) cannot be loaded, as TensorFlow does. tfc has no C++ op registry for a
  library to add to, so the module of a library that does load has no op functions
  and an empty OP_LIST.
  """
  handle = _dlopen(library_filename)
  from tfc import protos as _protos  # pylint: disable=g-import-not-at-top
  module = _types.ModuleType(_os.path.splitext(_os.path.basename(library_filename))[0])
  module.OP_LIST = _protos.OpList()
  module.LIB_HANDLE = handle
  return module


def load_file_system_library(library_filename):
  """Loads a file-system plugin library (deprecated in TF 1.15); NotFoundError when it
  cannot be loaded."""
  _dlopen(library_filename)


def load_library(library_location):
  """Loads a shared library, or every `.so` file of a directory.

  Raises OSError (ENOENT) when library_location does not exist and
  tf.errors.NotFoundError when a library fails to load, as TensorFlow does.
  """
  if not _os.path.exists(library_location):
    raise OSError(_errno.ENOENT,
                  "The file or folder to load kernel libraries from does not exist.",
                  library_location)
  if _os.path.isdir(library_location):
    paths = sorted(_os.path.join(library_location, f) for f in _os.listdir(library_location)
                   if f.endswith(".so") or ".so." in f)
  else:
    paths = [library_location]
  for path in paths:
    _dlopen(path)
