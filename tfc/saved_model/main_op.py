"""SavedModel main ops (tf.saved_model.main_op): what a loaded SavedModel runs
after its variables are restored."""
from tfc.framework import ops as _ops


def main_op():
  """An op initializing the local variables and the lookup tables."""
  from tfc.ops import control_flow_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import lookup_ops  # pylint: disable=g-import-not-at-top
  from tfc.ops import variables  # pylint: disable=g-import-not-at-top
  init_local = variables.local_variables_initializer()
  init_tables = lookup_ops.tables_initializer()
  return control_flow_ops.group(init_local, init_tables)


def main_op_with_restore(restore_op_name):
  """main_op() run after the op named `restore_op_name` (a Saver's restore op)."""
  from tfc.ops import control_flow_ops  # pylint: disable=g-import-not-at-top
  restore_op = restore_op_name
  if isinstance(restore_op_name, (str, bytes)):
    name = restore_op_name.decode() if isinstance(restore_op_name, bytes) else restore_op_name
    restore_op = _ops.get_default_graph().as_graph_element(name)
  with _ops.control_dependencies([main_op()]):
    return control_flow_ops.group(restore_op)
