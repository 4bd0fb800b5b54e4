"""tf.gfile: file access (TF 1.15's tf.io.gfile v1 names) on the local file system.

Missing paths raise tfc.errors.NotFoundError, as TF's file-system layer does.
"""
import errno as _errno
import os as _os

from tfc import errors as _errors


def _raise(e, path):
  """Re-raises an OSError as the tfc.errors class of its errno."""
  msg = "%s; %s" % (path, e.strerror or str(e))
  if e.errno == _errno.ENOENT:
    raise _errors.NotFoundError(None, None, msg) from None
  if e.errno == _errno.EEXIST:
    raise _errors.AlreadyExistsError(None, None, msg) from None
  if e.errno in (_errno.EACCES, _errno.EPERM):
    raise _errors.PermissionDeniedError(None, None, msg) from None
  if e.errno in (_errno.EISDIR, _errno.ENOTDIR, _errno.ENOTEMPTY):
    raise _errors.FailedPreconditionError(None, None, msg) from None
  raise _errors.UnknownError(None, None, msg) from None


def _path(p):
  if isinstance(p, bytes):
    return p.decode()
  return _os.fspath(p)


class GFile(object):
  """A file object: mode "r"/"rb" read, "w"/"wb" write, "a"/"ab" append.

  Text modes return str, binary modes bytes. The file is opened on first use
  (as TF does), so a missing file raises NotFoundError at the first read.
  """

  def __init__(self, name, mode="r"):
    if mode not in ("r", "rb", "w", "wb", "a", "ab", "r+", "rb+", "w+", "wb+", "a+", "ab+"):
      raise _errors.InvalidArgumentError(None, None,
                                         "mode is not 'r' or 'w' or 'a' or 'rb' or 'wb'"
                                         " or 'ab'")
    self.__name = _path(name)
    self.__mode = mode
    self._f = None
    self._binary = "b" in mode

  @property
  def name(self):
    return self.__name

  @property
  def mode(self):
    return self.__mode

  def _file(self):
    if self._f is None:
      m = self.__mode if self._binary else self.__mode.replace("b", "")
      try:
        if self._binary:
          self._f = open(self.__name, m)
        else:
          self._f = open(self.__name, m, encoding="utf-8", newline="")
      except OSError as e:
        _raise(e, self.__name)
    return self._f

  def size(self):
    return stat(self.__name).length

  def read(self, n=-1):
    if "r" not in self.__mode and "+" not in self.__mode:
      raise _errors.PermissionDeniedError(None, None, "File isn't open for reading")
    return self._file().read(-1 if n is None else n)

  def readline(self):
    return self._file().readline()

  def readlines(self):
    return self._file().readlines()

  def write(self, data):
    if self.__mode.startswith("r") and "+" not in self.__mode:
      raise _errors.PermissionDeniedError(None, None, "File isn't open for writing")
    f = self._file()
    if self._binary and isinstance(data, str):
      data = data.encode("utf-8")
    elif not self._binary and isinstance(data, bytes):
      data = data.decode("utf-8")
    f.write(data)

  def seek(self, offset=None, whence=0, position=None):
    if position is not None:
      offset = position
    self._file().seek(offset, whence)

  def tell(self):
    return self._file().tell()

  def flush(self):
    if self._f is not None:
      self._f.flush()

  def close(self):
    if self._f is not None:
      self._f.close()
      self._f = None

  def seekable(self):
    return True

  def __iter__(self):
    return self

  def __next__(self):
    line = self.readline()
    if not line:
      raise StopIteration
    return line

  next = __next__

  def __enter__(self):
    return self

  def __exit__(self, *unused):
    self.close()
    return False


Open = GFile
FastGFile = GFile


def Exists(filename):  # pylint: disable=invalid-name
  return _os.path.exists(_path(filename))


def IsDirectory(dirname):  # pylint: disable=invalid-name
  return _os.path.isdir(_path(dirname))


def Glob(filename):  # pylint: disable=invalid-name
  import glob as _glob  # pylint: disable=g-import-not-at-top  (first use only)
  return sorted(_glob.glob(_path(filename)))


def ListDirectory(dirname):  # pylint: disable=invalid-name
  dirname = _path(dirname)
  if not _os.path.isdir(dirname):
    raise _errors.NotFoundError(None, None, "Could not find directory %s" % dirname)
  return sorted(_os.listdir(dirname))


def MakeDirs(dirname):  # pylint: disable=invalid-name
  try:
    _os.makedirs(_path(dirname), exist_ok=True)
  except OSError as e:
    _raise(e, dirname)


def MkDir(dirname):  # pylint: disable=invalid-name
  try:
    _os.mkdir(_path(dirname))
  except OSError as e:
    _raise(e, dirname)


def Remove(filename):  # pylint: disable=invalid-name
  try:
    _os.remove(_path(filename))
  except OSError as e:
    _raise(e, filename)


def DeleteRecursively(dirname):  # pylint: disable=invalid-name
  dirname = _path(dirname)
  try:
    if _os.path.isdir(dirname):
      import shutil as _shutil  # pylint: disable=g-import-not-at-top
      _shutil.rmtree(dirname)
    else:
      _os.remove(dirname)
  except OSError as e:
    _raise(e, dirname)


def Rename(oldname, newname, overwrite=False):  # pylint: disable=invalid-name
  oldname, newname = _path(oldname), _path(newname)
  if not overwrite and _os.path.exists(newname):
    raise _errors.AlreadyExistsError(None, None, "file already exists: %s" % newname)
  try:
    _os.replace(oldname, newname)
  except OSError as e:
    _raise(e, oldname)


def Copy(oldpath, newpath, overwrite=False):  # pylint: disable=invalid-name
  oldpath, newpath = _path(oldpath), _path(newpath)
  if not overwrite and _os.path.exists(newpath):
    raise _errors.AlreadyExistsError(None, None, "file already exists: %s" % newpath)
  try:
    import shutil as _shutil  # pylint: disable=g-import-not-at-top
    _shutil.copyfile(oldpath, newpath)
  except OSError as e:
    _raise(e, oldpath)


class FileStatistics(object):
  """What Stat returns: length (bytes), mtime_nsec, is_directory."""

  def __init__(self, length=0, mtime_nsec=0, is_directory=False):
    self.length = length
    self.mtime_nsec = mtime_nsec
    self.is_directory = is_directory


def Stat(filename):  # pylint: disable=invalid-name
  filename = _path(filename)
  try:
    st = _os.stat(filename)
  except OSError as e:
    _raise(e, filename)
  return FileStatistics(st.st_size, st.st_mtime_ns, _os.path.isdir(filename))


stat = Stat


def Walk(top, in_order=True):  # pylint: disable=invalid-name
  top = _path(top)
  for root, dirs, files in _os.walk(top, topdown=in_order):
    yield root, sorted(dirs), sorted(files)
