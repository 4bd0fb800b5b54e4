"""`tf.test`: numerical gradient checking (TF 1.15's gradient_checker), TestCase, main."""
import numpy as np

from tfc.framework import ops as _ops


def _as_np_dtype(t):
  return t.dtype.base_dtype.as_numpy_dtype


def _theoretical_jacobian(sess, x, x_shape, x_data, dy, y_size, grad_t, feed):
  x_size = int(np.prod(x_shape))
  jac = np.zeros((x_size, y_size), dtype=x_data.dtype)
  dy_data = np.zeros(dy.get_shape().as_list() if dy.get_shape().is_fully_defined()
                     else [y_size], dtype=_as_np_dtype(dy))
  dy_flat = dy_data.reshape(-1)
  f = dict(feed)
  f[x] = x_data
  for col in range(y_size):
    dy_flat[:] = 0
    dy_flat[col] = 1
    f[dy] = dy_data
    g = sess.run(grad_t, feed_dict=f)
    if g is not None:
      jac[:, col] = np.asarray(g).reshape(-1)
  return jac


def _numerical_jacobian(sess, x, x_shape, x_data, y, y_size, delta, feed):
  x_size = int(np.prod(x_shape))
  jac = np.zeros((x_size, y_size), dtype=x_data.dtype)
  f = dict(feed)
  xv = x_data.copy()
  flat = xv.reshape(-1)
  for row in range(x_size):
    old = flat[row]
    flat[row] = old + delta
    f[x] = xv
    y_pos = np.asarray(sess.run(y, feed_dict=f), dtype=np.float64).reshape(-1)
    flat[row] = old - delta
    f[x] = xv
    y_neg = np.asarray(sess.run(y, feed_dict=f), dtype=np.float64).reshape(-1)
    flat[row] = old
    jac[row, :] = (y_pos - y_neg) / (2 * delta)
  return jac


def compute_gradient(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None,
                     extra_feed_dict=None):
  """(theoretical, numerical) Jacobians of y w.r.t. x, each [x_size, y_size].

  With a list of xs (and lists of shapes / initial values) returns a list of pairs.
  """
  from tfc.ops.gradients_impl import gradients
  from tfc.ops import array_ops
  from tfc.client.session import Session
  multi = isinstance(x, (list, tuple))
  xs = list(x) if multi else [x]
  x_shapes = list(x_shape) if multi else [x_shape]
  if x_init_value is None:
    inits = [None] * len(xs)
  else:
    inits = list(x_init_value) if multi else [x_init_value]
  sess = _ops.get_default_session()
  own = sess is None or sess.graph is not y.graph
  if own:
    sess = Session(graph=y.graph)
  try:
    if init_targets is not None:
      for t in init_targets:
        sess.run(t)
    feed = dict(extra_feed_dict or {})
    y_size = int(np.prod(y_shape))
    with y.graph.as_default():
      dy = array_ops.placeholder(y.dtype.base_dtype, shape=list(y_shape), name="dy")
      grad_ts = gradients(y, xs, grad_ys=dy)
    datas = []
    for xi, shp, init in zip(xs, x_shapes, inits):
      dt = _as_np_dtype(xi)
      if init is not None:
        d = np.asarray(init, dtype=dt).reshape(shp)
      else:
        d = np.asarray(np.random.random_sample(shp), dtype=dt)
      datas.append(d)
    results = []
    for i, (xi, shp, d) in enumerate(zip(xs, x_shapes, datas)):
      f = dict(feed)
      for j, (xj, dj) in enumerate(zip(xs, datas)):
        if j != i:
          f[xj] = dj
      g = grad_ts[i]
      if getattr(g, "_tfc_indexed_slices", False):
        with y.graph.as_default():
          g = _ops.convert_to_tensor(g)  # the dense Jacobian of a sparse gradient
      if g is None:
        theo = np.zeros((int(np.prod(shp)), y_size), dtype=d.dtype)
      else:
        theo = _theoretical_jacobian(sess, xi, shp, d, dy, y_size, g, f)
      num = _numerical_jacobian(sess, xi, shp, d, y, y_size, delta, f)
      results.append((theo, num))
    return results if multi else results[0]
  finally:
    if own:
      sess.close()


