"""The distributed runtime on real clusters of `python -m tfc.server` processes on
local ports: tf.train.Server, grpc:// sessions, seed 001's cluster cells and seed
004's snippets (host names replaced by localhost ports), variables on ps tasks,
errors naming the task."""
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import tfc as tf
from cluster_util import Cluster, free_ports


@pytest.fixture(scope="module")
def cluster():
  c = Cluster({"ps": 2, "worker": 2})
  yield c
  c.stop()


def _cluster_spec(c):
  return tf.train.ClusterSpec(c.spec)


# ------------------------------------------------------------------ seed 004


def test_seed_004_create_local_server():
  c = tf.constant('Hi to distributed TensorFlow!')
  server = tf.train.Server.create_local_server()
  assert server.target.startswith("grpc://localhost:")
  sess = tf.Session(server.target)
  assert sess.run(c) == b'Hi to distributed TensorFlow!'
  sess.close()
  server.stop()


def test_server_properties_and_server_def():
  port = free_ports(1)[0]
  cluster = tf.train.ClusterSpec({"local": ["localhost:%d" % port]})
  server = tf.train.Server(cluster, job_name="local", task_index=0)
  try:
    assert server.target == "grpc://localhost:%d" % port
    assert server.server_def.job_name == "local"
    assert server.server_def.task_index == 0
    assert server.server_def.protocol == "grpc"
    assert tf.train.ClusterSpec(server.server_def.cluster).as_dict() == {"local": ["localhost:%d" % port]}
  finally:
    server.stop()


def test_server_rejects_unknown_task():
  with pytest.raises(tf.errors.InvalidArgumentError):
    tf.train.Server({"local": ["localhost:0"]}, job_name="local", task_index=3)
  with pytest.raises(ValueError):
    tf.train.Server({"a": ["localhost:0"], "b": ["localhost:0"]})


def test_seed_004_two_local_tasks_in_process():
  ports = free_ports(2)
  cluster = tf.train.ClusterSpec({"local": ["localhost:%d" % p for p in ports]})
  s0 = tf.train.Server(cluster, job_name='local', task_index=0)
  s1 = tf.train.Server(cluster, job_name='local', task_index=1)
  try:
    g = tf.Graph()
    with g.as_default():
      with tf.device("/job:local/task:1"):
        a = tf.constant([1.0, 2.0])
        b = a * 10.0
      with tf.device("/job:local/task:0"):
        c = b + 1.0
    with tf.Session(s0.target, graph=g) as sess:
      np.testing.assert_allclose(sess.run(c), [11.0, 21.0])
      names = [d.name for d in sess.list_devices()]
      assert names == ["/job:local/replica:0/task:0/device:CPU:0",
                       "/job:local/replica:0/task:1/device:CPU:0"]
  finally:
    s0.stop()
    s1.stop()


def test_seed_004_ps_worker_pinning(cluster):
  g = tf.Graph()
  with g.as_default():
    with tf.device('/job:ps/task:0'):
      w1 = tf.Variable(tf.ones([4, 3]), name="w1")
      b1 = tf.Variable(tf.zeros([3]), name="b1")
    with tf.device('/job:ps/task:1'):
      w2 = tf.Variable(tf.ones([3, 2]) * 0.5, name="w2")
      b2 = tf.Variable(tf.zeros([2]), name="b2")
    with tf.device("/job:worker/task:1"):
      inp = tf.placeholder(tf.float32, [None, 4])
      layer_1 = tf.nn.relu(tf.matmul(inp, w1) + b1)
      logits = tf.nn.relu(tf.matmul(layer_1, w2) + b2)
      loss = tf.reduce_mean(tf.square(logits))
      train_op = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
    init = tf.global_variables_initializer()
  x = np.ones([5, 4], np.float32)
  with tf.Session(cluster.target("worker", 0), graph=g) as sess:
    sess.run(init)
    first = sess.run(loss, {inp: x})
    np.testing.assert_allclose(first, 36.0, rtol=1e-6)
    for _ in range(10):
      sess.run(train_op, {inp: x})
    assert sess.run(loss, {inp: x}) < first
  # the same graph run locally gives the same numbers
  with tf.Session(graph=g, config=tf.ConfigProto(allow_soft_placement=True)) as local:
    local.run(init)
    for _ in range(10):
      local.run(train_op, {inp: x})
    with tf.Session(cluster.target("worker", 0), graph=g) as sess:
      np.testing.assert_allclose(sess.run(loss, {inp: x}), local.run(loss, {inp: x}), rtol=1e-5)


