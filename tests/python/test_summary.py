"""tf.summary: scalar/histogram/merge/merge_all ops (serialized Summaries
equal to TensorFlow's), FileWriter events files (TFRecord framing, the first
event, what TensorFlow's summary_iterator reads back), and bad input."""
import os
import pathlib
import subprocess

import numpy as np
import pytest

import tfc as tf

REPO = pathlib.Path(__file__).resolve().parents[2]
TF_PYTHON = REPO / ".venv-tf" / "bin" / "python"
# TensorFlow runs without the sanitizer runtime `make asan` preloads into tfc's tests
TF_ENV = dict({k: v for k, v in os.environ.items() if k != "LD_PRELOAD"},
              TF_CPP_MIN_LOG_LEVEL="3")

VALUES = np.concatenate([np.linspace(-3, 5, 37), [0.0, 1e-13, -1e-13, 1e15]]).astype(np.float32)

BUILD = """
x = tf.placeholder(tf.float32, [None], name="x")
with tf.name_scope("outer"):
  s1 = tf.summary.scalar("mean", tf.reduce_mean(x))
  s2 = tf.summary.scalar("max", tf.reduce_max(x), family="fam")
h = tf.summary.histogram("values", x)
h64 = tf.summary.histogram("ints", tf.cast(x, tf.int64))
m = tf.summary.merge_all()
"""


def _tfc_outputs():
  with tf.Graph().as_default():
    ns = {"tf": tf}
    exec(BUILD, ns)  # pylint: disable=exec-used
    with tf.Session() as sess:
      return sess.run([ns["s1"], ns["s2"], ns["h"], ns["h64"], ns["m"]], {ns["x"]: VALUES})


def test_summary_ops():
  s1, s2, h, h64, m = _tfc_outputs()
  v1 = tf.summary.Summary.FromString(s1).value[0]
  assert v1.tag == "outer/mean_1" and abs(v1.simple_value - VALUES.mean()) < 1e-5
  assert tf.summary.Summary.FromString(s2).value[0].tag == "fam/outer/fam/max"
  histo = tf.summary.Summary.FromString(h).value[0].histo
  assert histo.num == len(VALUES) and histo.min == VALUES.min() and histo.max == VALUES.max()
  assert sum(histo.bucket) == len(VALUES)
  merged = tf.summary.Summary.FromString(m)
  assert [v.tag for v in merged.value] == ["outer/mean_1", "fam/outer/fam/max", "values", "ints"]


def test_same_bytes_as_tensorflow(tmp_path):
  if not TF_PYTHON.exists():
    pytest.skip("no TensorFlow venv (.venv-tf) to compare with")
  np.save(tmp_path / "values.npy", VALUES)
  script = ("import numpy as np, sys\nimport tensorflow.compat.v1 as tf\n"
            "tf.disable_v2_behavior()\n" + BUILD +
            "with tf.Session() as sess:\n"
            "  outs = sess.run([s1, s2, h, h64, m], {x: np.load(sys.argv[1])})\n"
            "for i, o in enumerate(outs):\n"
            "  open(sys.argv[2] + str(i), 'wb').write(o)\n")
  proc = subprocess.run([str(TF_PYTHON), "-c", script, str(tmp_path / "values.npy"),
                         str(tmp_path / "tf")], capture_output=True, text=True, timeout=300,
                        env=TF_ENV)
  assert proc.returncode == 0, proc.stderr[-3000:]
  for i, got in enumerate(_tfc_outputs()):
    assert got == (tmp_path / ("tf%d" % i)).read_bytes(), "output %d" % i


