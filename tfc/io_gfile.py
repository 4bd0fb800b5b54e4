"""tf.io.gfile: the file API under TF 2's lower-case names (tf.gfile holds the TF 1 names;
both work on the local file system and raise tfc.errors.NotFoundError for missing paths)."""
import os as _os

from tfc import gfile as _gfile

GFile = _gfile.GFile
exists = _gfile.Exists
glob = _gfile.Glob
isdir = _gfile.IsDirectory
listdir = _gfile.ListDirectory
makedirs = _gfile.MakeDirs
mkdir = _gfile.MkDir
remove = _gfile.Remove
rmtree = _gfile.DeleteRecursively
stat = _gfile.Stat


def copy(src, dst, overwrite=False):
  """Copies the file src to dst (AlreadyExistsError if dst exists and not overwrite)."""
  _gfile.Copy(src, dst, overwrite)


def rename(src, dst, overwrite=False):
  """Renames src to dst (AlreadyExistsError if dst exists and not overwrite)."""
  _gfile.Rename(src, dst, overwrite)


def join(path, *paths):
  """Joins path components with '/' (os.path.join on local paths)."""
  return _os.path.join(path, *paths)


def get_registered_schemes():
  """The file-system URL schemes tfc serves: local paths only ('' and 'file')."""
  return ["", "file"]


def walk(top, topdown=True, onerror=None):
  """Yields (dirname, subdirectories, files) for top and every directory below it,
  parents first when topdown; a directory that cannot be listed goes to onerror (a
  tfc.errors.OpError) and is skipped."""
  top = _gfile._path(top)  # pylint: disable=protected-access
  try:
    names = listdir(top)
  except Exception as e:  # pylint: disable=broad-except
    if onerror is not None:
      onerror(e)
    return
  dirs, files = [], []
  for name in names:
    (dirs if isdir(_os.path.join(top, name)) else files).append(name)
  if topdown:
    yield top, dirs, files
  for d in dirs:
    for entry in walk(_os.path.join(top, d), topdown, onerror):
      yield entry
  if not topdown:
    yield top, dirs, files