# ------------------------------------------------------------------ seed 001


def test_seed_001_cluster_cells(cluster):
  cluster_def = dict(cluster.spec)
  clusterSpec = tf.train.ClusterSpec(cluster_def)
  workers = ['/job:worker/task:{}'.format(i) for i in range(len(cluster_def['worker']))]
  graph = tf.Graph()
  with graph.as_default():
    all_reduce = []
    with tf.device(tf.train.replica_device_setter(cluster=clusterSpec)):
      input_array = tf.placeholder(tf.int32, shape=[None])
      final_result = tf.Variable(0)
    splitted = tf.split(0, len(workers), input_array)
    for idx, (portion, worker) in enumerate(zip(splitted, workers)):
      with tf.device(worker):
        local_reduce = tf.reduce_sum(portion)
        local_reduce = tf.Print(portion, [local_reduce], message="portion is")
        all_reduce.append(local_reduce)
    final_result = tf.reduce_sum(tf.pack(all_reduce))
  run_options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
  run_metadata = tf.RunMetadata()
  with tf.Session(cluster.target("worker", 0), graph=graph) as session:
    result = session.run(final_result, feed_dict={input_array: np.ones([1000])},
                         options=run_options, run_metadata=run_metadata)
  assert result == 1000
  assert final_result.device == ""
  # FULL_TRACE: every task that ran a partition reports its nodes under its full device name
  by_device = {d.device: {n.node_name for n in d.node_stats} for d in run_metadata.step_stats.dev_stats}
  assert set(by_device) <= {"/job:%s/replica:0/task:%d/device:CPU:0" % (j, i)
                            for j in ("ps", "worker") for i in range(2)}
  printers = [n for n in graph.get_operations() if n.type == "Print"]
  for i, op in enumerate(printers):
    assert op.name in by_device["/job:worker/replica:0/task:%d/device:CPU:0" % i]
  for d in run_metadata.step_stats.dev_stats:
    for n in d.node_stats:
      assert n.all_start_micros > 0 and n.all_end_rel_micros >= 0
  # each worker printed its portion's sum in its own log
  deadline = time.time() + 5
  while time.time() < deadline and not all("portion is[500]" in cluster.log("worker", i)
                                           for i in range(2)):
    time.sleep(0.05)
  for i in range(2):
    assert "portion is[500]" in cluster.log("worker", i)


def test_partition_graphs_from_every_task(cluster):
  g = tf.Graph()
  with g.as_default():
    with tf.device("/job:ps/task:1"):
      a = tf.constant(3.0, name="a")
    with tf.device("/job:worker/task:1"):
      b = tf.multiply(a, 2.0, name="b")
  md = tf.RunMetadata()
  with tf.Session(cluster.target("worker", 0), graph=g) as sess:
    out = sess.run(b, options=tf.RunOptions(output_partition_graphs=True), run_metadata=md)
  assert out == 6.0
  assert len(md.partition_graphs) == 2  # one GraphDef per task that ran something
  devices = sorted({n.device for pg in md.partition_graphs for n in pg.node})
  assert devices == ["/job:ps/replica:0/task:1/device:CPU:0",
                     "/job:worker/replica:0/task:1/device:CPU:0"]
  ops = sorted(n.op for pg in md.partition_graphs for n in pg.node)
  assert ops.count("_Send") == 2 and ops.count("_Recv") == 1


# ------------------------------------------------------------------ sessions


def test_feeds_fetches_targets_and_extend(cluster):
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [None], name="x")
    with tf.device("/job:ps/task:0"):
      y = tf.add(x, 1.0, name="y")
  with tf.Session(cluster.target("worker", 1), graph=g) as sess:
    np.testing.assert_allclose(sess.run(y, {x: [1.0, 2.0]}), [2.0, 3.0])
    # fetching a fed tensor returns the fed value
    out = sess.run([y, x], {x: [5.0]})
    np.testing.assert_allclose(out[0], [6.0])
    np.testing.assert_allclose(out[1], [5.0])
    # the graph grows after the first run: the new nodes reach the master
    with g.as_default():
      with tf.device("/job:worker/task:0"):
        z = tf.multiply(y, 3.0, name="z")
      s = tf.reduce_sum(z)
    assert sess.run({"z": z, "s": s}, {x: [1.0, 1.0]}) == {"z": pytest.approx([6.0, 6.0]), "s": 12.0}
    # strings and int64 travel too
    with g.as_default():
      with tf.device("/job:ps/task:1"):
        t = tf.constant(["a", "bc"])
        n = tf.constant(np.arange(6, dtype=np.int64).reshape(2, 3))
    texts, ints = sess.run([t, n])
    assert list(texts) == [b"a", b"bc"]
    np.testing.assert_array_equal(ints, np.arange(6).reshape(2, 3))


