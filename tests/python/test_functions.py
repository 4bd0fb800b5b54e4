"""Function libraries: GraphDefs that TensorFlow wrote with functions
(PartitionedCall, If/While/Case, calls by name) run with TF's outputs;
function.Defun (nesting, captures, gradients, shapes, round trips through
GraphDefs and meta graphs); the tracer; and the bad cases (missing or
recursive functions, wrong arity or types, a loop stopped by
RunOptions.timeout_in_ms)."""
import os

import numpy as np
import pytest

import tfc as tf
from tfc.framework import function

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "fixtures", "functions")


def _manifest():
  items = {}
  for line in open(os.path.join(FIX, "manifest.txt")):
    if line.startswith("#") or not line.strip():
      continue
    pb, run, kind, t, fn = line.split()
    items.setdefault(pb, {}).setdefault(int(run), {"feed": {}, "fetch": {}})[kind][t] = \
        np.load(os.path.join(FIX, fn))
  return items


_ITEMS = _manifest()


@pytest.mark.parametrize("pb", sorted(_ITEMS))
def test_tf_function_graphs_give_tf_outputs(pb):
  gd = tf.GraphDef.FromString(open(os.path.join(FIX, pb), "rb").read())
  assert len(gd.library.function) > 0
  g = tf.Graph()
  with g.as_default():
    tf.import_graph_def(gd, name="")
    with tf.Session() as sess:
      for run, io in sorted(_ITEMS[pb].items()):
        names = sorted(io["fetch"])
        outs = sess.run(names, io["feed"])
        for n, o in zip(names, outs):
          np.testing.assert_allclose(o, io["fetch"][n], rtol=1e-5, atol=1e-6,
                                     err_msg="%s run %d %s" % (pb, run, n))


def test_tf2_graph_uses_functional_ops_and_exports_its_library():
  gd = tf.GraphDef.FromString(open(os.path.join(FIX, "tf2_graph.pb"), "rb").read())
  ops = {n.op for n in gd.node} | {n.op for f in gd.library.function for n in f.node_def}
  assert {"StatefulPartitionedCall", "PartitionedCall"} & ops
  assert {"While", "StatelessWhile"} & ops and {"If", "StatelessIf"} & ops
  assert {"Case", "StatelessCase"} & ops
  frozen = tf.GraphDef.FromString(open(os.path.join(FIX, "tf2_frozen.pb"), "rb").read())
  assert not frozen.versions.producer or frozen.versions.producer >= 2000
  g = tf.Graph()
  with g.as_default():
    tf.import_graph_def(gd, name="")
    out = g.as_graph_def()
  assert sorted(f.signature.name for f in out.library.function) == \
      sorted(f.signature.name for f in gd.library.function)
  # and the export imports again and runs
  g2 = tf.Graph()
  with g2.as_default():
    tf.import_graph_def(out, name="")
    io = _ITEMS["tf2_graph.pb"][1]
    with tf.Session() as sess:
      np.testing.assert_allclose(sess.run("loop_sum:0", io["feed"]), io["fetch"]["loop_sum:0"],
                                 rtol=1e-5)


def test_defun_calls_nesting_and_results():
  g = tf.Graph()
  with g.as_default():
    @function.Defun(tf.float32, tf.float32)
    def axpy(a, b):
      return a * 3.0 + b

    @function.Defun(tf.float32)
    def twice(a):
      return axpy(a, a), a * a

    @function.Defun(tf.float32)
    def nothing(a):
      return None

    x = tf.placeholder(tf.float32, [None])
    y = axpy(x, tf.constant(1.0), name="call_axpy")
    u, w = twice(x)
    op = nothing(x)
    assert y.op.name == "call_axpy" and y.op.type == axpy.name
    assert isinstance(op, tf.Operation)
    names = g._function_names()
    assert axpy.name in names and twice.name in names
    with tf.Session() as sess:
      yv, uv, wv, _ = sess.run([y, u, w, op], {x: [1.0, -2.0]})
  np.testing.assert_allclose(yv, [4.0, -5.0])
  np.testing.assert_allclose(uv, [4.0, -8.0])
  np.testing.assert_allclose(wv, [1.0, 4.0])


