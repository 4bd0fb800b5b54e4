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
"""
import _thread

_lock = _thread.allocate_lock()
_pool = None          # the DescriptorPool, once built
_descriptors = None   # short name -> message Descriptor
_make_class = None    # Descriptor -> message class


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
    _pool = pool
    _descriptors = index
    return index


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
