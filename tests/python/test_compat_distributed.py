"""Wire compatibility with real TensorFlow's distributed runtime (part of `make compat`):
a TF client on a tfc server, a tfc client on a TF server, and clusters mixing tfc and
TF tasks in both directions. TensorFlow runs in its own venv (.venv-tf, or the
interpreter in TFC_TF_PYTHON); without it these tests skip, unless
TFC_COMPAT_REQUIRED=1 makes that a failure."""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import tfc as tf
from cluster_util import free_ports

REPO = pathlib.Path(__file__).resolve().parents[2]
TF_PY = os.environ.get("TFC_TF_PYTHON", str(REPO / ".venv-tf" / "bin" / "python"))

TF_SERVER = """
import json, os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow as tf
s = tf.distribute.Server(json.loads(sys.argv[1]), job_name=sys.argv[2], task_index=int(sys.argv[3]))
print("listening", flush=True)
s.join()
"""

TF_CLIENT = """
import json, os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
target, pin = sys.argv[1], json.loads(sys.argv[2])
out = {}
g = tf.Graph()
with g.as_default():
  with tf.device(pin["vars"]):
    v = tf.Variable([1.0, 2.0], name="v", use_resource=False)
    never = tf.Variable(0.0, name="never_initialized", use_resource=False)
  with tf.device(pin["compute"]):
    x = tf.placeholder(tf.float32, [2], name="x")
    y = v * 10.0 + x
    bad = never + 1.0
with tf.Session(target, graph=g, config=tf.ConfigProto(operation_timeout_in_ms=20000)) as sess:
  out["devices"] = [d.name for d in sess.list_devices()]
  sess.run(v.initializer)
  out["y"] = sess.run(y, {x: [1.0, 1.0]}).tolist()
  f = sess.make_callable(y, [x])  # MakeCallable / RunCallable / ReleaseCallable on the master
  out["callable"] = [f([1.0, 1.0]).tolist(), f([2.0, 3.0]).tolist()]
  del f
  sess.run(tf.assign_add(v, [1.0, 1.0]))
  out["v"] = sess.run(v).tolist()
  try:
    sess.run(bad)
  except tf.errors.OpError as e:
    out["error"] = type(e).__name__
    out["message"] = str(e)
print(json.dumps(out))
"""


TF_RESOURCE_CLIENT = """
import json, os, sys
import numpy as np
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()
g = tf.Graph()
with g.as_default():
  x = tf.placeholder(tf.float32, [None, 2])
  y = tf.placeholder(tf.float32, [None, 1])
  w = tf.Variable(tf.zeros([2, 1]), name="w")   # resource variables: TF 2's default
  b = tf.Variable(0.0, name="b")
  loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
  opts = [("sgd", tf.train.GradientDescentOptimizer(0.1)), ("adam", tf.train.AdamOptimizer(0.05)),
          ("momentum", tf.train.MomentumOptimizer(0.05, 0.9)), ("adagrad", tf.train.AdagradOptimizer(0.3)),
          ("rmsprop", tf.train.RMSPropOptimizer(0.01)),
          ("centered_rmsprop", tf.train.RMSPropOptimizer(0.01, centered=True))]
  steps = [(name, opt.minimize(loss)) for name, opt in opts]
  inc = w.assign_add(tf.ones([2, 1]))
  gathered = tf.gather(w, [1, 0])
  init = tf.global_variables_initializer()
  uninit = tf.report_uninitialized_variables()
X = np.random.RandomState(0).randn(64, 2).astype(np.float32)
Y = X @ np.array([[2.0], [-1.0]], np.float32) + 0.5
out = {"ops": sorted({op.type for op in g.get_operations()})}
with tf.Session(sys.argv[1], graph=g) as sess:
  out["uninit_before"] = len(sess.run(uninit))
  sess.run(init)
  out["uninit_after"] = len(sess.run(uninit))
  for name, op in steps:
    sess.run(init)
    l0 = float(sess.run(loss, {x: X, y: Y}))
    for _ in range(30):
      sess.run(op, {x: X, y: Y})
    out[name] = [l0, float(sess.run(loss, {x: X, y: Y}))]
  sess.run(w.initializer)
  out["inc"] = sess.run(inc).ravel().tolist()
  out["gathered"] = sess.run(gathered).ravel().tolist()
print(json.dumps(out))
"""


