"""Lookup tables (TF 1.15 `lookup_ops`): tf.lookup's StaticHashTable,
StaticVocabularyTable, KeyValueTensorInitializer, TextFileInitializer,
TextFileIndex, experimental.MutableHashTable / DenseHashTable, the
index_table_from_* / index_to_string_table_from_* builders feature columns
use, and tf.tables_initializer.

Every table is a C resource (HashTableV2, MutableHashTableV2,
MutableHashTableOfTensorsV2, MutableDenseHashTableV2) reached through its
handle; lookups, inserts and initializers are the LookupTable*V2 /
InitializeTable*V2 kernels. Initializers of static tables go to
GraphKeys.TABLE_INITIALIZERS (run them with tf.tables_initializer()); the
mutable tables register Saver saveables ("<name>-keys", "<name>-values"), as
TF's do, so checkpoints of either read in the other.
"""
import uuid as _uuid

from tfc import dtypes as _dtypes
from tfc.framework import constant_op as _constant_op
from tfc.framework import ops as _ops
from tfc.framework import sparse_tensor as _sparse_tensor
from tfc.framework import tensor_shape as _tensor_shape
from tfc.framework.op_def_library import _apply_op
from tfc.ops import array_ops as _array_ops
from tfc.ops import control_flow_ops as _control_flow_ops
from tfc.ops import math_ops as _math_ops
from tfc.ops import string_ops as _string_ops


def tables_initializer(name="init_all_tables"):
  """One op running every op in the TABLE_INITIALIZERS collection (a NoOp when empty)."""
  initializers = _ops.get_collection(_ops.GraphKeys.TABLE_INITIALIZERS)
  if initializers:
    return _control_flow_ops.group(*initializers, name=name)
  return _control_flow_ops.no_op(name=name)


initialize_all_tables = tables_initializer


def _check_table_dtypes(table, key_dtype, value_dtype):
  """TypeError unless the table's dtypes are key_dtype -> value_dtype."""
  if key_dtype.base_dtype != table.key_dtype:
    raise TypeError("Invalid key dtype, expected %s but got %s." % (table.key_dtype, key_dtype))
  if value_dtype.base_dtype != table.value_dtype:
    raise TypeError("Invalid value dtype, expected %s but got %s." % (table.value_dtype, value_dtype))


def _as_string(tensor):
  """The string form of a string or integer tensor (as_string for integers)."""
  if tensor.dtype.base_dtype == _dtypes.string:
    return tensor
  return _string_ops.as_string(tensor)


# -- tables ------------------------------------------------------------------------------


class LookupInterface(object):
  """What every table has: key/value dtypes, a name, a resource handle,
  lookup and size."""

  def __init__(self, key_dtype, value_dtype):
    self._key_dtype = _dtypes.as_dtype(key_dtype)
    self._value_dtype = _dtypes.as_dtype(value_dtype)
    self._resource_handle = None

  @property
  def key_dtype(self):
    """The table key dtype."""
    return self._key_dtype

  @property
  def value_dtype(self):
    """The table value dtype."""
    return self._value_dtype

  @property
  def name(self):
    """The name of the table."""
    raise NotImplementedError

  @property
  def resource_handle(self):
    """The table's resource handle (a scalar resource tensor)."""
    return self._resource_handle

  def size(self, name=None):
    raise NotImplementedError

  def lookup(self, keys, name=None):
    raise NotImplementedError


class InitializableLookupTableBase(LookupInterface):
  """A table filled once by an initializer: the initializer's op is added to
  TABLE_INITIALIZERS; lookups return default_value for missing keys."""

  def __init__(self, default_value, initializer):
    super(InitializableLookupTableBase, self).__init__(initializer.key_dtype, initializer.value_dtype)
    self._default_value = _ops.convert_to_tensor(default_value, dtype=self._value_dtype)
    self._default_value.get_shape().merge_with(_tensor_shape.TensorShape([]))
    self._initializer = initializer
    self._resource_handle = self._create_resource()
    self._init_op = self._initialize()

  def _initialize(self):
    return self._initializer.initialize(self)

  @property
  def initializer(self):
    """The op that initializes the table."""
    return self._init_op

  @property
  def default_value(self):
    """The default value of the table."""
    return self._default_value

  def size(self, name=None):
    """The number of elements in the table (an int64 scalar)."""
    with _ops.name_scope(name, "%s_Size" % self.name, [self.resource_handle]) as scope:
      return _apply_op("LookupTableSizeV2", scope, [self.resource_handle]).outputs[0]

  def lookup(self, keys, name=None):
    """The values of `keys` (a Tensor or SparseTensor of key_dtype); missing
    keys give default_value."""
    key_tensor = keys
    if isinstance(keys, _sparse_tensor.SparseTensor):
      key_tensor = keys.values
    elif not isinstance(keys, _ops.Tensor):
      key_tensor = _ops.convert_to_tensor(keys, dtype=self._key_dtype)
    if key_tensor.dtype.base_dtype != self._key_dtype:
      raise TypeError("Signature mismatch. Keys must be dtype %s, got %s." % (self._key_dtype, key_tensor.dtype))
    with _ops.name_scope(name, "%s_Lookup" % self.name, (self.resource_handle, key_tensor, self._default_value)):
      values = _apply_op("LookupTableFindV2", None,
                         [self.resource_handle, key_tensor, self._default_value]).outputs[0]
    values.set_shape(key_tensor.get_shape())
    if isinstance(keys, _sparse_tensor.SparseTensor):
      return _sparse_tensor.SparseTensor(keys.indices, values, keys.dense_shape)
    return values


