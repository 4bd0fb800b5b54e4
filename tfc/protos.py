"""Pure-Python protocol-buffer messages for TF's session/config protos.

ConfigProto, GPUOptions, GraphOptions, OptimizerOptions, RewriterConfig, RPCOptions,
RunOptions, RunMetadata, VariableDef, ClusterDef/JobDef, ... with TF's field
names, numbers, defaults and enums. Messages support attribute access with
proto3 defaults, nested messages created on access, repeated and map fields,
`==`, text format (`str()`), `SerializeToString` / `ParseFromString` (proto3
wire format), `CopyFrom`, `MergeFrom`, `Clear`, `HasField`, `ListFields`.
"""
import struct


class _Field(object):
  __slots__ = ("name", "number", "kind", "label", "msg", "enum", "key_kind", "default")

  def __init__(self, name, number, kind, label="optional", msg=None, enum=None, key_kind=None):
    self.name = name
    self.number = number
    self.kind = kind          # int32 int64 uint32 uint64 bool float double string bytes enum message
    self.label = label        # optional | repeated | map
    self.msg = msg            # message class name (resolved lazily) for message kinds/map values
    self.enum = enum          # dict name -> value for enums
    self.key_kind = key_kind  # map key kind
    self.default = _DEFAULTS.get(kind)


_DEFAULTS = {"int32": 0, "int64": 0, "uint32": 0, "uint64": 0, "bool": False, "float": 0.0,
             "double": 0.0, "string": "", "bytes": b"", "enum": 0, "message": None}
_INT_KINDS = ("int32", "int64", "uint32", "uint64", "enum")
_REGISTRY = {}


def _resolve(name):
  return _REGISTRY[name] if isinstance(name, str) else name


def _check_scalar(field, value):
  kind = field.kind
  if kind in _INT_KINDS:
    if isinstance(value, bool) and kind != "enum":
      return int(value)
    if kind == "enum" and isinstance(value, str):
      if value in field.enum:
        return field.enum[value]
      raise ValueError("Enum field %s has no value named %s" % (field.name, value))
    if not isinstance(value, int):
      if hasattr(value, "__index__"):
        return value.__index__()
      raise TypeError("%r has type %s, but expected one of: int" % (value, type(value).__name__))
    return value
  if kind == "bool":
    if not isinstance(value, (bool, int)):
      raise TypeError("%r has type %s, but expected one of: bool, int"
                      % (value, type(value).__name__))
    return bool(value)
  if kind in ("float", "double"):
    if isinstance(value, (str, bytes)) or not isinstance(value, (int, float)) and \
       not hasattr(value, "__float__"):
      raise TypeError("%r has type %s, but expected one of: int, float"
                      % (value, type(value).__name__))
    if kind == "float":
      return _to_float32(float(value))
    return float(value)
  if kind == "string":
    if isinstance(value, bytes):
      return value.decode("utf-8")
    if not isinstance(value, str):
      raise TypeError("%r has type %s, but expected one of: bytes, str"
                      % (value, type(value).__name__))
    return value
  if kind == "bytes":
    if isinstance(value, str):
      return value.encode("utf-8")
    if not isinstance(value, bytes):
      raise TypeError("%r has type %s, but expected one of: bytes"
                      % (value, type(value).__name__))
    return value
  raise TypeError("bad field kind %s" % kind)


def _to_float32(v):
  """v rounded to the nearest float32, as a float field stores it."""
  try:
    return struct.unpack("<f", struct.pack("<f", v))[0]
  except OverflowError:
    return float("inf") if v > 0 else float("-inf")


class RepeatedField(list):
  """A repeated scalar or message field."""

  def __init__(self, field):
    super(RepeatedField, self).__init__()
    self._field = field

  def add(self, **kwargs):
    if self._field.kind != "message":
      raise AttributeError("add() is only for repeated message fields")
    m = _resolve(self._field.msg)(**kwargs)
    list.append(self, m)
    return m

  def append(self, value):
    if self._field.kind == "message":
      m = _resolve(self._field.msg)()
      m.CopyFrom(value)
      list.append(self, m)
    else:
      list.append(self, _check_scalar(self._field, value))

  def extend(self, values):
    for v in values:
      self.append(v)

  def __setitem__(self, i, value):
    if self._field.kind == "message":
      raise TypeError("does not support assignment")
    list.__setitem__(self, i, _check_scalar(self._field, value))


class MapField(dict):
  """A map field (scalar or message values)."""

  def __init__(self, field):
    super(MapField, self).__init__()
    self._field = field

  def __setitem__(self, key, value):
    f = self._field
    key = _check_scalar(_Field("key", 1, f.key_kind), key)
    if f.kind == "message":
      raise ValueError("Direct assignment of submessage not allowed")
    dict.__setitem__(self, key, _check_scalar(f, value))

  def __getitem__(self, key):
    f = self._field
    if key not in self and f.kind == "message":
      m = _resolve(f.msg)()
      dict.__setitem__(self, key, m)
      return m
    return dict.__getitem__(self, key)

  def get_or_create(self, key):
    return self[key]

  def update(self, other=(), **kw):
    items = other.items() if hasattr(other, "items") else other
    for k, v in items:
      self._assign(k, v)
    for k, v in kw.items():
      self._assign(k, v)

  def _assign(self, k, v):
    if self._field.kind == "message":
      self[k].CopyFrom(v)
    else:
      self[k] = v


class _MessageMeta(type):
  def __new__(mcs, name, bases, ns):
    cls = super(_MessageMeta, mcs).__new__(mcs, name, bases, ns)
    fields = ns.get("_FIELDS", ())
    cls._by_name = {f.name: f for f in fields}
    cls._by_number = {f.number: f for f in fields}
    cls._sorted = sorted(fields, key=lambda f: f.number)
    for f in fields:
      if f.enum:
        for k, v in f.enum.items():
          if not hasattr(cls, k):
            setattr(cls, k, v)
    _REGISTRY[name] = cls
    return cls


