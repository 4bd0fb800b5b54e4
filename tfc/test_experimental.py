"""tf.test.experimental."""


def sync_devices():
  """Waits until every device has finished its queued work. tfc's session runs are
  synchronous on CPU devices (a run returns when its work is done), so there is nothing
  left to wait for and this returns at once."""
