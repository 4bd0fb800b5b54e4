"""One worker of between-graph synchronous training with SyncReplicasOptimizer
(run as a process by test_sync_replicas.py; `--tf` runs it on real TensorFlow):
starts its worker task's server, builds the digits MLP with replica_device_setter
(variables, global step, accumulators and the token queue on the ps), the chief
initialises and starts the chief queue runner, and every worker trains on fixed
batches of its half of the data. Workers move in lock step (a counter on the ps
acts as a barrier after each step), so each update averages exactly one gradient
of each worker and the result is deterministic. The chief prints the final
weights as JSON."""
import argparse
import json
import sys
import time

import numpy as np


def load_digits():
  from sklearn.datasets import load_digits as _load
  d = _load()
  X = (d.images / 16.0).astype(np.float32).reshape(-1, 64)
  y = d.target.astype(np.int64)
  return X, y


def batches(step, task, n_workers, batch=32):
  """The rows worker `task` trains on at `step` (fixed, disjoint across workers)."""
  start = (step * n_workers + task) * batch
  return np.arange(start, start + batch) % 1500


def build(tf, n_workers, task, cluster, lr=0.5):
  """The model and the synchronous train op under replica_device_setter."""
  rng = np.random.default_rng(0)  # the same initial values in every worker's graph
  with tf.device(tf.train.replica_device_setter(worker_device="/job:worker/task:%d" % task, cluster=cluster)):
    global_step = tf.Variable(0, trainable=False, name="global_step", dtype=tf.int64)
    x = tf.placeholder(tf.float32, [None, 64])
    y = tf.placeholder(tf.int64, [None])
    w1 = tf.Variable(rng.normal(0, 0.1, [64, 32]).astype(np.float32), name="w1")
    b1 = tf.Variable(np.zeros([32], np.float32), name="b1")
    w2 = tf.Variable(rng.normal(0, 0.1, [32, 10]).astype(np.float32), name="w2")
    b2 = tf.Variable(np.zeros([10], np.float32), name="b2")
    logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2) + b2
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(lr), replicas_to_aggregate=n_workers,
                                         total_num_replicas=n_workers)
    train_op = opt.minimize(loss, global_step=global_step)
    done = tf.Variable(0, trainable=False, name="steps_done", dtype=tf.int64)
    mark = tf.assign_add(done, 1)
  return dict(x=x, y=y, loss=loss, global_step=global_step, train_op=train_op, opt=opt, done=done, mark=mark,
              weights=[w1, b1, w2, b2])


def main():
  p = argparse.ArgumentParser()
  p.add_argument("--cluster", required=True)
  p.add_argument("--task", type=int, required=True)
  p.add_argument("--steps", type=int, default=20)
  p.add_argument("--tf", action="store_true", help="run on real TensorFlow")
  p.add_argument("--data", help="an .npz file with X and Y (else sklearn's digits)")
  args = p.parse_args()
  if args.tf:
    import tensorflow.compat.v1 as tf  # pylint: disable=g-import-not-at-top
    tf.disable_eager_execution()
  else:
    import tfc as tf  # pylint: disable=g-import-not-at-top
  spec = json.loads(args.cluster)
  cluster = tf.train.ClusterSpec(spec)
  server = tf.train.Server(cluster, job_name="worker", task_index=args.task)
  n_workers = cluster.num_tasks("worker")
  is_chief = args.task == 0
  if args.data:
    with np.load(args.data) as d:
      X, Y = d["X"], d["Y"]
  else:
    X, Y = load_digits()
  m = build(tf, n_workers, args.task, cluster)
  opt = m["opt"]
  init_tokens = opt.get_init_tokens_op(0)  # no early tokens: every step waits for the update
  with tf.Session(server.target) as sess:
    if is_chief:
      sess.run(tf.global_variables_initializer())
      sess.run(tf.local_variables_initializer())
      sess.run(opt.chief_init_op)
      sess.run(init_tokens)
    else:
      while True:  # wait for the chief's initialisation
        try:
          if len(sess.run(opt.ready_for_local_init_op)) == 0:
            break
        except tf.errors.FailedPreconditionError:
          pass
        time.sleep(0.05)
      sess.run(tf.local_variables_initializer())
      sess.run(opt.local_step_init_op)
    coord = tf.train.Coordinator()
    threads = []
    if is_chief:
      threads = opt.get_chief_queue_runner().create_threads(sess, coord=coord, daemon=True, start=True)
    for step in range(args.steps):
      b = batches(step, args.task, n_workers)
      sess.run(m["train_op"], {m["x"]: X[b], m["y"]: Y[b]})
      sess.run(m["mark"])
      while sess.run(m["done"]) < n_workers * (step + 1):  # barrier: every worker finished this step
        time.sleep(0.002)
    deadline = time.time() + 60
    while sess.run(m["global_step"]) < args.steps and time.time() < deadline:
      time.sleep(0.01)
    print("global step %d" % sess.run(m["global_step"]), flush=True)
    if is_chief:
      print("weights " + json.dumps([v.tolist() for v in sess.run(m["weights"])]), flush=True)
      coord.request_stop()
  if is_chief:
    coord.join(threads, stop_grace_period_secs=10, ignore_live_threads=True)
  return 0


if __name__ == "__main__":
  sys.exit(main())