class Message(metaclass=_MessageMeta):
  """Base of the pure-Python messages."""

  _FIELDS = ()
  __slots__ = ("_values", "_present")

  def __init__(self, **kwargs):
    object.__setattr__(self, "_values", {})
    object.__setattr__(self, "_present", False)
    for k, v in kwargs.items():
      f = self._by_name.get(k)
      if f is None:
        raise ValueError("Protocol message %s has no \"%s\" field." % (type(self).__name__, k))
      if v is None:
        continue
      if f.label == "repeated":
        getattr(self, k).extend(v)
      elif f.label == "map":
        getattr(self, k).update(v)
      elif f.kind == "message":
        sub = getattr(self, k)
        if isinstance(v, dict):
          sub.CopyFrom(_resolve(f.msg)(**v))
        else:
          sub.CopyFrom(v)
      else:
        setattr(self, k, v)

  def __getattr__(self, name):
    f = type(self)._by_name.get(name)
    if f is None:
      raise AttributeError("%s has no field %r" % (type(self).__name__, name))
    values = self._values
    if name in values:
      return values[name]
    if f.label == "repeated":
      v = RepeatedField(f)
    elif f.label == "map":
      v = MapField(f)
    elif f.kind == "message":
      v = _resolve(f.msg)()
    else:
      return f.default
    values[name] = v
    return v

  def __setattr__(self, name, value):
    f = type(self)._by_name.get(name)
    if f is None:
      raise AttributeError("Assignment not allowed (no field \"%s\" in protocol message "
                           "object)." % name)
    if f.label != "optional":
      raise AttributeError("Assignment not allowed to repeated field \"%s\" in protocol "
                           "message object." % name)
    if f.kind == "message":
      sub = getattr(self, name)
      sub.CopyFrom(value)
      return
    self._values[name] = _check_scalar(f, value)

  # -- protobuf API -------------------------------------------------------------------

  def _is_set(self, f, v):
    if f.label == "repeated" or f.label == "map":
      return len(v) > 0
    if f.kind == "message":
      return v._present or v._nonempty()
    return v != f.default

  def _nonempty(self):
    for name, v in self._values.items():
      if self._is_set(self._by_name[name], v):
        return True
    return False

  def HasField(self, name):  # pylint: disable=invalid-name
    f = self._by_name.get(name)
    if f is None or f.label != "optional":
      raise ValueError("Protocol message has no singular \"%s\" field." % name)
    v = self._values.get(name)
    if v is None:
      return False
    if f.kind == "message":
      return v._present or v._nonempty()
    return v != f.default

  def ClearField(self, name):  # pylint: disable=invalid-name
    self._values.pop(name, None)

  def Clear(self):  # pylint: disable=invalid-name
    self._values.clear()
    object.__setattr__(self, "_present", False)

  def SetInParent(self):  # pylint: disable=invalid-name
    object.__setattr__(self, "_present", True)

  def ListFields(self):  # pylint: disable=invalid-name
    out = []
    for f in self._sorted:
      v = self._values.get(f.name)
      if v is not None and self._is_set(f, v):
        out.append((f, v))
    return out

  def CopyFrom(self, other):  # pylint: disable=invalid-name
    if other is self:
      return
    if not isinstance(other, Message):
      raise TypeError("Parameter to CopyFrom() must be instance of same class: expected %s "
                      "got %s." % (type(self).__name__, type(other).__name__))
    self.Clear()
    self.MergeFrom(other)
    object.__setattr__(self, "_present", True)

  def MergeFrom(self, other):  # pylint: disable=invalid-name
    for f, v in other.ListFields():
      if f.label == "repeated":
        getattr(self, f.name).extend(v)
      elif f.label == "map":
        getattr(self, f.name).update(v)
      elif f.kind == "message":
        getattr(self, f.name).MergeFrom(v)
        object.__setattr__(getattr(self, f.name), "_present", True)
      else:
        self._values[f.name] = v

  def __eq__(self, other):
    if not isinstance(other, Message) or type(other) is not type(self):
      return NotImplemented
    return self.ListFields() == other.ListFields()

  def __ne__(self, other):
    eq = self.__eq__(other)
    return eq if eq is NotImplemented else not eq

  __hash__ = None

  def __str__(self):
    lines = []
    _text_format(self, 0, lines)
    return "".join(lines)

  def __repr__(self):
    return self.__str__()

  def ByteSize(self):  # pylint: disable=invalid-name
    return len(self.SerializeToString())

  def SerializeToString(self, deterministic=None):  # pylint: disable=invalid-name
    out = bytearray()
    _encode(self, out)
    return bytes(out)

  def SerializePartialToString(self, deterministic=None):  # pylint: disable=invalid-name
    return self.SerializeToString()

  def ParseFromString(self, data):  # pylint: disable=invalid-name
    self.Clear()
    self.MergeFromString(data)
    return len(data)

  def MergeFromString(self, data):  # pylint: disable=invalid-name
    _decode(self, memoryview(bytes(data)), 0, len(data))
    return len(data)

  @classmethod
  def FromString(cls, data):  # pylint: disable=invalid-name
    m = cls()
    m.ParseFromString(data)
    return m

  def __reduce__(self):
    return type(self).FromString, (self.SerializeToString(),)

  def __deepcopy__(self, memo=None):
    m = type(self)()
    m.CopyFrom(self)
    return m

  def IsInitialized(self):  # pylint: disable=invalid-name
    return True


# -- text format -----------------------------------------------------------------------------


def _escape(s):
  if isinstance(s, str):
    s = s.encode("utf-8")
  out = []
  for b in s:
    c = chr(b)
    if c == "\n":
      out.append("\\n")
    elif c == "\r":
      out.append("\\r")
    elif c == "\t":
      out.append("\\t")
    elif c == "\"":
      out.append("\\\"")
    elif c == "'":
      out.append("\\'")
    elif c == "\\":
      out.append("\\\\")
    elif b < 32 or b >= 127:
      out.append("\\%03o" % b)
    else:
      out.append(c)
  return "".join(out)


def _fmt_scalar(f, v):
  kind = f.kind
  if kind in ("string", "bytes"):
    return "\"%s\"" % _escape(v)
  if kind == "bool":
    return "true" if v else "false"
  if kind == "enum":
    for k, ev in f.enum.items():
      if ev == v:
        return k
    return str(v)
  if kind == "float":
    r = float("%.8g" % v)
    s = repr(r)
  elif kind == "double":
    s = repr(float(v))
  else:
    return str(v)
  if s in ("inf", "-inf", "nan"):
    return s
  return s


def _text_format(msg, indent, lines):
  pad = "  " * indent
  for f in msg._sorted:
    v = msg._values.get(f.name)
    if v is None or not msg._is_set(f, v):
      continue
    if f.label == "repeated":
      for item in v:
        if f.kind == "message":
          lines.append("%s%s {\n" % (pad, f.name))
          _text_format(item, indent + 1, lines)
          lines.append("%s}\n" % pad)
        else:
          lines.append("%s%s: %s\n" % (pad, f.name, _fmt_scalar(f, item)))
    elif f.label == "map":
      key_field = _Field("key", 1, f.key_kind)
      for k, item in v.items():
        lines.append("%s%s {\n" % (pad, f.name))
        lines.append("%s  key: %s\n" % (pad, _fmt_scalar(key_field, k)))
        if f.kind == "message":
          lines.append("%s  value {\n" % pad)
          _text_format(item, indent + 2, lines)
          lines.append("%s  }\n" % pad)
        else:
          lines.append("%s  value: %s\n" % (pad, _fmt_scalar(f, item)))
        lines.append("%s}\n" % pad)
    elif f.kind == "message":
      lines.append("%s%s {\n" % (pad, f.name))
      _text_format(v, indent + 1, lines)
      lines.append("%s}\n" % pad)
    else:
      lines.append("%s%s: %s\n" % (pad, f.name, _fmt_scalar(f, v)))