class StaticHashTable(InitializableLookupTableBase):
  """An immutable hash table (TF's HashTable): filled by `initializer`
  (KeyValueTensorInitializer, TextFileInitializer) when tf.tables_initializer()
  runs; lookups of missing keys give `default_value`.

      table = tf.lookup.StaticHashTable(
          tf.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2]), -1)
      out = table.lookup(tf.constant(["a", "c"]))   # [1, -1] once initialized
  """

  def __init__(self, initializer, default_value, name=None):
    self._initializer = initializer
    self._default_value = default_value
    self._shared_name = initializer._shared_name  # pylint: disable=protected-access
    if not self._shared_name:
      # a shared name, so that every kernel of the table reaches one resource
      self._shared_name = "hash_table_%s" % (str(_uuid.uuid4()),)
    self._name = name or "hash_table"
    self._table_name = None
    super(StaticHashTable, self).__init__(default_value, initializer)
    self._value_shape = self._default_value.get_shape()

  def _create_resource(self):
    op = _apply_op("HashTableV2", self._name, [],
                   {"shared_name": self._shared_name, "key_dtype": self._key_dtype,
                    "value_dtype": self._value_dtype})
    self._table_name = op.name.split("/")[-1]
    return op.outputs[0]

  @property
  def name(self):
    return self._table_name

  def export(self, name=None):
    """(keys, values) tensors of every entry (in the table's order)."""
    with _ops.name_scope(name, "%s_Export" % self.name, [self.resource_handle]) as scope:
      op = _apply_op("LookupTableExportV2", scope, [self.resource_handle],
                     {"Tkeys": self._key_dtype, "Tvalues": self._value_dtype})
    return op.outputs[0], op.outputs[1]


HashTable = StaticHashTable


