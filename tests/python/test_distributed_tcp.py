"""The TCP data plane for large tensors between tfc tasks on different hosts
(csrc/distributed/tcp_plane.c), tested on one machine: TFC_DATA_PLANE=tcp makes the
receivers ask for it instead of the same-host plane. Real server processes; the
sender's extra listening socket shows which plane carried the tensor, and an
unreachable plane falls back to gRPC."""
import os

import numpy as np
import pytest

import tfc as tf
from cluster_util import Cluster


def _listening_ports(pid):
  """TCP ports process pid listens on (from /proc: its socket inodes in LISTEN state)."""
  inodes = set()
  fd_dir = "/proc/%d/fd" % pid
  for fd in os.listdir(fd_dir):
    try:
      target = os.readlink(os.path.join(fd_dir, fd))
    except OSError:
      continue
    if target.startswith("socket:["):
      inodes.add(target[8:-1])
  ports = set()
  for table in ("/proc/%d/net/tcp" % pid, "/proc/%d/net/tcp6" % pid):
    try:
      with open(table) as f:
        rows = f.read().splitlines()[1:]
    except OSError:
      continue
    for row in rows:
      cols = row.split()
      if cols[3] == "0A" and cols[9] in inodes:  # 0A: LISTEN
        ports.add(int(cols[1].rsplit(":", 1)[1], 16))
  return ports


def _move(c, rounds=2):
  """Moves a 12 MiB float tensor (and a string tensor) from ps:0 to worker:0, checking values."""
  g = tf.Graph()
  data = np.arange(3 * 1024 * 1024, dtype=np.float32).reshape(1024, 3072)
  with g.as_default():
    with tf.device("/job:ps/task:0"):
      v = tf.Variable(data)
      s = tf.constant(["x" * 100] * 2000)  # strings always travel over gRPC
    with tf.device("/job:worker/task:0"):
      w = tf.identity(v) * 2.0
      n = tf.size(tf.identity(s))
  with tf.Session(c.target("worker", 0), graph=g) as sess:
    sess.run(v.initializer)
    for _ in range(rounds):
      np.testing.assert_array_equal(sess.run(w), data * 2.0)
    assert sess.run(n) == 2000


def _extra_ports(c):
  ps = c.procs[("ps", 0)]
  grpc_port = int(c.address("ps", 0).rsplit(":", 1)[1])
  return _listening_ports(ps.pid) - {grpc_port}


@pytest.mark.parametrize("plane", ["tcp", "same_host"])
def test_large_tensor_plane(plane):
  env = {"TFC_DATA_PLANE": "tcp"} if plane == "tcp" else {}
  c = Cluster({"ps": 1, "worker": 1}, env=env)
  try:
    assert _extra_ports(c) == set()
    _move(c)
    extra = _extra_ports(c)
    if plane == "tcp":
      assert len(extra) == 1, extra   # the sender's TCP plane, started on first use
    else:
      assert extra == set()           # process_vm_readv needs no socket
  finally:
    codes = c.stop()
  assert all(code == 0 for code in codes.values()), codes


def test_unreachable_tcp_plane_falls_back_to_grpc():
  c = Cluster({"ps": 1, "worker": 1},
              env={"TFC_DATA_PLANE": "tcp", "TFC_TCP_PLANE_HOST": "tcp-plane.invalid"})
  try:
    _move(c, rounds=3)
    assert len(_extra_ports(c)) == 1
  finally:
    c.stop()