# -- wire format -----------------------------------------------------------------------------


def _varint(out, v):
  if v < 0:
    v += 1 << 64
  while True:
    b = v & 0x7F
    v >>= 7
    if v:
      out.append(b | 0x80)
    else:
      out.append(b)
      return


def _wire_type(kind):
  if kind in ("int32", "int64", "uint32", "uint64", "bool", "enum"):
    return 0
  if kind == "double":
    return 1
  if kind == "float":
    return 5
  return 2


def _encode_value(out, f_number, kind, v, msg_cls=None):
  wt = _wire_type(kind)
  _varint(out, (f_number << 3) | wt)
  if wt == 0:
    _varint(out, int(v))
  elif wt == 1:
    out += struct.pack("<d", v)
  elif wt == 5:
    out += struct.pack("<f", v)
  else:
    if kind == "message":
      if v.__class__ is GraphDef:
        data = v.SerializeToString()  # parsed bytes are reused as they are
      else:
        sub = bytearray()
        _encode(v, sub)
        data = sub
    elif kind == "string":
      data = v.encode("utf-8")
    else:
      data = v
    _varint(out, len(data))
    out += data


def _encode(msg, out):
  for f in msg._sorted:
    v = msg._values.get(f.name)
    if v is None or not msg._is_set(f, v):
      continue
    if f.label == "repeated":
      if f.kind in ("string", "bytes", "message"):
        for item in v:
          _encode_value(out, f.number, f.kind, item)
      else:  # packed
        sub = bytearray()
        for item in v:
          wt = _wire_type(f.kind)
          if wt == 0:
            _varint(sub, int(item))
          elif wt == 1:
            sub += struct.pack("<d", item)
          else:
            sub += struct.pack("<f", item)
        _varint(out, (f.number << 3) | 2)
        _varint(out, len(sub))
        out += sub
    elif f.label == "map":
      for k, item in v.items():
        entry = bytearray()
        _encode_value(entry, 1, f.key_kind, k)
        _encode_value(entry, 2, f.kind, item)
        _varint(out, (f.number << 3) | 2)
        _varint(out, len(entry))
        out += entry
    else:
      _encode_value(out, f.number, f.kind, v)


def _read_varint(buf, pos):
  result = 0
  shift = 0
  while True:
    b = buf[pos]
    pos += 1
    result |= (b & 0x7F) << shift
    if not b & 0x80:
      return result, pos
    shift += 7
    if shift > 70:
      raise ValueError("Error parsing message: varint too long")


def _signed(kind, v):
  if kind in ("int32", "int64", "enum") and v >= 1 << 63:
    v -= 1 << 64
  if kind in ("int32", "enum") and v >= 1 << 31:
    v -= 1 << 32
  return v


def _read_field(buf, pos, wt):
  if wt == 0:
    return _read_varint(buf, pos)
  if wt == 1:
    return bytes(buf[pos:pos + 8]), pos + 8
  if wt == 5:
    return bytes(buf[pos:pos + 4]), pos + 4
  if wt == 2:
    n, pos = _read_varint(buf, pos)
    if pos + n > len(buf):
      raise ValueError("Error parsing message: truncated")
    return buf[pos:pos + n], pos + n
  raise ValueError("Error parsing message: unsupported wire type %d" % wt)


def _scalar_from_wire(kind, wt, raw):
  if kind == "double":
    return struct.unpack("<d", raw)[0]
  if kind == "float":
    return struct.unpack("<f", raw)[0]
  if kind == "bool":
    return bool(raw)
  if kind == "string":
    return bytes(raw).decode("utf-8")
  if kind == "bytes":
    return bytes(raw)
  return _signed(kind, raw)


def _decode(msg, buf, pos, end):
  while pos < end:
    tag, pos = _read_varint(buf, pos)
    number, wt = tag >> 3, tag & 7
    raw, pos = _read_field(buf, pos, wt)
    f = msg._by_number.get(number)
    if f is None:
      continue
    if f.label == "map":
      entry = {}
      sub = raw
      p = 0
      while p < len(sub):
        t, p = _read_varint(sub, p)
        n2, w2 = t >> 3, t & 7
        r2, p = _read_field(sub, p, w2)
        entry[n2] = (w2, r2)
      key = _scalar_from_wire(f.key_kind, *entry[1]) if 1 in entry else \
          _DEFAULTS[f.key_kind]
      mp = getattr(msg, f.name)
      if f.kind == "message":
        m = mp[key]
        if 2 in entry:
          _decode(m, entry[2][1], 0, len(entry[2][1]))
      else:
        val = _scalar_from_wire(f.kind, *entry[2]) if 2 in entry else f.default
        dict.__setitem__(mp, key, val)
    elif f.kind == "message":
      if f.label == "repeated":
        m = getattr(msg, f.name).add()
      else:
        m = getattr(msg, f.name)
        object.__setattr__(m, "_present", True)
        if m.__class__ is GraphDef and m._raw is None and not _values_slot.__get__(m):
          object.__setattr__(m, "_raw", bytes(raw))  # nodes decoded when first read
          continue
      _decode(m, raw, 0, len(raw))
    elif f.label == "repeated":
      lst = getattr(msg, f.name)
      if wt == 2 and f.kind not in ("string", "bytes"):
        p = 0
        while p < len(raw):
          if f.kind == "double":
            item, p = bytes(raw[p:p + 8]), p + 8
          elif f.kind == "float":
            item, p = bytes(raw[p:p + 4]), p + 4
          else:
            item, p = _read_varint(raw, p)
          list.append(lst, _scalar_from_wire(f.kind, 0, item))
      else:
        list.append(lst, _scalar_from_wire(f.kind, wt, raw))
    else:
      msg._values[f.name] = _scalar_from_wire(f.kind, wt, raw)


# -- messages --------------------------------------------------------------------------------

_F = _Field


class ThreadPoolOptionProto(Message):
  _FIELDS = (_F("num_threads", 1, "int32"), _F("global_name", 2, "string"))


class GPUOptions(Message):
  _FIELDS = (
      _F("per_process_gpu_memory_fraction", 1, "double"),
      _F("allocator_type", 2, "string"),
      _F("deferred_deletion_bytes", 3, "int64"),
      _F("allow_growth", 4, "bool"),
      _F("visible_device_list", 5, "string"),
      _F("polling_active_delay_usecs", 6, "int32"),
      _F("polling_inactive_delay_msecs", 7, "int32"),
      _F("force_gpu_compatible", 8, "bool"),
  )


