"""tf.queue namespace (TF 1.15): the queue classes."""
from tfc.ops.data_flow_ops import (QueueBase, FIFOQueue, PaddingFIFOQueue,  # noqa: F401
                                   RandomShuffleQueue, PriorityQueue)
