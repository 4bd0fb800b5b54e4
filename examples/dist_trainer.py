"""The canonical between-graph distributed trainer: one script for every task.

    # parameter servers (they serve until stopped)
    python examples/dist_trainer.py --ps_hosts=h1:2222,h2:2222 --worker_hosts=h3:2222,h4:2222 \
        --job_name=ps --task_index=0
    # workers (task 0 is the chief: it initialises, writes checkpoints and summaries)
    python examples/dist_trainer.py --ps_hosts=h1:2222,h2:2222 --worker_hosts=h3:2222,h4:2222 \
        --job_name=worker --task_index=0 --checkpoint_dir=/tmp/dist_ckpt --last_step=1000

Every task starts its tf.train.Server. A worker builds the digits MLP (scikit-learn's 8x8
handwritten digits) under tf.train.replica_device_setter, so the variables and the global
step live on the ps tasks, and trains through tf.train.MonitoredTrainingSession on its own
server's target until the shared global step reaches --last_step (StopAtStepHook). The
chief restores from --checkpoint_dir when a checkpoint is there (so a restarted job goes on
where it stopped), else initialises, and saves checkpoints and loss summaries there; other
workers wait for the chief's initialisation. A worker that dies and is started again with
the same flags rejoins the running job. With --sync the updates go through
tf.train.SyncReplicasOptimizer (every step averages one gradient from each worker) and its
session-run hook.

The trainer prints one line per --log_every of its own steps ("task T step S global G loss L")
and at the end "task T done: steps S, global step G, first loss A, last loss B" (last loss:
the mean over its final 10 steps).
"""
import sys
import time

import numpy as np

import tfc as tf

flags = tf.app.flags
flags.DEFINE_string("ps_hosts", "", "comma-separated host:port of the ps tasks")
flags.DEFINE_string("worker_hosts", "", "comma-separated host:port of the worker tasks")
flags.DEFINE_string("job_name", "", "'ps' or 'worker'")
flags.DEFINE_integer("task_index", 0, "index of this task within its job")
flags.DEFINE_string("checkpoint_dir", "/tmp/dist_trainer", "the chief's checkpoint and summary directory")
flags.DEFINE_integer("last_step", 1000, "train until the global step reaches this")
flags.DEFINE_integer("batch_size", 32, "examples per step and worker")
flags.DEFINE_integer("hidden_units", 32, "units of the hidden layer")
flags.DEFINE_float("learning_rate", 0.01, "Adam's learning rate")
flags.DEFINE_boolean("sync", False, "synchronous updates with SyncReplicasOptimizer")
flags.DEFINE_integer("save_checkpoint_steps", 100, "the chief saves a checkpoint every this many steps")
flags.DEFINE_integer("save_summaries_steps", 20, "the chief writes the loss summary every this many steps")
flags.DEFINE_integer("log_every", 10, "print a progress line every this many local steps")
flags.DEFINE_float("step_delay", 0.0, "seconds to sleep after each step (to watch a job in slow motion)")
FLAGS = flags.FLAGS


def load_digits():
  """The 1797 digits as float32 rows of 64 pixels in [0, 1] and int64 labels."""
  from sklearn.datasets import load_digits as _load
  d = _load()
  return (d.images / 16.0).astype(np.float32).reshape(-1, 64), d.target.astype(np.int64)


def build_model(cluster, n_workers):
  """The MLP, its loss and train op under replica_device_setter; returns a dict of tensors."""
  with tf.device(tf.train.replica_device_setter(
      worker_device="/job:worker/task:%d" % FLAGS.task_index, cluster=cluster)):
    global_step = tf.train.get_or_create_global_step()
    x = tf.placeholder(tf.float32, [None, 64], name="x")
    y = tf.placeholder(tf.int64, [None], name="y")
    h = tf.layers.dense(x, FLAGS.hidden_units, activation=tf.nn.relu, name="hidden")
    logits = tf.layers.dense(h, 10, name="logits")
    loss = tf.losses.sparse_softmax_cross_entropy(labels=y, logits=logits)
    tf.summary.scalar("loss", loss)
    opt = tf.train.AdamOptimizer(FLAGS.learning_rate)
    hooks = []
    if FLAGS.sync:
      opt = tf.train.SyncReplicasOptimizer(opt, replicas_to_aggregate=n_workers, total_num_replicas=n_workers)
      hooks.append(opt.make_session_run_hook(FLAGS.task_index == 0))
    train_op = opt.minimize(loss, global_step=global_step)
  return dict(x=x, y=y, loss=loss, train_op=train_op, global_step=global_step, hooks=hooks)