def _tf_env():
  """The environment for TensorFlow's processes: without a sanitizer preload (make asan
  runs these tests with libasan preloaded; TensorFlow itself is not built for it)."""
  return {k: v for k, v in os.environ.items() if k not in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS")}


@pytest.fixture(scope="module")
def tf_python():
  if not os.path.exists(TF_PY):
    if os.environ.get("TFC_COMPAT_REQUIRED") == "1":
      pytest.fail("TensorFlow's venv is missing: %s" % TF_PY)
    pytest.skip("TensorFlow's venv is missing (make compat creates it)")
  return TF_PY


class _Procs(object):
  def __init__(self):
    self.procs = []

  def start(self, argv, env=None):
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    self.procs.append(p)
    line = p.stdout.readline()
    assert "listening" in line, line
    return p

  def stop(self):
    for p in self.procs:
      p.kill()
      p.wait(10)


@pytest.fixture
def procs():
  ps = _Procs()
  yield ps
  ps.stop()


def _tfc_task(procs, spec, job, index):
  procs.start([sys.executable, "-m", "tfc.server", "--cluster_spec", json.dumps(spec), "--job_name", job,
               "--task_index", str(index)])


def _tf_task(procs, tf_py, spec, job, index):
  procs.start([tf_py, "-c", TF_SERVER, json.dumps(spec), job, str(index)], env=_tf_env())


def _tf_client(tf_py, target, pin):
  out = subprocess.run([tf_py, "-c", TF_CLIENT, target, json.dumps(pin)], capture_output=True, text=True,
                       timeout=120, env=_tf_env())
  assert out.returncode == 0, out.stderr[-3000:]
  return json.loads(out.stdout.strip().splitlines()[-1])


def _check_tf_client_result(out, error_task):
  assert out["y"] == [11.0, 21.0]
  assert out["callable"] == [[11.0, 21.0], [12.0, 23.0]]
  assert out["v"] == [2.0, 3.0]
  assert out["error"] == "FailedPreconditionError"
  assert "never_initialized" in out["message"]
  assert error_task in out["message"]


def test_tf_client_on_tfc_server(tf_python, procs):
  port = free_ports(1)[0]
  spec = {"worker": ["localhost:%d" % port]}
  _tfc_task(procs, spec, "worker", 0)
  out = _tf_client(tf_python, "grpc://localhost:%d" % port, {"vars": "", "compute": ""})
  assert out["devices"] == ["/job:worker/replica:0/task:0/device:CPU:0"]
  assert out["y"] == [11.0, 21.0] and out["v"] == [2.0, 3.0]
  assert out["callable"] == [[11.0, 21.0], [12.0, 23.0]]
  assert out["error"] == "FailedPreconditionError" and "never_initialized" in out["message"]


def test_tfc_client_on_tf_server(tf_python, procs):
  port = free_ports(1)[0]
  spec = {"worker": ["localhost:%d" % port]}
  _tf_task(procs, tf_python, spec, "worker", 0)
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [None])
    v = tf.Variable(2.0, name="v")
    y = x * v + 1.0
    u = tf.Variable(1.0, name="never_initialized")
    z = u * 2.0
    s = tf.constant(["tf", "interop"])
  with tf.Session("grpc://localhost:%d" % port, graph=g) as sess:
    sess.run(v.initializer)
    assert sess.run(y, {x: [1.0, 2.0]}).tolist() == [3.0, 5.0]
    assert list(sess.run(s)) == [b"tf", b"interop"]
    assert [d.name for d in sess.list_devices()] == ["/job:worker/replica:0/task:0/device:CPU:0"]
    with pytest.raises(tf.errors.FailedPreconditionError):
      sess.run(z)


def test_tfc_master_with_a_tf_ps(tf_python, procs):
  ports = free_ports(2)
  spec = {"ps": ["localhost:%d" % ports[0]], "worker": ["localhost:%d" % ports[1]]}
  _tf_task(procs, tf_python, spec, "ps", 0)
  _tfc_task(procs, spec, "worker", 0)
  g = tf.Graph()
  with g.as_default():
    with tf.device("/job:ps/task:0"):
      v = tf.Variable([1.0, 2.0], name="v")
      a = v * 10.0
    with tf.device("/job:worker/task:0"):
      x = tf.placeholder(tf.float32, [2])
      b = a + x
  with tf.Session("grpc://" + spec["worker"][0], graph=g) as sess:
    assert sorted(d.name for d in sess.list_devices()) == [
        "/job:ps/replica:0/task:0/device:CPU:0", "/job:worker/replica:0/task:0/device:CPU:0"]
    sess.run(v.initializer)
    assert sess.run(b, {x: [1.0, 1.0]}).tolist() == [11.0, 21.0]