def test_defun_captures_outer_tensors_and_overloads():
  g = tf.Graph()
  with g.as_default():
    c = tf.placeholder(tf.float32, [])

    @function.Defun(tf.float32)
    def add_c(a):
      return a + c

    @function.Defun()
    def sq(a):
      return a * a

    x = tf.constant([1.0, 2.0])
    z = add_c(x)
    assert add_c.captured_inputs == [c]
    assert len(z.op.inputs) == 2
    i = sq(tf.constant(3))
    f = sq(tf.constant(1.5))
    with tf.Session() as sess:
      zv, iv, fv = sess.run([z, i, f], {c: 10.0})
  np.testing.assert_allclose(zv, [11.0, 12.0])
  assert iv == 9 and fv == 2.25


def test_defun_gradients():
  g = tf.Graph()
  with g.as_default():
    @function.Defun(tf.float32, tf.float32)
    def f(a, b):
      return tf.sin(a) * b

    @function.Defun(tf.float32, python_grad_func=lambda op, dy: [dy * 100.0])
    def pg(a):
      return a * 2.0

    @function.Defun(tf.float32, tf.float32)
    def my_grad(a, dy):
      return dy * 7.0

    @function.Defun(tf.float32, grad_func=my_grad)
    def fg(a):
      return a * 3.0

    x = tf.constant([0.5, 1.0])
    y = tf.constant([2.0, 3.0])
    gx, gy = tf.gradients(f(x, y), [x, y])
    gp, = tf.gradients(pg(x), [x])
    gf, = tf.gradients(fg(x), [x])
    with tf.Session() as sess:
      gxv, gyv, gpv, gfv = sess.run([gx, gy, gp, gf])
  np.testing.assert_allclose(gxv, np.cos([0.5, 1.0]) * [2.0, 3.0], rtol=1e-6)
  np.testing.assert_allclose(gyv, np.sin([0.5, 1.0]), rtol=1e-6)
  np.testing.assert_allclose(gpv, [100.0, 100.0])
  np.testing.assert_allclose(gfv, [7.0, 7.0])
  gd = g.as_graph_def()
  assert any(gr.function_name == fg.name and gr.gradient_func == my_grad.name
             for gr in gd.library.gradient)


def test_defun_gradient_matches_finite_differences():
  g = tf.Graph()
  with g.as_default():
    @function.Defun(tf.float64)
    def h(a):
      return tf.reduce_sum(tf.tanh(a) * a)

    x = tf.placeholder(tf.float64, [3])
    dx, = tf.gradients(h(x), [x])
    with tf.Session() as sess:
      xv = np.array([0.3, -1.2, 2.0])
      got = sess.run(dx, {x: xv})
      eps = 1e-6
      num = []
      for i in range(3):
        e = np.zeros(3)
        e[i] = eps
        num.append((sess.run(h(x), {x: xv + e}) - sess.run(h(x), {x: xv - e})) / (2 * eps))
  np.testing.assert_allclose(got, num, rtol=1e-6)


def test_defun_shapes_and_shape_func():
  g = tf.Graph()
  with g.as_default():
    @function.Defun(tf.float32, shape_func=lambda op: [[7]])
    def sf(a):
      return a + 1.0

    x = tf.placeholder(tf.float32, [None])
    assert sf(x).shape.as_list() == [7]
    t = function.trace(lambda a: tf.reshape(a, [2, 3]), [tf.float32], [[6]])
    assert t.output_shapes[0].as_list() == [2, 3]
    assert t.input_types == [tf.float32] and t.output_types == [tf.float32]


def test_library_round_trips_through_meta_graphs(tmp_path):
  g = tf.Graph()
  with g.as_default():
    @function.Defun(tf.float32)
    def cube(a):
      return a * a * a

    x = tf.placeholder(tf.float32, [None], name="x")
    tf.identity(cube(x), name="y")
    path = str(tmp_path / "m.meta")
    tf.train.export_meta_graph(path)
  g2 = tf.Graph()
  with g2.as_default():
    tf.train.import_meta_graph(path)
    assert cube.name in g2._function_names()
    with tf.Session() as sess:
      np.testing.assert_allclose(sess.run("y:0", {"x:0": [2.0]}), [8.0])


