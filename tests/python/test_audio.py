"""tf.audio.decode_wav / encode_wav (DecodeWav / EncodeWav): the bytes and values
TF 2.21's tf.compat.v1 gives on the same inputs, round trips against NumPy, the
desired_channels / desired_samples rules and TF's errors for malformed files."""
import struct

import numpy as np
import pytest

import tfc as tf

AUDIO = np.array([[0.0, 0.5], [-1.0, 1.0], [0.25, -0.3], [2.0, -2.0]], np.float32)
TF_HEADER = "524946463400000057415645666d74201000000001000200803e000000fa0000040010006461746110000000"
TF_DECODED = [[0.0, 0.5], [-1.0, 0.999969482421875], [0.25, -0.29998779296875],
              [0.999969482421875, -1.0]]


def _run(fetch, feed=None):
  with tf.Session() as sess:
    return sess.run(fetch, feed)


def test_encode_decode_match_tf():
  with tf.Graph().as_default():
    wav = _run(tf.audio.encode_wav(AUDIO, 16000))
    assert len(wav) == 60 and wav[:44].hex() == TF_HEADER
    d = tf.audio.decode_wav(wav)
    assert d.audio.op.type == "DecodeWav" and d.sample_rate.dtype == tf.int32
    assert d.audio.shape.as_list() == [None, None]
    audio, rate = _run([d.audio, d.sample_rate])
    assert audio.tolist() == TF_DECODED and rate == 16000
    more = tf.audio.decode_wav(wav, desired_channels=3, desired_samples=6).audio
    assert more.shape.as_list() == [6, 3]
    assert _run(more).tolist() == [[0.0, 0.5, 0.5], [-1.0, 0.999969482421875, 0.999969482421875],
                                   [0.25, -0.29998779296875, -0.29998779296875],
                                   [0.999969482421875, -1.0, -1.0], [0, 0, 0], [0, 0, 0]]
    assert _run(tf.audio.decode_wav(wav, desired_channels=1, desired_samples=2).audio).tolist() \
        == [[0.0], [-1.0]]


def test_round_trip_against_numpy():
  rng = np.random.RandomState(0)
  x = rng.uniform(-1, 1, size=(300, 3)).astype(np.float32)
  with tf.Graph().as_default():
    d = tf.audio.decode_wav(tf.audio.encode_wav(x, 44100))
    audio, rate = _run([d.audio, d.sample_rate])
  scaled = x * np.float32(32768.0)  # rounded half away from zero, as TF does
  want = np.clip(np.sign(scaled) * np.floor(np.abs(scaled) + 0.5), -32768, 32767) / 32768.0
  np.testing.assert_array_equal(audio, want.astype(np.float32))
  assert rate == 44100


def _wav(fmt_size=16, fmt=1, channels=1, bits=16, extra_chunk=b"", data=b"\x01\x00\x02\x00"):
  frame = (bits * channels + 7) // 8
  fmt_chunk = struct.pack("<HHIIHH", fmt, channels, 8000, 8000 * frame, frame, bits)
  if fmt_size == 18:
    fmt_chunk += b"\x00\x00"
  body = (b"WAVE" + b"fmt " + struct.pack("<I", fmt_size) + fmt_chunk + extra_chunk +
          b"data" + struct.pack("<I", len(data)) + data)
  return b"RIFF" + struct.pack("<I", len(body)) + body


def test_decode_skips_other_chunks_and_18_byte_format():
  with tf.Graph().as_default():
    a = _run(tf.audio.decode_wav(_wav(fmt_size=18, extra_chunk=b"LIST\x02\x00\x00\x00ab")).audio)
  np.testing.assert_array_equal(a, [[1 / 32768], [2 / 32768]])


@pytest.mark.parametrize("contents,message", [
    (b"", "Data too short when trying to read string"),
    (b"RIFX" + _wav()[4:], "Header mismatch: Expected RIFF but found RIFX"),
    (_wav(fmt=3), r"Bad audio format for WAV: Expected 1 \(PCM\), but got3"),
    (_wav(bits=8), "Can only read 16-bit WAV files, but received 8"),
    (_wav() + b"\x00", "Data too short when trying to read string"),
    (_wav(data=b"\x01\x00" * 2)[:-2], "Data too short when trying to read string"),
    (_wav(extra_chunk=b"data\x00\x00\x00\x00"), "More than one data chunk found in WAV"),
    (_wav()[:36], "No data chunk found in WAV"),
])
def test_decode_errors(contents, message):
  with tf.Graph().as_default():
    p = tf.placeholder(tf.string)
    d = tf.audio.decode_wav(p)
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
      _run(d.audio, {p: contents})


def test_encode_errors():
  with tf.Graph().as_default():
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1"):
      tf.audio.encode_wav(np.zeros((2,), np.float32), 100)
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
      tf.audio.decode_wav([b"x"])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"sample_rate must be in \(0, 2\^32\), got: 18446744073709551615"):
      _run(tf.audio.encode_wav(AUDIO, -1))