class StaticVocabularyTable(LookupInterface):
  """Ids of a vocabulary table with `num_oov_buckets` out-of-vocabulary
  buckets: a key the initializer's table holds maps to its id; any other key
  to vocab_size + Fingerprint64(key) % num_oov_buckets (integer keys hash
  their decimal string), as TF assigns them.

      init = tf.lookup.KeyValueTensorInitializer(["a", "b"], [0, 1], value_dtype=tf.int64)
      table = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=3)
  """

  def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None):
    if num_oov_buckets <= 0:
      raise ValueError("oov_buckets must be > 0.")
    if initializer:
      if initializer.value_dtype != _dtypes.int64:
        raise TypeError("Invalid value dtype, expected %s but got %s." % (_dtypes.int64, initializer.value_dtype))
      if isinstance(initializer, LookupInterface):
        self._table = initializer
      else:
        self._table = StaticHashTable(initializer, default_value=_constant_op.constant(-1, _dtypes.int64))
      name = name or self._table.name
    else:
      lookup_key_dtype = _dtypes.string
      self._table = None
      name = name or "hash_bucket"
    self._num_oov_buckets = num_oov_buckets
    if lookup_key_dtype is None:
      lookup_key_dtype = self._table.key_dtype
    lookup_key_dtype = _dtypes.as_dtype(lookup_key_dtype)
    if (not lookup_key_dtype.is_integer) and lookup_key_dtype != _dtypes.string:
      raise TypeError("Invalid key_dtype, expected integer or string, got %s." % lookup_key_dtype)
    self._table_name = None if name is None else name.split("/")[-1]
    super(StaticVocabularyTable, self).__init__(lookup_key_dtype, _dtypes.int64)
    if self._table is not None:
      self._resource_handle = self._table.resource_handle

  @property
  def name(self):
    return self._table_name

  @property
  def resource_handle(self):
    return self._table.resource_handle if self._table is not None else None

  def size(self, name=None):
    """Vocabulary size + num_oov_buckets (an int64 scalar)."""
    with _ops.name_scope(name, "%s_Size" % self.name):
      if self._table:
        tsize = self._table.size()
      else:
        tsize = _constant_op.constant(0, _dtypes.int64)
      return tsize + self._num_oov_buckets

  def lookup(self, keys, name=None):
    """Ids (int64) of `keys` (a string or integer Tensor or SparseTensor)."""
    if keys.dtype.base_dtype != self._key_dtype:
      raise TypeError("Signature mismatch. Keys must be dtype %s, got %s." % (self._key_dtype, keys.dtype))
    values = keys.values if isinstance(keys, _sparse_tensor.SparseTensor) else keys
    if self._table is not None and self._table.key_dtype.base_dtype == _dtypes.int64:
      values = _math_ops.cast(values, _dtypes.int64)
    with _ops.name_scope(name, "%s_Lookup" % self.name):
      buckets = _string_ops.to_hash_bucket_fast(_as_string(values), num_buckets=self._num_oov_buckets,
                                                name="hash_bucket")
      if self._table is not None:
        ids = self._table.lookup(values)
        buckets = _math_ops.add(buckets, self._table.size())
        is_id_non_default = _math_ops.not_equal(ids, self._table.default_value)
        ids = _array_ops.where(is_id_non_default, ids, buckets)
      else:
        ids = buckets
    if isinstance(keys, _sparse_tensor.SparseTensor):
      return _sparse_tensor.SparseTensor(keys.indices, ids, keys.dense_shape)
    return ids


StaticVocabularyTableV1 = StaticVocabularyTable


class HasherSpec(object):
  """Which hash OOV keys go through: "fasthash" (Fingerprint64) or
  "stronghash" (SipHash with a 2-int key)."""

  def __init__(self, hasher, key):
    self.hasher = hasher
    self.key = key


FastHashSpec = HasherSpec("fasthash", None)


class StrongHashSpec(HasherSpec):
  """The keyed SipHash-2-4 hasher (key: two ints)."""

  def __new__(cls, key):
    if len(key) != 2:
      raise ValueError("key must have size 2, got %s." % len(key))
    if not isinstance(key[0], int) or not isinstance(key[1], int):
      raise TypeError("Invalid key %s. Must be unsigned integer values." % key)
    return super(StrongHashSpec, cls).__new__(cls)

  def __init__(self, key):
    super(StrongHashSpec, self).__init__("stronghash", key)


