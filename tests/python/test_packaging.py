"""Packaging checks that need no build: setup.py's message for missing system
packages, the source folder's import error, and the sdist's file list. (The
full sdist -> wheel -> fresh venv round trip is `make install-check`, which
`make test` runs after pytest.)"""
import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def _load_setup():
  """setup.py as a module (its setup() call only runs as __main__)."""
  spec = importlib.util.spec_from_file_location("tfc_setup_under_test", REPO / "setup.py")
  module = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(module)
  return module


def test_system_dependency_check_lists_every_missing_package(monkeypatch):
  setup = _load_setup()
  setup._check_system_deps()  # this machine has them all (make test installed them)
  monkeypatch.setattr(setup, "SYSTEM_DEPS", setup.SYSTEM_DEPS + [
      ("tfc-no-such-module", "tfc/no_such_header.h", "libtfc-nosuch-dev"),
      (None, "tfc/another_missing.h", "libtfc-other-dev")])
  with pytest.raises(SystemExit) as e:
    setup._check_system_deps()
  msg = str(e.value)
  assert "missing system packages: libtfc-nosuch-dev libtfc-other-dev" in msg
  assert "apt-get install libtfc-nosuch-dev libtfc-other-dev" in msg


def test_missing_extension_says_what_to_run(tmp_path):
  # A copy of the Python sources without the built extension, as a fresh clone has.
  import shutil
  shutil.copytree(REPO / "tfc", tmp_path / "tfc",
                  ignore=shutil.ignore_patterns("*.so", "__pycache__"))
  out = subprocess.run([sys.executable, "-c", "import tfc"], cwd=tmp_path,
                       capture_output=True, text=True)
  assert out.returncode != 0
  assert "tfc's C extension (tfc._tfc) is not built" in out.stderr
  assert "make install" in out.stderr and "pip install ." in out.stderr


def test_manifest_ships_what_a_build_needs():
  manifest = (REPO / "MANIFEST.in").read_text()
  for needed in ("csrc", "proto", "setup.py", "pyproject.toml", "README.md"):
    assert needed in manifest


@pytest.mark.skipif("libasan" in os.environ.get("LD_PRELOAD", ""),
                    reason="`make asan` installs into .venv-asan only; the in-place link is "
                           "`make install`'s (a sanitized link would shadow the normal build)")
def test_import_from_the_repository_root():
  # `make install` links the built extension beside the sources, so a prompt,
  # script or notebook started in the clone imports the source folder whole.
  code = ("import tfc, numpy as np; s = tfc.Session(); "
          "print(tfc.__file__, s.run(tfc.constant(2.0) * 3.0))")
  out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                       text=True, check=True).stdout.split()
  assert out == [str(REPO / "tfc" / "__init__.py"), "6.0"]