def test_tf_master_with_a_tfc_ps(tf_python, procs):
  ports = free_ports(2)
  spec = {"ps": ["localhost:%d" % ports[0]], "worker": ["localhost:%d" % ports[1]]}
  _tfc_task(procs, spec, "ps", 0)
  _tf_task(procs, tf_python, spec, "worker", 0)
  out = _tf_client(tf_python, "grpc://" + spec["worker"][0],
                   {"vars": "/job:ps/task:0", "compute": "/job:worker/task:0"})
  _check_tf_client_result(out, "/job:ps/replica:0/task:0")


def test_tf_client_resource_variables_on_tfc_server(tf_python, procs):
  port = free_ports(1)[0]
  _tfc_task(procs, {"worker": ["localhost:%d" % port]}, "worker", 0)
  out = subprocess.run([tf_python, "-c", TF_RESOURCE_CLIENT, "grpc://localhost:%d" % port],
                       capture_output=True, text=True, timeout=180, env=_tf_env())
  assert out.returncode == 0, out.stderr[-3000:]
  r = json.loads(out.stdout.strip().splitlines()[-1])
  for op in ("VarHandleOp", "ReadVariableOp", "AssignVariableOp", "VarIsInitializedOp",
             "ResourceApplyAdam", "ResourceGather"):
    assert op in r["ops"]
  assert r["uninit_before"] > 0 and r["uninit_after"] == 0
  for name in ("sgd", "adam", "momentum", "adagrad", "rmsprop", "centered_rmsprop"):
    before, after = r[name]
    assert after < before * 0.8, (name, before, after)
  assert r["inc"] == [1.0, 1.0] and r["gathered"] == [1.0, 1.0]


STEP_STATS_CLIENT = """
import json, sys
import numpy as np
def summary(tf, target):
  g = tf.Graph()
  with g.as_default():
    with tf.device("/job:ps/task:0"):
      v = tf.Variable(np.ones([1000], np.float32), name="v", use_resource=True)
    with tf.device("/job:worker/task:0"):
      y = tf.reduce_sum(v * 2.0)
  with tf.Session(target, graph=g) as sess:
    sess.run(v.initializer)
    md = tf.RunMetadata()
    value = sess.run(y, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE), run_metadata=md)
  out = {"value": float(value), "devices": []}
  for d in md.step_stats.dev_stats:
    names = [n.node_name for n in d.node_stats]
    if names and names[0] == "RecvTensor":
      n = d.node_stats[0]
      out["devices"].append([d.device, "RecvTensor", len(names),
                             n.output[0].tensor_description.allocation_description.requested_bytes,
                             n.timeline_label.split("] ", 2)[2]])
    else:
      out["devices"].append([d.device, "nodes", sorted(x for x in names if not x.startswith("_"))])
  return out
if __name__ == "__main__":
  import os
  os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
  import tensorflow.compat.v1 as tf
  tf.disable_eager_execution()
  # the same cluster of real TF servers, in this one process (one TensorFlow import)
  spec = json.loads(sys.argv[1])
  servers = [tf.distribute.Server(spec, job_name=j, task_index=i)
             for j in ("ps", "worker") for i in range(len(spec[j]))]
  print(json.dumps(summary(tf, "grpc://" + spec["worker"][0])))
"""


def _step_stats_spec():
  ports = free_ports(3)
  # worker 1 runs nothing: no entry
  return {"ps": ["localhost:%d" % ports[0]],
          "worker": ["localhost:%d" % ports[1], "localhost:%d" % ports[2]]}