class OptimizerOptions(Message):
  Level = {"L1": 0, "L0": -1}
  GlobalJitLevel = {"DEFAULT": 0, "OFF": -1, "ON_1": 1, "ON_2": 2}
  _FIELDS = (
      _F("do_common_subexpression_elimination", 1, "bool"),
      _F("do_constant_folding", 2, "bool"),
      _F("opt_level", 3, "enum", enum={"L1": 0, "L0": -1}),
      _F("do_function_inlining", 4, "bool"),
      _F("global_jit_level", 5, "enum", enum={"DEFAULT": 0, "OFF": -1, "ON_1": 1, "ON_2": 2}),
      _F("max_folded_constant_in_bytes", 6, "int64"),
  )


_TOGGLE = {"DEFAULT": 0, "ON": 1, "OFF": 2, "AGGRESSIVE": 3, "EXPERIMENTAL_MLIR": 4,
           "EXPERIMENTAL_BOTH": 5}


class RewriterConfig(Message):
  """TF's graph-rewrite switches (rewriter_config.proto). tfc's one rewrite is the
  remapper's op fusion (`remapping`); the other fields are kept for the wire."""
  Toggle = _TOGGLE
  _FIELDS = (
      _F("layout_optimizer", 1, "enum", enum=_TOGGLE),
      _F("disable_model_pruning", 2, "bool"),
      _F("constant_folding", 3, "enum", enum=_TOGGLE),
      _F("memory_optimization", 4, "enum", enum={
          "DEFAULT_MEM_OPT": 0, "NO_MEM_OPT": 1, "MANUAL": 2, "HEURISTICS": 3,
          "SWAPPING_HEURISTICS": 4, "RECOMPUTATION_HEURISTICS": 5, "SCHEDULING_HEURISTICS": 6}),
      _F("memory_optimizer_target_node_name_scope", 6, "string"),
      _F("arithmetic_optimization", 7, "enum", enum=_TOGGLE),
      _F("dependency_optimization", 8, "enum", enum=_TOGGLE),
      _F("loop_optimization", 9, "enum", enum=_TOGGLE),
      _F("function_optimization", 10, "enum", enum=_TOGGLE),
      _F("debug_stripper", 11, "enum", enum=_TOGGLE),
      _F("meta_optimizer_iterations", 12, "enum",
         enum={"DEFAULT_NUM_ITERS": 0, "ONE": 1, "TWO": 2}),
      _F("shape_optimization", 13, "enum", enum=_TOGGLE),
      _F("remapping", 14, "enum", enum=_TOGGLE),
      _F("scoped_allocator_optimization", 15, "enum", enum=_TOGGLE),
      _F("min_graph_nodes", 17, "int32"),
      _F("pin_to_host_optimization", 18, "enum", enum=_TOGGLE),
      _F("disable_meta_optimizer", 19, "bool"),
      _F("meta_optimizer_timeout_ms", 20, "int64"),
      _F("fail_on_optimizer_errors", 21, "bool"),
      _F("implementation_selector", 22, "enum", enum=_TOGGLE),
      _F("auto_mixed_precision", 23, "enum", enum=_TOGGLE),
      _F("common_subgraph_elimination", 24, "enum", enum=_TOGGLE),
      _F("optimizers", 100, "string", label="repeated"),
  )


class GraphOptions(Message):
  _FIELDS = (
      _F("enable_recv_scheduling", 2, "bool"),
      _F("optimizer_options", 3, "message", msg="OptimizerOptions"),
      _F("build_cost_model", 4, "int64"),
      _F("infer_shapes", 5, "bool"),
      _F("place_pruned_graph", 6, "bool"),
      _F("enable_bfloat16_sendrecv", 7, "bool"),
      _F("timeline_step", 8, "int32"),
      _F("build_cost_model_after", 9, "int64"),
      _F("rewrite_options", 10, "message", msg="RewriterConfig"),
  )


class RPCOptions(Message):
  _FIELDS = (
      _F("use_rpc_for_inprocess_master", 1, "bool"),
      _F("compression_algorithm", 2, "string"),
      _F("compression_level", 3, "int32"),
  )


class JobDef(Message):
  _FIELDS = (
      _F("name", 1, "string"),
      _F("tasks", 2, "string", label="map", key_kind="int32"),
  )


class ClusterDef(Message):
  _FIELDS = (_F("job", 1, "message", label="repeated", msg="JobDef"),)


class ConfigProto(Message):
  _FIELDS = (
      _F("device_count", 1, "int32", label="map", key_kind="string"),
      _F("intra_op_parallelism_threads", 2, "int32"),
      _F("placement_period", 3, "int32"),
      _F("device_filters", 4, "string", label="repeated"),
      _F("inter_op_parallelism_threads", 5, "int32"),
      _F("gpu_options", 6, "message", msg="GPUOptions"),
      _F("allow_soft_placement", 7, "bool"),
      _F("log_device_placement", 8, "bool"),
      _F("use_per_session_threads", 9, "bool"),
      _F("graph_options", 10, "message", msg="GraphOptions"),
      _F("operation_timeout_in_ms", 11, "int64"),
      _F("session_inter_op_thread_pool", 12, "message", label="repeated",
         msg="ThreadPoolOptionProto"),
      _F("rpc_options", 13, "message", msg="RPCOptions"),
      _F("cluster_def", 14, "message", msg="ClusterDef"),
      _F("isolate_session_state", 15, "bool"),
  )


class DebugTensorWatch(Message):
  _FIELDS = (
      _F("node_name", 1, "string"),
      _F("output_slot", 2, "int32"),
      _F("debug_ops", 3, "string", label="repeated"),
      _F("debug_urls", 4, "string", label="repeated"),
      _F("tolerate_debug_op_creation_failures", 5, "bool"),
  )


class DebugOptions(Message):
  _FIELDS = (
      _F("debug_tensor_watch_opts", 4, "message", label="repeated", msg="DebugTensorWatch"),
      _F("global_step", 10, "int64"),
      _F("reset_disk_byte_usage", 11, "bool"),
  )


class RunOptions(Message):
  TraceLevel = {"NO_TRACE": 0, "SOFTWARE_TRACE": 1, "HARDWARE_TRACE": 2, "FULL_TRACE": 3}
  _FIELDS = (
      _F("trace_level", 1, "enum", enum={"NO_TRACE": 0, "SOFTWARE_TRACE": 1,
                                         "HARDWARE_TRACE": 2, "FULL_TRACE": 3}),
      _F("timeout_in_ms", 2, "int64"),
      _F("inter_op_thread_pool", 3, "int32"),
      _F("output_partition_graphs", 5, "bool"),
      _F("debug_options", 6, "message", msg="DebugOptions"),
      _F("report_tensor_allocations_upon_oom", 7, "bool"),
  )


class AllocatorMemoryUsed(Message):
  _FIELDS = (
      _F("allocator_name", 1, "string"),
      _F("total_bytes", 2, "int64"),
      _F("peak_bytes", 3, "int64"),
      _F("live_bytes", 4, "int64"),
      _F("allocator_bytes_in_use", 5, "int64"),
  )


