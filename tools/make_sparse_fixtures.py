#!/usr/bin/env python3
"""Sparse-op fixtures written by real TensorFlow (tests/python/test_sparse.py).

  .venv-tf/bin/python tools/make_sparse_fixtures.py --out tests/fixtures/sparse/sparse_tf.npz

`cases(tf)` and `optimizer_run(tf, ...)` build the same graphs with any
module offering TF 1.x's API: the test imports this file and calls them
with tfc, then compares with what TensorFlow computed here. Sparse results
are stored as `<name>/indices`, `<name>/values`, `<name>/dense_shape`;
IndexedSlices gradients as their dense sum.
"""
import argparse
import os
import sys

import numpy as np

OPTIMIZERS = {
    "gd": lambda tf: tf.train.GradientDescentOptimizer(0.1),
    "momentum": lambda tf: tf.train.MomentumOptimizer(0.1, 0.9),
    "nesterov": lambda tf: tf.train.MomentumOptimizer(0.05, 0.8, use_nesterov=True),
    "adagrad": lambda tf: tf.train.AdagradOptimizer(0.2),
    "rmsprop": lambda tf: tf.train.RMSPropOptimizer(0.01, momentum=0.5),
    "rmsprop_centered": lambda tf: tf.train.RMSPropOptimizer(0.02, decay=0.8, momentum=0.3,
                                                             centered=True),
    "adam": lambda tf: tf.train.AdamOptimizer(0.05),
}
STEP_IDS = [[1, 3, 3, 7], [0, 1, 9, 9], [3, 3, 3, 2]]


def _tf():
  os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
  os.environ["TF_ENABLE_ONEDNN_OPTS"] = "0"
  import tensorflow.compat.v1 as tf
  tf.disable_v2_behavior()
  tf.disable_resource_variables()
  return tf


def optimizer_run(tf, name, dtype="float32", use_resource=False):
  """Trains a [10, 4] embedding with sparse gradients for len(STEP_IDS) steps;
  returns {"<name>_<dtype>/var": final table, "<name>_<dtype>/loss0": first
  loss} ("<name>_<dtype>_resource/..." for a resource variable table, whose
  sparse updates are the ResourceSparseApply* / ResourceScatterAdd ops)."""
  rng = np.random.RandomState(11)
  table0 = rng.randn(10, 4).astype(dtype)
  coef = rng.randn(4, 4).astype(dtype)
  g = tf.Graph()
  key = "%s_%s%s" % (name, dtype, "_resource" if use_resource else "")
  with g.as_default():
    table = tf.Variable(table0, name="table", use_resource=use_resource)
    ids = tf.placeholder(tf.int32, [4], name="ids")
    rows = tf.nn.embedding_lookup(table, ids)
    loss = tf.reduce_sum(rows * coef) + tf.reduce_sum(tf.square(rows))
    train = OPTIMIZERS[name](tf).minimize(loss)
    with tf.Session(graph=g) as sess:
      sess.run(tf.global_variables_initializer())
      loss0 = None
      for step_ids in STEP_IDS:
        l, _ = sess.run([loss, train], {ids: step_ids})
        loss0 = l if loss0 is None else loss0
      return {key + "/var": sess.run(table), key + "/loss0": np.asarray(loss0)}


def _sp(tf, indices, values, shape, dtype=np.float32):
  return tf.SparseTensor(np.asarray(indices, np.int64), np.asarray(values, dtype),
                         np.asarray(shape, np.int64))