def compute_gradient_error(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3,
                           init_targets=None, extra_feed_dict=None):
  """The largest absolute difference between theoretical and numerical Jacobians."""
  res = compute_gradient(x, x_shape, y, y_shape, x_init_value, delta, init_targets,
                         extra_feed_dict)
  if isinstance(res, tuple):
    res = [res]
  err = 0.0
  for theo, num in res:
    if theo.size or num.size:
      err = max(err, float(np.fabs(theo - num).max()))
  return err


def is_built_with_cuda():
  return False


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
  return False


def gpu_device_name():
  return ""


def is_built_with_gpu_support():
  """False: tfc runs on CPUs only."""
  return False


def is_built_with_xla():
  """False: tfc has no XLA compiler."""
  return False



def is_cpu_target_available(target):
  """True when `target` names the CPU family tfc was built for ('x86', 'aarch64', ...)."""
  import platform  # pylint: disable=g-import-not-at-top
  machine = platform.machine().lower()
  families = {"x86": ("x86_64", "amd64", "i386", "i686", "x86"),
              "x86_64": ("x86_64", "amd64"),
              "aarch64": ("aarch64", "arm64"), "arm64": ("aarch64", "arm64"),
              "arm": ("armv7l", "armv6l", "arm"),
              "ppc64le": ("ppc64le",), "s390x": ("s390x",)}
  return machine in families.get(str(target).lower(), (str(target).lower(),))


def test_src_dir_path(relative_path):
  """`relative_path` under the folder that holds the tfc package (a checkout's root)."""
  import os  # pylint: disable=g-import-not-at-top
  root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
  return os.path.join(root, relative_path)


def benchmark_config():
  """A ConfigProto for benchmarks: the graph rewrites that would fold away the measured
  work (dependency optimization) turned off."""
  from tfc import protos  # pylint: disable=g-import-not-at-top
  config = protos.ConfigProto()
  config.graph_options.rewrite_options.dependency_optimization = 2  # OFF
  return config


def assert_equal_graph_def(actual, expected, checkpoint_v2=False, hash_table_shared_name=False):
  """Raises AssertionError naming the first difference when two GraphDefs differ (the order
  of nodes does not matter; attrs compare as protocol-buffer values).

  checkpoint_v2 ignores the Const that holds a V2 Saver's random temporary file name, and
  hash_table_shared_name the shared_name of hash tables, as TF's version does.
  """
  from tfc import protos  # pylint: disable=g-import-not-at-top
  graph_def_class = protos.GraphDef
  if not isinstance(actual, graph_def_class):
    raise TypeError("Expected tf.GraphDef for actual, got %s" % type(actual).__name__)
  if not isinstance(expected, graph_def_class):
    raise TypeError("Expected tf.GraphDef for expected, got %s" % type(expected).__name__)

  def _clean(graph_def):
    copy = graph_def_class()
    copy.CopyFrom(graph_def)
    for node in copy.node:
      if checkpoint_v2 and node.op == "Const" and node.name.endswith("save/StringJoin/inputs_1"):
        node.attr["value"].tensor.ClearField("string_val")
      if hash_table_shared_name and node.op.startswith("HashTable") or \
          hash_table_shared_name and node.op.startswith("MutableHashTable"):
        node.attr["shared_name"].s = b""
    return copy

  actual, expected = _clean(actual), _clean(expected)
  actual_nodes = {n.name: n for n in actual.node}
  expected_nodes = {n.name: n for n in expected.node}
  missing = sorted(set(expected_nodes) - set(actual_nodes))
  extra = sorted(set(actual_nodes) - set(expected_nodes))
  if missing or extra:
    raise AssertionError("Found unexpected nodes %s, missing nodes %s" % (extra, missing))
  for name in sorted(expected_nodes):
    a, e = actual_nodes[name], expected_nodes[name]
    for field in ("op", "device"):
      if getattr(a, field) != getattr(e, field):
        raise AssertionError("%s: node %r has %s %r, expected %r"
                             % (name, name, field, getattr(a, field), getattr(e, field)))
    if sorted(a.input) != sorted(e.input):
      raise AssertionError("%s: node %r has inputs %s, expected %s"
                           % (name, name, list(a.input), list(e.input)))
    for key in sorted(set(a.attr) | set(e.attr)):
      if key not in a.attr or key not in e.attr or a.attr[key] != e.attr[key]:
        raise AssertionError("%s: attr %r differs: %s vs %s"
                             % (name, key, a.attr[key] if key in a.attr else "(absent)",
                                e.attr[key] if key in e.attr else "(absent)"))
  if actual.versions != expected.versions:
    raise AssertionError("GraphDef versions differ: %s vs %s" % (actual.versions,
                                                                 expected.versions))
  if actual.library != expected.library:
    raise AssertionError("GraphDef function libraries differ")


