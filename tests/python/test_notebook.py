"""examples/seed001_walkthrough.ipynb runs in a real Jupyter kernel (ipykernel,
driven by nbclient) and shows what TensorFlow showed: the cells' values, the
reprs of graph objects, and tf.Print's and the placer's output on the
cell's stderr stream.

The kernel runs this process's interpreter from a kernelspec written to a
temporary directory, with the directory that holds the `tfc` imported here
first on its PYTHONPATH, so it imports the same tfc (the source tree or the
installed package) as the test.
"""
import json
import os
import pathlib
import sys

import pytest

import tfc

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
from jupyter_client.kernelspec import KernelSpecManager  # noqa: E402
from jupyter_client.manager import KernelManager  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "examples" / "seed001_walkthrough.ipynb"
KERNEL = "tfc-test-python"


def execute_notebook(nb, tmp_path, cwd):
  """Runs every cell of `nb` (in place) in a fresh ipykernel on sys.executable
  whose working directory is `cwd`; returns nb. The kernelspec and the
  connection file live under tmp_path (nothing is written to ~/.local)."""
  kernels = tmp_path / "kernels"
  (kernels / KERNEL).mkdir(parents=True)
  tfc_root = str(pathlib.Path(tfc.__file__).resolve().parents[1])
  path = os.environ.get("PYTHONPATH")
  spec = {
      "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
      "display_name": "tfc test (Python %d.%d)" % sys.version_info[:2],
      "language": "python",
      "env": {"PYTHONPATH": tfc_root + (os.pathsep + path if path else "")},
  }
  (kernels / KERNEL / "kernel.json").write_text(json.dumps(spec))
  km = KernelManager(kernel_name=KERNEL,
                     kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]),
                     connection_file=str(tmp_path / "connection.json"))
  client = nbclient.NotebookClient(nb, km=km, timeout=120, allow_errors=False,
                                   resources={"metadata": {"path": str(cwd)}})
  client.execute()
  return nb


def stream(cell, name):
  return "".join(o["text"] for o in cell.outputs
                 if o["output_type"] == "stream" and o["name"] == name)


def result(cell):
  """The cell's Out[] value as text/plain ('' when it has none)."""
  for o in cell.outputs:
    if o["output_type"] == "execute_result":
      return o["data"]["text/plain"]
  return ""


def find(nb, source_start):
  """The one code cell whose source starts with source_start."""
  hits = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith(source_start)]
  assert len(hits) == 1, (source_start, len(hits))
  return hits[0]


def exact(nb, source):
  """The one code cell whose whole source is `source`."""
  hits = [c for c in nb.cells if c.cell_type == "code" and c.source == source]
  assert len(hits) == 1, (source, len(hits))
  return hits[0]


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
  nb = nbformat.read(str(NOTEBOOK), as_version=4)
  # A first cell, not part of the notebook, reports which tfc the kernel imported.
  nb.cells.insert(0, nbformat.v4.new_code_cell("import tfc as _t; print(_t.__file__)"))
  return execute_notebook(nb, tmp_path_factory.mktemp("nb"), NOTEBOOK.parent)


def test_kernel_imports_the_tested_tfc(executed):
  where = stream(executed.cells[0], "stdout").strip()
  assert pathlib.Path(where).resolve() == pathlib.Path(tfc.__file__).resolve()


def test_cluster_description_cells(executed):
  nb = executed
  assert result(exact(nb, "cluster_def")) == (
      "{'ps': ['clustered-tensorflow-ps0:2222', 'clustered-tensorflow-ps1:2222'],\n"
      " 'worker': ['clustered-tensorflow-worker0',\n"
      "  'clustered-tensorflow-worker1:2222']}")
  assert result(exact(nb, "clusterSpec")) == (
      "ClusterSpec({'ps': ['clustered-tensorflow-ps0:2222', 'clustered-tensorflow-ps1:2222'], "
      "'worker': ['clustered-tensorflow-worker0', 'clustered-tensorflow-worker1:2222']})")
  assert result(find(nb, "clusterSpec.jobs")) == "['ps', 'worker']"
  assert stream(find(nb, "for job in clusterSpec.jobs"), "stdout") == (
      "ps ['clustered-tensorflow-ps0:2222', 'clustered-tensorflow-ps1:2222']\n"
      "worker ['clustered-tensorflow-worker0', 'clustered-tensorflow-worker1:2222']\n")
  assert result(exact(nb, "workers")) == "['/job:worker/task:0', '/job:worker/task:1']"
  assert result(exact(nb, "param_servers")) == "['/job:ps/task:0', '/job:ps/task:1']"