def test_trace_for_input_pipelines():
  g = tf.Graph()
  with g.as_default():
    scale = tf.constant(3.0)
    t = function.trace(lambda a, b: {"s": a * scale, "n": b + 1}, [tf.float32, tf.int64],
                       arg_names=["a", "b"])
    assert t.captured_inputs == [scale]
    assert t.input_types == [tf.float32, tf.int64, tf.float32]
    assert sorted(t.structured_outputs) == ["n", "s"]
    t.add_to_graph(g)
    a = tf.placeholder(tf.float32, [])
    b = tf.placeholder(tf.int64, [])
    call = function._call(g, t.name, [a, b] + t.captured_inputs)
    with tf.Session() as sess:
      outs = sess.run(list(call.outputs), {a: 2.0, b: 5})
  # nest.flatten orders dict keys: "n" then "s"
  assert outs[0] == 6 and outs[1] == 6.0


def test_missing_function_is_invalid_argument_naming_the_node():
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [], name="x")
    gd = g.as_graph_def()
  node = gd.node.add()
  node.name = "call"
  node.op = "PartitionedCall"
  node.input.append("x")
  node.attr["Tin"].list.type.append(1)
  node.attr["Tout"].list.type.append(1)
  node.attr["f"].func.name = "nosuch"
  g2 = tf.Graph()
  with g2.as_default():
    tf.import_graph_def(gd, name="")
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError) as e:
        sess.run("call:0", {"x:0": 1.0})
  assert "nosuch" in str(e.value) and e.value.op is not None and e.value.op.name == "call"
  # a node whose op names no function or op does not import
  node.op = "nosuch"
  node.ClearField("attr")
  g3 = tf.Graph()
  with g3.as_default():
    with pytest.raises((ValueError, tf.errors.NotFoundError), match="nosuch"):
      tf.import_graph_def(gd, name="")


def _fn(name, callee, n_args=1):
  from tfc import protos
  fd = protos.FunctionDef()
  fd.signature.name = name
  for i in range(n_args):
    a = fd.signature.input_arg.add()
    a.name = "x%d" % i
    a.type = 1
  o = fd.signature.output_arg.add()
  o.name = "y"
  o.type = 1
  n = fd.node_def.add()
  n.name = "c"
  n.op = "PartitionedCall"
  n.input.append("x0")
  n.attr["Tin"].list.type.append(1)
  n.attr["Tout"].list.type.append(1)
  n.attr["f"].func.name = callee
  fd.ret["y"] = "c:output:0"
  return fd


def _caller_graph(lib, fname, n_in=1, tout=1):
  g = tf.Graph()
  with g.as_default():
    tf.placeholder(tf.float32, [], name="x")
    gd = g.as_graph_def()
  gd.library.function.extend(lib)
  node = gd.node.add()
  node.name = "call"
  node.op = "PartitionedCall"
  for _ in range(n_in):
    node.input.append("x")
    node.attr["Tin"].list.type.append(1)
  node.attr["Tout"].list.type.append(tout)
  node.attr["f"].func.name = fname
  return gd


def test_recursive_functions_fail_cleanly():
  gd = _caller_graph([_fn("f", "g"), _fn("g", "f")], "f")
  g = tf.Graph()
  with g.as_default():
    tf.import_graph_def(gd, name="")
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError) as e:
        sess.run("call:0", {"x:0": 1.0})
  assert "recursive" in str(e.value) and "f -> g -> f" in str(e.value)
  assert e.value.op.name == "call"


