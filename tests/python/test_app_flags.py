"""tf.app.run and tf.flags / tf.app.flags with TF 1.15's behaviour (absl-py's flags, unknown
flags passed on to main, FLAGS parsing sys.argv on first read), run as real scripts the way
the classic MNIST tutorials start; checked against what TensorFlow does with the same
scripts."""
import os
import pathlib
import re
import subprocess
import sys
import textwrap

import pytest

import tfc as tf

# The folder holding the tfc package this test imported (source tree or installed).
TFC_ROOT = str(pathlib.Path(tf.__file__).resolve().parents[1])


def run_script(tmp_path, source, *args, name="script.py"):
  """Writes `source` to a file and runs it with `args`; returns the CompletedProcess."""
  path = tmp_path / name
  path.write_text(textwrap.dedent(source))
  env = dict(os.environ, PYTHONPATH=TFC_ROOT)
  return subprocess.run([sys.executable, name, *args], cwd=str(tmp_path), env=env,
                        capture_output=True, text=True, timeout=120)


FLAGS_SCRIPT = """
    import tfc as tf

    flags = tf.app.flags
    FLAGS = flags.FLAGS
    flags.DEFINE_string("data_dir", "/tmp/data", "Directory for storing input data")
    flags.DEFINE_integer("max_steps", 100, "Number of steps to run trainer.")
    flags.DEFINE_float("learning_rate", 0.01, "Initial learning rate.")
    flags.DEFINE_boolean("fake_data", False, "If true, uses fake data for unit testing.")
    tf.flags.DEFINE_bool("verbose", True, "Talk more.")
    tf.flags.DEFINE_enum("mode", "train", ["train", "eval"], "What to do.")
    tf.flags.DEFINE_list("layers", ["32", "16"], "Hidden sizes.")
    tf.flags.DEFINE_multi_string("tag", [], "Tags.")
    tf.app.flags.DEFINE_string(flag_name="old_style", default_value="x",
                               docstring="Old keyword names.")

    def main(argv):
      print("argv", argv[1:])
      print("values", repr(FLAGS.data_dir), FLAGS.max_steps, FLAGS.learning_rate,
            FLAGS.fake_data, FLAGS.verbose, FLAGS.mode, FLAGS.layers, FLAGS.tag,
            FLAGS.old_style)
      return 3 if FLAGS.max_steps == 7 else None

    if __name__ == "__main__":
      tf.app.run()
"""


def test_defaults_and_main_from_dunder_main(tmp_path):
  out = run_script(tmp_path, FLAGS_SCRIPT)
  assert out.returncode == 0, out.stderr
  assert out.stdout.splitlines() == [
      "argv []",
      "values '/tmp/data' 100 0.01 False True train ['32', '16'] [] x"]
  # the pre-absl keyword names work and are warned about, as in TF
  assert "deprecated" in out.stderr


def test_command_line_overrides_and_exit_status(tmp_path):
  out = run_script(tmp_path, FLAGS_SCRIPT, "--max_steps=7", "--fake_data", "--noverbose",
                   "--mode=eval", "--layers=1,2", "--tag=a", "--tag", "b", "--data_dir",
                   "/d", "--learning_rate=0.5", "--old_style=y", "positional")
  # main's return value is the exit status (sys.exit(main(argv)))
  assert out.returncode == 3, out.stderr
  assert out.stdout.splitlines() == [
      "argv ['positional']",
      "values '/d' 7 0.5 True False eval ['1', '2'] ['a', 'b'] y"]


def test_unknown_flags_reach_main(tmp_path):
  # TF 1.15's tf.app.run parses only the flags it knows and hands the rest to main
  out = run_script(tmp_path, FLAGS_SCRIPT, "--bogus=1", "pos", "--max_steps=2")
  assert out.returncode == 0, out.stderr
  assert out.stdout.splitlines()[0] == "argv ['--bogus=1', 'pos']"
  assert " 2 " in out.stdout.splitlines()[1]