def test_variables_persist_across_sessions_until_reset(cluster):
  def build():
    g = tf.Graph()
    with g.as_default():
      with tf.device("/job:ps/task:0"):
        v = tf.Variable(10.0, name="persistent_v")
      inc = tf.assign_add(v, 1.0)
    return g, v, inc
  g, v, inc = build()
  target = cluster.target("worker", 0)
  with tf.Session(target, graph=g) as sess:
    sess.run(v.initializer)
    sess.run(inc)
  g2, v2, inc2 = build()
  with tf.Session(target, graph=g2) as sess:
    assert sess.run(v2) == 11.0  # still there for a new client session and graph
  tf.Session.reset(target)
  g3, v3, _ = build()
  with tf.Session(target, graph=g3) as sess:
    with pytest.raises(tf.errors.FailedPreconditionError):
      sess.run(v3)


@pytest.mark.parametrize("direct", [True, False])
def test_large_tensor_between_tasks_on_one_host(direct):
  """Tensors of 1 MiB and more between tfc tasks on one host are copied straight out of
  the sender's memory; with direct reads refused they come back over gRPC."""
  env = None if direct else {"TFC_SAME_HOST_READ": "0"}
  c = Cluster({"ps": 1, "worker": 1}, env=env)
  try:
    g = tf.Graph()
    data = np.arange(3 * 1024 * 1024, dtype=np.float32).reshape(1024, 3072)
    with g.as_default():
      with tf.device("/job:ps/task:0"):
        v = tf.Variable(data)
        s = tf.constant(["x" * 100] * 20000)  # strings always travel over gRPC
      with tf.device("/job:worker/task:0"):
        w = tf.identity(v) * 2.0
        total = tf.reduce_sum(tf.identity(v)[:, :10])
        n = tf.size(tf.identity(s))
    with tf.Session(c.target("worker", 0), graph=g) as sess:
      sess.run(v.initializer)
      for _ in range(2):
        np.testing.assert_array_equal(sess.run(w), data * 2.0)
        assert sess.run(total) == pytest.approx(float(data[:, :10].sum()), rel=1e-6)
      assert sess.run(n) == 20000
  finally:
    c.stop()


def test_list_devices_of_the_cluster(cluster):
  with tf.Session(cluster.target("ps", 1), graph=tf.Graph()) as sess:
    devs = sess.list_devices()
  names = [d.name for d in devs]
  assert names[0] == "/job:ps/replica:0/task:1/device:CPU:0"
  assert sorted(names) == sorted("/job:%s/replica:0/task:%d/device:CPU:0" % (j, i)
                                 for j in ("ps", "worker") for i in range(2))
  assert all(d.device_type == "CPU" and d.incarnation != 0 for d in devs)


def test_make_callable_on_grpc_session(cluster):
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [])
    with tf.device("/job:ps/task:1"):
      y = x * x
  with tf.Session(cluster.target("worker", 0), graph=g) as sess:
    f = sess.make_callable(y, [x])
    assert f(3.0) == 9.0
    assert f(4.0) == 16.0


# ------------------------------------------------------------------ errors


def test_bad_feed_and_bad_device_errors(cluster):
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [2])
    with tf.device("/job:ps/task:0"):
      y = x + 1.0
    with tf.device("/job:nosuchjob/task:0"):
      z = tf.constant(1.0) + 1.0
  with tf.Session(cluster.target("worker", 0), graph=g) as sess:
    with pytest.raises(ValueError):
      sess.run(y, {x: [1.0, 2.0, 3.0]})  # shape checked on the client, as TF does
    # a device no task has: TF's placement error
    with pytest.raises(tf.errors.InvalidArgumentError, match="nosuchjob"):
      sess.run(z)
  # soft placement maps an unknown job onto an existing device
  config = tf.ConfigProto(allow_soft_placement=True)
  with tf.Session(cluster.target("worker", 0), graph=g, config=config) as sess:
    assert sess.run(z) == 2.0


