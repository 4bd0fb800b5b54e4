"""Operating a cluster of real `python -m tfc.server` processes: parameter servers
that exit when training ends (--exit_when_idle, tf.train.shutdown_server), where a
server listens (its own cluster entry's host unless --bind), a shared token on every
RPC (TFC_AUTH_TOKEN), TLS with a self-signed certificate, the local launcher
(python -m tfc.launch), and the one-line server logs."""
import json
import os
import shutil
import subprocess
import sys
import time

import pytest

import tfc as tf
from cluster_util import Cluster, free_ports


def _wait_exit(p, timeout):
  try:
    return p.wait(timeout)
  except subprocess.TimeoutExpired:
    return None


def _ps_graph():
  g = tf.Graph()
  with g.as_default():
    with tf.device("/job:ps/task:0"):
      v = tf.Variable(2.0, name="v")
    with tf.device("/job:worker/task:0"):
      out = v * 3.0
    init = tf.global_variables_initializer()
  return g, out, init


# ------------------------------------------------------------------ exit when training ends


def test_ps_exits_when_idle_after_training():
  c = Cluster({"ps": 1, "worker": 1}, extra_args={("ps", 0): ["--exit_when_idle", "2"]})
  ps = c.procs[("ps", 0)]
  try:
    time.sleep(3)  # idle before training started: keeps serving
    assert ps.poll() is None
    g, out, init = _ps_graph()
    with tf.Session(c.target("worker", 0), graph=g) as sess:
      sess.run(init)
      for _ in range(20):
        assert sess.run(out) == 6.0
    t0 = time.time()
    assert _wait_exit(ps, 15) == 0
    assert 1.5 < time.time() - t0 + 0.5  # not before the idle time
    assert "idle for" in c.log("ps", 0)
  finally:
    c.stop()


def test_shutdown_server_stops_a_task_cleanly():
  c = Cluster({"ps": 2, "worker": 1})
  try:
    g, out, init = _ps_graph()
    with tf.Session(c.target("worker", 0), graph=g) as sess:
      sess.run(init)
      assert sess.run(out) == 6.0
    for i in range(2):
      assert tf.train.shutdown_server(c.target("ps", i)) is True
    for i in range(2):
      assert _wait_exit(c.procs[("ps", i)], 10) == 0
      assert "shutdown requested" in c.log("ps", i)
    # an already stopped server counts as stopped
    assert tf.train.shutdown_server(c.target("ps", 0), timeout_in_ms=2000) is True
  finally:
    c.stop()


def test_shutdown_ends_join_of_an_in_process_server():
  port = free_ports(1)[0]
  server = tf.train.Server({"ps": ["localhost:%d" % port]}, job_name="ps", task_index=0)
  import threading
  done = threading.Event()

  def join():
    server.join()
    done.set()
  th = threading.Thread(target=join, daemon=True)
  th.start()
  time.sleep(0.2)
  assert not done.is_set()
  tf.train.shutdown_server(server.target)
  assert done.wait(10)


# ------------------------------------------------------------------ where a server listens