def test_wrong_arity_and_types_name_the_node():
  ident = _fn("ident", "leaf")
  from tfc import protos
  leaf = protos.FunctionDef()
  leaf.signature.name = "leaf"
  a = leaf.signature.input_arg.add()
  a.name = "x"
  a.type = 1
  o = leaf.signature.output_arg.add()
  o.name = "y"
  o.type = 1
  n = leaf.node_def.add()
  n.name = "neg"
  n.op = "Neg"
  n.input.append("x")
  n.attr["T"].type = 1
  leaf.ret["y"] = "neg:y:0"
  for gd, what in [(_caller_graph([ident, leaf], "ident", n_in=2), "takes 1 argument"),
                   (_caller_graph([ident, leaf], "ident", tout=3), "result 0 has type float")]:
    g = tf.Graph()
    with g.as_default():
      tf.import_graph_def(gd, name="")
      with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
          sess.run("call:0", {"x:0": 1.0})
    assert what in str(e.value) and e.value.op.name == "call"
  g = tf.Graph()
  with g.as_default():
    tf.import_graph_def(_caller_graph([ident, leaf], "ident"), name="")
    with tf.Session() as sess:
      assert sess.run("call:0", {"x:0": 2.0}) == -2.0
  # a Defun called with the wrong number or type of arguments
  with tf.Graph().as_default():
    @function.Defun(tf.float32)
    def one(a):
      return a
    with pytest.raises(ValueError):
      one(tf.constant(1.0), tf.constant(2.0))
    with pytest.raises((TypeError, ValueError)):
      one(tf.constant(1))


def test_error_inside_a_function_names_function_and_node():
  g = tf.Graph()
  with g.as_default():
    @function.Defun(tf.float32)
    def bad(a):
      return tf.reshape(a, [5])

    x = tf.placeholder(tf.float32, [None])
    y = bad(x, name="bad_call")
    with tf.Session() as sess:
      with pytest.raises(tf.errors.InvalidArgumentError) as e:
        sess.run(y, {x: [1.0, 2.0]})
  assert "function_node %s" % bad.name in str(e.value)
  assert e.value.op.name == "bad_call"


def _while_graph(limit):
  """A StatelessWhile counting i up to `limit` (a feed) in a GraphDef."""
  from tfc import protos
  lib = []
  cond = protos.FunctionDef()
  cond.signature.name = "cond"
  for nm in ("i", "lim"):
    a = cond.signature.input_arg.add()
    a.name = nm
    a.type = 3
  o = cond.signature.output_arg.add()
  o.name = "out"
  o.type = 10
  n = cond.node_def.add()
  n.name = "less"
  n.op = "Less"
  n.input.extend(["i", "lim"])
  n.attr["T"].type = 3
  cond.ret["out"] = "less:z:0"
  body = protos.FunctionDef()
  body.signature.name = "body"
  for nm in ("i", "lim"):
    a = body.signature.input_arg.add()
    a.name = nm
    a.type = 3
  for nm in ("i_next", "lim_out"):
    o = body.signature.output_arg.add()
    o.name = nm
    o.type = 3
  one = body.node_def.add()
  one.name = "one"
  one.op = "Const"
  one.attr["dtype"].type = 3
  one.attr["value"].tensor.dtype = 3
  one.attr["value"].tensor.int_val.append(1)
  add = body.node_def.add()
  add.name = "add"
  add.op = "AddV2"
  add.input.extend(["i", "one:output:0"])
  add.attr["T"].type = 3
  body.ret["i_next"] = "add:z:0"
  body.ret["lim_out"] = "lim"
  lib = [cond, body]
  g = tf.Graph()
  with g.as_default():
    tf.placeholder(tf.int32, [], name="lim")
    tf.constant(0, name="zero")
    gd = g.as_graph_def()
  gd.library.function.extend(lib)
  w = gd.node.add()
  w.name = "loop"
  w.op = "StatelessWhile"
  w.input.extend(["zero", "lim"])
  w.attr["T"].list.type.extend([3, 3])
  w.attr["cond"].func.name = "cond"
  w.attr["body"].func.name = "body"
  w.attr["parallel_iterations"].i = 10
  w.attr["_num_original_outputs"].i = 2
  w.attr["_lower_using_switch_merge"].b = True
  return gd


def test_stateless_while_runs_and_a_stuck_loop_times_out():
  g = tf.Graph()
  with g.as_default():
    tf.import_graph_def(_while_graph(10), name="")
    with tf.Session() as sess:
      assert sess.run("loop:0", {"lim:0": 1000}) == 1000
      assert sess.run("loop:0", {"lim:0": -5}) == 0
      opts = tf.RunOptions(timeout_in_ms=200)
      with pytest.raises(tf.errors.DeadlineExceededError) as e:
        sess.run("loop:0", {"lim:0": 2 ** 31 - 1}, options=opts)
      assert e.value.op is not None and e.value.op.name == "loop"
      assert sess.run("loop:0", {"lim:0": 3}) == 3