class IdTableWithHashBuckets(LookupInterface):
  """A string/integer -> id table with hash buckets for missing keys (what
  index_table_from_* return when num_oov_buckets > 0): a key the table holds
  gives its id, any other vocab_size + hash(key) % num_oov_buckets."""

  def __init__(self, table, num_oov_buckets, hasher_spec=FastHashSpec, name=None, key_dtype=None):
    if table:
      if key_dtype is None:
        key_dtype = table.key_dtype
      supported = (_dtypes.int32, _dtypes.int64, _dtypes.string)
      if table.key_dtype not in supported:
        raise TypeError("Invalid key dtype, expected one of %s, but got %s." % (supported, key_dtype))
      if table.key_dtype.is_integer != key_dtype.is_integer:
        raise TypeError("Invalid key dtype, expected %s but got %s." % (
            "integer" if key_dtype.is_integer else "non-integer", table.key_dtype))
      if table.value_dtype != _dtypes.int64:
        raise TypeError("Invalid value dtype, expected %s but got %s." % (_dtypes.int64, table.value_dtype))
      self._table = table
      name = name or self._table.name
    else:
      if num_oov_buckets <= 0:
        raise ValueError("oov_buckets must be > 0 if no table is supplied.")
      key_dtype = _dtypes.string if key_dtype is None else key_dtype
      self._table = None
      name = name or "hash_bucket"
    if (not key_dtype.is_integer) and (_dtypes.string != key_dtype):
      raise TypeError("Invalid key_dtype, expected integer or string, got %s." % key_dtype)
    self._num_oov_buckets = num_oov_buckets
    if not isinstance(hasher_spec, HasherSpec):
      raise TypeError("hasher_spec must be of type HasherSpec, got %s" % hasher_spec)
    self._hasher_spec = hasher_spec
    self._table_name = None if name is None else name.split("/")[-1]
    super(IdTableWithHashBuckets, self).__init__(key_dtype, _dtypes.int64)
    if self._table is not None:
      self._resource_handle = self._table.resource_handle

  @property
  def name(self):
    return self._table_name

  @property
  def init(self):
    """The op that initializes the inner table."""
    return self._table.initializer

  @property
  def initializer(self):
    return self._table.initializer

  def size(self, name=None):
    """Vocabulary size + num_oov_buckets (an int64 scalar)."""
    with _ops.name_scope(name, "%s_Size" % self.name):
      if self._table:
        tsize = self._table.size()
      else:
        tsize = _constant_op.constant(0, _dtypes.int64)
      return tsize + self._num_oov_buckets

  def _get_string_to_hash_bucket_fn(self, hasher_spec):
    if not isinstance(hasher_spec, HasherSpec):
      raise TypeError("hasher_spec must be of type HasherSpec %s" % hasher_spec)
    if hasher_spec.hasher == "fasthash":
      return _string_ops.to_hash_bucket_fast
    if hasher_spec.hasher == "legacy":
      return _string_ops.to_hash_bucket
    if hasher_spec.hasher == "stronghash":
      key = hasher_spec.key
      return lambda x, num_buckets, name=None: _string_ops.to_hash_bucket_strong(x, num_buckets, key, name=name)
    raise ValueError("Unknown hasher %s" % hasher_spec.hasher)

  def lookup(self, keys, name=None):
    """Ids (int64) of `keys` (a Tensor or SparseTensor)."""
    if keys.dtype.base_dtype != self._key_dtype:
      raise TypeError("Signature mismatch. Keys must be dtype %s, got %s." % (self._key_dtype, keys.dtype))
    values = keys.values if isinstance(keys, _sparse_tensor.SparseTensor) else keys
    if self._table is not None and self._table.key_dtype.base_dtype == _dtypes.int64:
      values = _math_ops.cast(values, _dtypes.int64)
    if self._num_oov_buckets == 0:
      ids = self._table.lookup(values, name=name)
    else:
      with _ops.name_scope(name, "%s_Lookup" % self.name):
        str_to_hash_bucket = self._get_string_to_hash_bucket_fn(self._hasher_spec)
        buckets = str_to_hash_bucket(_as_string(values), num_buckets=self._num_oov_buckets, name="hash_bucket")
        if self._table is not None:
          ids = self._table.lookup(values)
          buckets = _math_ops.add(buckets, self._table.size())
          is_id_non_default = _math_ops.not_equal(ids, self._table.default_value)
          ids = _array_ops.where(is_id_non_default, ids, buckets)
        else:
          ids = buckets
    if isinstance(keys, _sparse_tensor.SparseTensor):
      return _sparse_tensor.SparseTensor(keys.indices, ids, keys.dense_shape)
    return ids


class _TableSaveable(object):
  """Saver saveable of a mutable table: its export as "<name>-keys" and
  "<name>-values", restored with LookupTableImportV2."""

  def __new__(cls, table, name):
    from tfc.train import saver as _saver  # pylint: disable=import-outside-toplevel

    class Saveable(_saver.SaveableObject):
      """Saves a table's export; restores it by import."""

      def __init__(self, table, name):
        keys, values = table.export()
        specs = [_saver.SaveSpec(keys, "", name + "-keys"),
                 _saver.SaveSpec(values, "", name + "-values")]
        super(Saveable, self).__init__(table, specs, name)

      def restore(self, restored_tensors, restored_shapes, name=None):
        del restored_shapes
        with _ops.name_scope(name, "%s_table_restore" % self.name):
          with _ops.colocate_with(self.op.resource_handle):
            return _apply_op("LookupTableImportV2", None,
                             [self.op.resource_handle, restored_tensors[0], restored_tensors[1]])

    return Saveable(table, name)