def test_server_listens_on_its_own_host_unless_bind():
  ports = free_ports(2)
  spec = json.dumps({"local": ["127.0.0.1:%d" % ports[0]]})
  spec_all = json.dumps({"local": ["127.0.0.1:%d" % ports[1]]})
  procs = []
  try:
    for sp, extra in ((spec, []), (spec_all, ["--bind", "0.0.0.0"])):
      p = subprocess.Popen([sys.executable, "-m", "tfc.server", "--cluster_spec", sp, "--job_name", "local",
                            "--task_index", "0"] + extra, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
      procs.append(p)
      assert "listening on" in p.stdout.readline()
    from tfc import _tfc
    # both answer on their own address
    _tfc._grpc_call("127.0.0.1:%d" % ports[0], "/tensorflow.WorkerService/GetStatus", b"", 5000)
    _tfc._grpc_call("127.0.0.1:%d" % ports[1], "/tensorflow.WorkerService/GetStatus", b"", 5000)
    # 127.0.0.2 is another local address: only the server bound to every interface answers there
    with pytest.raises(tf.errors.UnavailableError):
      _tfc._grpc_call("127.0.0.2:%d" % ports[0], "/tensorflow.WorkerService/GetStatus", b"", 3000)
    _tfc._grpc_call("127.0.0.2:%d" % ports[1], "/tensorflow.WorkerService/GetStatus", b"", 5000)
  finally:
    for p in procs:
      p.terminate()
      p.wait(10)


# ------------------------------------------------------------------ shared token


def test_shared_token_is_required_on_every_rpc(monkeypatch):
  c = Cluster({"ps": 1, "worker": 1}, env={"TFC_AUTH_TOKEN": "s3cret-token"})
  from tfc import _tfc
  try:
    g, out, init = _ps_graph()
    # no token: UNAUTHENTICATED, on every method
    monkeypatch.delenv("TFC_AUTH_TOKEN", raising=False)
    for method in ("/tensorflow.WorkerService/GetStatus", "/tensorflow.MasterService/CreateSession",
                   "/tensorflow.WorkerService/RecvTensor", "/tfc.ControlService/Shutdown"):
      with pytest.raises(tf.errors.UnauthenticatedError):
        _tfc._grpc_call(c.address("worker", 0), method, b"", 5000)
    with tf.Session(c.target("worker", 0), graph=g) as sess:
      with pytest.raises(tf.errors.UnauthenticatedError):
        sess.run(init)
    # a wrong token: UNAUTHENTICATED
    monkeypatch.setenv("TFC_AUTH_TOKEN", "s3cret-tokem")
    with pytest.raises(tf.errors.UnauthenticatedError):
      _tfc._grpc_call(c.address("ps", 0), "/tensorflow.WorkerService/GetStatus", b"", 5000)
    # the right token: the cluster works (the tasks' own calls carry it too)
    monkeypatch.setenv("TFC_AUTH_TOKEN", "s3cret-token")
    with tf.Session(c.target("worker", 0), graph=g) as sess:
      sess.run(init)
      assert sess.run(out) == 6.0
  finally:
    c.stop()


# ------------------------------------------------------------------ TLS


def _self_signed(tmp_path):
  if not shutil.which("openssl"):
    pytest.skip("openssl is not installed")
  key, cert = str(tmp_path / "key.pem"), str(tmp_path / "cert.pem")
  subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                  "-days", "2", "-subj", "/CN=localhost",
                  "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                 check=True, capture_output=True)
  return key, cert


def test_tls_with_a_self_signed_certificate(tmp_path, monkeypatch):
  key, cert = _self_signed(tmp_path)
  env = {"TFC_TLS_CERT": cert, "TFC_TLS_KEY": key, "TFC_TLS_CA": cert}
  c = Cluster({"ps": 1, "worker": 1}, env=env)
  from tfc import _tfc
  try:
    g, out, init = _ps_graph()
    # a plaintext client cannot talk to a TLS server
    monkeypatch.delenv("TFC_TLS_CA", raising=False)
    with pytest.raises(tf.errors.UnavailableError):
      _tfc._grpc_call(c.address("worker", 0), "/tensorflow.WorkerService/GetStatus", b"", 3000)
    # a client trusting the certificate works; the tasks reach each other over TLS too
    monkeypatch.setenv("TFC_TLS_CA", cert)
    with tf.Session(c.target("worker", 0), graph=g) as sess:
      sess.run(init)
      assert sess.run(out) == 6.0
    # a client trusting other roots is refused
    (tmp_path / "other").mkdir()
    _, other_cert = _self_signed(tmp_path / "other")
    monkeypatch.setenv("TFC_TLS_CA", other_cert)
    with pytest.raises(tf.errors.UnavailableError):
      _tfc._grpc_call(c.address("worker", 0), "/tensorflow.WorkerService/GetStatus", b"", 3000)
  finally:
    c.stop()


def test_tls_settings_that_cannot_be_read_fail_at_start(tmp_path):
  port = free_ports(1)[0]
  env = dict(os.environ, TFC_TLS_CERT=str(tmp_path / "missing.pem"), TFC_TLS_KEY=str(tmp_path / "k.pem"))
  out = subprocess.run([sys.executable, "-m", "tfc.server", "--cluster_spec",
                        "local=localhost:%d" % port, "--job_name", "local", "--task_index", "0"],
                       capture_output=True, text=True, env=env, timeout=60)
  assert out.returncode != 0
  assert "TFC_TLS_CERT" in out.stderr and "missing.pem" in out.stderr


# ------------------------------------------------------------------ launcher


def test_local_launcher_starts_a_cluster_runs_a_command_and_tears_it_down(tmp_path):
  script = tmp_path / "client.py"
  script.write_text(
      "import json, os\n"
      "import tfc as tf\n"
      "spec = json.loads(os.environ['TFC_CLUSTER_SPEC'])\n"
      "g = tf.Graph()\n"
      "with g.as_default():\n"
      "  with tf.device('/job:ps/task:1'):\n"
      "    a = tf.constant(20.0)\n"
      "  with tf.device('/job:worker/task:0'):\n"
      "    b = a + 1.0\n"
      "with tf.Session('grpc://' + spec['worker'][0], graph=g) as s:\n"
      "  print('RESULT', s.run(b))\n"
      "with open(os.environ['PIDS_OUT'], 'w') as f:\n"
      "  f.write(os.environ['TFC_CLUSTER_PIDS'])\n")
  pids_out = tmp_path / "pids.txt"
  env = dict(os.environ, PIDS_OUT=str(pids_out))
  out = subprocess.run([sys.executable, "-m", "tfc.launch", "--ps", "2", "--worker", "1", "--",
                        sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120)
  assert out.returncode == 0, out.stdout + out.stderr
  assert "RESULT 21.0" in out.stdout
  pids = [int(p) for p in pids_out.read_text().split(",")]
  assert len(pids) == 3
  for pid in pids:  # every task process is gone
    assert not os.path.exists("/proc/%d" % pid) or open("/proc/%d/stat" % pid).read().split()[2] == "Z"
  # the command's exit status is the launcher's
  out = subprocess.run([sys.executable, "-m", "tfc.launch", "--worker", "1", "--", sys.executable, "-c",
                        "raise SystemExit(7)"], capture_output=True, text=True, timeout=120)
  assert out.returncode == 7


def test_server_logs_sessions_and_failed_peers():
  c = Cluster({"ps": 1, "worker": 1})
  try:
    g, out, init = _ps_graph()
    with tf.Session(c.target("worker", 0), graph=g) as sess:
      sess.run(init)
    def lines(text):
      return [l for l in c.log("worker", 0).splitlines() if text in l and "session " in l]
    deadline = time.time() + 10  # the task's output reaches us through a pipe
    while time.time() < deadline and not lines(" closed"):
      time.sleep(0.05)
    log = c.log("worker", 0)
    created, closed = lines(" created ("), lines(" closed")
    assert len(created) == 1 and len(closed) == 1, log
    assert "/job:worker/replica:0/task:0: session" in created[0]
    c.kill("ps", 0)
    for _ in range(3):
      with tf.Session(c.target("worker", 0), graph=g,
                      config=tf.ConfigProto(operation_timeout_in_ms=1000)) as sess:
        with pytest.raises((tf.errors.UnavailableError, tf.errors.DeadlineExceededError)):
          sess.run(out)
    def failed():
      return [l for l in c.log("worker", 0).splitlines() if "peer /job:ps/replica:0/task:0" in l]
    deadline = time.time() + 10
    while time.time() < deadline and not failed():
      time.sleep(0.05)
    time.sleep(0.5)
    assert len(failed()) == 1, c.log("worker", 0)  # once per outage, not once per call
  finally:
    c.stop()