def test_device_filters_and_log_device_placement(cluster):
  g = tf.Graph()
  with g.as_default():
    with tf.device("/job:ps/task:1"):
      a = tf.constant(3.0, name="filtered_const")
    b = tf.multiply(a, 2.0, name="logged_mul")
  # only the master's own task and ps 0 are in the session: ps 1's node is soft-placed
  config = tf.ConfigProto(device_filters=["/job:ps/task:0"], allow_soft_placement=True,
                          log_device_placement=True)
  md = tf.RunMetadata()
  with tf.Session(cluster.target("worker", 1), graph=g, config=config) as sess:
    assert sess.run(b, options=tf.RunOptions(output_partition_graphs=True), run_metadata=md) == 6.0
  devices = {n.device for pg in md.partition_graphs for n in pg.node}
  assert "/job:ps/replica:0/task:1/device:CPU:0" not in devices
  # the master logs each node's placement in its own process, as TF does
  deadline = time.time() + 5
  while time.time() < deadline and "logged_mul: (Mul): /job:worker/replica:0/task:1" not in cluster.log("worker", 1):
    time.sleep(0.05)
  assert "logged_mul: (Mul): /job:worker/replica:0/task:1/device:CPU:0" in cluster.log("worker", 1)


def test_runtime_error_names_the_task(cluster):
  g = tf.Graph()
  with g.as_default():
    with tf.device("/job:ps/task:1"):
      v = tf.Variable(1.0, name="never_initialized")
      y = v * 2.0
  with tf.Session(cluster.target("worker", 0), graph=g) as sess:
    with pytest.raises(tf.errors.FailedPreconditionError) as e:
      sess.run(y)
  assert "/job:ps/replica:0/task:1" in str(e.value)
  assert "never_initialized" in str(e.value)


def test_unreachable_target_is_unavailable():
  port = free_ports(1)[0]
  g = tf.Graph()
  with g.as_default():
    c = tf.constant(1.0)
  config = tf.ConfigProto(operation_timeout_in_ms=2000)
  with tf.Session("grpc://localhost:%d" % port, graph=g, config=config) as sess:
    with pytest.raises(tf.errors.UnavailableError):
      sess.run(c)


def test_killed_ps_gives_unavailable_naming_it_and_restart_serves():
  c = Cluster({"ps": 1, "worker": 1})
  try:
    g = tf.Graph()
    with g.as_default():
      with tf.device("/job:ps/task:0"):
        a = tf.constant(2.0)
      with tf.device("/job:worker/task:0"):
        b = a * 3.0
    with tf.Session(c.target("worker", 0), graph=g) as sess:
      assert sess.run(b) == 6.0
      c.kill("ps", 0)
      t0 = time.time()
      with pytest.raises(tf.errors.UnavailableError) as e:
        sess.run(b)
      assert time.time() - t0 < 5
      assert "/job:ps/replica:0/task:0" in str(e.value)
    c.restart("ps", 0)
    with tf.Session(c.target("worker", 0), graph=g) as sess:
      assert sess.run(b) == 6.0
  finally:
    c.stop()


def _ld(field, data):
  """A length-delimited protobuf field (short values)."""
  return bytes([field << 3 | 2, len(data)]) + data


def test_wire_errors_match_tf(cluster):
  from tfc import _tfc
  addr = cluster.address("worker", 0)
  # a request that is not a protobuf message: INTERNAL, as TF answers
  for method in ("/tensorflow.MasterService/RunStep", "/tensorflow.WorkerService/RunGraph"):
    with pytest.raises(tf.errors.InternalError, match="Unable to parse request"):
      _tfc._grpc_call(addr, method, b"\xff\xff\xff")
  # an unknown session handle: ABORTED
  with pytest.raises(tf.errors.AbortedError, match="Session nope is not found"):
    _tfc._grpc_call(addr, "/tensorflow.MasterService/RunStep", _ld(1, b"nope"))
  with pytest.raises(tf.errors.AbortedError, match="Session nope is not found"):
    _tfc._grpc_call(addr, "/tensorflow.MasterService/CloseSession", _ld(1, b"nope"))
  # a bad rendezvous key: INVALID_ARGUMENT
  with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid rendezvous key"):
    _tfc._grpc_call(addr, "/tensorflow.WorkerService/RecvTensor", b"\x08\x01" + _ld(2, b"bad"))
  # a method neither service has: UNIMPLEMENTED
  with pytest.raises(tf.errors.UnimplementedError):
    _tfc._grpc_call(addr, "/tensorflow.grpc.WorkerService/GetStatus", b"")
  # GetStatus answers with the task's device and a non-zero incarnation
  out = _tfc._grpc_call(addr, "/tensorflow.WorkerService/GetStatus", b"")
  assert b"/job:worker/replica:0/task:0/device:CPU:0" in out and b"CPU" in out


