"""Reader state: ReaderSerializeStateV2 / ReaderRestoreStateV2. Identity and
whole-file readers save TF's ReaderBaseState (the bytes TensorFlow writes);
TFRecord, text-line and fixed-length readers raise TF's UnimplementedError."""
import pytest

import tfc as tf


def test_identity_reader_state_is_tensorflows_and_restores():
  with tf.Graph().as_default():
    q = tf.FIFOQueue(10, tf.string)
    enq = q.enqueue_many([["a", "b", "c"]])
    r = tf.IdentityReader()
    k, v = r.read(q)
    ser = r.serialize_state()
    state_in = tf.placeholder(tf.string, [])
    restore = r.restore_state(state_in)
    with tf.Session() as s:
      s.run(enq)
      assert s.run(ser) == b""  # nothing read yet: every field is zero
      assert s.run([k, v]) == [b"a", b"a"]
      state = s.run(ser)
      # what TensorFlow 2.21 serialises at this point
      assert state == b'\x08\x01\x10\x01\x18\x01"\x01a'
      assert s.run([k, v]) == [b"b", b"b"]
      assert s.run(r.num_records_produced()) == 2
      s.run(restore, {state_in: state})
      assert s.run(r.num_records_produced()) == 1
      assert s.run(r.num_work_units_completed()) == 1
      assert s.run([k, v]) == [b"c", b"c"]
      # an item started but not finished is read again from the restored work
      s.run(restore, {state_in: b'\x08\x04\x10\x03\x18\x03"\x01z'})
      assert s.run([k, v]) == [b"z", b"z"]
      assert s.run(r.num_records_produced()) == 4
      s.run(restore, {state_in: b""})
      assert s.run(r.num_records_produced()) == 0


def test_whole_file_reader_state(tmp_path):
  names = []
  for i in range(3):
    p = tmp_path / ("f%d.txt" % i)
    p.write_bytes(b"contents %d" % i)
    names.append(str(p))
  with tf.Graph().as_default():
    q = tf.FIFOQueue(10, tf.string)
    enq = q.enqueue_many([names])
    r = tf.WholeFileReader()
    k, v = r.read(q)
    ser = r.serialize_state()
    with tf.Session() as s:
      s.run(enq)
      assert s.run([k, v]) == [names[0].encode(), b"contents 0"]
      state = s.run(ser)
      s.run(r.reset())
      s.run(r.restore_state(state))
      assert s.run(r.num_records_produced()) == 1
      assert s.run([k, v]) == [names[1].encode(), b"contents 1"]


def test_restore_errors_are_tensorflows():
  with tf.Graph().as_default():
    r = tf.IdentityReader()
    with tf.Session() as s:
      with pytest.raises(tf.errors.InvalidArgumentError,
                         match="Could not parse state for IdentityReader 'IdentityReaderV2': garbage"):
        s.run(r.restore_state(b"garbage"))
      with pytest.raises(tf.errors.InvalidArgumentError,
                         match="Inconsistent work started vs. finished when restoring in IdentityReader "
                               "'IdentityReaderV2': work_started: 5 work_finished: 2 num_records_produced: 1"):
        s.run(r.restore_state(b"\x08\x05\x10\x02\x18\x01"))
      with pytest.raises(tf.errors.InvalidArgumentError, match="Unexpected negative value"):
        s.run(r.restore_state(b"\x18\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"))
      assert s.run(r.num_records_produced()) == 0  # a failed restore changes nothing


@pytest.mark.parametrize("make", [tf.TFRecordReader, tf.TextLineReader,
                                  lambda: tf.FixedLengthRecordReader(4)])
def test_other_readers_are_unimplemented_as_in_tensorflow(make):
  with tf.Graph().as_default():
    r = make()
    with tf.Session() as s:
      with pytest.raises(tf.errors.UnimplementedError, match="Reader SerializeState"):
        s.run(r.serialize_state())
      with pytest.raises(tf.errors.UnimplementedError, match="Reader RestoreState"):
        s.run(r.restore_state(b""))
