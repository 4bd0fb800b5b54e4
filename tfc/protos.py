"""tfc's protocol-buffer messages, as real google.protobuf classes.

Every message of the project's proto/*.proto files (package `tensorflow`,
plus `google.protobuf.Any`) is an attribute of this module under its short
name: `protos.ConfigProto`, `protos.GraphDef`, `protos.RunOptions`, ...;
nested messages whose short name is unique too (`protos.DtypeAndShape` is
`ResourceHandleProto.DtypeAndShape`). They are the same files the C side
compiles with protoc-c, so there is one definition of every field, with
TensorFlow's field numbers, and the classes work with everything built on
google.protobuf: `text_format`, `json_format`, `MergeFrom`, `CopyFrom`,
`DESCRIPTOR`, `SerializeToString`/`ParseFromString`.

The classes live in a descriptor pool of tfc's own rather than protobuf's
default pool, because real TensorFlow registers the same `tensorflow.*` names
there and both must be importable in one process. They are built on first
use: importing tfc does not import google.protobuf. With protobuf's upb
backend (the default) they are made straight from its C module, which spares
a cold start the pure-Python modules behind `descriptor_pool` and
`message_factory`; other backends go through those public modules.

Large GraphDefs: `ParseFromString` (and `FromString`) of a GraphDef of 1 MiB
or more parses it as usual and also remembers the bytes it was given, for
as long as the message is not touched (any attribute read or write on it
forgets them). `tf.import_graph_def` then hands those very bytes to the C
importer instead of serializing the message again, which for a 100 MB
frozen graph is most of the load time. One such graph is remembered at a
time (the last one parsed).
"""
import _thread

_lock = _thread.allocate_lock()
_pool = None          # the DescriptorPool, once built
_descriptors = None   # short name -> message Descriptor
_make_class = None    # Descriptor -> message class

# [message, bytes]: the last large GraphDef parsed, while untouched since.
_parsed_graph_def = [None, None]
_REMEMBER_MIN_BYTES = 1 << 20


def _split_descriptor_set(data):
  """The serialized FileDescriptorProtos inside a serialized FileDescriptorSet
  (field 1, repeated, length-delimited), in their order."""
  files = []
  pos = 0
  end = len(data)
  while pos < end:
    if data[pos] != 0x0A:
      raise ValueError("tfc: malformed descriptor set at byte %d" % pos)
    pos += 1
    length = shift = 0
    while True:
      b = data[pos]
      pos += 1
      length |= (b & 0x7F) << shift
      shift += 7
      if b < 0x80:
        break
    files.append(data[pos:pos + length])
    pos += length
  return files


def _load():
  """Builds the pool from the descriptor set compiled into tfc._tfc (once)
  and indexes its messages by short name; returns the index."""
  global _pool, _descriptors
  with _lock:
    if _descriptors is not None:
      return _descriptors
    from tfc import _tfc  # pylint: disable=g-import-not-at-top
    pool = _new_pool()
    names = {}
    nested = {}

    def visit(desc, top):
      (names if top else nested).setdefault(desc.name, []).append(desc)
      for sub in desc.nested_types:
        visit(sub, False)

    for serialized in _split_descriptor_set(_tfc._proto_descriptor_set()):
      fd = pool.AddSerializedFile(serialized)
      for desc in fd.message_types_by_name.values():
        visit(desc, True)
    index = {k: v[0] for k, v in nested.items() if len(v) == 1}
    index.update((k, v[0]) for k, v in names.items())
    _remember_parsed_bytes(_make_class(index["GraphDef"]))
    _pool = pool
    _descriptors = index
    return index


def _remember_parsed_bytes(cls):
  """Makes GraphDef's ParseFromString/FromString remember large inputs (see the
  module docstring) and every attribute access on a GraphDef forget them."""
  base_get = cls.__getattribute__
  base_set = cls.__setattr__
  base_parse = cls.ParseFromString
  slot = _parsed_graph_def

  def __getattribute__(self, name):
    if slot[0] is self:
      slot[0] = slot[1] = None
    return base_get(self, name)

  def __setattr__(self, name, value):
    if slot[0] is self:
      slot[0] = slot[1] = None
    base_set(self, name, value)

  def ParseFromString(self, serialized):  # pylint: disable=invalid-name
    """Parses serialized into this GraphDef (google.protobuf semantics)."""
    n = base_parse(self, serialized)
    if type(serialized) is bytes and len(serialized) >= _REMEMBER_MIN_BYTES:
      slot[0], slot[1] = self, serialized
    return n

  def FromString(serialized):  # pylint: disable=invalid-name
    """A new GraphDef parsed from serialized."""
    message = cls()
    message.ParseFromString(serialized)
    return message

  cls.__getattribute__ = __getattribute__
  cls.__setattr__ = __setattr__
  cls.ParseFromString = ParseFromString
  cls.FromString = staticmethod(FromString)


def serialized_graph_def(graph_def):
  """The bytes of graph_def: the ones it was parsed from when it is the large
  GraphDef parsed last and untouched since, else SerializeToString()."""
  message, data = _parsed_graph_def
  if message is graph_def:
    return data
  return graph_def.SerializeToString()


def _new_pool():
  """An empty DescriptorPool; sets _make_class to the matching class factory."""
  global _make_class
  try:
    from google.protobuf.internal import api_implementation  # pylint: disable=g-import-not-at-top
    upb = api_implementation.Type() == "upb"
  except ImportError:
    upb = False
  if upb:
    from google._upb import _message  # pylint: disable=g-import-not-at-top
    from google.protobuf import message  # pylint: disable=g-import-not-at-top

    def make(desc):
      cls = getattr(desc, "_concrete_class", None)
      if cls is None:
        cls = _message.MessageMeta(desc.name, (message.Message,),
                                   {"DESCRIPTOR": desc, "__module__": __name__})
      return cls

    _make_class = make
    return _message.DescriptorPool()
  from google.protobuf import descriptor_pool as _dp  # pylint: disable=g-import-not-at-top
  from google.protobuf import message_factory  # pylint: disable=g-import-not-at-top
  _make_class = message_factory.GetMessageClass
  return _dp.DescriptorPool()


def descriptor_pool():
  """The DescriptorPool holding tfc's message types."""
  _load()
  return _pool


def message_class(full_name):
  """The message class of a full type name such as 'tensorflow.GraphDef'."""
  return _make_class(descriptor_pool().FindMessageTypeByName(full_name))


def __getattr__(name):
  """Makes the class of message `name` on first access and keeps it as a
  module attribute, so later accesses are plain lookups."""
  if name == "DecodeError":
    from google.protobuf.message import DecodeError  # pylint: disable=g-import-not-at-top
    value = DecodeError
  else:
    if name.startswith("__"):
      raise AttributeError(name)
    desc = _load().get(name)
    if desc is None:
      raise AttributeError("module 'tfc.protos' has no message %r" % name)
    value = _make_class(desc)
  globals()[name] = value
  return value


def __dir__():
  return sorted(set(globals()) | set(_load()) | {"DecodeError"})