class NodeOutput(Message):
  _FIELDS = (_F("slot", 1, "int32"),)


class NodeExecStats(Message):
  _FIELDS = (
      _F("node_name", 1, "string"),
      _F("all_start_micros", 2, "int64"),
      _F("op_start_rel_micros", 3, "int64"),
      _F("op_end_rel_micros", 4, "int64"),
      _F("all_end_rel_micros", 5, "int64"),
      _F("memory", 6, "message", label="repeated", msg="AllocatorMemoryUsed"),
      _F("output", 7, "message", label="repeated", msg="NodeOutput"),
      _F("timeline_label", 8, "string"),
      _F("scheduled_micros", 9, "int64"),
      _F("thread_id", 10, "uint32"),
      _F("all_start_nanos", 13, "int64"),
      _F("op_start_rel_nanos", 14, "int64"),
      _F("op_end_rel_nanos", 15, "int64"),
      _F("all_end_rel_nanos", 16, "int64"),
      _F("scheduled_nanos", 17, "int64"),
  )


class DeviceStepStats(Message):
  _FIELDS = (
      _F("device", 1, "string"),
      _F("node_stats", 2, "message", label="repeated", msg="NodeExecStats"),
      _F("thread_names", 3, "string", label="map", key_kind="uint32"),
  )


class StepStats(Message):
  _FIELDS = (_F("dev_stats", 1, "message", label="repeated", msg="DeviceStepStats"),)


class CostGraphDef(Message):
  _FIELDS = ()


class SerializedGraph(Message):
  """Placeholder for a GraphDef inside RunMetadata (kept as opaque bytes)."""
  _FIELDS = ()


class RunMetadata(Message):
  _FIELDS = (
      _F("step_stats", 1, "message", msg="StepStats"),
      _F("cost_graph", 2, "message", msg="CostGraphDef"),
      _F("partition_graphs", 3, "message", label="repeated", msg="SerializedGraph"),
  )


class SaveSliceInfoDef(Message):
  _FIELDS = (
      _F("full_name", 1, "string"),
      _F("full_shape", 2, "int64", label="repeated"),
      _F("var_offset", 3, "int64", label="repeated"),
      _F("var_shape", 4, "int64", label="repeated"),
  )


class VariableDef(Message):
  _FIELDS = (
      _F("variable_name", 1, "string"),
      _F("initializer_name", 2, "string"),
      _F("snapshot_name", 3, "string"),
      _F("save_slice_info_def", 4, "message", msg="SaveSliceInfoDef"),
      _F("is_resource", 5, "bool"),
      _F("initial_value_name", 6, "string"),
      _F("trainable", 7, "bool"),
      _F("synchronization", 8, "enum", enum={
          "VARIABLE_SYNCHRONIZATION_AUTO": 0, "VARIABLE_SYNCHRONIZATION_NONE": 1,
          "VARIABLE_SYNCHRONIZATION_ON_WRITE": 2, "VARIABLE_SYNCHRONIZATION_ON_READ": 3}),
      _F("aggregation", 9, "enum", enum={
          "VARIABLE_AGGREGATION_NONE": 0, "VARIABLE_AGGREGATION_SUM": 1,
          "VARIABLE_AGGREGATION_MEAN": 2, "VARIABLE_AGGREGATION_ONLY_FIRST_REPLICA": 3}),
  )


class ServerDef(Message):
  _FIELDS = (
      _F("cluster", 1, "message", msg="ClusterDef"),
      _F("job_name", 2, "string"),
      _F("task_index", 3, "int32"),
      _F("default_session_config", 4, "message", msg="ConfigProto"),
      _F("protocol", 5, "string"),
      _F("port", 6, "int32"),
  )


class SessionLog(Message):
  SessionStatus = {"STATUS_UNSPECIFIED": 0, "START": 1, "STOP": 2, "CHECKPOINT": 3}
  _FIELDS = (
      _F("status", 1, "enum", enum={"STATUS_UNSPECIFIED": 0, "START": 1, "STOP": 2,
                                    "CHECKPOINT": 3}),
      _F("checkpoint_path", 2, "string"),
      _F("msg", 3, "string"),
  )


# -- graph protos (GraphDef, NodeDef, AttrValue, TensorProto, ...) ---------------------------


class DecodeError(ValueError):
  """Bytes that are not a valid serialized message (protobuf's DecodeError)."""


_DATA_TYPES = {
    "DT_INVALID": 0, "DT_FLOAT": 1, "DT_DOUBLE": 2, "DT_INT32": 3, "DT_UINT8": 4,
    "DT_INT16": 5, "DT_INT8": 6, "DT_STRING": 7, "DT_COMPLEX64": 8, "DT_INT64": 9,
    "DT_BOOL": 10, "DT_QINT8": 11, "DT_QUINT8": 12, "DT_QINT32": 13, "DT_BFLOAT16": 14,
    "DT_QINT16": 15, "DT_QUINT16": 16, "DT_UINT16": 17, "DT_COMPLEX128": 18, "DT_HALF": 19,
    "DT_RESOURCE": 20, "DT_VARIANT": 21, "DT_UINT32": 22, "DT_UINT64": 23,
}
_DATA_TYPES.update({k + "_REF": v + 100 for k, v in list(_DATA_TYPES.items()) if v})
_MAX_DEPTH = 100


def _check_varint(buf, pos, end):
  """Reads a varint of buf[pos:end] strictly; returns (value, pos) or raises DecodeError."""
  result = 0
  shift = 0
  while True:
    if pos >= end or shift > 63:
      raise DecodeError("truncated or overlong varint")
    b = buf[pos]
    pos += 1
    result |= (b & 0x7F) << shift
    if not b & 0x80:
      return result, pos
    shift += 7


def _check_wire(cls, buf, pos, end, depth):
  """Walks buf[pos:end] as a message of cls (None: unknown), recursing into the
  message fields cls declares; raises DecodeError on malformed wire data."""
  if depth > _MAX_DEPTH:
    raise DecodeError("message nested too deeply")
  by_number = cls._by_number if cls is not None else {}
  while pos < end:
    tag, pos = _check_varint(buf, pos, end)
    number, wt = tag >> 3, tag & 7
    if number == 0:
      raise DecodeError("field number 0")
    if wt == 0:
      _, pos = _check_varint(buf, pos, end)
    elif wt == 1:
      pos += 8
    elif wt == 5:
      pos += 4
    elif wt == 2:
      n, pos = _check_varint(buf, pos, end)
      if pos + n > end:
        raise DecodeError("truncated length-delimited field")
      f = by_number.get(number)
      if f is not None:
        if f.label == "map":
          _check_map_entry(f, buf, pos, pos + n, depth + 1)
        elif f.kind == "message":
          _check_wire(_resolve(f.msg), buf, pos, pos + n, depth + 1)
        elif f.kind == "string":
          try:
            bytes(buf[pos:pos + n]).decode("utf-8")
          except UnicodeDecodeError:
            raise DecodeError("string field %s is not valid UTF-8" % f.name)
      pos += n
    else:
      raise DecodeError("unsupported wire type %d" % wt)
    if pos > end:
      raise DecodeError("truncated field")