def create_local_cluster(num_workers, num_ps, protocol="grpc", worker_config=None,
                         ps_config=None):
  """Starts num_workers worker and num_ps ps tf.train.Servers on free localhost ports in
  this process; returns (workers, ps_servers), lists of started Servers."""
  import socket  # pylint: disable=g-import-not-at-top
  from tfc.train import server_lib  # pylint: disable=g-import-not-at-top
  sockets, ports = [], []
  for _ in range(num_workers + num_ps):
    sock = socket.socket()
    sock.bind(("localhost", 0))
    sockets.append(sock)
    ports.append(sock.getsockname()[1])
  for sock in sockets:
    sock.close()
  cluster = {"worker": ["localhost:%d" % p for p in ports[:num_workers]]}
  if num_ps > 0:
    cluster["ps"] = ["localhost:%d" % p for p in ports[num_workers:]]
  spec = server_lib.ClusterSpec(cluster)
  workers = [server_lib.Server(spec, job_name="worker", protocol=protocol, task_index=i,
                               config=worker_config, start=True)
             for i in range(num_workers)]
  ps_servers = [server_lib.Server(spec, job_name="ps", protocol=protocol, task_index=i,
                                  config=ps_config, start=True)
                for i in range(num_ps)]
  return workers, ps_servers


def disable_with_predicate(pred, skip_message):
  """A test-method decorator: the test is skipped (with skip_message) when pred() is true."""
  def decorator(func):
    import functools  # pylint: disable=g-import-not-at-top

    @functools.wraps(func)
    def wrapper(self, *args, **kwargs):
      if pred():
        self.skipTest(skip_message)
      return func(self, *args, **kwargs)
    return wrapper
  return decorator


def with_eager_op_as_function(cls=None, only_as_function=False):  # pylint: disable=unused-argument
  """A class decorator that, in TF, adds eager "op as function" variants of each test.
  tfc runs graphs only, so the class is returned unchanged (its graph tests run as they are)."""
  if cls is None:
    return lambda c: c
  return cls


class StubOutForTesting(object):
  """Replaces attributes for the length of a test and puts them back (TF's googletest stubs).

  Set(parent, name, new) replaces parent.name; SmartSet does the same and also copes with
  attributes a class inherits or that are static/class methods; UnsetAll / SmartUnsetAll put
  everything back (newest first); CleanUp does both.
  """

  def __init__(self):
    self.cache = []
    self.stubs = []

  def __del__(self):
    self.SmartUnsetAll()
    self.UnsetAll()

  def SmartSet(self, obj, attr_name, new_attr):
    """Replaces obj.attr_name by new_attr, remembering how to restore it."""
    import inspect  # pylint: disable=g-import-not-at-top
    if inspect.ismodule(obj) or (not inspect.isclass(obj) and attr_name in obj.__dict__):
      orig_obj, orig_attr = obj, getattr(obj, attr_name)
    else:
      if not inspect.isclass(obj):
        mro = list(inspect.getmro(obj.__class__))
      else:
        mro = list(inspect.getmro(obj))
      mro.reverse()
      orig_attr, orig_obj = None, None
      for cls in mro:
        try:
          orig_obj = cls
          orig_attr = getattr(obj, attr_name)
        except AttributeError:
          continue
    if orig_attr is None:
      raise AttributeError("Attribute not found.")
    old_attribute = obj.__dict__.get(attr_name)
    if old_attribute is not None and isinstance(old_attribute, staticmethod):
      orig_attr = staticmethod(orig_attr)
    self.stubs.append((orig_obj, attr_name, orig_attr))
    setattr(orig_obj, attr_name, new_attr)

  def SmartUnsetAll(self):
    """Restores everything SmartSet replaced, newest first."""
    for args in reversed(self.stubs):
      setattr(*args)
    self.stubs = []

  def Set(self, parent, child_name, new_child):
    """Replaces parent.child_name by new_child (static methods stay static)."""
    old_child = getattr(parent, child_name)
    old_attribute = parent.__dict__.get(child_name)
    if old_attribute is not None and isinstance(old_attribute, staticmethod):
      old_child = staticmethod(old_child)
    self.cache.append((parent, old_child, child_name))
    setattr(parent, child_name, new_child)

  def UnsetAll(self):
    """Restores everything Set replaced, newest first."""
    for (parent, old_child, child_name) in reversed(self.cache):
      setattr(parent, child_name, old_child)
    self.cache = []

  def CleanUp(self):
    """Restores everything."""
    self.SmartUnsetAll()
    self.UnsetAll()


