"""tf.resource_loader: paths of data files shipped beside Python modules."""
import inspect as _inspect
import os as _os
import sys as _sys


def _caller_dir(depth=2):
  frame = _sys._getframe(depth)  # pylint: disable=protected-access
  return _os.path.dirname(_os.path.abspath(_inspect.getfile(frame)))


def get_data_files_path():
  """The directory of the Python file that calls this function."""
  return _caller_dir()


def get_root_dir_with_all_resources():
  """The directory under which load_resource finds data files: the folder that holds the
  tfc package (a source checkout's root, or site-packages)."""
  return _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))


def get_path_to_datafile(path):
  """path joined to the directory of the Python file that calls this function."""
  return _os.path.join(_caller_dir(), path)


def load_resource(path):
  """The bytes of the data file at `path`, relative to get_root_dir_with_all_resources().
  Raises IOError (FileNotFoundError) when it does not exist."""
  with open(_os.path.join(get_root_dir_with_all_resources(), path), "rb") as f:
    return f.read()


def readahead_file_path(path, readahead="128M"):  # pylint: disable=unused-argument
  """The path to read a file through; local files need no readahead layer, so `path`."""
  return path
