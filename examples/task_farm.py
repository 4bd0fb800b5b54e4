#!/usr/bin/env python3
"""A task farm of CNN inferences: one task per image, each task loads a frozen
model whose input is an image *path*, runs it single-threaded and returns the
predicted class (the PyCOMPSs "job scheduler of CNN workers" use case).

  python examples/task_farm.py --model tests/fixtures/farm/frozen_model.pb \
      --images tests/fixtures/farm/input --runner processes

Runners:
  sequential  the tasks one after the other in this process
  processes   concurrent.futures.ProcessPoolExecutor (--workers, default 2)
  pycompss    PyCOMPSs @task + compss_wait_on (needs `pycompss`; launch with runcompss,
              or plain python for PyCOMPSs' sequential mode)
  dask        dask.distributed LocalCluster: --workers processes of one thread each
              (needs `dask[distributed]`)
A runner whose package is not importable prints why and exits with status 2.
"""
import argparse
import os
import sys
import time

import tfc as tf

NUM_CORES = 1
DISABLE_OPTIMIZATION = True


def load_graph(frozen_graph_filename):
  with tf.gfile.GFile(frozen_graph_filename, "rb") as f:
      graph_def = tf.GraphDef()
      graph_def.ParseFromString(f.read())

  with tf.Graph().as_default() as graph:
      tf.import_graph_def(
          graph_def,
          input_map=None,
          return_elements=None,
          name="",
          op_dict=None,
          producer_op_list=None)
  return graph


def main(path, imagepath, img):
  """One task: `path` is the frozen model file, the image is imagepath/img."""
  image = str(os.path.join(imagepath, img))
  modelpath = str(path)
  config = tf.ConfigProto(
      inter_op_parallelism_threads=NUM_CORES,
      intra_op_parallelism_threads=NUM_CORES)

  if DISABLE_OPTIMIZATION:
      config.graph_options.optimizer_options.opt_level = \
          config.graph_options.optimizer_options.L0

  graph = load_graph(modelpath)
  x = graph.get_tensor_by_name('image_path:0')
  y = graph.get_tensor_by_name('output:0')

  with tf.Session(graph=graph, config=config) as sess:
      res = sess.run(tf.squeeze(y), feed_dict={x: image})

  return int(res)


def timed_task(path, imagepath, img):
  """main() plus how long it took and where it ran: (class, seconds, pid)."""
  start = time.perf_counter()
  res = main(path, imagepath, img)
  return res, time.perf_counter() - start, os.getpid()


# ------------------------------------------------------------------ runners

def run_sequential(model, imagepath, filenames, workers):
  return [timed_task(model, imagepath, f) for f in filenames]


def run_processes(model, imagepath, filenames, workers):
  from concurrent.futures import ProcessPoolExecutor
  with ProcessPoolExecutor(max_workers=workers) as pool:
    futures = [pool.submit(timed_task, model, imagepath, f) for f in filenames]
    return [fut.result() for fut in futures]


def run_pycompss(model, imagepath, filenames, workers):
  try:
    from pycompss.api.task import task
    from pycompss.api.api import compss_wait_on
  except ImportError as e:
    _unavailable("pycompss", PYCOMPSS_HOW, e)
  # Under `runcompss` each call becomes a task that the COMPSs runtime schedules
  # on its workers; under plain `python` PyCOMPSs runs the calls in order here.
  compss_task = task(returns=1)(timed_task)
  results = [compss_task(model, imagepath, f) for f in filenames]
  return [tuple(r) for r in compss_wait_on(results)]


def run_dask(model, imagepath, filenames, workers):
  try:
    from dask.distributed import Client, LocalCluster
  except ImportError as e:
    _unavailable("dask", "pip install 'dask[distributed]'", e)
  # One single-threaded worker process per --workers, no dashboard (no fixed port).
  with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                    dashboard_address=None) as cluster, Client(cluster) as client:
    futures = [client.submit(timed_task, model, imagepath, f, pure=False) for f in filenames]
    return [tuple(r) for r in client.gather(futures)]


# PyPI's `pycompss` is a source package whose setup.py downloads the COMPSs
# runtime (COMPSs_<version>.tar.gz, Java) from compss.bsc.es and builds it with
# the install script inside; it needs JAVA_HOME, that host and a JDK/Maven build.
PYCOMPSS_HOW = ("pip install pycompss, which downloads and builds the COMPSs Java runtime "
                "(needs JAVA_HOME and access to compss.bsc.es); then launch with runcompss")


def _unavailable(name, how, err):
  print("runner %r is not available: %s (%s)" % (name, err, how), file=sys.stderr)
  sys.exit(2)


RUNNERS = {"sequential": run_sequential, "processes": run_processes,
           "pycompss": run_pycompss, "dask": run_dask}


def cli(argv=None):
  here = os.path.dirname(os.path.abspath(__file__))
  farm = os.path.join(os.path.dirname(here), "tests", "fixtures", "farm")
  p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
  p.add_argument("--model", default=os.path.join(farm, "frozen_model.pb"))
  p.add_argument("--images", default=os.path.join(farm, "input"), help="a folder of images")
  p.add_argument("--runner", choices=sorted(RUNNERS), default="sequential")
  p.add_argument("--workers", type=int, default=2, help="processes / dask workers")
  args = p.parse_args(argv)

  filenames = sorted(os.listdir(args.images))
  start = time.perf_counter()
  results = RUNNERS[args.runner](args.model, args.images, filenames, args.workers)
  wall = time.perf_counter() - start

  for name, (res, _, _) in zip(filenames, results):
    print("result of " + str(name) + ": " + str(res))
  times = [t for _, t, _ in results]
  pids = {pid for _, _, pid in results}
  print("runner %s: %d tasks in %d process(es), wall %.3f s; per task mean %.4f s, "
        "min %.4f s, max %.4f s, sum %.3f s"
        % (args.runner, len(times), len(pids), wall, sum(times) / max(len(times), 1),
           min(times, default=0.0), max(times, default=0.0), sum(times)))
  return 0


if __name__ == "__main__":
  sys.exit(cli())
