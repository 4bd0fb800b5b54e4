"""tf.train: cluster description and device placement (optimizers, Saver, ... come later)."""
from tfc.train.device_setter import replica_device_setter
from tfc.train.server_lib import ClusterSpec, Server
from tfc.protos import ClusterDef, JobDef, ServerDef