class _MutableTableBase(LookupInterface):
  """Shared by MutableHashTable and DenseHashTable: insert, remove, lookup,
  export, size, and the checkpoint saveable."""

  def _register(self, checkpoint, name):
    if checkpoint:
      saveable = _TableSaveable(self, name)
      _ops.add_to_collection(_ops.GraphKeys.SAVEABLE_OBJECTS, saveable)

  @property
  def name(self):
    return self._table_name

  def size(self, name=None):
    """The number of elements in the table (an int64 scalar)."""
    with _ops.name_scope(name, "%s_Size" % self.name, [self.resource_handle]):
      with _ops.colocate_with(self.resource_handle):
        return _apply_op("LookupTableSizeV2", None, [self.resource_handle]).outputs[0]

  def remove(self, keys, name=None):
    """An op removing `keys` (missing ones are ignored)."""
    keys = self._convert_keys(keys)
    if keys.dtype.base_dtype != self._key_dtype:
      raise TypeError("Signature mismatch. Keys must be dtype %s, got %s." % (self._key_dtype, keys.dtype))
    with _ops.name_scope(name, "%s_lookup_table_remove" % self.name,
                         (self.resource_handle, keys, self._default_value)):
      return _apply_op("LookupTableRemoveV2", None, [self.resource_handle, keys])

  def lookup(self, keys, name=None):
    """The values of `keys`; missing keys give default_value."""
    with _ops.name_scope(name, "%s_lookup_table_find" % self.name,
                         (self.resource_handle, keys, self._default_value)):
      keys = _ops.convert_to_tensor(keys, dtype=self._key_dtype, name="keys")
      with _ops.colocate_with(self.resource_handle):
        values = _apply_op("LookupTableFindV2", None,
                           [self.resource_handle, keys, self._default_value]).outputs[0]
    key_shape = self._key_shape()
    if keys.get_shape().ndims is not None and key_shape.ndims is not None:
      batch = keys.get_shape()[:keys.get_shape().ndims - key_shape.ndims]
      values.set_shape(batch.concatenate(self._value_shape))
    return values

  def _key_shape(self):
    return _tensor_shape.TensorShape([])

  def insert(self, keys, values, name=None):
    """An op inserting (or overwriting) keys -> values."""
    with _ops.name_scope(name, "%s_lookup_table_insert" % self.name, [self.resource_handle, keys, values]):
      keys = _ops.convert_to_tensor(keys, self._key_dtype, name="keys")
      values = _ops.convert_to_tensor(values, self._value_dtype, name="values")
      with _ops.colocate_with(self.resource_handle):
        return _apply_op("LookupTableInsertV2", None, [self.resource_handle, keys, values])

  def export(self, name=None):
    """(keys, values): every entry (a dense table: its whole bucket arrays)."""
    with _ops.name_scope(name, "%s_lookup_table_export_values" % self.name, [self.resource_handle]):
      with _ops.colocate_with(self.resource_handle):
        op = _apply_op("LookupTableExportV2", None, [self.resource_handle],
                       {"Tkeys": self._key_dtype, "Tvalues": self._value_dtype})
    return op.outputs[0], op.outputs[1]

  def _convert_keys(self, keys):
    if isinstance(keys, _ops.Tensor):
      return keys
    return _ops.convert_to_tensor(keys, dtype=self._key_dtype, name="keys")


class MutableHashTable(_MutableTableBase):
  """A mutable hash table (TF's MutableHashTable / MutableHashTableOfTensors
  when default_value is a vector): insert, remove, lookup, export. With
  checkpoint=True a Saver saves and restores its contents.

      table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
      sess.run(table.insert(["a"], [1]))
  """

  def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable", checkpoint=True):
    self._default_value = _ops.convert_to_tensor(default_value, dtype=value_dtype)
    self._value_shape = self._default_value.get_shape()
    self._checkpoint = checkpoint
    self._name = name
    self._shared_name = None
    super(MutableHashTable, self).__init__(key_dtype, value_dtype)
    self._resource_handle = self._create_resource()
    self._register(checkpoint, name)

  def _create_resource(self):
    use_node_name_sharing = self._checkpoint and self._shared_name is None
    attrs = {"shared_name": self._shared_name or "", "use_node_name_sharing": use_node_name_sharing,
             "key_dtype": self._key_dtype, "value_dtype": self._value_dtype}
    if self._default_value.get_shape().ndims == 0:
      op = _apply_op("MutableHashTableV2", self._name, [], attrs)
    else:
      attrs["value_shape"] = self._default_value.get_shape().as_list()
      op = _apply_op("MutableHashTableOfTensorsV2", self._name, [], attrs)
    self._table_name = op.name.split("/")[-1]
    return op.outputs[0]


