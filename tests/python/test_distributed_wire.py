"""Bad input on the wire against a real `python -m tfc.server` process: garbage
bytes on the TCP port, malformed and truncated requests for every method, unknown
session and graph handles, stale step ids, oversized messages, a RecvTensor for a
key that never comes. Each gets the right gRPC status and the server keeps serving."""
import os
import socket
import time

import pytest

import tfc as tf
from tfc import _tfc
from cluster_util import Cluster

# AddressSanitizer keeps freed memory in quarantine: RSS bounds mean nothing under it.
_UNDER_ASAN = "libasan" in os.environ.get("LD_PRELOAD", "")

WORKER_METHODS = ["GetStatus", "CreateWorkerSession", "DeleteWorkerSession", "RegisterGraph",
                  "DeregisterGraph", "RunGraph", "CleanupGraph", "CleanupAll", "RecvTensor",
                  "Logging", "Tracing"]
MASTER_METHODS = ["CreateSession", "ExtendSession", "PartialRunSetup", "RunStep", "CloseSession",
                  "ListDevices", "Reset", "MakeCallable", "RunCallable", "ReleaseCallable"]


def _varint(v):
  out = bytearray()
  while v >= 0x80:
    out.append((v & 0x7F) | 0x80)
    v >>= 7
  out.append(v)
  return bytes(out)


def _ld(field, data):
  return _varint(field << 3 | 2) + _varint(len(data)) + data


def _vf(field, v):
  return _varint(field << 3) + _varint(v)


@pytest.fixture(scope="module")
def cluster():
  c = Cluster({"worker": 2}, env={"TFC_MAX_MESSAGE_BYTES": str(4 << 20)})
  yield c
  c.stop()


def _alive(addr):
  out = _tfc._grpc_call(addr, "/tensorflow.WorkerService/GetStatus", b"", 5000)
  assert b"device:CPU:0" in out


def test_garbage_bytes_on_the_port(cluster):
  host, port = cluster.address("worker", 0).split(":")
  for payload in (b"\x00" * 64, os.urandom(4096), b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
                  b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + os.urandom(512)):
    s = socket.create_connection((host, int(port)), timeout=5)
    try:
      s.sendall(payload)
      s.settimeout(2)
      try:
        s.recv(4096)  # the server answers with a GOAWAY or closes; it must not hang us
      except socket.timeout:
        pass
    finally:
      s.close()
  # a connection that sends half a frame and stays open does not block others
  s = socket.create_connection((host, int(port)), timeout=5)
  s.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00")
  try:
    _alive(cluster.address("worker", 0))
  finally:
    s.close()
  _alive(cluster.address("worker", 0))


@pytest.mark.parametrize("payload", [b"\xff\xff\xff", b"\x0a\x10abc", b"\x12", b"\x08"])
def test_malformed_and_truncated_requests_for_every_method(cluster, payload):
  addr = cluster.address("worker", 0)
  for name in WORKER_METHODS + MASTER_METHODS:
    service = "WorkerService" if name in WORKER_METHODS else "MasterService"
    with pytest.raises(tf.errors.OpError) as e:
      _tfc._grpc_call(addr, "/tensorflow.%s/%s" % (service, name), payload, 5000)
    if name not in ("Logging", "Tracing", "PartialRunSetup"):
      assert isinstance(e.value, tf.errors.InternalError), (name, repr(e.value))
      assert "Unable to parse request" in str(e.value)
  _alive(addr)