def _check_map_entry(f, buf, pos, end, depth):
  """Checks one map entry (key = field 1, value = field 2) of map field f."""
  while pos < end:
    tag, pos = _check_varint(buf, pos, end)
    number, wt = tag >> 3, tag & 7
    if wt == 0:
      _, pos = _check_varint(buf, pos, end)
    elif wt == 1:
      pos += 8
    elif wt == 5:
      pos += 4
    elif wt == 2:
      n, pos = _check_varint(buf, pos, end)
      if pos + n > end:
        raise DecodeError("truncated map entry")
      if number == 2 and f.kind == "message":
        _check_wire(_resolve(f.msg), buf, pos, pos + n, depth + 1)
      pos += n
    else:
      raise DecodeError("unsupported wire type %d" % wt)
    if pos > end:
      raise DecodeError("truncated map entry")


class _CheckedMessage(Message):
  """Base of the graph protos: parsing checks the wire format first and raises
  DecodeError (a ValueError) for corrupt or truncated bytes."""

  __slots__ = ()

  def MergeFromString(self, data):  # pylint: disable=invalid-name
    data = bytes(data)
    _parse_checked(type(self), data)
    _decode(self, memoryview(data), 0, len(data))
    return len(data)


def _parse_checked(cls, data):
  try:
    _check_wire(cls, memoryview(data), 0, len(data), 0)
  except DecodeError as e:
    raise DecodeError("Error parsing message with type 'tensorflow.%s': %s"
                      % (cls.__name__, e)) from None


class _OneofMessage(_CheckedMessage):
  """A message whose _ONEOF fields are a oneof: a member set to its default is
  still present (and serialized), and setting one member clears the others."""

  __slots__ = ()
  _ONEOF = ()
  _ONEOF_NAME = "value"

  def _is_set(self, f, v):
    if f.name in self._ONEOF and f.kind != "message":
      return True
    return Message._is_set(self, f, v)

  def __setattr__(self, name, value):
    if name in self._ONEOF:
      for other in self._ONEOF:
        if other != name:
          self._values.pop(other, None)
    Message.__setattr__(self, name, value)

  def __getattr__(self, name):
    f = type(self)._by_name.get(name)
    if f is not None and name in self._ONEOF and f.kind == "message" and \
       name not in self._values:
      # reading an unset message member does not select it
      return _resolve(f.msg)()
    return Message.__getattr__(self, name)

  def HasField(self, name):  # pylint: disable=invalid-name
    if name == self._ONEOF_NAME:
      return self.WhichOneof(name) is not None
    if name in self._ONEOF:
      return self.WhichOneof(self._ONEOF_NAME) == name
    return Message.HasField(self, name)

  def WhichOneof(self, group):  # pylint: disable=invalid-name
    if group != self._ONEOF_NAME:
      raise ValueError("Protocol message has no oneof \"%s\" field." % group)
    for f in self._sorted:
      if f.name in self._ONEOF and f.name in self._values:
        v = self._values[f.name]
        if f.kind != "message" or v._present or v._nonempty():
          return f.name
    return None

  def SetInParent(self):  # pylint: disable=invalid-name
    Message.SetInParent(self)


def _oneof_message_member(owner, name):
  """The message member `name` of oneof message owner, selected (others cleared)."""
  values = owner._values
  if name not in values:
    for other in owner._ONEOF:
      values.pop(other, None)
    f = type(owner)._by_name[name]
    m = _resolve(f.msg)()
    object.__setattr__(m, "_present", True)
    values[name] = m
  return values[name]


class TensorShapeProto(_CheckedMessage):
  class Dim(_CheckedMessage):
    _FIELDS = (_F("size", 1, "int64"), _F("name", 2, "string"))
  _FIELDS = (
      _F("dim", 2, "message", label="repeated", msg="Dim"),
      _F("unknown_rank", 3, "bool"),
  )


class ResourceHandleProto(_CheckedMessage):
  _FIELDS = (
      _F("device", 1, "string"), _F("container", 2, "string"), _F("name", 3, "string"),
      _F("hash_code", 4, "uint64"), _F("maybe_type_name", 5, "string"),
  )


class TensorProto(_CheckedMessage):
  _FIELDS = (
      _F("dtype", 1, "enum", enum=_DATA_TYPES),
      _F("tensor_shape", 2, "message", msg="TensorShapeProto"),
      _F("version_number", 3, "int32"),
      _F("tensor_content", 4, "bytes"),
      _F("float_val", 5, "float", label="repeated"),
      _F("double_val", 6, "double", label="repeated"),
      _F("int_val", 7, "int32", label="repeated"),
      _F("string_val", 8, "bytes", label="repeated"),
      _F("scomplex_val", 9, "float", label="repeated"),
      _F("int64_val", 10, "int64", label="repeated"),
      _F("bool_val", 11, "bool", label="repeated"),
      _F("dcomplex_val", 12, "double", label="repeated"),
      _F("half_val", 13, "int32", label="repeated"),
      _F("resource_handle_val", 14, "message", label="repeated", msg="ResourceHandleProto"),
      _F("uint32_val", 16, "uint32", label="repeated"),
      _F("uint64_val", 17, "uint64", label="repeated"),
  )


class NameAttrList(_CheckedMessage):
  _FIELDS = (
      _F("name", 1, "string"),
      _F("attr", 2, "message", label="map", msg="AttrValue", key_kind="string"),
  )


class ListValue(_CheckedMessage):
  _FIELDS = (
      _F("s", 2, "bytes", label="repeated"),
      _F("i", 3, "int64", label="repeated"),
      _F("f", 4, "float", label="repeated"),
      _F("b", 5, "bool", label="repeated"),
      _F("type", 6, "enum", label="repeated", enum=_DATA_TYPES),
      _F("shape", 7, "message", label="repeated", msg="TensorShapeProto"),
      _F("tensor", 8, "message", label="repeated", msg="TensorProto"),
      _F("func", 9, "message", label="repeated", msg="NameAttrList"),
  )


class AttrValue(_OneofMessage):
  """One attr value: exactly one of s, i, f, b, type, shape, tensor, list, func, placeholder."""
  ListValue = ListValue
  _ONEOF = ("list", "s", "i", "f", "b", "type", "shape", "tensor", "placeholder", "func")
  _FIELDS = (
      _F("list", 1, "message", msg="ListValue"),
      _F("s", 2, "bytes"),
      _F("i", 3, "int64"),
      _F("f", 4, "float"),
      _F("b", 5, "bool"),
      _F("type", 6, "enum", enum=_DATA_TYPES),
      _F("shape", 7, "message", msg="TensorShapeProto"),
      _F("tensor", 8, "message", msg="TensorProto"),
      _F("placeholder", 9, "string"),
      _F("func", 10, "message", msg="NameAttrList"),
  )

  def __getattr__(self, name):
    f = type(self)._by_name.get(name)
    if f is not None and f.kind == "message" and name in self._ONEOF:
      # accessing a message member selects it (as attr_value.list.s.append(...) expects)
      return _oneof_message_member(self, name)
    return _OneofMessage.__getattr__(self, name)