def cases(tf):
  """{name: Tensor or SparseTensor} of the sparse ops on fixed inputs (in the default graph)."""
  out = {}
  a = _sp(tf, [[0, 1], [1, 0], [1, 3], [3, 2]], [1.0, -2.0, 3.0, 4.5], [4, 4])
  b = _sp(tf, [[0, 1], [2, 2], [3, 2]], [10.0, 20.0, -4.5], [4, 4])
  unordered = _sp(tf, [[3, 1], [0, 2], [1, 0], [0, 0]], [1.0, 2.0, 3.0, 4.0], [4, 3])
  dense = np.arange(16, dtype=np.float32).reshape(4, 4) / 4.0
  m = np.arange(12, dtype=np.float32).reshape(4, 3) - 5.0
  out["to_dense"] = tf.sparse_tensor_to_dense(a)
  out["sparse_to_dense"] = tf.sparse_to_dense([[0, 0], [1, 2]], [2, 3], [7, 8], -1)
  out["sparse_to_dense_scalar"] = tf.sparse_to_dense([1, 3], [5], 2.5)
  for adj_a in (False, True):
    for adj_b in (False, True):
      bm = m if not adj_b else m.T.copy()
      out["matmul_%d%d" % (adj_a, adj_b)] = tf.sparse_tensor_dense_matmul(
          a, np.concatenate([bm, bm[:1]], 0)[:4] if not adj_b else bm, adjoint_a=adj_a,
          adjoint_b=adj_b)
  out["reorder"] = tf.sparse_reorder(unordered)
  out["reduce_sum_all"] = tf.sparse_reduce_sum(a)
  out["reduce_sum_0"] = tf.sparse_reduce_sum(a, axis=0)
  out["reduce_sum_1_keep"] = tf.sparse_reduce_sum(a, axis=1, keepdims=True)
  out["concat_0"] = tf.sparse_concat(0, [a, b])
  out["concat_1"] = tf.sparse_concat(1, [a, unordered])
  out["add_sparse"] = tf.sparse_add(a, b)
  out["add_sparse_thresh"] = tf.sparse_add(a, b, 0.5)
  out["add_dense"] = tf.sparse_add(a, dense)
  out["reshape"] = tf.sparse_reshape(a, [2, -1])
  out["retain"] = tf.sparse_retain(a, np.array([True, False, True, True]))
  filled, empty = tf.sparse_fill_empty_rows(a, -1.0)
  out["fill_empty_rows"] = filled
  out["fill_empty_rows_indicator"] = empty
  out["from_dense"] = tf.sparse.from_dense(np.array([[0, 3, 0], [5, 0, 6]], np.int32))
  out["transpose"] = tf.sparse_transpose(a)
  out["slice"] = tf.sparse_slice(a, [1, 0], [3, 3])
  for i, piece in enumerate(tf.sparse_split(sp_input=a, num_split=3, axis=1)):
    out["split_%d" % i] = piece
  out["expand_dims"] = tf.sparse.expand_dims(a, 1)
  out["reset_shape"] = tf.sparse_reset_shape(b)
  ids = _sp(tf, [[0, 0], [0, 1], [1, 0], [3, 0], [3, 1], [3, 2]], [1, 2, 0, 3, 3, 1], [4, 3],
            np.int64)
  out["to_indicator"] = tf.sparse_to_indicator(ids, 5)
  data = np.arange(20, dtype=np.float32).reshape(5, 4)
  for kind in ("sum", "mean", "sqrt_n"):
    fn = getattr(tf, "sparse_segment_" + kind)
    out["segment_" + kind] = fn(data, np.array([0, 1, 1, 4]), np.array([0, 0, 2, 2]))
  weights = _sp(tf, [[0, 0], [0, 1], [1, 0], [3, 0], [3, 1], [3, 2]],
                [1.0, 0.5, 2.0, 1.0, -1.0, 3.0], [4, 3])
  for combiner in ("sum", "mean", "sqrtn"):
    out["els_" + combiner] = tf.nn.embedding_lookup_sparse(data, ids, None, combiner=combiner)
    out["els_w_" + combiner] = tf.nn.embedding_lookup_sparse(data, ids, weights,
                                                             combiner=combiner)
  parts = tf.dynamic_partition(np.arange(12, dtype=np.float32).reshape(6, 2),
                               np.array([2, 0, 2, 1, 0, 2], np.int32), 3)
  for i, p in enumerate(parts):
    out["partition_%d" % i] = p
  out["stitch"] = tf.dynamic_stitch([np.array([0, 4, 2], np.int32), np.array([[1], [3]], np.int32)],
                                    [np.array([[1.0, 2], [3, 4], [5, 6]], np.float32),
                                     np.array([[[7.0, 8]], [[9, 10]]], np.float32)])
  c3 = _sp(tf, [[0, 0, 1], [0, 0, 3], [0, 2, 0], [1, 1, 1], [1, 1, 2], [1, 1, 3]],
           [1.0, 2.0, -3.0, 0.5, 0.5, 4.0], [2, 3, 4])
  out["softmax_2d"] = tf.sparse.softmax(a)
  out["softmax_3d"] = tf.sparse.softmax(c3)
  out["maximum"] = tf.sparse.maximum(a, b)
  out["minimum"] = tf.sparse.minimum(a, b)
  ia = _sp(tf, [[0, 1], [2, 0]], [7, -3], [4, 4], np.int64)
  ib = _sp(tf, [[0, 1], [3, 3]], [2, 5], [4, 4], np.int64)
  out["maximum_i64"] = tf.sparse_maximum(ia, ib)
  out["minimum_i64"] = tf.sparse_minimum(ia, ib)
  d, i = tf.setdiff1d(np.array([4, 1, 9, 1, 7, 3], np.int32), np.array([1, 3, 8], np.int32))
  out["setdiff1d_out"] = d
  out["setdiff1d_idx"] = i
  ds, is_ = tf.setdiff1d(np.array([b"a", b"bc", b"", b"a"]), np.array([b"a"]),
                         index_dtype=tf.int64)
  out["setdiff1d_str_idx"] = is_
  slices = tf.IndexedSlices(tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3)),
                            tf.constant([12, 4, 26, 4]), tf.constant([30, 3]))
  masked = tf.sparse.mask(slices, [4, 26])
  out["mask_values"] = masked.values
  out["mask_indices"] = masked.indices
  ids2 = _sp(tf, [[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]], [3, 1, 0, 4, 2], [3, 2], np.int64)
  vals2 = _sp(tf, [[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]], [0.5, -1.0, 2.0, 3.0, 1.5], [3, 2])
  out["merge"] = tf.sparse_merge(ids2, vals2, 6)
  out["merge_sorted"] = tf.sparse.merge(ids2, vals2, 6, already_sorted=True)
  out["reduce_max_all"] = tf.sparse_reduce_max(a)
  out["reduce_max_0"] = tf.sparse_reduce_max(a, axis=0)
  out["reduce_max_1_keep"] = tf.sparse.reduce_max(unordered, axis=-1, keepdims=True)
  out["reduce_max_3d_02"] = tf.sparse.reduce_max(c3, axis=[0, 2])
  out["reduce_max_i64_1"] = tf.sparse.reduce_max(ia, 1)
  out["reduce_max_sparse_0"] = tf.sparse.reduce_max_sparse(a, axis=0)
  out["reduce_max_sparse_3d"] = tf.sparse.reduce_max_sparse(c3, axis=1, keepdims=True)
  out["reduce_sum_sparse_1"] = tf.sparse_reduce_sum_sparse(unordered, axis=1)
  out["reduce_sum_sparse_all"] = tf.sparse.reduce_sum_sparse(c3)
  out["reduce_sum_sparse_i64"] = tf.sparse.reduce_sum_sparse(ia, 0, keepdims=True)
  out["eye"] = tf.sparse.eye(3, 5)
  out["eye_square_i32"] = tf.sparse.eye(4, dtype=tf.int32)
  return out