def test_truncated_valid_requests(cluster):
  addr = cluster.address("worker", 0)
  g = tf.Graph()
  with g.as_default():
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.identity(x * 2.0, name="y")
  create = _ld(1, g.as_graph_def().SerializeToString())
  for cut in (1, 5, len(create) // 2, len(create) - 1):
    with pytest.raises(tf.errors.InternalError, match="Unable to parse request"):
      _tfc._grpc_call(addr, "/tensorflow.MasterService/CreateSession", create[:cut], 5000)
  # the whole request works, and a RunStep cut anywhere fails cleanly
  handle_msg = _tfc._grpc_call(addr, "/tensorflow.MasterService/CreateSession", create, 10000)
  handle = handle_msg[2:2 + handle_msg[1]]
  feed = _ld(1, b"x:0") + _ld(2, tf.make_tensor_proto([1.0, 2.0]).SerializeToString())
  step = _ld(1, handle) + _ld(2, feed) + _ld(3, b"y:0")
  resp = _tfc._grpc_call(addr, "/tensorflow.MasterService/RunStep", step, 10000)
  assert b"y:0" in resp
  for cut in range(1, len(step) - 1, 7):
    try:
      _tfc._grpc_call(addr, "/tensorflow.MasterService/RunStep", step[:cut], 5000)
    except (tf.errors.InternalError, tf.errors.InvalidArgumentError, tf.errors.NotFoundError,
            tf.errors.AbortedError):
      pass
  _tfc._grpc_call(addr, "/tensorflow.MasterService/CloseSession", _ld(1, handle), 5000)
  _alive(addr)


def test_unknown_session_and_graph_handles(cluster):
  addr = cluster.address("worker", 0)
  for name in ("ExtendSession", "RunStep", "CloseSession", "MakeCallable", "RunCallable",
               "ReleaseCallable"):
    with pytest.raises(tf.errors.AbortedError, match="Session deadbeef is not found"):
      _tfc._grpc_call(addr, "/tensorflow.MasterService/" + name, _ld(1, b"deadbeef"), 5000)
  with pytest.raises(tf.errors.AbortedError, match="Graph handle is not found"):
    _tfc._grpc_call(addr, "/tensorflow.WorkerService/RunGraph", _ld(1, b"nope") + _vf(2, 77), 5000)
  with pytest.raises(tf.errors.AbortedError, match="Graph handle is not found"):
    _tfc._grpc_call(addr, "/tensorflow.WorkerService/DeregisterGraph", _ld(1, b"nope"), 5000)
  # CleanupGraph of a step that never ran, DeleteWorkerSession of an unknown session: no-ops
  _tfc._grpc_call(addr, "/tensorflow.WorkerService/CleanupGraph", _vf(1, 123456), 5000)
  _tfc._grpc_call(addr, "/tensorflow.WorkerService/DeleteWorkerSession", _ld(1, b"x"), 5000)
  _alive(addr)


def test_recv_tensor_for_a_key_that_never_comes_and_stale_steps(cluster):
  addr = cluster.address("worker", 0)
  key = ("/job:worker/replica:0/task:0/device:CPU:0;0000000000000001;"
         "/job:worker/replica:0/task:1/device:CPU:0;never:0;0:0").encode()
  t0 = time.time()
  with pytest.raises(tf.errors.DeadlineExceededError):
    _tfc._grpc_call(addr, "/tensorflow.WorkerService/RecvTensor", _vf(1, 4242) + _ld(2, key), 500)
  assert time.time() - t0 < 5
  # a step id that was cleaned up fails at once instead of waiting
  _tfc._grpc_call(addr, "/tensorflow.WorkerService/CleanupGraph", _vf(1, 999), 5000)
  t0 = time.time()
  with pytest.raises(tf.errors.CancelledError, match="already cleaned up"):
    _tfc._grpc_call(addr, "/tensorflow.WorkerService/RecvTensor", _vf(1, 999) + _ld(2, key), 20000)
  assert time.time() - t0 < 5
  # a key of another task, a malformed key
  other = key.replace(b"task:0/device", b"task:1/device", 1)
  with pytest.raises(tf.errors.InvalidArgumentError, match="another task"):
    _tfc._grpc_call(addr, "/tensorflow.WorkerService/RecvTensor", _vf(1, 5) + _ld(2, other), 5000)
  with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid rendezvous key"):
    _tfc._grpc_call(addr, "/tensorflow.WorkerService/RecvTensor", _vf(1, 5) + _ld(2, b"a;b"), 5000)
  # many receives for made-up steps leave nothing behind (memory stays flat)
  pid = cluster.procs[("worker", 0)].pid

  def rss():
    with open("/proc/%d/status" % pid) as f:
      return int([l for l in f if l.startswith("VmRSS:")][0].split()[1])
  for i in range(200):
    with pytest.raises(tf.errors.DeadlineExceededError):
      _tfc._grpc_call(addr, "/tensorflow.WorkerService/RecvTensor", _vf(1, 10000 + i) + _ld(2, key), 20)
  before = rss()
  for i in range(2000):
    with pytest.raises(tf.errors.DeadlineExceededError):
      _tfc._grpc_call(addr, "/tensorflow.WorkerService/RecvTensor", _vf(1, 20000 + i) + _ld(2, key), 5)
  if not _UNDER_ASAN:
    assert rss() - before < 8 * 1024
  _alive(addr)


def test_oversized_message_is_resource_exhausted(cluster):
  addr = cluster.address("worker", 0)
  big = _ld(1, b"x" * (5 << 20))
  with pytest.raises(tf.errors.ResourceExhaustedError):
    _tfc._grpc_call(addr, "/tensorflow.MasterService/RunStep", big, 10000)
  _alive(addr)
  # a step under the limit still runs
  g = tf.Graph()
  with g.as_default():
    k = tf.constant(3.0) * 2.0
  with tf.Session(cluster.target("worker", 0), graph=g) as sess:
    assert sess.run(k) == 6.0


def test_unknown_method_and_shutdown_path(cluster):
  addr = cluster.address("worker", 1)
  with pytest.raises(tf.errors.UnimplementedError):
    _tfc._grpc_call(addr, "/tensorflow.EagerService/Enqueue", b"", 5000)
  with pytest.raises(tf.errors.UnimplementedError):
    _tfc._grpc_call(addr, "/tfc.ControlService/Nothing", b"", 5000)
  _alive(addr)
