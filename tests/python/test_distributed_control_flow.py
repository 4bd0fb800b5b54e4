"""Control flow that spans devices and tasks: conditionals whose predicate,
Switch and branches sit on different devices (local CPUs, in-process servers,
separate server processes), dead tensors crossing _Send/_Recv on every data
plane, and the placement of ops that take a variable by reference (while
loops spanning devices and tasks: test_distributed_while.py).

Expected placements were recorded from TensorFlow 1.x graphs run by
tensorflow-cpu (RunOptions.output_partition_graphs); values are checked
against NumPy."""
import numpy as np
import pytest

import tfc as tf
from cluster_util import Cluster, free_ports
from tfc.ops import control_flow_ops
from tfc.train import training_util


def _placed(run_metadata):
  """node name -> device from a run's partition graphs."""
  out = {}
  for pg in run_metadata.partition_graphs:
    for n in pg.node:
      out[n.name] = n.device
  return out


def _in_process_cluster(jobs):
  """tf.train.Server per task of `jobs` (job -> count), all in this process."""
  ports = iter(free_ports(sum(jobs.values())))
  spec = {job: ["localhost:%d" % next(ports) for _ in range(n)] for job, n in sorted(jobs.items())}
  cluster = tf.train.ClusterSpec(spec)
  servers = {(job, i): tf.train.Server(cluster, job_name=job, task_index=i)
             for job, n in jobs.items() for i in range(n)}
  return cluster, servers


PS = "/job:ps/replica:0/task:0/device:CPU:0"
WORKER = "/job:worker/replica:0/task:0/device:CPU:0"


def _global_step_read_graph(cluster):
  """The graph MonitoredTrainingSession's hooks build: a global step on the ps
  (replica_device_setter) read through a cond on IsVariableInitialized."""
  g = tf.Graph()
  with g.as_default():
    with tf.device(tf.train.replica_device_setter(cluster=cluster,
                                                  worker_device="/job:worker/task:0")):
      gs = tf.train.get_or_create_global_step()
      read = training_util._get_or_create_global_step_read()
  return g, gs, read


def test_ref_consumers_take_their_variables_device_under_a_device_function():
  """As in TF: an op with a Ref input is built colocated with the variable, so the
  device function's worker request does not apply to it; the cond's Switch of an
  outside value is colocated with that value."""
  cluster = tf.train.ClusterSpec({"ps": ["localhost:1"], "worker": ["localhost:2"]})
  g, _, _ = _global_step_read_graph(cluster)
  dev = {op.name: op.device for op in g.get_operations()}
  # TF 1.x: IsVariableInitialized and the RefSwitch on the ps, the cond's own ops on the worker
  assert dev["global_step/IsVariableInitialized"] == "/job:ps/task:0"
  ref_switches = [op for op in g.get_operations() if op.type == "RefSwitch"]
  assert [op.device for op in ref_switches] == ["/job:ps/task:0"]
  assert ref_switches[0].colocation_groups() == [b"loc:@global_step"]
  assert dev["global_step/cond/pred_id"] == "/job:worker/task:0"
  assert dev["global_step/cond/Merge"] == "/job:worker/task:0"
  assert dev["global_step/add"] == "/job:worker/task:0"


def test_placer_lets_a_ref_input_override_a_conflicting_request():
  """TF's placer: a node whose own device conflicts with the variable it takes by
  reference runs on the variable's device (a non-ref reader keeps its request)."""
  with tf.Graph().as_default():
    with tf.device("/cpu:0"):
      v = tf.Variable(1.0, name="v")
    with tf.device("/cpu:1"):
      a = tf.assign_add(v, 2.0, name="a")
      c = tf.identity(v, name="c")
    a.op._set_device("/device:CPU:1")
    md = tf.RunMetadata()
    with tf.Session(config=tf.ConfigProto(device_count={"CPU": 2})) as s:
      s.run(v.initializer)
      assert s.run(a, options=tf.RunOptions(output_partition_graphs=True), run_metadata=md) == 3.0
      assert s.run(c) == 3.0
  placed = _placed(md)
  assert placed["v"].endswith("CPU:0")
  assert placed["a"].endswith("CPU:0")  # TF places it there too