class DenseHashTable(_MutableTableBase):
  """A mutable table over open-addressed bucket arrays (TF's
  MutableDenseHashTable): empty_key and deleted_key mark free buckets and may
  not be used as keys; the buckets double when max load (0.8) would pass.
  Export returns the bucket arrays themselves, identical to TF's.
  """

  def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key, initial_num_buckets=None,
               name="MutableDenseHashTable", checkpoint=True):
    self._default_value = _ops.convert_to_tensor(default_value, dtype=value_dtype, name="default_value")
    self._initial_num_buckets = initial_num_buckets
    self._value_shape = self._default_value.get_shape()
    self._checkpoint = checkpoint
    self._name = name
    self._empty_key = _ops.convert_to_tensor(empty_key, dtype=key_dtype, name="empty_key")
    self._deleted_key = _ops.convert_to_tensor(deleted_key, dtype=key_dtype, name="deleted_key")
    self._shared_name = None
    super(DenseHashTable, self).__init__(key_dtype, value_dtype)
    self._resource_handle = self._create_resource()
    self._register(checkpoint, name)

  def _key_shape(self):
    return self._empty_key.get_shape()

  def _create_resource(self):
    use_node_name_sharing = self._checkpoint and self._shared_name is None
    attrs = {"shared_name": self._shared_name or "", "use_node_name_sharing": use_node_name_sharing,
             "value_dtype": self._value_dtype, "value_shape": self._value_shape.as_list()}
    if self._initial_num_buckets is not None:
      attrs["initial_num_buckets"] = int(self._initial_num_buckets)
    op = _apply_op("MutableDenseHashTableV2", self._name, [self._empty_key, self._deleted_key], attrs)
    self._table_name = op.name.split("/")[-1]
    return op.outputs[0]


MutableDenseHashTable = DenseHashTable


# -- initializers --------------------------------------------------------------------------


class TableInitializerBase(object):
  """Base of table initializers: key and value dtypes, and initialize(table)."""

  def __init__(self, key_dtype, value_dtype):
    self._key_dtype = _dtypes.as_dtype(key_dtype)
    self._value_dtype = _dtypes.as_dtype(value_dtype)

  @property
  def key_dtype(self):
    return self._key_dtype

  @property
  def value_dtype(self):
    return self._value_dtype

  def initialize(self, table):
    raise NotImplementedError

  @property
  def _shared_name(self):
    """The table's shared name this initializer implies (None: a fresh one)."""
    return None


class KeyValueTensorInitializer(TableInitializerBase):
  """Fills a table from a keys tensor and a values tensor of one length
  (InitializeTableV2, added to TABLE_INITIALIZERS)."""

  def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
    with _ops.name_scope(name, "key_value_init", [keys, values]) as scope:
      self._keys = _ops.convert_to_tensor(keys, dtype=key_dtype, name="keys")
      self._values = _ops.convert_to_tensor(values, dtype=value_dtype, name="values")
      self._name = scope
    super(KeyValueTensorInitializer, self).__init__(self._keys.dtype, self._values.dtype)

  def initialize(self, table):
    """The InitializeTableV2 op filling `table` (also added to TABLE_INITIALIZERS)."""
    _check_table_dtypes(table, self._keys.dtype, self._values.dtype)
    with _ops.name_scope(self._name, values=(table.resource_handle, self._keys, self._values)) as scope:
      init_op = _apply_op("InitializeTableV2", scope, [table.resource_handle, self._keys, self._values])
    _ops.add_to_collection(_ops.GraphKeys.TABLE_INITIALIZERS, init_op)
    return init_op


class TextFileIndex(object):
  """What a text-file initializer takes from a line: WHOLE_LINE (-2) or
  LINE_NUMBER (-1); n >= 0 selects the n-th delimited field."""
  WHOLE_LINE = -2
  LINE_NUMBER = -1


