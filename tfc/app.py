"""tf.app: the entry point of classic TF 1.x scripts (`tf.app.run()`).

`tf.app.flags` is `tf.flags` (absl-py's flags, see tfc/flags.py). Loaded on
first use of `tf.app`; `import tfc` does not import absl.
"""
import sys as _sys

from absl import app as _absl_app

from tfc import flags  # noqa: F401  (tf.app.flags)


def _parse_known_flags(argv):
  """Parses the flags absl knows from argv and returns what is left.

  Contract: flags defined through tf.flags/absl (and absl's own --help,
  --helpshort, --helpfull, --flagfile, ...) are parsed into FLAGS; arguments
  that name no defined flag stay in the returned list, after the program
  name, for main to see (TF 1.15 tolerates them where bare absl exits). A bad
  value for a defined flag raises absl's IllegalFlagValueError.
  """
  return flags.FLAGS(argv, known_only=True)


def run(main=None, argv=None):
  """Runs the program: parses flags, calls `main(argv)`, exits with its result.

  Args:
    main: the function to run, called with the command-line arguments left
      after the defined flags were taken out (the program name first). When
      None, the `main` function of the `__main__` module (the script).
    argv: the command line, program name first; `sys.argv` when None.

  Never returns: exits through `sys.exit(main(argv))`. absl's help flags
  (`--help`, `--helpshort`, `--helpfull`) print the flags and exit.
  """
  if main is None:
    main = _sys.modules["__main__"].main
  _absl_app.run(main=main, argv=_sys.argv if argv is None else argv,
                flags_parser=_parse_known_flags)