def test_step_stats_over_grpc_as_tf_gives_them(tf_python, procs):
  """FULL_TRACE through a master: every worker device once with its RecvTensor calls
  (first) and once with its partition's nodes; a task that runs nothing has no entry."""
  out = subprocess.run([tf_python, "-c", STEP_STATS_CLIENT, json.dumps(_step_stats_spec())],
                       capture_output=True, text=True, timeout=110, env=_tf_env())
  assert out.returncode == 0, out.stderr[-3000:]
  want = json.loads(out.stdout.strip().splitlines()[-1])
  spec = _step_stats_spec()
  for job, index in (("ps", 0), ("worker", 0), ("worker", 1)):
    _tfc_task(procs, spec, job, index)
  tfc_target = "grpc://" + spec["worker"][0]
  scope = {}
  exec(STEP_STATS_CLIENT, scope)  # pylint: disable=exec-used
  got = scope["summary"](tf, tfc_target)
  assert got["value"] == want["value"] == 2000.0
  # RecvTensor entries first; the partitions after them in no order TF promises (its
  # master keeps them in a hash map), so compared as a set
  kinds = lambda o: (o["devices"][0][:2], sorted(tuple(d[:2]) for d in o["devices"][1:]))  # noqa: E731
  assert kinds(got) == kinds(want) == (
      ["/job:worker/replica:0/task:0/device:CPU:0", "RecvTensor"],
      [("/job:ps/replica:0/task:0/device:CPU:0", "nodes"),
       ("/job:worker/replica:0/task:0/device:CPU:0", "nodes")])
  recv_got, recv_want = got["devices"][0], want["devices"][0]
  assert recv_got[2] == recv_want[2] == 1 and recv_got[3] == recv_want[3] == 4000
  # "<tensor> from <ps device> to <worker device>" (the tensor's name is each side's own)
  assert recv_got[4].split(" from ")[1] == recv_want[4].split(" from ")[1] == (
      "/job:ps/replica:0/task:0/device:CPU:0 to /job:worker/replica:0/task:0/device:CPU:0")
  ps_nodes = lambda o: [d[2] for d in o["devices"] if d[0].startswith("/job:ps")][0]  # noqa: E731
  assert ps_nodes(got) == ps_nodes(want) == ["ReadVariableOp", "v"]


CLUSTER_SPEC_FACTS = """
import json, sys
def facts(tf):
  specs = [{"worker": ["w0:2222", "w1:2222"], "ps": ["ps0:2222"]},
           {"worker": {1: "w1:2222", 3: "w3:2222"}, "chief": ["c:1"]},
           {"local": []},
           {"ps": ("a:1", "b:2")}]
  out = []
  for spec in specs:
    cs = tf.train.ClusterSpec(spec)
    again = tf.train.ClusterSpec(cs.as_cluster_def())
    out.append({
        "str": str(cs), "dict": repr(cs.as_dict()), "def": str(cs.as_cluster_def()),
        "jobs": cs.jobs, "bool": bool(cs),
        "tasks": {j: [cs.num_tasks(j), cs.task_indices(j),
                      cs.job_tasks(j) if cs.num_tasks(j) else None] for j in cs.jobs},
        "eq": [cs == again, cs == tf.train.ClusterSpec(cs), cs != again,
               cs == tf.train.ClusterSpec({"other": ["x:1"]})],
        "again": str(again)})
  errors = []
  for bad in ({"ps": "notalist"}, 7):
    try:
      tf.train.ClusterSpec(bad)
    except Exception as e:  # noqa: BLE001
      errors.append(type(e).__name__)
  cs = tf.train.ClusterSpec({"ps": ["a:1"]})
  for call in (lambda: cs.num_tasks("nope"), lambda: cs.task_address("ps", 5)):
    try:
      call()
    except Exception as e:  # noqa: BLE001
      errors.append([type(e).__name__, str(e)])
  return {"specs": out, "errors": errors, "empty": bool(tf.train.ClusterSpec({}))}
if __name__ == "__main__":
  import os
  os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
  import tensorflow.compat.v1 as tf
  print(json.dumps(facts(tf)))
"""


def test_cluster_spec_matches_tf(tf_python):
  """ClusterSpec (a C type in tfc._tfc with TF's API on top): printing, as_dict, the
  ClusterDef it prints, sparse task dicts, equality and errors, as real TF gives them."""
  out = subprocess.run([tf_python, "-c", CLUSTER_SPEC_FACTS], capture_output=True, text=True,
                       timeout=180, env=_tf_env())
  assert out.returncode == 0, out.stderr[-3000:]
  want = json.loads(out.stdout.strip().splitlines()[-1])
  scope = {}
  exec(CLUSTER_SPEC_FACTS, scope)  # pylint: disable=exec-used
  got = json.loads(json.dumps(scope["facts"](tf)))
  assert got == want
  assert isinstance(tf.train.ClusterSpec({"a": ["b:1"]}), tf._tfc.ClusterSpec)