class TextFileInitializer(TableInitializerBase):
  """Fills a table from a text file, one entry per line (key and value each
  the whole line, the line number, or a delimited field; see TextFileIndex),
  with InitializeTableFromTextFileV2. vocab_size: read only that many lines
  (the file must have at least as many)."""

  def __init__(self, filename, key_dtype, key_index, value_dtype, value_index, vocab_size=None, delimiter="\t",
               name=None):
    if not isinstance(filename, _ops.Tensor) and not filename:
      raise ValueError("Filename required for %s." % name)
    key_dtype = _dtypes.as_dtype(key_dtype)
    value_dtype = _dtypes.as_dtype(value_dtype)
    if key_index < -2:
      raise ValueError("Invalid key index %s." % (key_index))
    if key_index == TextFileIndex.LINE_NUMBER and key_dtype != _dtypes.int64:
      raise ValueError("Signature mismatch. Keys must be dtype %s, got %s." % (_dtypes.int64, key_dtype))
    if key_index == TextFileIndex.WHOLE_LINE and not key_dtype.is_integer and key_dtype != _dtypes.string:
      raise ValueError("Signature mismatch. Keys must be integer or string, got %s." % key_dtype)
    if value_index < -2:
      raise ValueError("Invalid value index %s." % (value_index))
    if value_index == TextFileIndex.LINE_NUMBER and value_dtype != _dtypes.int64:
      raise ValueError("Signature mismatch. Values must be dtype %s, got %s." % (_dtypes.int64, value_dtype))
    if value_index == TextFileIndex.WHOLE_LINE and value_dtype != _dtypes.string:
      raise ValueError("Signature mismatch. Values must be dtype %s, got %s." % (_dtypes.string, value_dtype))
    if vocab_size is not None and vocab_size <= 0:
      raise ValueError("Invalid vocab_size %s." % vocab_size)
    self._filename_arg = filename
    self._filename = filename
    self._key_index = key_index
    self._value_index = value_index
    self._vocab_size = vocab_size
    self._delimiter = delimiter
    self._name = name
    super(TextFileInitializer, self).__init__(key_dtype, value_dtype)

  def initialize(self, table):
    """The InitializeTableFromTextFileV2 op filling `table` (also added to
    TABLE_INITIALIZERS; a constant filename also to ASSET_FILEPATHS)."""
    _check_table_dtypes(table, self.key_dtype, self.value_dtype)
    with _ops.name_scope(self._name, "text_file_init", (table.resource_handle,)) as scope:
      filename = _ops.convert_to_tensor(self._filename, _dtypes.string, name="asset_filepath")
      init_op = _apply_op("InitializeTableFromTextFileV2", scope, [table.resource_handle, filename],
                          {"key_index": self._key_index, "value_index": self._value_index,
                           "vocab_size": -1 if self._vocab_size is None else self._vocab_size,
                           "delimiter": self._delimiter})
    _ops.add_to_collection(_ops.GraphKeys.TABLE_INITIALIZERS, init_op)
    if _constant_op.is_constant(filename):
      _ops.add_to_collection(_ops.GraphKeys.ASSET_FILEPATHS, filename)
    return init_op

  @property
  def _shared_name(self):
    if self._vocab_size:
      return "hash_table_%s_%d_%s_%s" % (self._filename_arg, self._vocab_size, self._key_index,
                                         self._value_index)
    return "hash_table_%s_%s_%s" % (self._filename_arg, self._key_index, self._value_index)


class TextFileStringTableInitializer(TextFileInitializer):
  """Line number (int64) -> whole line (string) by default."""

  def __init__(self, filename, key_column_index=TextFileIndex.LINE_NUMBER,
               value_column_index=TextFileIndex.WHOLE_LINE, vocab_size=None, delimiter="\t",
               name="text_file_string_table_init"):
    super(TextFileStringTableInitializer, self).__init__(
        filename, _dtypes.int64, key_column_index, _dtypes.string, value_column_index, vocab_size=vocab_size,
        delimiter=delimiter, name=name)


class TextFileIdTableInitializer(TextFileInitializer):
  """Whole line (string, or key_dtype) -> line number (int64) by default."""

  def __init__(self, filename, key_column_index=TextFileIndex.WHOLE_LINE,
               value_column_index=TextFileIndex.LINE_NUMBER, vocab_size=None, delimiter="\t",
               name="text_file_id_table_init", key_dtype=_dtypes.string):
    super(TextFileIdTableInitializer, self).__init__(
        filename, key_dtype, key_column_index, _dtypes.int64, value_column_index, vocab_size=vocab_size,
        delimiter=delimiter, name=name)


# -- vocabulary tables ----------------------------------------------------------------------


def index_table_from_file(vocabulary_file=None, num_oov_buckets=0, vocab_size=None, default_value=-1,
                          hasher_spec=FastHashSpec, key_dtype=_dtypes.string, name=None,
                          key_column_index=TextFileIndex.WHOLE_LINE,
                          value_column_index=TextFileIndex.LINE_NUMBER, delimiter="\t"):
  """A table mapping each line of `vocabulary_file` to its line number (its
  id); with num_oov_buckets > 0 other keys hash into buckets after the vocabulary."""
  if vocabulary_file is None or (isinstance(vocabulary_file, (str, bytes)) and not vocabulary_file):
    raise ValueError("vocabulary_file must be specified and must not be empty.")
  if num_oov_buckets < 0:
    raise ValueError("num_oov_buckets must be greater or equal than 0, got %d." % num_oov_buckets)
  if vocab_size is not None and vocab_size < 1:
    raise ValueError("vocab_size must be greater than 0, got %d. vocabulary_file: %s" % (vocab_size,
                                                                                        vocabulary_file))
  key_dtype = _dtypes.as_dtype(key_dtype)
  if (not key_dtype.is_integer) and (_dtypes.string != key_dtype.base_dtype):
    raise TypeError("Only integer and string keys are supported.")
  with _ops.name_scope(name, "string_to_index"):
    with _ops.name_scope(None, "hash_table"):
      init = TextFileIdTableInitializer(
          vocabulary_file, vocab_size=vocab_size, key_dtype=_dtypes.int64 if key_dtype.is_integer else key_dtype,
          name="table_init", key_column_index=key_column_index, value_column_index=value_column_index,
          delimiter=delimiter)
      table = StaticHashTable(init, default_value)
    if num_oov_buckets:
      table = IdTableWithHashBuckets(table, num_oov_buckets=num_oov_buckets, hasher_spec=hasher_spec,
                                     key_dtype=key_dtype)
    return table