# ------------------------------------------------------------------ launcher


def test_tfc_server_from_tf_config_exits_cleanly_on_sigterm():
  c = Cluster({"worker": 1}, use_tf_config=True)
  try:
    g = tf.Graph()
    with g.as_default():
      k = tf.constant(7)
    with tf.Session(c.target("worker", 0), graph=g) as sess:
      assert sess.run(k) == 7
  finally:
    codes = c.stop()
  assert codes == {("worker", 0): 0}
  assert "listening on " + c.address("worker", 0) in c.log("worker", 0)


def test_import_starts_no_grpc():
  code = ("import os, numpy; before = len(os.listdir('/proc/self/task')); "
          "import tfc, tfc.train, tfc._tfc as m; "
          "after = len(os.listdir('/proc/self/task')); "
          "print(before, after, m._grpc_initialized()); "
          "g = tfc.Graph()\n"
          "with g.as_default(): c = tfc.constant(1.0)\n"
          "tfc.Session(graph=g).run(c); print(m._grpc_initialized()); "
          "s = tfc.train.Server.create_local_server(); print(m._grpc_initialized()); s.stop()")
  out = subprocess.check_output([sys.executable, "-c", code], text=True).split()
  assert out[0] == out[1]  # importing tfc starts no thread
  assert out[2:] == ["False", "False", "True"]  # gRPC starts with the first server only


def test_fork_after_grpc_started_fails_cleanly_in_the_child():
  code = r'''
import os, sys
import tfc as tf
server = tf.train.Server.create_local_server()
g = tf.Graph()
with g.as_default():
  c = tf.constant(5.0)
with tf.Session(server.target, graph=g) as sess:
  assert sess.run(c) == 5.0
pid = os.fork()
if pid == 0:
  try:
    with tf.Session(server.target, graph=g) as s:
      s.run(c)
    os._exit(3)
  except tf.errors.UnavailableError as e:
    os._exit(0 if "fork" in str(e) else 4)
  except BaseException:
    os._exit(5)
_, status = os.waitpid(pid, 0)
print("child", os.waitstatus_to_exitcode(status))
# the parent keeps working
with tf.Session(server.target, graph=g) as sess:
  print("parent", sess.run(c))
server.stop()
'''
  out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
  assert out.returncode == 0, out.stderr
  assert "child 0" in out.stdout and "parent 5.0" in out.stdout


def test_concurrent_runs_from_threads_and_sessions(cluster):
  import threading
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [None])
    with tf.device("/job:ps/task:0"):
      a = x * 2.0
    with tf.device("/job:worker/task:1"):
      y = a + 1.0
  sessions = [tf.Session(cluster.target("worker", i % 2), graph=g) for i in range(2)]
  errors = []

  def work(k):
    try:
      sess = sessions[k % 2]
      for i in range(30):
        v = np.array([k, i], np.float32)
        np.testing.assert_allclose(sess.run(y, {x: v}), v * 2.0 + 1.0)
    except Exception as e:  # pylint: disable=broad-except
      errors.append(e)
  threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
  for t in threads:
    t.start()
  for t in threads:
    t.join(60)
  for s in sessions:
    s.close()
  assert not errors, errors[:3]


def test_run_timeout_gives_deadline_exceeded(cluster):
  g = tf.Graph()
  with g.as_default():
    with tf.device("/job:worker/task:1"):
      m = tf.random_normal([1500, 1500], seed=1)
      for _ in range(6):
        m = tf.tanh(tf.matmul(m, m) * 1e-3)
      slow = tf.reduce_sum(m)
    fast = tf.constant(1.0)
  with tf.Session(cluster.target("worker", 0), graph=g) as sess:
    with pytest.raises(tf.errors.DeadlineExceededError):
      sess.run(slow, options=tf.RunOptions(timeout_in_ms=5))
    assert sess.run(fast, options=tf.RunOptions(timeout_in_ms=10000)) == 1.0
  config = tf.ConfigProto(operation_timeout_in_ms=5)
  with tf.Session(cluster.target("worker", 0), graph=g, config=config) as sess:
    with pytest.raises(tf.errors.DeadlineExceededError):
      sess.run(slow)
