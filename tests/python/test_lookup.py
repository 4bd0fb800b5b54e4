"""tf.lookup over the C hash-table kernels: values against TensorFlow's
(tests/fixtures/lookup, written by tools/make_lookup_fixtures.py),
checkpoints TensorFlow wrote, save/restore round trips, the vocabulary-table
builders feature columns use, and the error cases (TF's error classes)."""
import importlib.util
import pathlib

import numpy as np
import pytest

import tfc as tf
from tfc.ops import lookup_ops

REPO = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "lookup"


def _tool():
  spec = importlib.util.spec_from_file_location("make_lookup_fixtures",
                                                REPO / "tools" / "make_lookup_fixtures.py")
  mod = importlib.util.module_from_spec(spec)
  spec.loader.exec_module(mod)
  return mod


def _assert_same(got, want, name):
  got = np.asarray(got)
  if want.dtype == object:
    assert [bytes(x) for x in got.reshape(-1)] == list(want.reshape(-1)), name
    assert got.shape == want.shape, name
  else:
    assert got.dtype == want.dtype, "%s: %s vs %s" % (name, got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want, err_msg=name)


def test_tables_match_tensorflow():
  want = dict(np.load(FIXTURES / "lookup_tf.npz", allow_pickle=True))
  with tf.Graph().as_default(), tf.Session() as sess:
    setup, out = _tool().cases(tf, str(FIXTURES / "fruit_vocab.txt"))
    sess.run(tf.tables_initializer())
    sess.run(setup)
    got = sess.run(out)
  assert set(got) == set(want)
  for name, value in got.items():
    _assert_same(value, want[name], name)


def test_static_shapes_and_collections():
  with tf.Graph().as_default() as g:
    init = tf.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2], value_dtype=tf.int64)
    table = tf.lookup.StaticHashTable(init, -1)
    out = table.lookup(tf.placeholder(tf.string, [None, 3]))
    assert out.shape.as_list() == [None, 3]
    assert out.dtype == tf.int64
    assert g.get_collection(tf.GraphKeys.TABLE_INITIALIZERS) == [table.initializer]
    assert table.initializer.type == "InitializeTableV2"
    assert table.resource_handle.op.type == "HashTableV2"
    assert table.name == "hash_table"
    text = tf.lookup.TextFileInitializer(str(FIXTURES / "fruit_vocab.txt"), tf.string, -2, tf.int64, -1)
    tf.lookup.StaticHashTable(text, -1)
    assert len(g.get_collection(tf.GraphKeys.ASSET_FILEPATHS)) == 1
    m = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    names = [s.name for s in g.get_collection(tf.GraphKeys.SAVEABLE_OBJECTS)]
    assert names == ["MutableHashTable"]
    assert [sp.name for sp in g.get_collection(tf.GraphKeys.SAVEABLE_OBJECTS)[0].specs] == [
        "MutableHashTable-keys", "MutableHashTable-values"]
    assert m.resource_handle.op.get_attr("use_node_name_sharing") is True


def test_uninitialized_table_fails_with_the_node_name():
  with tf.Graph().as_default(), tf.Session() as sess:
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a"], [1], value_dtype=tf.int64), -1)
    out = table.lookup(tf.constant(["a"]))
    with pytest.raises(tf.errors.FailedPreconditionError, match="Table not initialized") as e:
      sess.run(out)
    assert "LookupTableFindV2" in str(e.value)
    sess.run(table.initializer)
    assert list(sess.run(out)) == [1]
    assert sess.run(table.size()) == 1


def test_restore_checkpoint_written_by_tensorflow():
  want = dict(np.load(FIXTURES / "ckpt_values.npz", allow_pickle=True))
  with tf.Graph().as_default(), tf.Session() as sess:
    _, fetches = _tool().checkpoint_graph(tf)
    tf.train.Saver().restore(sess, str(FIXTURES / "ckpt" / "model"))
    got = sess.run(fetches)
  for name, value in got.items():
    _assert_same(value, want[name], name)


def test_checkpoint_round_trip(tmp_path):
  tool = _tool()
  with tf.Graph().as_default(), tf.Session() as sess:
    setup, fetches = tool.checkpoint_graph(tf)
    sess.run(setup)
    before = sess.run(fetches)
    tf.train.Saver().save(sess, str(tmp_path / "model"))
  reader = tf.train.load_checkpoint(str(tmp_path / "model"))
  keys = set(reader.get_variable_to_shape_map())
  assert {"MutableHashTable-keys", "MutableHashTable-values", "vec_table-keys", "vec_table-values",
          "MutableDenseHashTable-keys", "MutableDenseHashTable-values"} <= keys
  assert reader.get_tensor("MutableDenseHashTable-keys").shape == (16, 1)
  with tf.Graph().as_default(), tf.Session() as sess:
    _, fetches = tool.checkpoint_graph(tf)
    assert sess.run(fetches["m_size"]) == 0
    tf.train.Saver().restore(sess, str(tmp_path / "model"))
    after = sess.run(fetches)
  for name in before:
    np.testing.assert_array_equal(np.asarray(after[name]), np.asarray(before[name]), err_msg=name)