class NodeDef(_CheckedMessage):
  class ExperimentalDebugInfo(_CheckedMessage):
    _FIELDS = (_F("original_node_names", 1, "string", label="repeated"),
               _F("original_func_names", 2, "string", label="repeated"))
  _FIELDS = (
      _F("name", 1, "string"),
      _F("op", 2, "string"),
      _F("input", 3, "string", label="repeated"),
      _F("device", 4, "string"),
      _F("attr", 5, "message", label="map", msg="AttrValue", key_kind="string"),
      _F("experimental_debug_info", 6, "message", msg="ExperimentalDebugInfo"),
      _F("experimental_type", 7, "message", msg="FullTypeDef"),
  )


class VersionDef(_CheckedMessage):
  _FIELDS = (
      _F("producer", 1, "int32"),
      _F("min_consumer", 2, "int32"),
      _F("bad_consumers", 3, "int32", label="repeated"),
  )


class FunctionDefLibrary(_CheckedMessage):
  """The function library of a GraphDef. tfc does not run functions; each
  FunctionDef / GradientDef is kept as its serialized bytes so a library
  survives parse, edit and re-serialization unchanged."""
  _FIELDS = (
      _F("function", 1, "bytes", label="repeated"),
      _F("gradient", 2, "bytes", label="repeated"),
  )


_values_slot = Message.__dict__["_values"]


class GraphDef(_CheckedMessage):
  """tensorflow.GraphDef. Parsed bytes are kept as they are: SerializeToString
  and import_graph_def use them directly, and the nodes are decoded into
  NodeDef objects only when a field is first read or written (after which the
  message is re-serialized from its fields on demand)."""

  __slots__ = ("_raw",)
  _FIELDS = (
      _F("node", 1, "message", label="repeated", msg="NodeDef"),
      _F("library", 2, "message", msg="FunctionDefLibrary"),
      _F("version", 3, "int32"),
      _F("versions", 4, "message", msg="VersionDef"),
  )

  def __init__(self, **kwargs):
    object.__setattr__(self, "_raw", None)
    super(GraphDef, self).__init__(**kwargs)

  @property
  def _values(self):
    raw = self._raw
    if raw is not None:
      object.__setattr__(self, "_raw", None)
      _decode(self, memoryview(raw), 0, len(raw))
    return _values_slot.__get__(self)

  @_values.setter
  def _values(self, value):
    _values_slot.__set__(self, value)

  def Clear(self):  # pylint: disable=invalid-name
    object.__setattr__(self, "_raw", None)
    _values_slot.__set__(self, {})
    object.__setattr__(self, "_present", False)

  def ParseFromString(self, data):  # pylint: disable=invalid-name
    data = bytes(data)
    _parse_checked(GraphDef, data)
    self.Clear()
    object.__setattr__(self, "_raw", data)
    return len(data)

  def MergeFromString(self, data):  # pylint: disable=invalid-name
    data = bytes(data)
    if self._raw is None and not _values_slot.__get__(self):
      return self.ParseFromString(data)
    _parse_checked(GraphDef, data)
    _decode(self, memoryview(data), 0, len(data))
    return len(data)

  def SerializeToString(self, deterministic=None):  # pylint: disable=invalid-name
    if self._raw is not None:
      return self._raw
    return Message.SerializeToString(self)

  def CopyFrom(self, other):  # pylint: disable=invalid-name
    if other is self:
      return
    if isinstance(other, GraphDef) and other._raw is not None:
      self.Clear()
      object.__setattr__(self, "_raw", other._raw)
      object.__setattr__(self, "_present", True)
      return
    Message.CopyFrom(self, other)

  def __eq__(self, other):
    if isinstance(other, GraphDef) and self._raw is not None and self._raw == other._raw:
      return True
    return Message.__eq__(self, other)

  def __reduce__(self):
    return GraphDef.FromString, (self.SerializeToString(),)


# -- meta graph protos (MetaGraphDef, OpDef, CollectionDef, SaverDef, ...) ----------------------


_FULL_TYPE_IDS = {
    "TFT_UNSET": 0, "TFT_VAR": 1, "TFT_ANY": 2, "TFT_PRODUCT": 3, "TFT_NAMED": 4,
    "TFT_FOR_EACH": 20, "TFT_CALLABLE": 100, "TFT_TENSOR": 1000, "TFT_ARRAY": 1001,
    "TFT_OPTIONAL": 1002, "TFT_LITERAL": 1003, "TFT_ENCODED": 1004, "TFT_SHAPE_TENSOR": 1005,
    "TFT_BOOL": 200, "TFT_UINT8": 201, "TFT_UINT16": 202, "TFT_UINT32": 203, "TFT_UINT64": 204,
    "TFT_INT8": 205, "TFT_INT16": 206, "TFT_INT32": 207, "TFT_INT64": 208, "TFT_HALF": 209,
    "TFT_FLOAT": 210, "TFT_DOUBLE": 211, "TFT_BFLOAT16": 215, "TFT_COMPLEX64": 212,
    "TFT_COMPLEX128": 213, "TFT_STRING": 214, "TFT_DATASET": 10102, "TFT_RAGGED": 10103,
    "TFT_ITERATOR": 10104, "TFT_MUTEX_LOCK": 10202, "TFT_LEGACY_VARIANT": 10203,
}


class FullTypeDef(_OneofMessage):
  """tensorflow.FullTypeDef: the type annotation newer TF writes on NodeDefs
  and OpDef args (kept so such files parse and round-trip; tfc ignores it)."""
  _ONEOF = ("s", "i")
  _ONEOF_NAME = "attr"
  _FIELDS = (
      _F("type_id", 1, "enum", enum=_FULL_TYPE_IDS),
      _F("args", 2, "message", label="repeated", msg="FullTypeDef"),
      _F("s", 3, "string"),
      _F("i", 4, "int64"),
  )


class DtypeAndShape(_CheckedMessage):
  """tensorflow.ResourceHandleProto.DtypeAndShape."""
  _FIELDS = (
      _F("dtype", 1, "enum", enum=_DATA_TYPES),
      _F("shape", 2, "message", msg="TensorShapeProto"),
  )


class Any(_CheckedMessage):
  """google.protobuf.Any: a serialized message and its type URL."""
  _FIELDS = (_F("type_url", 1, "string"), _F("value", 2, "bytes"))


class OpDeprecation(_CheckedMessage):
  _FIELDS = (_F("version", 1, "int32"), _F("explanation", 2, "string"))


