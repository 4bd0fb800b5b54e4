"""tf.Session / tf.InteractiveSession on top of `tfc._tfc.Session`.

`Session.run` and `Session.make_callable` are the C methods (the hot path);
this module adds construction from (target, graph, config), the context
manager / default-session behaviour, and the fetch/feed structure handlers
the C side calls for anything other than a single fetch or a flat list.
"""
import _thread
import collections
import functools
import warnings

from tfc import _tfc
from tfc import errors as _errors
from tfc import protos as _protos
from tfc.framework import ops as _ops

_Tensor = _ops.Tensor
_Operation = _ops.Operation


# -- fetch / feed structure handling ------------------------------------------------------


def _leaf_error(fetch):
  return TypeError("Fetch argument %r has invalid type %r, must be a string or Tensor. "
                   "(Can not convert a %s into a Tensor or Operation.)"
                   % (fetch, type(fetch), type(fetch).__name__))


def _build(fetch, flat):
  """Appends the leaves of `fetch` to `flat`; returns a function rebuilding the structure."""
  if fetch is None:
    raise TypeError("Fetch argument %r has invalid type %r" % (fetch, type(fetch)))
  if isinstance(fetch, (_Tensor, _Operation, str, bytes)):
    idx = len(flat)
    flat.append(fetch.decode() if isinstance(fetch, bytes) else fetch)
    return lambda vals: vals[idx]
  if isinstance(fetch, dict):
    keys = list(fetch.keys())
    subs = [_build(fetch[k], flat) for k in keys]
    if isinstance(fetch, collections.defaultdict):
      make = functools.partial(collections.defaultdict, fetch.default_factory)
    else:
      make = type(fetch)

    def rebuild_dict(vals):
      d = make()
      for k, s in zip(keys, subs):
        d[k] = s(vals)
      return d
    return rebuild_dict
  if isinstance(fetch, (list, tuple)):
    subs = [_build(f, flat) for f in fetch]
    t = type(fetch)
    if issubclass(t, list):
      return lambda vals: [s(vals) for s in subs]
    if t is tuple:
      return lambda vals: tuple(s(vals) for s in subs)
    return lambda vals: t(*[s(vals) for s in subs])  # namedtuple
  parts = getattr(fetch, "_tfc_fetch_parts", None)
  if parts is not None:  # a composite such as tf.SparseTensor
    tensors, combine = parts()
    subs = [_build(t, flat) for t in tensors]
    return lambda vals: combine([s(vals) for s in subs])
  conv = getattr(fetch, "_as_graph_element", None)
  if conv is not None:
    el = conv()
    if el is not None:
      idx = len(flat)
      flat.append(el)
      return lambda vals: vals[idx]
  raise _leaf_error(fetch)


def _fetch_handler(fetches):
  """`_tfc.set_fetch_handler` callback: (flat list of leaves, rebuild function)."""
  flat = []
  rebuild = _build(fetches, flat)
  return flat, rebuild


def _feed_handler(feed_dict):
  """`_tfc.set_feed_handler` callback: (key, value) pairs with Tensor/str keys."""
  out = []
  for k, v in feed_dict.items():
    if isinstance(k, (_Tensor, str)):
      out.append((k, v))
      continue
    parts = getattr(k, "_tfc_feed_parts", None)
    if parts is not None:  # a composite such as tf.SparseTensor
      out.extend(parts(v))
      continue
    conv = getattr(k, "_as_graph_element", None)
    if conv is not None:
      out.append((conv(), v))
      continue
    if isinstance(k, tuple) and isinstance(v, tuple) and len(k) == len(v):
      out.extend(zip(k, v))
      continue
    raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable feed "
                    "values include Python scalars, strings, lists, numpy ndarrays, or "
                    "TensorHandles." if isinstance(v, _Tensor) else
                    "Cannot interpret feed_dict key as Tensor: Can not convert a %s into a "
                    "Tensor." % type(k).__name__)
  return out


_tfc.set_fetch_handler(_fetch_handler)
if hasattr(_tfc, "set_feed_handler"):
  _tfc.set_feed_handler(_feed_handler)
_tfc.set_error_classes(dict(_errors._CODE_TO_EXCEPTION_CLASS))


# -- Session -------------------------------------------------------------------------------