@pytest.mark.parametrize("arg,message", [
    ("--max_steps=abc", "flag --max_steps=abc: invalid literal for int() with base 10: 'abc'"),
    ("--mode=bad", "flag --mode=bad: value should be one of <train|eval>"),
    ("--learning_rate=fast", "flag --learning_rate=fast: could not convert string to float"),
])
def test_bad_values_fail_like_absl(tmp_path, arg, message):
  out = run_script(tmp_path, FLAGS_SCRIPT, arg)
  assert out.returncode == 1
  assert out.stdout == ""
  last = out.stderr.strip().splitlines()[-1]
  assert last.startswith("absl.flags._exceptions.IllegalFlagValueError: " + message), last


@pytest.mark.parametrize("arg", ["--help", "--helpshort", "--helpfull"])
def test_help_flags(tmp_path, arg):
  out = run_script(tmp_path, FLAGS_SCRIPT, arg)
  assert out.returncode == 1  # absl's help flags exit with status 1
  assert "USAGE: script.py [flags]" in out.stdout
  assert re.search(r"\nscript\.py:\n  --data_dir: Directory for storing input data\n"
                   r"    \(default: '/tmp/data'\)\n", out.stdout), out.stdout
  assert "  --[no]fake_data: If true, uses fake data for unit testing." in out.stdout
  assert "  --mode: <train|eval>: What to do." in out.stdout
  assert "(an integer)" in out.stdout and "(a comma separated list)" in out.stdout
  if arg == "--helpfull":
    assert "absl.flags:" in out.stdout and "--flagfile" in out.stdout
  else:
    assert "Try --helpfull to get a list of all flags." in out.stdout
    assert "--flagfile" not in out.stdout


def test_flagfile(tmp_path):
  (tmp_path / "args.cfg").write_text("--max_steps=11\n--mode=eval\n")
  out = run_script(tmp_path, FLAGS_SCRIPT, "--flagfile=args.cfg")
  assert out.returncode == 0, out.stderr
  assert out.stdout.splitlines()[1].startswith("values '/tmp/data' 11 0.01 False True eval")


def test_run_without_main_in_dunder_main(tmp_path):
  out = run_script(tmp_path, "import tfc as tf\ntf.app.run()\n")
  assert out.returncode == 1
  assert out.stderr.strip().splitlines()[-1] == (
      "AttributeError: module '__main__' has no attribute 'main'")


def test_flags_parse_sys_argv_on_first_read(tmp_path):
  out = run_script(tmp_path, """
      import tfc as tf
      tf.flags.DEFINE_integer("n", 5, "n")
      FLAGS = tf.flags.FLAGS
      print(FLAGS.is_parsed())
      print(FLAGS.n, FLAGS.is_parsed(), "n" in FLAGS, FLAGS["n"].value, FLAGS["n"].default)
      FLAGS.n = 9
      print(FLAGS.n, tf.app.flags is tf.flags, tf.compat.v1.flags is tf.flags,
            tf.compat.v1.app is tf.app)

      def m(argv):
        print("m", argv, FLAGS.n)

      tf.app.run(main=m, argv=["prog", "--n=4", "rest"])
      """, "--n=2")
  assert out.returncode == 0, out.stderr
  assert out.stdout.splitlines() == ["False", "2 True True 2 5", "9 True True True",
                                     "m ['prog', 'rest'] 4"]
  # reading a flag before parsing, with an unknown flag on the command line, fails as in TF
  out = run_script(tmp_path, "import tfc as tf\ntf.flags.DEFINE_integer('n', 5, 'n')\n"
                   "print(tf.flags.FLAGS.n)\n", "--zzz")
  assert out.returncode == 1 and out.stdout == ""
  assert out.stderr.strip().splitlines()[-1] == (
      "absl.flags._exceptions.UnrecognizedFlagError: Unknown command line flag 'zzz'")