def test_file_writer_and_summary_iterator(tmp_path):
  logdir = str(tmp_path / "logs")
  with tf.Graph().as_default() as g:
    x = tf.placeholder(tf.float32, [None], name="x")
    s = tf.summary.scalar("loss", tf.reduce_mean(x))
    with tf.Session() as sess:
      writer = tf.summary.FileWriter(logdir, sess.graph)
      for step in range(3):
        writer.add_summary(sess.run(s, {x: [float(step), 1.0]}), global_step=step)
      writer.add_session_log(tf.summary.SessionLog(status=tf.summary.SessionLog.STOP), 3)
      writer.close()
  files = os.listdir(logdir)
  assert len(files) == 1 and files[0].startswith("events.out.tfevents.")
  events = list(tf.train.summary_iterator(os.path.join(logdir, files[0])))
  assert events[0].file_version == "brain.Event:2"
  assert events[1].HasField("graph_def") and events[2].HasField("meta_graph_def")
  graph_def = tf.GraphDef.FromString(events[1].graph_def)
  assert "loss" in [n.name for n in graph_def.node]
  scalars = [(e.step, e.summary.value[0].simple_value) for e in events if e.HasField("summary")]
  assert scalars == [(0, 0.5), (1, 1.0), (2, 1.5)]
  assert events[-1].session_log.status == tf.summary.SessionLog.STOP
  del g
  # a flipped byte is a DataLossError, never a crash
  path = os.path.join(logdir, files[0])
  data = bytearray(open(path, "rb").read())
  data[len(data) // 2] ^= 0x20
  open(path, "wb").write(bytes(data))
  with pytest.raises(tf.errors.DataLossError):
    list(tf.train.summary_iterator(path))
  if TF_PYTHON.exists():
    # TensorFlow reads an events file tfc wrote
    logdir2 = str(tmp_path / "logs2")
    with tf.Graph().as_default():
      writer = tf.summary.FileWriter(logdir2)
      writer.add_summary(tf.summary.Summary(value=[tf.summary.Summary.Value(
          tag="acc", simple_value=0.25)]), global_step=7)
      writer.close()
    path2 = os.path.join(logdir2, os.listdir(logdir2)[0])
    script = ("import sys\nimport tensorflow.compat.v1 as tf\n"
              "for e in tf.train.summary_iterator(sys.argv[1]):\n"
              "  for v in e.summary.value: print(e.step, v.tag, v.simple_value)\n")
    proc = subprocess.run([str(TF_PYTHON), "-c", script, path2], capture_output=True, text=True,
                          timeout=300, env=TF_ENV)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.split() == ["7", "acc", "0.25"]


def test_bad_input():
  with tf.Graph().as_default():
    x = tf.placeholder(tf.float32, [None], name="x")
    h = tf.summary.histogram("h", x)
    tags = tf.placeholder(tf.string, [None])
    s = tf.raw_ops.ScalarSummary(tags=tags, values=x) if hasattr(tf, "raw_ops") else None
    a = tf.summary.scalar("a", tf.reduce_sum(x))
    b = tf.summary.scalar("a", tf.reduce_sum(x), collections=[])
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError, match="Nan in summary histogram for: h"):
        sess.run(h, {x: [1.0, np.nan]})
      with pytest.raises(tf.errors.InvalidArgumentError, match="Duplicate tag"):
        sess.run(tf.summary.merge([a, a]), {x: [1.0]})
      del b, s
  assert tf.summary.merge_all(key="nothing") is None


def test_writers_opened_in_the_same_second_write_separate_files(tmp_path, monkeypatch):
  import socket
  import time as time_mod
  logdir = str(tmp_path / "same_second")
  monkeypatch.setattr(time_mod, "time", lambda: 1700000000.25)  # every writer: one second
  value = lambda v: tf.summary.Summary(value=[tf.summary.Summary.Value(tag="x", simple_value=v)])  # noqa: E731
  a = tf.summary.FileWriter(logdir)
  b = tf.summary.FileWriter(logdir)
  c = tf.summary.FileWriter(logdir, filename_suffix=".eval")
  a.add_summary(value(1.0), 1)
  b.add_summary(value(2.0), 1)
  c.add_summary(value(3.0), 1)
  a.close()
  b.reopen()  # still open: no new file
  b.close()
  b.reopen()  # a new file, also in the same second
  b.add_summary(value(4.0), 2)
  b.close()
  c.close()
  monkeypatch.undo()
  host = socket.gethostname()
  files = sorted(os.listdir(logdir))
  assert len(files) == 4
  first = "events.out.tfevents.1700000000.%s" % host
  assert first in files and first + ".eval" in files  # TF 1.x's name when it is free
  others = [f for f in files if f not in (first, first + ".eval")]
  assert all(f.startswith("%s.%d." % (first, os.getpid())) for f in others)
  seen = {}
  for f in files:
    events = list(tf.train.summary_iterator(os.path.join(logdir, f)))
    assert events[0].file_version == "brain.Event:2"
    seen[f] = [(e.step, e.summary.value[0].simple_value) for e in events if e.HasField("summary")]
  assert seen[first] == [(1, 1.0)] and seen[first + ".eval"] == [(1, 3.0)]
  assert sorted(seen[f] for f in others) == [[(1, 2.0)], [(2, 4.0)]]


