"""Seed 001 ("Distributed Tensorflow" notebook): every cell that needs no cluster,
run as written with `import tfc as tf`; the final graph runs on two local CPU
devices (soft placement maps the /job:ps and /job:worker specs onto them)."""
import ast

import numpy as np
import pytest

import tfc as tf




CLUSTER_SPEC = """
{
    'ps' : ['clustered-tensorflow-ps0:2222', 'clustered-tensorflow-ps1:2222'],
    'worker' : [ 'clustered-tensorflow-worker0','clustered-tensorflow-worker1:2222']
}
"""


def test_seed_001_notebook(capsys):
  tf.reset_default_graph()
  # In [5]-[9]
  cluster_def = ast.literal_eval(CLUSTER_SPEC)
  clusterSpec = tf.train.ClusterSpec(cluster_def)
  assert clusterSpec.jobs == ["ps", "worker"]
  for job in clusterSpec.jobs:
    print(job, clusterSpec.job_tasks(job))
  out = capsys.readouterr().out
  assert out == ("ps ['clustered-tensorflow-ps0:2222', 'clustered-tensorflow-ps1:2222']\n"
                 "worker ['clustered-tensorflow-worker0', 'clustered-tensorflow-worker1:2222']\n")

  # In [10]-[12]
  workers = ['/job:worker/task:{}'.format(i) for i in range(len(cluster_def['worker']))]
  param_servers = ['/job:ps/task:{}'.format(i) for i in range(len(cluster_def['ps']))]
  assert workers == ['/job:worker/task:0', '/job:worker/task:1']
  assert param_servers == ['/job:ps/task:0', '/job:ps/task:1']

  # In [13]
  l = tf.Variable("local_cpu")
  assert l.device == ''

  # In [14]
  for ps in param_servers:
    with tf.device(ps):
      v = tf.Variable("my_var")
  assert v.device == '/job:ps/task:1'

  # In [15]
  text = str(v.to_proto())
  assert text.startswith('variable_name: "Variable_2:0"\n'
                         'initializer_name: "Variable_2/Assign"\n'
                         'snapshot_name: "Variable_2/read:0"\n')

  # In [16]-[17]
  batch_size = 1000
  graph = tf.Graph()
  with graph.as_default():
    all_reduce = []
    initializer = tf.truncated_normal_initializer(mean=0.0, stddev=1.0, seed=None,
                                                  dtype=tf.float32)
    with tf.device(tf.train.replica_device_setter(cluster=clusterSpec)):
      input_array = tf.placeholder(tf.int32, shape=[None])
      final_result = tf.Variable(0)
    # divide the input across the cluster:
    splitted = tf.split(0, len(workers), input_array)
    for idx, (portion, worker) in enumerate(zip(splitted, workers)):
      with tf.device(worker):
        print(worker)
        local_reduce = tf.reduce_sum(portion)
        local_reduce = tf.Print(portion, [local_reduce], message="portion is")
        all_reduce.append(local_reduce)
    final_result = tf.reduce_sum(tf.pack(all_reduce))
  assert capsys.readouterr().out == "/job:worker/task:0\n/job:worker/task:1\n"
  assert initializer.mean == 0.0 and initializer.stddev == 1.0
  assert input_array.device == "/job:worker"
  assert graph.get_operation_by_name("Variable").device == "/job:ps/task:0"
  assert [t.op.type for t in splitted] == ["Split", "Split"]
  assert all_reduce[1].op.device == "/job:worker/task:1"
  assert final_result.device == ""

  # In [18]
  sess_config = tf.ConfigProto(allow_soft_placement=True, log_device_placement=True)
  assert sess_config.allow_soft_placement and sess_config.log_device_placement

  # The cell-17 graph itself, as written (ps/worker pins), in a local session
  # with the cell-18 config on two CPU devices: soft placement maps the
  # cluster devices onto local ones; Print and placement lines reach stderr.
  local_config = tf.ConfigProto(allow_soft_placement=True, log_device_placement=True,
                                device_count={"CPU": 2})
  with tf.Session(graph=graph, config=local_config) as session:
    result = session.run(final_result, feed_dict={input_array: np.ones([1000])},
                         options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE))
  assert result == 1000
  err = capsys.readouterr().err
  assert err.count("portion is[500]") == 2
  assert "Sum: (Sum): /job:localhost/replica:0/task:0/device:CPU:0" in err

  # The run cell needs the grpc:// cluster. Its computation, with the worker and
  # parameter-server devices mapped onto two local CPU devices:
  local_workers = ["/cpu:0", "/cpu:1"]
  local_graph = tf.Graph()
  with local_graph.as_default():
    all_reduce = []
    with tf.device(tf.train.replica_device_setter(ps_tasks=1, ps_device="/cpu:0",
                                                  worker_device="/cpu:1")):
      input_array = tf.placeholder(tf.int32, shape=[None])
      counter = tf.Variable(0)
    splitted = tf.split(0, len(local_workers), input_array)
    for idx, (portion, worker) in enumerate(zip(splitted, local_workers)):
      with tf.device(worker):
        local_reduce = tf.reduce_sum(portion)
        local_reduce = tf.Print(portion, [local_reduce], message="portion is")
        all_reduce.append(local_reduce)
    final_result = tf.reduce_sum(tf.pack(all_reduce))
  assert counter.device == "/device:CPU:0" and input_array.device == "/device:CPU:1"
  assert all_reduce[0].device == "/device:CPU:0" and all_reduce[1].device == "/device:CPU:1"
  run_options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
  config = tf.ConfigProto(device_count={"CPU": 2})
  with tf.Session(graph=local_graph, config=config) as session:
    session.run(counter.initializer)
    result = session.run(final_result, feed_dict={input_array: np.ones([1000])},
                         options=run_options)
    print(result)
    assert session.run(counter) == 0
  assert result == 1000
  assert "1000" in capsys.readouterr().out