def _c_args(target, graph, config):
  if graph is None:
    graph = _ops.get_default_graph()
  if not isinstance(graph, _ops.Graph):
    raise TypeError("graph must be a tf.Graph, but got %s" % type(graph))
  if isinstance(target, bytes):
    target = target.decode()
  if target is None:
    target = ""
  if not isinstance(target, str):
    raise TypeError("target must be a string, but got %s" % type(target))
  if target not in ("", "local") and not target.startswith("grpc://"):
    raise _errors.NotFoundError(
        None, None, "No session factory registered for the given session options: "
        "{target: \"%s\"}" % target)
  if target.startswith("grpc://"):
    address = target[len("grpc://"):]
    if not address or "/" in address:
      raise _errors.InvalidArgumentError(None, None, "Invalid target: '%s'" % target)
    if config is not None and not isinstance(config, _protos.ConfigProto):
      raise TypeError("config must be a tf.ConfigProto, but got %s" % type(config))
    return graph, target, config, {
        "target": address, "config": config.SerializeToString() if config is not None else b""}
  if config is None:
    # The defaults of an empty ConfigProto, without building the message class.
    return graph, target, None, dict(_DEFAULT_SESSION_ARGS)
  if not isinstance(config, _protos.ConfigProto):
    raise TypeError("config must be a tf.ConfigProto, but got %s" % type(config))
  kwargs = {
      "inter_op_threads": int(config.inter_op_parallelism_threads),
      "intra_op_threads": int(config.intra_op_parallelism_threads),
      "cpu_devices": max(1, int(config.device_count.get("CPU", 1))),
      "allow_soft_placement": bool(config.allow_soft_placement),
      "log_device_placement": bool(config.log_device_placement),
      "fusion": _fusion_enabled(config),
  }
  if config.graph_options.build_cost_model > 0:
    # RunMetadata.cost_graph (and step_stats) every build_cost_model steps of a
    # plan, after build_cost_model_after steps, as TF's DirectSession
    kwargs["build_cost_model"] = int(config.graph_options.build_cost_model)
    kwargs["build_cost_model_after"] = int(config.graph_options.build_cost_model_after)
  return graph, target, config, kwargs


_DEFAULT_SESSION_ARGS = {"inter_op_threads": 0, "intra_op_threads": 0, "cpu_devices": 1,
                         "allow_soft_placement": False, "log_device_placement": False,
                         "fusion": True}


def _fusion_enabled(config):
  """False when the config turns TF's remapper (op fusion) off: graph_options.
  rewrite_options.remapping = OFF, or disable_meta_optimizer."""
  if not config.HasField("graph_options"):
    return True
  graph_options = config.graph_options
  if not graph_options.HasField("rewrite_options"):
    return True
  rewrite = graph_options.rewrite_options
  return not (rewrite.remapping == _protos.RewriterConfig.OFF or rewrite.disable_meta_optimizer)


class _DeviceAttributes(object):
  __slots__ = ("name", "device_type", "memory_limit_bytes", "incarnation")

  def __init__(self, name, device_type, memory_limit_bytes, incarnation=0):
    self.name = name
    self.device_type = device_type
    self.memory_limit_bytes = memory_limit_bytes
    self.incarnation = incarnation

  def __repr__(self):
    return "_DeviceAttributes(%s, %s, %d, %d)" % (self.name, self.device_type,
                                                 self.memory_limit_bytes, self.incarnation)