class OpDef(_CheckedMessage):
  """tensorflow.OpDef: an op's signature (inputs, outputs, attrs and flags)."""

  class ArgDef(_CheckedMessage):
    _FIELDS = (
        _F("name", 1, "string"),
        _F("description", 2, "string"),
        _F("type", 3, "enum", enum=_DATA_TYPES),
        _F("type_attr", 4, "string"),
        _F("number_attr", 5, "string"),
        _F("type_list_attr", 6, "string"),
        _F("handle_data", 7, "message", label="repeated", msg="DtypeAndShape"),
        _F("is_ref", 16, "bool"),
        _F("experimental_full_type", 17, "message", msg="FullTypeDef"),
    )

  class AttrDef(_CheckedMessage):
    _FIELDS = (
        _F("name", 1, "string"),
        _F("type", 2, "string"),
        _F("default_value", 3, "message", msg="AttrValue"),
        _F("description", 4, "string"),
        _F("has_minimum", 5, "bool"),
        _F("minimum", 6, "int64"),
        _F("allowed_values", 7, "message", msg="AttrValue"),
    )

  _FIELDS = (
      _F("name", 1, "string"),
      _F("input_arg", 2, "message", label="repeated", msg="ArgDef"),
      _F("output_arg", 3, "message", label="repeated", msg="ArgDef"),
      _F("attr", 4, "message", label="repeated", msg="AttrDef"),
      _F("summary", 5, "string"),
      _F("description", 6, "string"),
      _F("deprecation", 8, "message", msg="OpDeprecation"),
      _F("is_aggregate", 16, "bool"),
      _F("is_stateful", 17, "bool"),
      _F("is_commutative", 18, "bool"),
      _F("allows_uninitialized_input", 19, "bool"),
      _F("control_output", 20, "string", label="repeated"),
      _F("is_distributed_communication", 21, "bool"),
  )


class OpList(_CheckedMessage):
  _FIELDS = (_F("op", 1, "message", label="repeated", msg="OpDef"),)


class SaverDef(_CheckedMessage):
  """tensorflow.SaverDef: the names a Saver's save/restore subgraph uses."""
  CheckpointFormatVersion = {"LEGACY": 0, "V1": 1, "V2": 2}
  _FIELDS = (
      _F("filename_tensor_name", 1, "string"),
      _F("save_tensor_name", 2, "string"),
      _F("restore_op_name", 3, "string"),
      _F("max_to_keep", 4, "int32"),
      _F("sharded", 5, "bool"),
      _F("keep_checkpoint_every_n_hours", 6, "float"),
      _F("version", 7, "enum", enum={"LEGACY": 0, "V1": 1, "V2": 2}),
  )


class CollectionDef(_OneofMessage):
  """tensorflow.CollectionDef: one collection, as exactly one of node_list
  (op/tensor names), bytes_list, int64_list, float_list or any_list.
  Reading a member selects it, so `c.node_list.value.append(...)` works."""

  class NodeList(_CheckedMessage):
    _FIELDS = (_F("value", 1, "string", label="repeated"),)

  class BytesList(_CheckedMessage):
    _FIELDS = (_F("value", 1, "bytes", label="repeated"),)

  class Int64List(_CheckedMessage):
    _FIELDS = (_F("value", 1, "int64", label="repeated"),)

  class FloatList(_CheckedMessage):
    _FIELDS = (_F("value", 1, "float", label="repeated"),)

  class AnyList(_CheckedMessage):
    _FIELDS = (_F("value", 1, "message", label="repeated", msg="Any"),)

  _ONEOF = ("node_list", "bytes_list", "int64_list", "float_list", "any_list")
  _ONEOF_NAME = "kind"
  _FIELDS = (
      _F("node_list", 1, "message", msg="NodeList"),
      _F("bytes_list", 2, "message", msg="BytesList"),
      _F("int64_list", 3, "message", msg="Int64List"),
      _F("float_list", 4, "message", msg="FloatList"),
      _F("any_list", 5, "message", msg="AnyList"),
  )

  def __getattr__(self, name):
    if name in self._ONEOF:
      return _oneof_message_member(self, name)
    return _OneofMessage.__getattr__(self, name)


class TensorInfo(_OneofMessage):
  """tensorflow.TensorInfo: a tensor named in a SignatureDef or AssetFileDef."""

  class CooSparse(_CheckedMessage):
    _FIELDS = (
        _F("values_tensor_name", 1, "string"),
        _F("indices_tensor_name", 2, "string"),
        _F("dense_shape_tensor_name", 3, "string"),
    )

  _ONEOF = ("name", "coo_sparse")
  _ONEOF_NAME = "encoding"
  _FIELDS = (
      _F("name", 1, "string"),
      _F("dtype", 2, "enum", enum=_DATA_TYPES),
      _F("tensor_shape", 3, "message", msg="TensorShapeProto"),
      _F("coo_sparse", 4, "message", msg="CooSparse"),
  )


class SignatureDef(_CheckedMessage):
  _FIELDS = (
      _F("inputs", 1, "message", label="map", msg="TensorInfo", key_kind="string"),
      _F("outputs", 2, "message", label="map", msg="TensorInfo", key_kind="string"),
      _F("method_name", 3, "string"),
      _F("defaults", 4, "message", label="map", msg="TensorProto", key_kind="string"),
  )


class AssetFileDef(_CheckedMessage):
  _FIELDS = (
      _F("tensor_info", 1, "message", msg="TensorInfo"),
      _F("filename", 2, "string"),
  )


class MetaGraphDef(_CheckedMessage):
  """tensorflow.MetaGraphDef: a GraphDef with the collections, saver and
  signatures needed to rebuild a Python-level graph (tf.train.export_meta_graph).
  The embedded graph_def keeps its parsed bytes until its nodes are read."""

  class MetaInfoDef(_CheckedMessage):
    _FIELDS = (
        _F("meta_graph_version", 1, "string"),
        _F("stripped_op_list", 2, "message", msg="OpList"),
        _F("any_info", 3, "message", msg="Any"),
        _F("tags", 4, "string", label="repeated"),
        _F("tensorflow_version", 5, "string"),
        _F("tensorflow_git_version", 6, "string"),
        _F("stripped_default_attrs", 7, "bool"),
        _F("function_aliases", 8, "string", label="map", key_kind="string"),
    )

  _FIELDS = (
      _F("meta_info_def", 1, "message", msg="MetaInfoDef"),
      _F("graph_def", 2, "message", msg="GraphDef"),
      _F("saver_def", 3, "message", msg="SaverDef"),
      _F("collection_def", 4, "message", label="map", msg="CollectionDef", key_kind="string"),
      _F("signature_def", 5, "message", label="map", msg="SignatureDef", key_kind="string"),
      _F("asset_file_def", 6, "message", label="repeated", msg="AssetFileDef"),
  )