def test_variable_cells(executed):
  nb = executed
  assert result(find(nb, 'l = tf.Variable("local_cpu")')) == "''"
  assert result(find(nb, "for ps in param_servers")) == "'/job:ps/task:1'"
  assert result(exact(nb, "v")) == "<tf.Variable 'Variable_2:0' shape=() dtype=string_ref>"
  proto = result(find(nb, "v.to_proto()"))
  assert proto.startswith('variable_name: "Variable_2:0"\n'
                          'initializer_name: "Variable_2/Assign"\n'
                          'snapshot_name: "Variable_2/read:0"\n')


def test_reduce_sum_graph_cells(executed):
  nb = executed
  build = find(nb, "batch_size = 1000\n\ngraph = tf.Graph()")
  assert stream(build, "stdout") == "/job:worker/task:0\n/job:worker/task:1\n"
  placed = stream(find(nb, "for op in graph.get_operations()"), "stdout")
  rows = [line.split() for line in placed.splitlines()]
  assert ["Variable", "VariableV2", "/job:ps/task:0"] in rows
  assert ["Placeholder", "Placeholder", "/job:worker"] in rows
  assert ["Print_1", "Print", "/job:worker/task:1"] in rows
  assert result(exact(nb, "input_array")) == (
      "<tf.Tensor 'Placeholder:0' shape=(?,) dtype=int32>")
  assert stream(find(nb, "print(all_reduce[1])"), "stdout") == (
      'Tensor("Print_1:0", shape=(?,), dtype=int32, device=/job:worker/task:1)\n')
  assert result(exact(nb, "final_result")) == "<tf.Tensor 'Sum_2:0' shape=() dtype=int32>"


def test_local_run_shows_print_and_placement_in_the_cell(executed):
  cell = find(executed, "import numpy as np\nrun_options")
  assert stream(cell, "stdout") == "1000\n"
  err = stream(cell, "stderr")
  # tf.Print's lines, one per half of the input, on the cell's stderr stream
  assert err.count("portion is[500]\n") == 2
  # log_device_placement's lines for the soft-placed cluster pins
  assert "Sum: (Sum): /job:localhost/replica:0/task:0/device:CPU:0" in err
  assert "Print_1: (Print): /job:localhost/replica:0/task:0/device:CPU:" in err


def test_cluster_cells_run_against_local_servers(executed):
  # 2 ps + 2 worker tf.train.Servers in the kernel; the seed's graph runs on
  # them through grpc:// with FULL_TRACE, each worker's tf.Print in the cell.
  start = find(executed, "RUN_CLUSTER = True")
  out = stream(start, "stdout")
  assert out.startswith("ClusterSpec({'ps': ['localhost:") and "'worker': ['localhost:" in out
  run = find(executed, "if RUN_CLUSTER:\n    graph = tf.Graph()")
  assert stream(run, "stdout") == "1000\n"
  # The workers' tf.Print lines are written by the servers' threads straight
  # to the kernel process's stderr descriptor; whether and when ipykernel
  # forwards those to a cell depends on timing, so they are not checked here
  # (tests/python/test_distributed.py checks the cluster's values).
  assert result(find(executed, "final_result.device")) == "''"


def _output_kinds(cell):
  """The cell's output types, stream names merged (chunking and the order of
  stdout against stderr depend on timing). stderr of the cluster cells is
  left out: the servers' threads write it, and when ipykernel forwards it
  depends on timing too."""
  racy = cell.source.startswith("if RUN_CLUSTER") or cell.source == "final_result.device"
  return sorted({(o["output_type"], o.get("name")) for o in cell.outputs
                 if not (racy and o.get("name") == "stderr")})


def test_committed_outputs_match_a_fresh_run(executed):
  """The notebook file is saved with the outputs of a run: same cells, and
  each code cell has the kinds of output a fresh run gives."""
  saved = nbformat.read(str(NOTEBOOK), as_version=4)
  fresh = executed.cells[1:]
  assert len(saved.cells) == len(fresh)
  for s, f in zip(saved.cells, fresh):
    assert s.source == f.source
    if s.cell_type != "code":
      continue
    assert _output_kinds(s) == _output_kinds(f), s.source