TF_PYTHON = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                         ".venv-tf", "bin", "python")
TF_RUNNER = r"""
import json, os, sys
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import numpy as np
import tensorflow as tf
v1 = tf.compat.v1
path, fetches, feed = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
g = tf.Graph()
with g.as_default():
  v1.import_graph_def(v1.GraphDef.FromString(open(path, "rb").read()), name="")
  with v1.Session() as s:
    out = s.run(fetches, {k: np.asarray(v, np.float32) for k, v in feed.items()})
print(json.dumps([np.asarray(o).tolist() for o in out]))
"""


def test_tensorflow_runs_tfc_function_libraries(tmp_path):
  """Defun graphs written by tfc (nested calls, a captured tensor, a traced
  gradient function) import into TensorFlow and give tfc's values."""
  if not os.path.exists(TF_PYTHON):
    if os.environ.get("TFC_COMPAT_REQUIRED") == "1":
      pytest.fail("no TensorFlow venv at %s" % TF_PYTHON)
    pytest.skip("no TensorFlow venv (.venv-tf)")
  import json
  import subprocess
  g = tf.Graph()
  with g.as_default():
    @function.Defun(tf.float32, tf.float32)
    def axpy(a, b):
      return a * 3.0 + b

    @function.Defun(tf.float32)
    def twice(a):
      return axpy(a, a), tf.reduce_sum(a * a)

    x = tf.placeholder(tf.float32, [None], name="x")
    c = tf.constant(2.0)

    @function.Defun(tf.float32)
    def cap(a):
      return a * c

    u, w = twice(x)
    tf.identity(u, name="u")
    tf.identity(w, name="w")
    tf.identity(cap(x), name="z")
    tf.identity(tf.gradients(u, x)[0], name="dx")
    fetches = ["u:0", "w:0", "z:0", "dx:0"]
    with tf.Session() as sess:
      mine = sess.run(fetches, {x: [1.0, 2.0]})
    path = str(tmp_path / "tfc_functions.pb")
    with open(path, "wb") as f:
      f.write(g.as_graph_def().SerializeToString())
  env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
  proc = subprocess.run([TF_PYTHON, "-c", TF_RUNNER, path, json.dumps(fetches),
                         json.dumps({"x:0": [1.0, 2.0]})], capture_output=True, text=True,
                        timeout=600, env=env)
  assert proc.returncode == 0, proc.stderr[-3000:]
  theirs = json.loads(proc.stdout.strip().splitlines()[-1])
  for a, b in zip(mine, theirs):
    np.testing.assert_allclose(a, b, rtol=1e-6)


def test_functions_run_on_grpc_workers():
  """A graph with functions (a Defun pinned to another task, a TF 2.x
  StatelessWhile) runs through a grpc:// session: each partition carries the
  library and its worker instantiates the functions."""
  import socket
  socks = [socket.socket() for _ in range(2)]
  for s in socks:
    s.bind(("localhost", 0))
  ports = [s.getsockname()[1] for s in socks]
  for s in socks:
    s.close()
  cluster = tf.train.ClusterSpec({"local": ["localhost:%d" % p for p in ports]})
  s0 = tf.train.Server(cluster, job_name="local", task_index=0)
  s1 = tf.train.Server(cluster, job_name="local", task_index=1)
  try:
    g = tf.Graph()
    with g.as_default():
      @function.Defun(tf.float32)
      def poly(a):
        return a * a + 1.0

      with tf.device("/job:local/task:1"):
        x = tf.constant([1.0, 2.0])
        y = poly(x)
      with tf.device("/job:local/task:0"):
        z = poly(y) * 2.0
      tf.import_graph_def(_while_graph(10), name="w")
    with tf.Session(s0.target, graph=g) as sess:
      np.testing.assert_allclose(sess.run(z), [10.0, 52.0])
      assert sess.run("w/loop:0", {"w/lim:0": 25}) == 25
  finally:
    s0.stop()
    s1.stop()