def test_class_colocation_conflict_is_still_an_error():
  with tf.Graph().as_default() as g:
    with tf.device("/cpu:0"):
      x = tf.constant(1.0, name="x")
    with tf.colocate_with(x):
      y = tf.identity(x, name="y")
    y.op._set_device("/cpu:1")
    with tf.Session(graph=g, config=tf.ConfigProto(device_count={"CPU": 2})) as s:
      with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot colocate nodes"):
        s.run(y)


def test_global_step_read_across_in_process_tasks():
  """The hooks' global-step read: a cond whose predicate and RefSwitch are on the ps
  and whose Merge is on the worker; before initialisation it gives the initial value
  (the read branch's tensors arrive dead on the worker), after it the variable."""
  cluster, servers = _in_process_cluster({"ps": 1, "worker": 1})
  g, gs, read = _global_step_read_graph(cluster)
  md = tf.RunMetadata()
  with g.as_default(), tf.Session(servers[("worker", 0)].target) as sess:
    opts = tf.RunOptions(output_partition_graphs=True)
    assert sess.run(read, options=opts, run_metadata=md) == 0
    sess.run(tf.global_variables_initializer())
    sess.run(tf.assign_add(gs, 7))
    assert sess.run(read) == 7
    assert sess.run(read) == 7
  placed = _placed(md)
  # as TF places them (recorded from tensorflow-cpu on the same graph)
  assert placed["global_step/IsVariableInitialized"] == PS
  assert placed["global_step"] == PS
  assert placed["global_step/cond/pred_id"] == WORKER
  assert placed["global_step/cond/Merge"] == WORKER
  switches = {n: d for n, d in placed.items() if n.startswith("global_step/cond/Switch") and "/_" not in n}
  assert set(switches.values()) == {PS}


def _branch_graph(big=False):
  """A cond with its predicate fed on the worker, a value on the ps, and branches
  spread over both tasks: the true branch computes on the ps (a partition with no
  control-flow op of its own), the false branch on the worker."""
  g = tf.Graph()
  shape = (512, 1024) if big else (3,)   # 2 MiB: the side data planes carry it
  base = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
  with g.as_default():
    with tf.device("/job:ps/task:0"):
      v = tf.Variable(base, name="v_big" if big else "v")   # ps variables outlive sessions
      count = tf.Variable(0, name="count_big" if big else "count")
    with tf.device("/job:worker/task:0"):
      pred = tf.placeholder(tf.bool, [], name="pred")
      x = tf.identity(v.value()) + 1.0   # worker value, its Switch on the worker

      def true_fn():
        with tf.device("/job:ps/task:0"):
          y = x * 2.0
          with tf.control_dependencies([tf.assign_add(count, 1)]):
            return tf.identity(y)

      def false_fn():
        return x - 1.0

      out = tf.cond(pred, true_fn, false_fn)
      total = tf.reduce_sum(out)
  return g, base, pred, out, total, count, v


def _run_branches(target, g, base, pred, out, total, count, v, rounds=2):
  with g.as_default(), tf.Session(target) as sess:
    sess.run(tf.global_variables_initializer())
    for r in range(rounds):
      got = sess.run(out, {pred: True})
      np.testing.assert_array_equal(got, (base + 1.0) * 2.0)
      np.testing.assert_array_equal(sess.run(out, {pred: False}), base)
      assert sess.run(total, {pred: False}) == pytest.approx(float(base.sum()), rel=1e-6)
      assert sess.run(count) == r + 1   # the true branch's assign ran once per true run


def test_cond_branches_on_two_local_devices():
  g, base, pred, out, total, count, v = _branch_graph()
  with g.as_default():
    for op in g.get_operations():
      op._set_device(op.device.replace("/job:ps/task:0", "/cpu:1").replace("/job:worker/task:0", "/cpu:0"))
    with tf.Session(config=tf.ConfigProto(device_count={"CPU": 2})) as sess:
      sess.run(tf.global_variables_initializer())
      np.testing.assert_array_equal(sess.run(out, {pred: True}), (base + 1.0) * 2.0)
      np.testing.assert_array_equal(sess.run(out, {pred: False}), base)
      assert sess.run(count) == 1


def test_cond_branches_across_in_process_tasks():
  _, servers = _in_process_cluster({"ps": 1, "worker": 1})
  _run_branches(servers[("worker", 0)].target, *_branch_graph())