def index_table_from_tensor(vocabulary_list, num_oov_buckets=0, default_value=-1, hasher_spec=FastHashSpec,
                            dtype=_dtypes.string, name=None):
  """A table mapping each element of `vocabulary_list` to its position; with
  num_oov_buckets > 0 other keys hash into buckets after the vocabulary."""
  if vocabulary_list is None:
    raise ValueError("vocabulary_list must be specified.")
  if num_oov_buckets < 0:
    raise ValueError("num_oov_buckets must be greater or equal than 0, got %d." % num_oov_buckets)
  dtype = _dtypes.as_dtype(dtype)
  if (not dtype.is_integer) and (_dtypes.string != dtype.base_dtype):
    raise TypeError("Only integer and string keys are supported.")
  with _ops.name_scope(name, "string_to_index"):
    keys = _ops.convert_to_tensor(vocabulary_list)
    if keys.dtype.is_integer != dtype.is_integer:
      raise ValueError("Expected %s, got %s." % ("integer" if dtype.is_integer else "non-integer", keys.dtype))
    if (not dtype.is_integer) and (keys.dtype.base_dtype != dtype):
      raise ValueError("Expected %s, got %s." % (dtype, keys.dtype))
    num_elements = _array_ops.size(keys)
    values = _math_ops.cast(_math_ops.range(num_elements), _dtypes.int64)
    with _ops.name_scope(None, "hash_table"):
      table_keys = _math_ops.cast(keys, _dtypes.int64) if keys.dtype.is_integer else keys
      init = KeyValueTensorInitializer(table_keys, values, table_keys.dtype.base_dtype, _dtypes.int64,
                                       name="table_init")
      table = StaticHashTable(init, default_value)
    if num_oov_buckets:
      table = IdTableWithHashBuckets(table, num_oov_buckets=num_oov_buckets, hasher_spec=hasher_spec,
                                     key_dtype=dtype)
    return table


def index_to_string_table_from_file(vocabulary_file, vocab_size=None, default_value="UNK", name=None,
                                    key_column_index=TextFileIndex.LINE_NUMBER,
                                    value_column_index=TextFileIndex.WHOLE_LINE, delimiter="\t"):
  """A table mapping ids (int64 line numbers) to the lines of `vocabulary_file`."""
  if vocabulary_file is None or (isinstance(vocabulary_file, (str, bytes)) and not vocabulary_file):
    raise ValueError("vocabulary_file must be specified and must not be empty.")
  if vocab_size is not None and vocab_size < 1:
    raise ValueError("vocab_size must be greater than 0, got %d." % vocab_size)
  with _ops.name_scope(name, "index_to_string"):
    init = TextFileStringTableInitializer(vocabulary_file, vocab_size=vocab_size, name="table_init",
                                          key_column_index=key_column_index,
                                          value_column_index=value_column_index, delimiter=delimiter)
    return StaticHashTable(init, default_value)


def index_to_string_table_from_tensor(vocabulary_list, default_value="UNK", name=None):
  """A table mapping ids (int64 positions) to the elements of `vocabulary_list`."""
  if vocabulary_list is None:
    raise ValueError("vocabulary_list must be specified.")
  with _ops.name_scope(name, "index_to_string"):
    vocabulary_list = _ops.convert_to_tensor(vocabulary_list, _dtypes.string)
    num_elements = _array_ops.size(vocabulary_list)
    keys = _math_ops.cast(_math_ops.range(num_elements), _dtypes.int64)
    init = KeyValueTensorInitializer(keys, vocabulary_list, _dtypes.int64, _dtypes.string, name="table_init")
    return StaticHashTable(init, default_value)