class Benchmark(object):
  """Base class of benchmarks (tf.test.Benchmark): report_benchmark records a result,
  run_op_benchmark times an op in a session and reports it."""

  def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None,
                       extras=None, name=None, metrics=None):
    """Records one result: logs it, and when TEST_REPORT_FILE_PREFIX is set appends it as
    a line of JSON to <prefix><name>."""
    import json  # pylint: disable=g-import-not-at-top
    import os  # pylint: disable=g-import-not-at-top
    name = name or "%s.%s" % (type(self).__name__, "benchmark")
    entry = {"name": name, "iters": iters, "cpu_time": cpu_time, "wall_time": wall_time,
             "throughput": throughput, "extras": extras or {}, "metrics": metrics or []}
    from tfc import logging as _logging  # pylint: disable=g-import-not-at-top
    _logging.info("Benchmark [%s] iters: %s, wall_time: %s, cpu_time: %s, throughput: %s",
                  name, iters, wall_time, cpu_time, throughput)
    prefix = os.environ.get("TEST_REPORT_FILE_PREFIX")
    if prefix:
      with open(prefix + name.replace("/", "__"), "a") as f:
        f.write(json.dumps(entry, default=str) + "\n")
    return entry

  def run_op_benchmark(self, sess, op_or_tensor, feed_dict=None, burn_iters=2, min_iters=10,
                       store_trace=False, store_memory_usage=True, name=None, extras=None,
                       mbs=0):
    """Runs op_or_tensor burn_iters times untimed, then min_iters times timed; reports and
    returns {"iters", "wall_time" (median seconds), "extras"} (throughput when mbs > 0)."""
    import time  # pylint: disable=g-import-not-at-top
    del store_trace, store_memory_usage
    for _ in range(burn_iters):
      sess.run(op_or_tensor, feed_dict=feed_dict)
    deltas = []
    for _ in range(min_iters):
      start = time.time()
      sess.run(op_or_tensor, feed_dict=feed_dict)
      deltas.append(time.time() - start)
    deltas.sort()
    median = deltas[len(deltas) // 2] if deltas else 0.0
    throughput = mbs / median if mbs and median else None
    extras = dict(extras or {})
    self.report_benchmark(iters=min_iters, wall_time=median, throughput=throughput,
                          extras=extras, name=name)
    result = {"iters": min_iters, "wall_time": median, "extras": extras}
    if throughput is not None:
      result["throughput"] = throughput
    return result

  def evaluate(self, tensors):
    """Runs tensors in the default session and returns their values."""
    from tfc.framework import ops as _o  # pylint: disable=g-import-not-at-top
    sess = _o.get_default_session()
    if sess is None:
      raise ValueError("Benchmark.evaluate needs a default session (use `with sess.as_default():`)")
    return sess.run(tensors)


def __getattr__(name):
  if name == "mock":
    from unittest import mock  # pylint: disable=g-import-not-at-top
    return mock
  if name == "experimental":
    from tfc import test_experimental  # pylint: disable=g-import-not-at-top
    return test_experimental
  raise AttributeError("module 'tfc.test' has no attribute %r" % name)


from tfc.test_util import TestCase, main, get_temp_dir  # noqa: E402,F401