@pytest.mark.parametrize("plane", ["grpc", "same_host", "tcp"])
def test_dead_tensors_cross_every_data_plane(plane):
  """Separate server processes; the live 2 MiB tensor takes the plane under test
  (process_vm_readv, the TCP plane, or gRPC with direct reads refused), the dead
  one always arrives as RecvTensorResponse.is_dead."""
  env = {"grpc": {"TFC_SAME_HOST_READ": "0"}, "same_host": {}, "tcp": {"TFC_DATA_PLANE": "tcp"}}[plane]
  c = Cluster({"ps": 1, "worker": 1}, env=env)
  try:
    _run_branches(c.target("worker", 0), *_branch_graph(big=True))
    _run_branches(c.target("worker", 0), *_branch_graph(big=False))
  finally:
    codes = c.stop()
  assert all(code == 0 for code in codes.values()), codes


def test_global_step_read_across_server_processes():
  c = Cluster({"ps": 1, "worker": 1})
  try:
    cluster = tf.train.ClusterSpec(c.spec)
    g, gs, read = _global_step_read_graph(cluster)
    with g.as_default(), tf.Session(c.target("worker", 0)) as sess:
      assert sess.run(read) == 0
      sess.run(tf.global_variables_initializer())
      sess.run(tf.assign_add(gs, 3))
      assert sess.run(read) == 3
  finally:
    codes = c.stop()
  assert all(code == 0 for code in codes.values()), codes


def test_fetching_an_untaken_branch_across_tasks_is_an_error():
  """A tensor on the untaken side of a Switch, fetched from a worker, is TF's
  InternalError naming its rendezvous key (never a crash or a hang)."""
  c = Cluster({"ps": 1, "worker": 1})
  try:
    g = tf.Graph()
    with g.as_default():
      with tf.device("/job:worker/task:0"):
        pred = tf.placeholder(tf.bool, [])
        x = tf.constant(3.0)
      with tf.device("/job:ps/task:0"):
        f, t = control_flow_ops.switch(x, pred)
        y = t * 2.0
    with g.as_default(), tf.Session(c.target("worker", 0)) as sess:
      assert sess.run(y, {pred: True}) == 6.0
      with pytest.raises(tf.errors.InternalError, match="The tensor returned for .* was not valid"):
        sess.run(y, {pred: False})
      assert sess.run(y, {pred: True}) == 6.0
  finally:
    c.stop()


def test_ps_killed_while_a_cross_task_cond_waits_on_it():
  """The taken branch blocks on the ps (a dequeue from an empty queue there); the ps
  process is killed mid-step: the run fails with an error naming the ps task, with
  no hang and no abort of the worker, which serves new steps once the ps is back."""
  import threading
  import time
  c = Cluster({"ps": 1, "worker": 1})
  try:
    g = tf.Graph()
    with g.as_default():
      with tf.device("/job:ps/task:0"):
        q = tf.FIFOQueue(4, tf.float32, shapes=[[]], shared_name="q")
      with tf.device("/job:worker/task:0"):
        pred = tf.placeholder(tf.bool, [])
        x = tf.constant(1.0)

        def wait_on_ps():
          with tf.device("/job:ps/task:0"):
            return q.dequeue() + x

        out = tf.cond(pred, wait_on_ps, lambda: x * 5.0)
      with tf.device("/job:worker/task:0"):
        alone = tf.constant(4.0) * 2.0
    with g.as_default(), tf.Session(c.target("worker", 0)) as sess:
      assert sess.run(out, {pred: False}) == 5.0
      killer = threading.Timer(1.0, c.kill, ("ps", 0))
      killer.start()
      t0 = time.time()
      with pytest.raises((tf.errors.UnavailableError, tf.errors.AbortedError)) as e:
        sess.run(out, {pred: True})
      killer.join()
      assert time.time() - t0 < 30
      assert "/job:ps/replica:0/task:0" in str(e.value)
    c.restart("ps", 0)
    with g.as_default(), tf.Session(c.target("worker", 0)) as sess:
      assert sess.run(alone) == 8.0
      # the worker's channel to the old ps process may fail one call
      # (UnavailableError, "Socket closed") before gRPC reconnects
      for attempt in range(3):
        try:
          assert sess.run(out, {pred: False}) == 5.0
          break
        except tf.errors.UnavailableError:
          if attempt == 2:
            raise
  finally:
    codes = c.stop()
  assert codes[("worker", 0)] == 0, codes
