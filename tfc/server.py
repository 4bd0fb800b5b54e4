"""Runs one task of a tfc cluster: `python -m tfc.server`.

    python -m tfc.server --cluster_spec ps=localhost:2222,localhost:2223;worker=localhost:2224 \\
        --job_name ps --task_index 0

The cluster may also come as JSON (--cluster_spec '{"ps": ["h:2222"], ...}') or, with no
flags, from the TF_CONFIG environment variable ({"cluster": {...}, "task": {"type": "ps",
"index": 0}}). The task logs "tfc server <task> listening on <host:port>" once it serves and
exits with status 0 on SIGTERM or SIGINT, on a shutdown request
(`tfc.train.shutdown_server(target)`), or with --exit_when_idle SECONDS once no call other
than GetStatus has come for that long after training started.

The server listens on the host of its own cluster entry (--bind 0.0.0.0 for every
interface). Security settings come from the environment or the flags below:
TFC_AUTH_TOKEN (a shared token every RPC must carry), TFC_TLS_CERT/TFC_TLS_KEY (serve TLS),
TFC_TLS_CA (connect to the other tasks with TLS); see docs/distributed.md.
"""
import argparse
import json
import os
import signal
import sys


def parse_cluster_spec(text):
  """A cluster dict from JSON or from "job=host:port,host:port;job2=..." text."""
  text = text.strip()
  if text.startswith("{"):
    return json.loads(text)
  cluster = {}
  for part in text.split(";"):
    part = part.strip()
    if not part:
      continue
    if "=" not in part and "|" in part:
      job, _, tasks = part.partition("|")
    else:
      job, _, tasks = part.partition("=")
    if not job or not tasks:
      raise ValueError("Invalid cluster spec part %r (expected job=host:port,...)" % part)
    cluster[job.strip()] = [t.strip() for t in tasks.split(",") if t.strip()]
  return cluster


def _from_tf_config():
  raw = os.environ.get("TF_CONFIG")
  if not raw:
    return None, None, None
  conf = json.loads(raw)
  task = conf.get("task", {})
  return conf.get("cluster"), task.get("type"), task.get("index")


def main(argv=None):
  parser = argparse.ArgumentParser(prog="python -m tfc.server", description=__doc__.split("\n")[0])
  parser.add_argument("--cluster_spec", help="job=host:port,...;job2=... or JSON")
  parser.add_argument("--job_name")
  parser.add_argument("--task_index", type=int)
  parser.add_argument("--bind", help="host to listen on (default: the host of this task's cluster "
                      "entry; 0.0.0.0 for every interface)")
  parser.add_argument("--exit_when_idle", type=float, metavar="SECONDS",
                      help="exit with status 0 once no call other than GetStatus came for SECONDS "
                      "(counted from the first such call)")
  parser.add_argument("--auth_token_file", help="file holding the shared token (sets TFC_AUTH_TOKEN)")
  parser.add_argument("--tls_cert", help="PEM certificate to serve TLS with (sets TFC_TLS_CERT)")
  parser.add_argument("--tls_key", help="PEM private key of --tls_cert (sets TFC_TLS_KEY)")
  parser.add_argument("--tls_ca", help="PEM roots to verify the other tasks with (sets TFC_TLS_CA)")
  args = parser.parse_args(argv)
  if args.auth_token_file:
    with open(args.auth_token_file) as f:
      os.environ["TFC_AUTH_TOKEN"] = f.read().strip()
  for flag, var in (("tls_cert", "TFC_TLS_CERT"), ("tls_key", "TFC_TLS_KEY"), ("tls_ca", "TFC_TLS_CA")):
    if getattr(args, flag):
      os.environ[var] = getattr(args, flag)
  cluster, job, index = _from_tf_config()
  if args.cluster_spec:
    cluster = parse_cluster_spec(args.cluster_spec)
  if args.job_name is not None:
    job = args.job_name
  if args.task_index is not None:
    index = args.task_index
  if not cluster or job is None or index is None:
    parser.error("give --cluster_spec, --job_name and --task_index (or set TF_CONFIG)")

  from tfc.train import server_lib
  server = server_lib.Server(cluster, job_name=job, task_index=int(index), start=False)
  if args.bind:
    server._server.set_bind(args.bind)  # pylint: disable=protected-access
  server.start()
  stop = {"signal": None}

  def on_signal(signum, frame):  # pylint: disable=unused-argument
    stop["signal"] = signum
    server.stop()

  signal.signal(signal.SIGTERM, on_signal)
  signal.signal(signal.SIGINT, on_signal)
  print("tfc server /job:%s/replica:0/task:%d listening on %s" % (job, int(index),
                                                                   server.target[len("grpc://"):]),
        flush=True)
  task = "/job:%s/replica:0/task:%d" % (job, int(index))
  raw = server._server  # pylint: disable=protected-access
  while not raw.join(1.0):
    idle = raw.idle_seconds
    if args.exit_when_idle is not None and idle is not None and idle >= args.exit_when_idle:
      print("tfc server %s idle for %.0f s: exiting" % (task, idle), flush=True)
      server.stop()
      break
  print("tfc server %s stopped" % task, flush=True)
  return 0


if __name__ == "__main__":
  sys.exit(main())
