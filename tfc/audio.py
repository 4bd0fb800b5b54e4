"""tf.audio: 16-bit PCM WAV decoding and encoding (TF's DecodeWav / EncodeWav)."""
import collections as _collections

from tfc.framework.op_def_library import _apply_op as _apply_op

_DecodeWavOutput = _collections.namedtuple("DecodeWav", ["audio", "sample_rate"])


def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
  """Decodes a 16-bit PCM WAV file (a scalar string) into float32 audio of shape
  [samples, channels] in [-1.0, 1.0) and its int32 sample rate.

  desired_channels / desired_samples (-1: as in the file) fix the output shape: extra
  channels repeat the file's last channel, missing samples are zeros, and extra
  channels or samples are dropped.

  Returns:
    A namedtuple (audio, sample_rate).
  """
  op = _apply_op("DecodeWav", name, [contents],
                 {"desired_channels": desired_channels, "desired_samples": desired_samples})
  return _DecodeWavOutput(*op.outputs)


def encode_wav(audio, sample_rate, name=None):
  """Encodes float32 audio of shape [frames, channels] (values in [-1.0, 1.0],
  clamped) at the int32 `sample_rate` as a 16-bit PCM WAV file (a scalar string)."""
  return _apply_op("EncodeWav", name, [audio, sample_rate], {}).outputs[0]
