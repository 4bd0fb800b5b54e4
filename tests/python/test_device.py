"""Device specs: DeviceSpec parsing/merging, tf.device stacks, device functions,
replica_device_setter and ClusterSpec, and running on two local CPU devices."""
import numpy as np
import pytest

import tfc as tf




@pytest.fixture
def g():
  graph = tf.Graph()
  with graph.as_default():
    yield graph


def test_device_spec_parse_and_format():
  d = tf.DeviceSpec.from_string("/job:ps/replica:1/task:2/device:GPU:3")
  assert (d.job, d.replica, d.task, d.device_type, d.device_index) == ("ps", 1, 2, "GPU", 3)
  assert d.to_string() == "/job:ps/replica:1/task:2/device:GPU:3"
  assert tf.DeviceSpec.from_string("/cpu:0").to_string() == "/device:CPU:0"
  assert tf.DeviceSpec.from_string("/gpu:*").to_string() == "/device:GPU:*"
  assert tf.DeviceSpec(job="worker", task=1).to_string() == "/job:worker/task:1"
  base = tf.DeviceSpec.from_string("/job:ps/task:0")
  base.merge_from(tf.DeviceSpec.from_string("/task:3/device:CPU:1"))
  assert base.to_string() == "/job:ps/task:3/device:CPU:1"
  with pytest.raises(ValueError, match="Unknown attribute"):
    tf.DeviceSpec.from_string("/foo:bar")
  with pytest.raises(ValueError, match="multiple device types"):
    tf.DeviceSpec.from_string("/cpu:0/gpu:0")


def test_device_stack_merging(g):
  with tf.device("/job:ps"):
    a = tf.constant(1.0)
    with tf.device("/task:1"):
      b = tf.constant(1.0)
      with tf.device("/cpu:0"):
        c = tf.constant(1.0)
      with tf.device(None):
        d = tf.constant(1.0)
      with tf.device(""):
        e = tf.constant(1.0)
    with tf.device("/job:worker"):
      f = tf.constant(1.0)
  with tf.device(tf.DeviceSpec(job="x", device_type="CPU", device_index=0)):
    h = tf.constant(1.0)
  assert [t.device for t in (a, b, c, d, e, f, h)] == [
      "/job:ps", "/job:ps/task:1", "/job:ps/task:1/device:CPU:0", "", "/job:ps/task:1",
      "/job:worker", "/job:x/device:CPU:0"]
  assert tf.constant(0.0).device == ""


def test_device_functions(g):
  seen = []

  def fn(op):
    seen.append((op.type, op.device))
    return "/device:CPU:0" if op.type == "Const" else "/job:other"

  with tf.device("/job:outer"):
    with tf.device(fn):
      a = tf.constant(1.0)
      b = tf.identity(a)
      with tf.device("/task:2"):
        c = tf.constant(2.0)
  assert a.device == "/job:outer/device:CPU:0"
  assert b.device == "/job:other"
  # the function replaces the inner spec; the outer string spec merges under it
  assert c.device == "/job:outer/device:CPU:0"
  assert seen[:2] == [("Const", ""), ("Identity", "")]
  assert seen[2] == ("Const", "/task:2")


def test_variable_pinning(g):
  loc = tf.Variable("local_cpu")
  assert loc.device == ""
  param_servers = ["/job:ps/task:0", "/job:ps/task:1"]
  for ps in param_servers:
    with tf.device(ps):
      v = tf.Variable("my_var")
  assert v.device == "/job:ps/task:1"
  assert v.value().device == "/job:ps/task:1"
  assert v.initializer.device == "/job:ps/task:1"


def test_cluster_spec():
  cluster = {"ps": ["ps0:2222", "ps1:2222"], "worker": ["w0", "w1:2222"]}
  spec = tf.train.ClusterSpec(cluster)
  assert spec.jobs == ["ps", "worker"]
  assert tf.train.ClusterSpec({"worker": ["a"], "ps": ["b"]}).jobs == ["worker", "ps"]
  assert spec.job_tasks("worker") == ["w0", "w1:2222"]
  assert spec.num_tasks("ps") == 2
  assert spec.task_indices("ps") == [0, 1]
  assert spec.task_address("ps", 1) == "ps1:2222"
  assert spec.as_dict() == cluster
  assert spec == tf.train.ClusterSpec(spec)
  assert str(spec) == ("ClusterSpec({'ps': ['ps0:2222', 'ps1:2222'], "
                       "'worker': ['w0', 'w1:2222']})")
  sparse = tf.train.ClusterSpec({"worker": {1: "x", 3: "y"}})
  assert sparse.as_dict() == {"worker": {1: "x", 3: "y"}}
  assert sparse.job_tasks("worker") == [None, "x", None, "y"]
  with pytest.raises(ValueError, match="No such job in cluster: 'nope'"):
    spec.num_tasks("nope")
  with pytest.raises(TypeError):
    tf.train.ClusterSpec({"ps": "notalist"})
  cdef = spec.as_cluster_def()
  assert [j.name for j in cdef.job] == ["ps", "worker"]
  assert dict(cdef.job[0].tasks) == {0: "ps0:2222", 1: "ps1:2222"}
  assert 'job {\n  name: "ps"\n  tasks {\n    key: 0\n    value: "ps0:2222"\n  }\n' in str(cdef)
  assert tf.train.ClusterSpec(cdef).as_dict() == cluster


def test_replica_device_setter_round_robin(g):
  cluster = tf.train.ClusterSpec({"ps": ["a:1", "b:2"], "worker": ["w0", "w1"]})
  with tf.device(tf.train.replica_device_setter(cluster=cluster)):
    v1 = tf.Variable(1.0)
    v2 = tf.Variable(2.0)
    v3 = tf.Variable(3.0)
    s = v1 + v2
    p = tf.placeholder(tf.int32)
  assert [v.device for v in (v1, v2, v3)] == ["/job:ps/task:0", "/job:ps/task:1",
                                               "/job:ps/task:0"]
  assert v1.initializer.device == "/job:ps/task:0"
  assert v1.value().device == "/job:ps/task:0"
  assert v1.initial_value.device == "/job:worker"
  assert s.device == "/job:worker" and p.device == "/job:worker"
  with tf.device(tf.train.replica_device_setter(ps_tasks=3, worker_device="/job:worker/task:1")):
    w = tf.Variable(1.0)
    with tf.device("/job:foo"):
      z = tf.Variable(1.0)
      y = w * 2.0
  assert w.device == "/job:ps/task:0"
  assert z.device == "/job:foo"
  assert y.device == "/job:foo/task:1"
  assert tf.train.replica_device_setter(cluster={"worker": ["w"]}) is None
  assert tf.train.replica_device_setter() is None


def test_two_local_cpu_devices(g):
  with tf.device("/cpu:0"):
    a = tf.constant([1.0, 2.0, 3.0])
  with tf.device("/cpu:1"):
    b = a * 2.0
  with tf.device("/device:CPU:0"):
    c = tf.reduce_sum(b)
  config = tf.ConfigProto(device_count={"CPU": 2})
  with tf.Session(config=config) as sess:
    assert sess.run(c) == pytest.approx(12.0)
    np.testing.assert_allclose(sess.run(b), [2.0, 4.0, 6.0])
  with tf.device("/cpu:7"):
    missing = tf.constant(1.0) + 1.0
  with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
    assert sess.run(missing) == 2.0
  with tf.device("/job:ps/task:0"):
    remote = tf.constant(1.0) + 1.0
  with tf.Session() as sess:
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot assign a device"):
      sess.run(remote)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot assign a device"):
      sess.run(missing)