def test_mutable_table_against_a_dict():
  rng = np.random.RandomState(3)
  keys = rng.randint(-10 ** 12, 10 ** 12, size=20000).astype(np.int64)
  values = rng.randn(20000).astype(np.float32)
  probe = np.concatenate([keys[::3], rng.randint(-10 ** 12, 10 ** 12, size=500).astype(np.int64)])
  ref = dict(zip(keys.tolist(), values.tolist()))
  gone = set(keys[::7].tolist())
  with tf.Graph().as_default(), tf.Session() as sess:
    m = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, -1.0, checkpoint=False)
    d = tf.lookup.experimental.DenseHashTable(tf.int64, tf.float32, -1.0, empty_key=-(2 ** 63),
                                              deleted_key=2 ** 63 - 1, initial_num_buckets=64,
                                              checkpoint=False)
    sess.run([m.insert(keys, values), d.insert(keys, values)])
    sess.run([m.remove(keys[::7]), d.remove(tf.constant(keys[::7]))])
    got_m, got_d, n_m, n_d = sess.run([m.lookup(probe), d.lookup(probe), m.size(), d.size()])
    ek, ev = sess.run(m.export())
  want = np.array([-1.0 if k in gone else ref.get(k, -1.0) for k in probe.tolist()], np.float32)
  np.testing.assert_array_equal(got_m, want)
  np.testing.assert_array_equal(got_d, want)
  assert n_m == n_d == len(set(ref) - gone)
  assert dict(zip(ek.tolist(), ev.tolist())) == {k: v for k, v in ref.items() if k not in gone}


def test_index_tables_from_tensor_and_file(tmp_path):
  vocab = tmp_path / "v.txt"
  vocab.write_text("a\nb\nc\n")
  words = [b"a", b"q", b"c", b"", b"b"]
  with tf.Graph().as_default(), tf.Session() as sess:
    t1 = lookup_ops.index_table_from_tensor(["a", "b", "c"], num_oov_buckets=4)
    t2 = lookup_ops.index_table_from_file(str(vocab), num_oov_buckets=4)
    t3 = lookup_ops.index_table_from_tensor(["a", "b", "c"], default_value=-7)
    t4 = lookup_ops.index_table_from_tensor(tf.constant([5, 9], tf.int64), num_oov_buckets=2, dtype=tf.int64)
    t5 = lookup_ops.index_table_from_tensor(["a", "b"], num_oov_buckets=3,
                                            hasher_spec=lookup_ops.StrongHashSpec((1, 2)))
    s1 = lookup_ops.index_to_string_table_from_tensor(["a", "b", "c"])
    s2 = lookup_ops.index_to_string_table_from_file(str(vocab), default_value="?")
    x = tf.constant(words)
    buckets = tf.strings.to_hash_bucket_fast(x, 4) + 3
    strong = tf.strings.to_hash_bucket_strong(x, 3, [1, 2]) + 2
    ints = tf.constant([5, 6, 9, -1], tf.int64)
    int_buckets = tf.strings.to_hash_bucket_fast(tf.as_string(ints), 2) + 2
    sess.run(tf.tables_initializer())
    r = sess.run([t1.lookup(x), t2.lookup(x), t3.lookup(x), buckets, t4.lookup(ints), int_buckets,
                  t5.lookup(x), strong, s1.lookup(tf.constant([2, 0, 5], tf.int64)),
                  s2.lookup(tf.constant([1, 3], tf.int64)), t1.size()])
  known = {b"a": 0, b"b": 1, b"c": 2}
  want = [known.get(w, b) for w, b in zip(words, r[3])]
  assert list(r[0]) == want and list(r[1]) == want
  assert list(r[2]) == [known.get(w, -7) for w in words]
  assert list(r[4]) == [0, r[5][1], 1, r[5][3]]
  assert list(r[6]) == [{b"a": 0, b"b": 1}.get(w, s) for w, s in zip(words, r[7])]
  assert list(r[8]) == [b"c", b"a", b"UNK"]
  assert list(r[9]) == [b"b", b"?"]
  assert r[10] == 7


def test_python_argument_errors():
  with tf.Graph().as_default():
    init = tf.lookup.KeyValueTensorInitializer(["a"], tf.constant([1], tf.int64))
    with pytest.raises(ValueError, match="oov_buckets must be > 0"):
      tf.lookup.StaticVocabularyTable(init, 0)
    table = tf.lookup.StaticHashTable(init, -1)
    with pytest.raises(TypeError, match="Signature mismatch"):
      table.lookup(tf.constant([1], tf.int64))
    with pytest.raises(ValueError, match="Signature mismatch"):
      tf.lookup.TextFileInitializer("f", tf.string, -1, tf.int64, -2)
    with pytest.raises(ValueError, match="Invalid vocab_size"):
      tf.lookup.TextFileInitializer("f", tf.string, -2, tf.int64, -1, vocab_size=0)
    with pytest.raises(TypeError, match="Invalid value dtype"):
      tf.lookup.KeyValueTensorInitializer(["a"], [1.0]).initialize(table)
    with pytest.raises(ValueError, match="vocabulary_file must be specified"):
      lookup_ops.index_table_from_file("")


