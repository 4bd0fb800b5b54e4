"""One worker of between-graph asynchronous training (run as a process by
test_distributed_training.py): starts its worker task's tf.train.Server, builds its
own copy of the digits MLP with replica_device_setter (variables on the ps tasks),
the chief initialises, every worker trains on its half of the data through
tf.Session(server.target), and the chief reports the test accuracy once the shared
global step shows both workers finished."""
import argparse
import json
import sys
import time

import numpy as np

import tfc as tf


def load_digits(seed=0):
  from sklearn.datasets import load_digits as _load
  d = _load()
  X = (d.images / 16.0).astype(np.float32).reshape(-1, 64)
  y = d.target.astype(np.int64)
  idx = np.random.default_rng(seed).permutation(len(y))
  n_train = int(0.75 * len(y))
  return X[idx[:n_train]], y[idx[:n_train]], X[idx[n_train:]], y[idx[n_train:]]


def dense(x, n_in, n_out, name, rng):
  w = tf.Variable(rng.normal(0, np.sqrt(2.0 / n_in), [n_in, n_out]).astype(np.float32), name=name + "_w")
  b = tf.Variable(np.zeros([n_out], np.float32), name=name + "_b")
  return tf.matmul(x, w) + b


def main():
  p = argparse.ArgumentParser()
  p.add_argument("--cluster", required=True)
  p.add_argument("--task", type=int, required=True)
  p.add_argument("--steps", type=int, default=150)
  args = p.parse_args()
  spec = json.loads(args.cluster)
  cluster = tf.train.ClusterSpec(spec)
  server = tf.train.Server(cluster, job_name="worker", task_index=args.task)
  n_workers = cluster.num_tasks("worker")
  is_chief = args.task == 0
  Xtr, ytr, Xte, yte = load_digits()
  rng = np.random.default_rng(0)  # the same initial values in every worker's graph
  with tf.device(tf.train.replica_device_setter(
      worker_device="/job:worker/task:%d" % args.task, cluster=cluster)):
    global_step = tf.Variable(0, trainable=False, name="global_step", dtype=tf.int64)
    x = tf.placeholder(tf.float32, [None, 64])
    y = tf.placeholder(tf.int64, [None])
    h = tf.nn.relu(dense(x, 64, 64, "hidden", rng))
    logits = dense(h, 64, 10, "out", rng)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    train_op = tf.train.AdamOptimizer(0.01).minimize(loss, global_step=global_step)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), y), tf.float32))
    init = tf.global_variables_initializer()
  with tf.Session(server.target) as sess:
    if is_chief:
      sess.run(init)
    else:
      while True:  # wait for the chief's initialisation
        try:
          sess.run(global_step)
          break
        except tf.errors.FailedPreconditionError:
          time.sleep(0.05)
    mine = np.arange(len(ytr))[args.task::n_workers]
    order = np.random.default_rng(args.task).permutation(mine)
    pos, batch = 0, 64
    for _ in range(args.steps):
      if pos + batch > len(order):
        order, pos = np.random.default_rng(pos).permutation(mine), 0
      b = order[pos:pos + batch]
      pos += batch
      sess.run(train_op, {x: Xtr[b], y: ytr[b]})
    print("worker %d done, global step %d" % (args.task, sess.run(global_step)), flush=True)
    if is_chief:
      deadline = time.time() + 120
      while sess.run(global_step) < n_workers * args.steps and time.time() < deadline:
        time.sleep(0.05)
      print("global step %d" % sess.run(global_step), flush=True)
      print("accuracy %.4f" % sess.run(accuracy, {x: Xte, y: yte}), flush=True)
  server.stop()
  return 0


if __name__ == "__main__":
  sys.exit(main())