def test_unwritable_logdir_names_the_path(tmp_path):
  logdir = tmp_path / "ro"
  logdir.mkdir()
  os.chmod(str(logdir), 0o500)
  try:
    if os.access(str(logdir), os.W_OK):
      pytest.skip("running as a user who may write anywhere")
    with pytest.raises(tf.errors.PermissionDeniedError, match="events.out.tfevents"):
      tf.summary.FileWriter(str(logdir))
  finally:
    os.chmod(str(logdir), 0o700)


def test_add_summary_events_are_the_messages_protobuf_writes(tmp_path):
  # add_summary encodes the Event around the Summary's bytes itself
  logdir = str(tmp_path / "enc")
  summ = tf.summary.Summary(value=[tf.summary.Summary.Value(tag="a", simple_value=1.5)])
  w = tf.summary.FileWriter(logdir)
  steps = [None, 0, 1, 300, 2 ** 40, -3]
  for step in steps:
    w.add_summary(summ.SerializeToString(), step)
    w.add_summary(summ, step)
  w.close()
  (name,) = os.listdir(logdir)
  events = list(tf.train.summary_iterator(os.path.join(logdir, name)))[1:]
  assert [e.step for e in events] == [s or 0 for s in steps for _ in range(2)]
  for e in events:
    assert e.summary == summ and e.wall_time > 0
    rebuilt = tf.summary.Event(wall_time=e.wall_time, step=e.step, summary=summ)
    assert e.SerializeToString() == rebuilt.SerializeToString()


def test_image_and_audio_summaries():
  with tf.Graph().as_default():
    imgs = tf.placeholder(tf.float32, [None, 2, 3, 3])
    clips = tf.placeholder(tf.float32, [None, 40, 2])
    with tf.name_scope("train"):
      si = tf.summary.image("pics", imgs, max_outputs=2)
    sa = tf.summary.audio("sound", clips, 8000, max_outputs=1, family="fam")
    assert si.op.type == "ImageSummary" and sa.op.type == "AudioSummaryV2"
    assert set(tf.get_collection(tf.GraphKeys.SUMMARIES)) == {si, sa}
    pix = np.array([[[[-1.0, 0.0, 1.0], [0.5, np.nan, 0.0], [2.0, 2.0, 2.0]],
                     [[0.0, 0.0, 0.0], [-2.0, 1.0, 0.25], [1.0, 1.0, 1.0]]]] * 3, np.float32)
    wave = np.stack([np.linspace(-1.2, 1.2, 40), np.zeros(40)], -1)[None].astype(np.float32)
    with tf.Session() as sess:
      bi, ba = sess.run([si, sa], {imgs: pix, clips: np.concatenate([wave, wave])})
      with pytest.raises(tf.errors.InvalidArgumentError, match="last dim 1, 3, or 4") as e:
        sess.run(tf.summary.image("bad", tf.zeros([1, 2, 3, 2])))
      assert "bad" in str(e.value)
      with pytest.raises(tf.errors.InvalidArgumentError, match="sample_rate must be > 0"):
        sess.run(tf.summary.audio("r", tf.zeros([1, 4]), 0.0))
  image = tf.summary.Summary.FromString(bi)
  assert [v.tag for v in image.value] == ["train/pics/image/0", "train/pics/image/1"]
  im = image.value[0].image
  assert (im.height, im.width, im.colorspace) == (2, 3, 3)
  png = im.encoded_image_string
  assert png[:8] == b"\x89PNG\r\n\x1a\n"
  with tf.Graph().as_default(), tf.Session() as sess:
    decoded = sess.run(tf.image.decode_png(png))
  # negatives present: v * (127 / max|v|) + 128, truncated; the NaN pixel red
  expect = (np.nan_to_num(pix[0]) * (np.float32(127.0) / np.float32(2.0)) + np.float32(128)).astype(np.uint8)
  expect[0, 1] = [255, 0, 0]
  np.testing.assert_array_equal(decoded, expect)
  audio = tf.summary.Summary.FromString(ba)
  assert [v.tag for v in audio.value] == ["fam/fam/sound/audio"]
  au = audio.value[0].audio
  assert (au.sample_rate, au.num_channels, au.length_frames, au.content_type) == \
      (8000.0, 2, 40, "audio/wav")
  wav = au.encoded_audio_string
  assert wav[:4] == b"RIFF" and wav[8:16] == b"WAVEfmt " and len(wav) == 44 + 40 * 2 * 2
  samples = np.frombuffer(wav[44:], "<i2").reshape(40, 2)
  assert samples[0, 0] == -32768 and samples[-1, 0] == 32767 and not samples[:, 1].any()