class Session(_tfc.Session):
  """A class for running TensorFlow operations (TF 1.15 `tf.Session`)."""

  def __new__(cls, target="", graph=None, config=None):
    graph, _, _, kwargs = _c_args(target, graph, config)
    if _tfc.Session.__new__ is object.__new__:
      return object.__new__(cls)
    return _tfc.Session.__new__(cls, graph, **kwargs)

  def __init__(self, target="", graph=None, config=None):
    graph, target, config, kwargs = _c_args(target, graph, config)
    if _tfc.Session.__init__ is not object.__init__:
      _tfc.Session.__init__(self, graph, **kwargs)
    self._py_graph = graph
    self._target = target.encode()
    self._config = config
    self._cpu_devices = kwargs.get("cpu_devices", 1)
    # True when runs fill RunMetadata without being asked by RunOptions (a
    # cost model every build_cost_model steps); MonitoredSession reads it
    self._collects_run_metadata = (config is not None and
                                   config.graph_options.build_cost_model > 0)
    self._default_graph_context_manager = None
    self._default_session_context_manager = None

  @property
  def graph(self):
    return self._py_graph

  @property
  def graph_def(self):
    return self._py_graph.as_graph_def()

  @property
  def sess_str(self):
    return self._target

  def as_default(self):
    return _ops.default_session(self)

  def list_devices(self):
    if self._target.startswith(b"grpc://"):
      timeout = int(self._config.operation_timeout_in_ms) if self._config is not None else 0
      return [_DeviceAttributes(name, kind, mem, inc) for name, kind, mem, inc in
              _tfc.grpc_list_devices(self._target[len(b"grpc://"):].decode(), timeout)]
    n = max(1, self._cpu_devices)
    return [_DeviceAttributes("/job:localhost/replica:0/task:0/device:CPU:%d" % i, "CPU",
                              268435456) for i in range(n)]

  def __enter__(self):
    if self._default_graph_context_manager is None:
      self._default_graph_context_manager = self.graph.as_default()
    else:
      raise RuntimeError("Session context managers are not re-entrant. "
                         "Use `Session.as_default()` if you want to enter "
                         "a session multiple times.")
    if self._default_session_context_manager is None:
      self._default_session_context_manager = self.as_default()
    self._default_graph_context_manager.__enter__()
    return self._default_session_context_manager.__enter__()

  def __exit__(self, exec_type, exec_value, exec_tb):
    try:
      self._default_session_context_manager.__exit__(exec_type, exec_value, exec_tb)
    finally:
      self._default_graph_context_manager.__exit__(exec_type, exec_value, exec_tb)
      self._default_session_context_manager = None
      self._default_graph_context_manager = None
      self.close()

  def partial_run_setup(self, fetches, feeds=None):
    raise NotImplementedError("tfc does not implement partial_run yet")

  def partial_run(self, handle, fetches, feed_dict=None):
    raise NotImplementedError("tfc does not implement partial_run yet")

  def make_callable(self, fetches, feed_list=None, accept_options=False):
    if not self._target.startswith(b"grpc://"):
      return _tfc.Session.make_callable(self, fetches, feed_list, accept_options)
    feed_list = list(feed_list or [])

    def _callable(*args, **kwargs):
      if len(args) != len(feed_list):
        raise TypeError("callable takes %d feed values (%d given)" % (len(feed_list), len(args)))
      return self.run(fetches, feed_dict=dict(zip(feed_list, args)), **kwargs)
    return _callable

  @staticmethod
  def reset(target, containers=None, config=None):
    """Resets resource containers on `target` (all of them when `containers` is None)
    and closes every session open on that master."""
    if isinstance(target, bytes):
      target = target.decode()
    if not target.startswith("grpc://"):
      raise _errors.InvalidArgumentError(None, None, "Session.reset needs a grpc:// target, "
                                         "not '%s'" % target)
    _tfc.grpc_reset(target[len("grpc://"):], list(containers or []))


class InteractiveSession(Session):
  """A Session that installs itself as the default session on construction."""

  _count_lock = _thread.allocate_lock()
  _active_session_count = 0

  def __init__(self, target="", graph=None, config=None):
    super(InteractiveSession, self).__init__(target, graph, config)
    with InteractiveSession._count_lock:
      if InteractiveSession._active_session_count > 0:
        warnings.warn("An interactive session is already active. This can "
                      "cause out-of-memory errors in some cases. You must "
                      "explicitly call `InteractiveSession.close()` to release "
                      "resources held by the other session(s).")
      InteractiveSession._active_session_count += 1
    self._explicitly_closed = False
    self._default_session = self.as_default()
    self._default_session.__enter__()
    self._explicit_graph = graph
    self._default_graph = None
    if graph is not None:
      self._default_graph = graph.as_default()
      self._default_graph.__enter__()

  def close(self):
    super(InteractiveSession, self).close()
    with InteractiveSession._count_lock:
      if not self._explicitly_closed:
        InteractiveSession._active_session_count -= 1
        self._explicitly_closed = True
      else:
        return
    if self._default_graph is not None:
      self._default_graph.__exit__(None, None, None)
      self._default_graph = None
    self._default_session.__exit__(None, None, None)
    self._default_session = None


def get_default_session():
  return _ops.get_default_session()
