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
use: importing tfc does not import google.protobuf, and the first use of a
message adds to the pool only the .proto file that defines it and the files
that file imports (GraphDef and ConfigProto need about half of them;
descriptor_pool() and dir() add them all). With protobuf's upb
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
_pool = None          # the DescriptorPool, once made (files are added on demand)
_files = None         # .proto file name -> _File, from the compiled-in descriptor set
_where = None         # top-level message short name -> .proto file name
_descriptors = None   # short name -> message Descriptor, once every file is in the pool
_make_class = None    # Descriptor -> message class

# [message, bytes]: the last large GraphDef parsed, while untouched since.
_parsed_graph_def = [None, None]
_REMEMBER_MIN_BYTES = 1 << 20


class _File(object):
  """One FileDescriptorProto of the set: its bytes, package, imports and
  top-level message names, and whether the pool holds it yet."""
  __slots__ = ("data", "package", "deps", "messages", "added")

  def __init__(self, data):
    self.data = data
    self.package = ""
    self.deps = []
    self.messages = []
    self.added = False


def _varint(data, pos):
  """The varint at data[pos:] and the position after it."""
  value = shift = 0
  while True:
    b = data[pos]
    pos += 1
    value |= (b & 0x7F) << shift
    shift += 7
    if b < 0x80:
      return value, pos


def _fields(data):
  """(field number, value) for each field of a serialized message: bytes for
  length-delimited fields, None for the other wire types (skipped)."""
  pos = 0
  end = len(data)
  while pos < end:
    key, pos = _varint(data, pos)
    wire = key & 7
    if wire == 2:
      length, pos = _varint(data, pos)
      yield key >> 3, data[pos:pos + length]
      pos += length
    elif wire == 0:
      pos = _varint(data, pos)[1]
      yield key >> 3, None
    elif wire in (1, 5):
      pos += 8 if wire == 1 else 4
      yield key >> 3, None
    else:
      raise ValueError("tfc: malformed descriptor set at byte %d" % pos)


def _split_descriptor_set(data):
  """The serialized FileDescriptorProtos inside a serialized FileDescriptorSet
  (field 1, repeated), in their order."""
  return [value for number, value in _fields(data) if number == 1]


def _index_files():
  """Reads the descriptor set compiled into tfc._tfc into _files and _where:
  names, packages, imports and top-level messages only (a scan of the bytes;
  nothing is built). Called with _lock held."""
  global _files, _where
  from tfc import _tfc  # pylint: disable=g-import-not-at-top
  files = {}
  where = {}
  for data in _split_descriptor_set(_tfc._proto_descriptor_set()):
    f = _File(data)
    name = ""
    for number, value in _fields(data):
      if number == 1:
        name = value.decode()
      elif number == 2:
        f.package = value.decode()
      elif number == 3:
        f.deps.append(value.decode())
      elif number == 4:
        for sub, sub_value in _fields(value):
          if sub == 1:
            f.messages.append(sub_value.decode())
            break
    files[name] = f
    for message in f.messages:
      where.setdefault(message, name)
  _files, _where = files, where


def _add_file(name):
  """Adds file `name` to the pool, after the files it imports; the GraphDef
  class gets its large-input handling as soon as its file is in. Called with
  _lock held."""
  f = _files[name]
  if f.added:
    return
  for dep in f.deps:
    _add_file(dep)
  fd = _pool.AddSerializedFile(f.data)
  f.added = True
  if "GraphDef" in f.messages and f.package == "tensorflow":
    cls = _make_class(fd.message_types_by_name["GraphDef"])
    _remember_parsed_bytes(cls)
    # Kept as the module attribute at once: the protobuf runtime holds
    # message classes weakly, and a collected class would be rebuilt
    # without the large-input handling.
    globals()["GraphDef"] = cls


def _ready():
  """Makes the (empty) pool and the file index once. Called with _lock held."""
  global _pool
  if _pool is None:
    if _files is None:
      _index_files()
    _pool = _new_pool()


def _descriptor(name):
  """The Descriptor of message `name` (short name), or None. A top-level
  message adds only its file and the files that file imports to the pool,
  so a program that uses GraphDef and ConfigProto builds about half of
  them; any other name loads everything (see _load)."""
  with _lock:
    _ready()
    file_name = _where.get(name)
    if file_name is not None:
      _add_file(file_name)
      package = _files[file_name].package
      return _pool.FindMessageTypeByName(package + "." + name if package else name)
  return _load().get(name)


def _load():
  """Adds every file to the pool (once) and indexes all messages, nested
  ones included, by short name; returns the index."""
  global _descriptors
  with _lock:
    if _descriptors is not None:
      return _descriptors
    _ready()
    names = {}
    nested = {}

    def visit(desc, top):
      (names if top else nested).setdefault(desc.name, []).append(desc)
      for sub in desc.nested_types:
        visit(sub, False)

    for name, f in _files.items():
      _add_file(name)
      fd = _pool.FindFileByName(name)
      for desc in fd.message_types_by_name.values():
        visit(desc, True)
    index = {k: v[0] for k, v in nested.items() if len(v) == 1}
    index.update((k, v[0]) for k, v in names.items())
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
    desc = _descriptor(name)
    if desc is None:
      raise AttributeError("module 'tfc.protos' has no message %r" % name)
    value = _make_class(desc)
  globals()[name] = value
  return value


def __dir__():
  return sorted(set(globals()) | set(_load()) | {"DecodeError"})
