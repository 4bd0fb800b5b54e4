"""tf.train.queue_runner namespace (TF 1.15)."""
from tfc.train.queue_runner_impl import (QueueRunner, add_queue_runner,  # noqa: F401
                                         start_queue_runners)
