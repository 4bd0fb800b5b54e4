"""tf.version: the TF API version tfc implements and the GraphDef versions it writes."""
import tfc as _tfc_package
from tfc.framework import ops as _ops

VERSION = _tfc_package.VERSION
GIT_VERSION = _tfc_package.GIT_VERSION
COMPILER_VERSION = _tfc_package.COMPILER_VERSION
# The `versions.producer` tfc writes into every GraphDef.
GRAPH_DEF_VERSION = _ops.Graph().graph_def_versions.producer
# tfc reads GraphDefs of any producer version and asks no minimum of its readers.
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0