def wait_for_chief(target, timeout=600):
  """Polls (every 0.2 s) until the chief has initialised every global variable (local
  variables, such as SyncReplicasOptimizer's local step, are each worker's own).

  MonitoredTrainingSession's non-chief checks readiness every 30 s, as in TF, so a worker
  that starts a moment before the chief has initialised would sit idle for half a minute;
  this short poll lets it join at once."""
  uninitialized = tf.report_uninitialized_variables(tf.global_variables())
  deadline = time.time() + timeout
  with tf.Session(target) as sess:
    while len(sess.run(uninitialized)) and time.time() < deadline:
      time.sleep(0.2)


def run_worker(server, cluster):
  """Trains until the global step reaches --last_step; returns 0."""
  n_workers = cluster.num_tasks("worker")
  is_chief = FLAGS.task_index == 0
  X, Y = load_digits()
  mine = np.arange(len(Y))[FLAGS.task_index::n_workers]  # this worker's share of the data
  rng = np.random.default_rng(FLAGS.task_index)
  m = build_model(cluster, n_workers)
  hooks = [tf.train.StopAtStepHook(last_step=FLAGS.last_step)] + m["hooks"]
  if not is_chief:
    wait_for_chief(server.target)
  losses, step, global_step = [], 0, None
  with tf.train.MonitoredTrainingSession(
      master=server.target, is_chief=is_chief, checkpoint_dir=FLAGS.checkpoint_dir, hooks=hooks,
      save_checkpoint_steps=FLAGS.save_checkpoint_steps, save_summaries_steps=FLAGS.save_summaries_steps,
      log_step_count_steps=0, stop_grace_period_secs=5) as sess:
    print("task %d joined" % FLAGS.task_index, flush=True)
    while not sess.should_stop():
      batch = rng.choice(mine, FLAGS.batch_size, replace=False)
      _, loss, global_step = sess.run([m["train_op"], m["loss"], m["global_step"]],
                                      {m["x"]: X[batch], m["y"]: Y[batch]})
      losses.append(float(loss))
      step += 1
      if step % FLAGS.log_every == 0:
        print("task %d step %d global %d loss %.4f" % (FLAGS.task_index, step, global_step, loss), flush=True)
      if FLAGS.step_delay > 0:
        time.sleep(FLAGS.step_delay)
  last = float(np.mean(losses[-10:])) if losses else float("nan")
  print("task %d done: steps %d, global step %s, first loss %.4f, last loss %.4f" %
        (FLAGS.task_index, step, global_step, losses[0] if losses else float("nan"), last), flush=True)
  return 0


def main(_):
  ps_hosts = [h for h in FLAGS.ps_hosts.split(",") if h]
  worker_hosts = [h for h in FLAGS.worker_hosts.split(",") if h]
  if FLAGS.job_name not in ("ps", "worker") or not ps_hosts or not worker_hosts:
    print("need --ps_hosts, --worker_hosts and --job_name=ps|worker", file=sys.stderr)
    return 2
  cluster = tf.train.ClusterSpec({"ps": ps_hosts, "worker": worker_hosts})
  server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
  if FLAGS.job_name == "ps":
    print("ps %d serving on %s" % (FLAGS.task_index, ps_hosts[FLAGS.task_index]), flush=True)
    server.join()
    return 0
  return run_worker(server, cluster)


if __name__ == "__main__":
  tf.app.run(main=main)
