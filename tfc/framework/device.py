"""DeviceSpec and device-string merging (TF 1.15 `tf.DeviceSpec`)."""


class DeviceSpec(object):
  """A (partial) device specification: /job:<j>/replica:<r>/task:<t>/device:<type>:<i>."""

  __slots__ = ("job", "replica", "task", "_device_type", "device_index")

  def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
    self.job = job
    self.replica = None if replica is None else int(replica)
    self.task = None if task is None else int(task)
    self._device_type = device_type
    self.device_index = None if device_index is None else int(device_index)

  @property
  def device_type(self):
    return self._device_type

  @device_type.setter
  def device_type(self, device_type):
    self._device_type = device_type

  def _clear(self):
    self.job = self.replica = self.task = self._device_type = self.device_index = None

  def parse_from_string(self, spec):
    """Parses `spec` into this spec (replacing all fields); returns self."""
    self._clear()
    if not spec:
      return self
    for y in [x.split(":") for x in spec.split("/")]:
      ly = len(y)
      if not y:
        continue
      if ly == 2 and y[0] == "job":
        self.job = y[1]
      elif ly == 2 and y[0] == "replica":
        self.replica = int(y[1])
      elif ly == 2 and y[0] == "task":
        self.task = int(y[1])
      elif (ly == 1 or ly == 2) and y[0].upper() in ("GPU", "CPU"):
        if self._device_type is not None:
          raise ValueError("Cannot specify multiple device types: %s" % spec)
        self._device_type = y[0].upper()
        if ly == 2 and y[1] != "*":
          self.device_index = int(y[1])
      elif ly == 3 and y[0] == "device":
        if self._device_type is not None:
          raise ValueError("Cannot specify multiple device types: %s" % spec)
        self._device_type = y[1]
        if y[2] != "*":
          self.device_index = int(y[2])
      elif ly and y[0] != "":
        raise ValueError("Unknown attribute: '%s' in '%s'" % (y[0], spec))
    return self

  def merge_from(self, dev):
    """Overrides fields of this spec with the non-None fields of `dev`."""
    if dev.job is not None:
      self.job = dev.job
    if dev.replica is not None:
      self.replica = dev.replica
    if dev.task is not None:
      self.task = dev.task
    if dev.device_type is not None:
      self._device_type = dev.device_type
    if dev.device_index is not None:
      self.device_index = dev.device_index

  def make_merged_spec(self, dev):
    result = self._copy()
    result.merge_from(dev)
    return result

  def replace(self, **kwargs):
    result = self._copy()
    for k, v in kwargs.items():
      setattr(result, k, v)
    return result

  def _copy(self):
    return DeviceSpec(self.job, self.replica, self.task, self._device_type, self.device_index)

  __copy__ = _copy

  def to_string(self):
    dev = ""
    if self.job is not None:
      dev += "/job:" + str(self.job)
    if self.replica is not None:
      dev += "/replica:" + str(self.replica)
    if self.task is not None:
      dev += "/task:" + str(self.task)
    if self._device_type is not None:
      index = "*" if self.device_index is None else str(self.device_index)
      dev += "/device:%s:%s" % (self._device_type, index)
    return dev

  @staticmethod
  def from_string(spec):
    return DeviceSpec().parse_from_string(spec)

  def __eq__(self, other):
    return isinstance(other, DeviceSpec) and self.to_string() == other.to_string()

  def __ne__(self, other):
    return not self.__eq__(other)

  def __hash__(self):
    return hash(self.to_string())

  def __repr__(self):
    return "<DeviceSpec(job=%r, replica=%r, task=%r, device_type=%r, device_index=%r)>" % (
        self.job, self.replica, self.task, self._device_type, self.device_index)


DeviceSpecV1 = DeviceSpec
DeviceSpecV2 = DeviceSpec


def check_valid(spec):
  DeviceSpec.from_string(spec)


def canonical_name(device):
  if device is None:
    return ""
  if isinstance(device, DeviceSpec):
    return device.to_string()
  return DeviceSpec.from_string(device).to_string()


_MERGE_CACHE = {}


def merge_strings(inner, outer):
  """Device string of `outer` overridden by the fields of `inner` (inner wins)."""
  key = (inner, outer)
  r = _MERGE_CACHE.get(key)
  if r is None:
    spec = DeviceSpec.from_string(outer or "")
    spec.merge_from(DeviceSpec.from_string(inner or ""))
    r = spec.to_string()
    if len(_MERGE_CACHE) > 4096:
      _MERGE_CACHE.clear()
    _MERGE_CACHE[key] = r
  return r


def merge_device(spec):
  """A device function that merges `spec` under the op's current device."""
  if isinstance(spec, DeviceSpec):
    spec = spec.to_string()
  spec = spec or ""

  def _device_function(node):
    return merge_strings(node.device, spec)

  return _device_function
