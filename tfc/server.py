"""Runs one task of a tfc cluster: `python -m tfc.server`.

    python -m tfc.server --cluster_spec ps=localhost:2222,localhost:2223;worker=localhost:2224 \\
        --job_name ps --task_index 0

The cluster may also come as JSON (--cluster_spec '{"ps": ["h:2222"], ...}') or, with no
flags, from the TF_CONFIG environment variable ({"cluster": {...}, "task": {"type": "ps",
"index": 0}}). The task logs "tfc server <task> listening on <host:port>" once it serves and
exits with status 0 on SIGTERM or SIGINT.
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
  args = parser.parse_args(argv)
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
  server = server_lib.Server(cluster, job_name=job, task_index=int(index), start=True)
  stop = {"signal": None}

  def on_signal(signum, frame):  # pylint: disable=unused-argument
    stop["signal"] = signum
    server.stop()

  signal.signal(signal.SIGTERM, on_signal)
  signal.signal(signal.SIGINT, on_signal)
  print("tfc server /job:%s/replica:0/task:%d listening on %s" % (job, int(index),
                                                                   server.target[len("grpc://"):]),
        flush=True)
  server.join()
  print("tfc server /job:%s/replica:0/task:%d stopped" % (job, int(index)), flush=True)
  return 0


if __name__ == "__main__":
  sys.exit(main())