def embedding_cases(tf):
  """{name: Tensor}: partitioned embedding lookups and the dense gradients of
  each shard (mod and div over shards of 4, 3 and 3 rows)."""
  rng = np.random.RandomState(5)
  shards0 = [rng.randn(4, 3).astype(np.float32), rng.randn(3, 3).astype(np.float32),
             rng.randn(3, 3).astype(np.float32)]
  coef = rng.randn(2, 3, 3).astype(np.float32)
  out = {}
  for strategy in ("mod", "div"):
    shards = [tf.constant(s) for s in shards0]
    ids = tf.constant(np.array([[0, 9, 3], [5, 5, 1]], np.int32))
    emb = tf.nn.embedding_lookup(shards, ids, partition_strategy=strategy)
    out["emb_" + strategy] = emb
    grads = tf.gradients(tf.reduce_sum(emb * coef), shards)
    for i, gr in enumerate(grads):
      out["emb_%s_grad%d" % (strategy, i)] = tf.convert_to_tensor(gr)
  return out


def _store(result, name, value):
  if hasattr(value, "dense_shape") and hasattr(value, "indices") and not hasattr(value, "dtype"):
    result[name + "/indices"] = np.asarray(value.indices)
    result[name + "/values"] = np.asarray(value.values)
    result[name + "/dense_shape"] = np.asarray(value.dense_shape)
  else:
    result[name] = np.asarray(value)


def make(out):
  tf = _tf()
  result = {}
  for name in OPTIMIZERS:
    result.update(optimizer_run(tf, name))
  result.update(optimizer_run(tf, "adam", "float64"))
  result.update(optimizer_run(tf, "momentum", "float64"))
  for name in OPTIMIZERS:
    result.update(optimizer_run(tf, name, use_resource=True))
  result.update(optimizer_run(tf, "adam", "float64", use_resource=True))
  for builder in (cases, embedding_cases):
    g = tf.Graph()
    with g.as_default():
      tensors = builder(tf)
      with tf.Session(graph=g) as sess:
        values = sess.run(tensors)
    for name, value in values.items():
      _store(result, name, value)
  np.savez(out, **result)


def main():
  parser = argparse.ArgumentParser()
  parser.add_argument("--out", required=True)
  args = parser.parse_args()
  make(args.out)
  return 0


if __name__ == "__main__":
  sys.exit(main())