def test_kernel_errors(tmp_path):
  with tf.Graph().as_default(), tf.Session() as sess:
    d = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, -1, empty_key=0, deleted_key=-1,
                                              initial_num_buckets=4, checkpoint=False)
    with pytest.raises(tf.errors.InvalidArgumentError, match="empty_key as a table key"):
      sess.run(d.insert(tf.constant([3, 0], tf.int64), tf.constant([1, 2], tf.int64)))
    missing = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
        str(tmp_path / "nope.txt"), tf.string, -2, tf.int64, -1), -1)
    with pytest.raises(tf.errors.NotFoundError):
      sess.run(missing.initializer)
    m = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, [0.0, 0.0], checkpoint=False)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expected shape"):
      sess.run(m.insert(tf.constant([1], tf.int64), tf.constant([[1.0, 2.0, 3.0]])))
    bad = tmp_path / "bad.txt"
    bad.write_text("a\tx\n")
    t = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(str(bad), tf.string, 0, tf.int64, 1,
                                                                delimiter="\t"), -1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Field x in line 0 is not a valid int64"):
      sess.run(t.initializer)


def test_tables_are_per_session():
  with tf.Graph().as_default():
    m = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1, checkpoint=False)
    ins = m.insert(["a"], tf.constant([1], tf.int64))
    with tf.Session() as s1:
      s1.run(ins)
      assert s1.run(m.size()) == 1
    with tf.Session() as s2:
      assert s2.run(m.size()) == 0


def test_hash_buckets_sharded_equal_one_by_one():
  words = np.array([b"w%d" % i for i in range(50000)], dtype=object)
  with tf.Graph().as_default(), tf.Session() as sess:
    x = tf.placeholder(tf.string, [None])
    fast, legacy = sess.run([tf.strings.to_hash_bucket_fast(x, 977), tf.strings.to_hash_bucket(x, 977)],
                            {x: words})
    small = [sess.run([tf.strings.to_hash_bucket_fast(x, 977), tf.strings.to_hash_bucket(x, 977)],
                      {x: words[i:i + 7]}) for i in (0, 20000, 49993)]
  for (f, g), i in zip(small, (0, 20000, 49993)):
    np.testing.assert_array_equal(f, fast[i:i + 7])
    np.testing.assert_array_equal(g, legacy[i:i + 7])
  assert fast.min() >= 0 and fast.max() < 977 and len(set(fast.tolist())) > 900


def test_mutable_lookup_static_shapes():
  with tf.Graph().as_default():
    m = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, [0.0, 0.0, 0.0], checkpoint=False)
    assert m.lookup(tf.placeholder(tf.string, [None, 4])).shape.as_list() == [None, 4, 3]
    s = tf.lookup.experimental.MutableHashTable(tf.int64, tf.int64, -1, checkpoint=False)
    assert s.lookup(tf.placeholder(tf.int64, [5])).shape.as_list() == [5]
    d = tf.lookup.experimental.DenseHashTable(tf.int64, tf.float32, 0.0, empty_key=[0, 0], deleted_key=[-1, -1],
                                              initial_num_buckets=8, checkpoint=False)
    assert d.lookup(tf.placeholder(tf.int64, [6, 2])).shape.as_list() == [6]


def test_concurrent_inserts_and_finds():
  import threading  # pylint: disable=import-outside-toplevel
  with tf.Graph().as_default(), tf.Session() as sess:
    m = tf.lookup.experimental.MutableHashTable(tf.int64, tf.int64, -1, checkpoint=False)
    d = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, -1, empty_key=-1, deleted_key=-2,
                                              initial_num_buckets=8, checkpoint=False)
    keys = tf.placeholder(tf.int64, [None])
    step = [m.insert(keys, keys * 2), d.insert(keys, keys * 2)]
    probe = [m.lookup(keys), d.lookup(keys)]
    errors = []

    def work(t):
      try:
        for i in range(20):
          k = np.arange(t * 10000 + i * 100, t * 10000 + i * 100 + 100, dtype=np.int64)
          sess.run(step, {keys: k})
          got = sess.run(probe, {keys: k})
          assert (got[0] == k * 2).all() and (got[1] == k * 2).all()
      except Exception as e:  # pylint: disable=broad-except
        errors.append(e)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
      t.start()
    for t in threads:
      t.join()
    assert not errors
    assert sess.run([m.size(), d.size()]) == [8000, 8000]