# --- while loops whose body spans a tfc task and a TensorFlow task ---------------

_LOOP_MODEL = '''
def loop_model(tfm, loop_dev, body_dev):
  """A v1 while loop on loop_dev whose body (with a cond) runs on body_dev, and
  the gradient of its result: (x, r, dr/dx)."""
  x = tfm.placeholder(tfm.float32, [3], name="x")
  def body(i, acc):
    with tfm.device(body_dev):
      y = tfm.sin(acc) * 1.5 + acc * 0.5
      y = tfm.cond(tfm.reduce_sum(y) > 0.0, lambda: y * 0.9, lambda: y - 0.1)
    return i + 1, y
  with tfm.device(loop_dev):
    _, r = tfm.while_loop(lambda i, a: i < 4, body, [0, x])
    g = tfm.gradients(tfm.reduce_sum(r * r), x)[0]
  return x, r, g
'''
_LOOP_X = [0.3, -0.2, 1.1]

TF_LOOP_CLIENT = """
import json, os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow.compat.v1 as tf
tf.disable_v2_behavior()   # v1 control flow: Enter/Merge/Switch loops
exec(sys.argv[2])
g = tf.Graph()
with g.as_default():
  x, r, gr = loop_model(tf, "/job:worker/task:0", "/job:ps/task:0")
  with tf.Session(sys.argv[1], graph=g, config=tf.ConfigProto(operation_timeout_in_ms=30000)) as sess:
    out = sess.run([r, gr], {x: json.loads(sys.argv[3])})
print(json.dumps([o.tolist() for o in out]))
"""


def _loop_reference():
  ns = {}
  exec(_LOOP_MODEL, ns)
  with tf.Graph().as_default():
    x, r, g = ns["loop_model"](tf, "/cpu:0", "/cpu:0")
    with tf.Session() as sess:
      return ns["loop_model"], sess.run([r, g], {x: _LOOP_X})


def test_tfc_master_loop_spanning_onto_a_tf_ps(tf_python, procs):
  """The TF ps runs the loop body's partition with the control loop tfc's
  partitioner built; frame ids and keys agree with TensorFlow's executor."""
  model, ref = _loop_reference()
  ports = free_ports(2)
  spec = {"ps": ["localhost:%d" % ports[0]], "worker": ["localhost:%d" % ports[1]]}
  _tf_task(procs, tf_python, spec, "ps", 0)
  _tfc_task(procs, spec, "worker", 0)
  with tf.Graph().as_default():
    x, r, g = model(tf, "/job:worker/task:0", "/job:ps/task:0")
    with tf.Session("grpc://" + spec["worker"][0]) as sess:
      out = sess.run([r, g], {x: _LOOP_X}, options=tf.RunOptions(timeout_in_ms=60000))
  for a, b in zip(ref, out):
    np.testing.assert_allclose(b, a, rtol=1e-6)


def test_tf_master_loop_spanning_onto_a_tfc_ps(tf_python, procs):
  """TensorFlow's partitioner builds the control loop (and _HostSend/_HostRecv)
  for the tfc ps; the result and gradient equal tfc's single-device run."""
  _, ref = _loop_reference()
  ports = free_ports(2)
  spec = {"ps": ["localhost:%d" % ports[0]], "worker": ["localhost:%d" % ports[1]]}
  _tfc_task(procs, spec, "ps", 0)
  _tf_task(procs, tf_python, spec, "worker", 0)
  out = subprocess.run([tf_python, "-c", TF_LOOP_CLIENT, "grpc://" + spec["worker"][0], _LOOP_MODEL,
                        json.dumps(_LOOP_X)], capture_output=True, text=True, timeout=180, env=_tf_env())
  assert out.returncode == 0, out.stderr[-3000:]
  got = json.loads(out.stdout.strip().splitlines()[-1])
  for a, b in zip(ref, got):
    np.testing.assert_allclose(np.array(b, np.float32), a, rtol=1e-5)