def test_argparse_tutorial_shape_trains(tmp_path):
  # The shape of TF 1.x's mnist_softmax.py: argparse for the flags, tf.app.run with main and
  # the arguments argparse did not take; a softmax regression trained on separable data.
  out = run_script(tmp_path, """
      import argparse
      import sys

      import numpy as np
      import tfc as tf

      FLAGS = None

      def main(_):
        rng = np.random.RandomState(0)
        centers = rng.normal(0, 4, (10, 20)).astype(np.float32)
        labels = rng.randint(0, 10, 2000)
        images = (centers[labels] + rng.normal(0, 1, (2000, 20))).astype(np.float32)
        x = tf.placeholder(tf.float32, [None, 20])
        W = tf.Variable(tf.zeros([20, 10]))
        b = tf.Variable(tf.zeros([10]))
        y = tf.matmul(x, W) + b
        y_ = tf.placeholder(tf.int64, [None])
        cross_entropy = tf.losses.sparse_softmax_cross_entropy(labels=y_, logits=y)
        train_step = tf.train.GradientDescentOptimizer(FLAGS.learning_rate).minimize(
            cross_entropy)
        sess = tf.InteractiveSession()
        tf.global_variables_initializer().run()
        for i in range(FLAGS.steps):
          batch = slice((i * 100) % 1500, (i * 100) % 1500 + 100)
          sess.run(train_step, feed_dict={x: images[batch], y_: labels[batch]})
        correct_prediction = tf.equal(tf.argmax(y, 1), y_)
        accuracy = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
        print("accuracy %.3f" % sess.run(accuracy, feed_dict={x: images[1500:],
                                                              y_: labels[1500:]}))

      if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--data_dir", type=str, default="/tmp/input_data")
        parser.add_argument("--learning_rate", type=float, default=0.5)
        parser.add_argument("--steps", type=int, default=1)
        FLAGS, unparsed = parser.parse_known_args()
        tf.app.run(main=main, argv=[sys.argv[0]] + unparsed)
      """, "--steps=200", "--learning_rate=0.1", "--unused")
  assert out.returncode == 0, out.stderr
  acc = float(re.search(r"accuracy ([0-9.]+)", out.stdout).group(1))
  assert acc > 0.9, out.stdout


def test_namespaces_and_names():
  import absl.flags
  assert tf.app.flags is tf.flags and tf.compat.v1.app is tf.app
  for name in ("DEFINE_string", "DEFINE_integer", "DEFINE_float", "DEFINE_boolean",
               "DEFINE_bool", "DEFINE_enum", "DEFINE_list", "DEFINE_multi_string",
               "DEFINE_multi_integer", "DEFINE_spaceseplist", "DEFINE_enum_class",
               "mark_flag_as_required", "register_validator", "FlagValues", "Error",
               "IllegalFlagValueError", "UnrecognizedFlagError", "ValidationError"):
    assert callable(getattr(tf.flags, name)), name
  assert tf.flags.DEFINE_enum is absl.flags.DEFINE_enum
  assert tf.flags.DEFINE_bool is tf.flags.DEFINE_boolean
  assert list(inspect_params(tf.app.run)) == ["main", "argv"]
  # a flag defined through tfc is one of absl's
  tf.flags.DEFINE_string("tfc_test_api_flag", "v", "help")
  assert absl.flags.FLAGS["tfc_test_api_flag"].default == "v"
  with pytest.raises(absl.flags.DuplicateFlagError):
    tf.flags.DEFINE_integer("tfc_test_api_flag", 1, "again")
  flag_values = tf.flags.FlagValues()
  tf.flags.DEFINE_integer("k", 3, "k", flag_values=flag_values)
  flag_values(["prog", "--k=8"])
  assert flag_values.k == 8


def inspect_params(fn):
  import inspect
  return inspect.signature(fn).parameters


def test_import_tfc_does_not_load_absl():
  code = "import sys, tfc; print(any(m.startswith('absl') for m in sys.modules))"
  out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=TFC_ROOT), check=True).stdout
  assert out.strip() == "False"
