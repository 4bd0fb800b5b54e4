"""tf.summary (TF 1.15): summary ops and the events-file writer.

    loss_summary = tf.summary.scalar("loss", loss)
    tf.summary.histogram("weights", w)
    merged = tf.summary.merge_all()
    writer = tf.summary.FileWriter("/tmp/run", sess.graph)
    writer.add_summary(sess.run(merged, feed), global_step=step)
    writer.close()

The ops (`ScalarSummary`, `HistogramSummary`, `MergeSummary`) are C kernels
producing serialized `tensorflow.Summary` messages (TF's default histogram
buckets). FileWriter writes `<logdir>/events.out.tfevents.<secs>.<host>`:
TFRecord-framed `tensorflow.Event`s (length, masked CRC-32C of the length,
the event, its masked CRC-32C), the first one `file_version: "brain.Event:2"`,
which TensorBoard and TF's summary_iterator read.
"""
import os as _os
import re as _re
import socket as _socket
import struct as _struct
import threading as _threading
import time as _time

from tfc import _tfc
from tfc import errors as _errors
from tfc import protos as _protos
from tfc.framework import ops as _ops
from tfc.framework.op_def_library import _apply_op

_INVALID_TAG_CHARACTERS = _re.compile(r"[^-/\w\.]")


def _clean_tag(name):
  if name is not None:
    new_name = _INVALID_TAG_CHARACTERS.sub("_", name).lstrip("/")
    if new_name != name:
      from tfc import logging as _logging  # pylint: disable=g-import-not-at-top
      _logging.info("Summary name %s is illegal; using %s instead.", name, new_name)
      name = new_name
  return name


class _SummaryScope(object):
  """TF's summary_scope: (tag, scope) of a summary op's name scope."""

  def __init__(self, name, family=None, default_name=None, values=None):
    self._name, self._family, self._default, self._values = name, family, default_name, values

  def __enter__(self):
    name = _clean_tag(self._name)
    family = _clean_tag(self._family)
    scope_base_name = name if family is None else "{}/{}".format(family, name)
    self._cm = _ops.name_scope(scope_base_name, default_name=self._default, values=self._values)
    scope = self._cm.__enter__()
    tag = scope.rstrip("/")
    if family is not None:
      tag = "{}/{}".format(family, tag)
    return tag, scope

  def __exit__(self, *args):
    return self._cm.__exit__(*args)


def _collect(op, collections, default_collections):
  if collections is None:
    collections = default_collections
  for key in collections:
    _ops.add_to_collection(key, op)


def scalar(name, tensor, collections=None, family=None):
  """A scalar summary op: Summary{value {tag, simple_value}} of a real scalar."""
  with _SummaryScope(name, family, values=[tensor]) as (tag, scope):
    val = _apply_op("ScalarSummary", scope, [tag, tensor]).outputs[0]
    _collect(val, collections, [_ops.GraphKeys.SUMMARIES])
  return val


def histogram(name, values, collections=None, family=None):
  """A histogram summary op over all elements of `values` (TF's buckets)."""
  with _SummaryScope(name, family, values=[values], default_name="HistogramSummary") as (tag, scope):
    val = _apply_op("HistogramSummary", scope, [tag, values]).outputs[0]
    _collect(val, collections, [_ops.GraphKeys.SUMMARIES])
  return val


def image(name, tensor, max_outputs=3, collections=None, family=None):
  """An image summary (ImageSummary) of a 4-D [batch, height, width, channels]
  tensor (1, 3 or 4 channels; uint8, float, half or double): the first
  `max_outputs` images as PNGs, tagged "<name>/image/<i>" ("<name>/image" when
  max_outputs is 1). Float images are scaled per image into [0, 255] (values
  >= 0 by 255 / max; otherwise by 127 / max |v| around 128); pixels with a
  non-finite channel are red."""
  import numpy as _np  # pylint: disable=g-import-not-at-top
  with _SummaryScope(name, family, values=[tensor]) as (tag, scope):
    val = _apply_op("ImageSummary", scope, [tag, tensor],
                    {"max_images": max_outputs,
                     "bad_color": _np.array([255, 0, 0, 255], _np.uint8)}).outputs[0]
    _collect(val, collections, [_ops.GraphKeys.SUMMARIES])
  return val


def audio(name, tensor, sample_rate, max_outputs=3, collections=None, family=None):
  """An audio summary (AudioSummaryV2) of a float [batch, frames] or
  [batch, frames, channels] tensor with values in [-1, 1]: the first
  `max_outputs` clips as 16-bit WAV files at `sample_rate` Hz, tagged
  "<name>/audio/<i>" ("<name>/audio" when max_outputs is 1)."""
  from tfc import dtypes as _dtypes  # pylint: disable=g-import-not-at-top
  with _SummaryScope(name, family, values=[tensor]) as (tag, scope):
    rate = _ops.convert_to_tensor(sample_rate, dtype=_dtypes.float32, name="sample_rate")
    val = _apply_op("AudioSummaryV2", scope, [tag, tensor, rate],
                    {"max_outputs": max_outputs}).outputs[0]
    _collect(val, collections, [_ops.GraphKeys.SUMMARIES])
  return val


def tensor_summary(name, tensor, summary_description=None, collections=None,
                   summary_metadata=None, family=None, display_name=None):
  """A summary op holding the whole tensor (TensorSummaryV2): Summary{value {tag,
  tensor, metadata}} with `summary_metadata` (a SummaryMetadata), plus
  `summary_description` and `display_name` when given."""
  if summary_metadata is None:
    summary_metadata = _protos.SummaryMetadata()
  if summary_description is not None:
    summary_metadata.summary_description = summary_description
  if display_name is not None:
    summary_metadata.display_name = display_name
  serialized = summary_metadata.SerializeToString()
  with _SummaryScope(name, family, values=[tensor]) as (tag, scope):
    val = _apply_op("TensorSummaryV2", scope, [tag, tensor, serialized]).outputs[0]
    _collect(val, collections, [_ops.GraphKeys.SUMMARIES])
  return val


def text(name, tensor, collections=None):
  """A text summary (TensorBoard's text plugin) of a string tensor."""
  if getattr(tensor, "dtype", None) != _dtypes_string():
    raise ValueError("Expected tensor %s to have dtype string, got %s" %
                     (getattr(tensor, "name", tensor), getattr(tensor, "dtype", type(tensor))))
  metadata = _protos.SummaryMetadata(
      plugin_data=_protos.SummaryMetadata.PluginData(plugin_name="text"))
  return tensor_summary(name=name, tensor=tensor, summary_metadata=metadata,
                        collections=collections)


def _dtypes_string():
  from tfc import dtypes as _dtypes  # pylint: disable=g-import-not-at-top
  return _dtypes.string


def merge(inputs, collections=None, name=None):
  """One Summary holding the values of `inputs` (serialized Summary tensors)."""
  with _ops.name_scope(name, "Merge", inputs):
    val = _apply_op("MergeSummary", name, [list(inputs)]).outputs[0]
    _collect(val, collections, [])
  return val


def merge_all(key=_ops.GraphKeys.SUMMARIES, scope=None, name=None):
  """merge() of every summary op in collection `key` (None when it is empty)."""
  summary_ops = _ops.get_collection(key, scope=scope)
  if not summary_ops:
    return None
  return merge(summary_ops, name=name)


# -- events files -----------------------------------------------------------------------


def _frame(data):
  """A TFRecord: length, masked CRC of the length, data, masked CRC of the data."""
  header = _struct.pack("<Q", len(data))
  return b"".join([header, _struct.pack("<I", _tfc.masked_crc32c(header)), data,
                   _struct.pack("<I", _tfc.masked_crc32c(data))])


def _varint(n):
  """Protobuf base-128 varint of a non-negative int (two's complement 64-bit
  for a negative one, as protobuf writes an int64)."""
  if n < 0:
    n += 1 << 64
  out = bytearray()
  while n > 0x7F:
    out.append((n & 0x7F) | 0x80)
    n >>= 7
  out.append(n)
  return bytes(out)


def _event_bytes(wall_time, step, field, payload):
  """A serialized tensorflow.Event {wall_time: 1, step: 2 (left out when None
  or 0, as proto3 does), <field>: payload (a length-delimited message)},
  byte for byte what Event(...).SerializeToString() gives, without copying
  the payload into a message first."""
  parts = [b"\x09", _struct.pack("<d", wall_time)]
  if step is not None and int(step) != 0:
    parts += [b"\x10", _varint(int(step))]
  parts += [_varint(field << 3 | 2), _varint(len(payload)), payload]
  return b"".join(parts)


def summary_iterator(path):
  """Yields the Events of an events file, checking every record's CRCs
  (DataLossError on a corrupt record, a truncated last record ends the file)."""
  with open(path, "rb") as f:
    data = f.read()
  pos = 0
  while pos + 12 <= len(data):
    header = data[pos:pos + 8]
    (length,) = _struct.unpack("<Q", header)
    (crc,) = _struct.unpack("<I", data[pos + 8:pos + 12])
    if crc != _tfc.masked_crc32c(header):
      raise _errors.DataLossError(None, None, "corrupted record at %d" % pos)
    if pos + 12 + length + 4 > len(data):
      return
    body = data[pos + 12:pos + 12 + length]
    (crc,) = _struct.unpack("<I", data[pos + 12 + length:pos + 16 + length])
    if crc != _tfc.masked_crc32c(body):
      raise _errors.DataLossError(None, None, "corrupted record at %d" % pos)
    yield _protos.Event.FromString(body)
    pos += 16 + length


class FileWriter(object):
  """Writes Events (summaries, graphs, session logs) to an events file in `logdir`.

  add_* frame the event and append it to the file's buffer on the calling
  thread (a few microseconds: no thread hand-off per event); a daemon thread
  (started by the constructor and by reopen(), never at import) flushes the
  file every `flush_secs`, and the buffer goes to the file whenever
  `max_queue` events wait in it. flush() writes everything added so far;
  close() flushes, stops the thread and closes the file (later events are
  dropped, as in TF). A write error is raised by the next flush() or
  close(). After fork() the child's first write starts a flusher of its own.
  """

  def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None,
               filename_suffix=None, session=None):
    del session
    self._logdir = str(logdir)
    self._max_queue = max(1, int(max_queue))
    self._flush_secs = flush_secs
    self._suffix = filename_suffix or ""
    self._seen_summary_tags = set()
    self._session_run_tags = set()
    self._closed = True
    self._lock = _threading.RLock()
    self.reopen()
    if graph is not None or graph_def is not None:
      self.add_graph(graph, graph_def=graph_def)
      if graph is not None:
        self.add_meta_graph(_meta_graph_of(graph))

  def reopen(self):
    """Starts a new events file (and its flusher thread) after close(); no-op while open."""
    with self._lock:
      if not self._closed:
        return
      self._open()

  def _open(self):
    """Creates logdir and a new events file (tfc.errors on an unusable logdir),
    writes the file_version event and starts the flusher thread."""
    _make_logdir(self._logdir)
    now = _time.time()
    self._path, self._file = _create_events_file(self._logdir, int(now), self._suffix)
    self._file.write(_frame(_protos.Event(wall_time=now,
                                          file_version="brain.Event:2").SerializeToString()))
    self._file.flush()
    self._pending = 0
    self._closed = False
    self._error = None
    self._start_flusher()

  def _start_flusher(self):
    """A daemon thread flushing the file every flush_secs until close();
    made again in a child process after fork()."""
    self._stop = _threading.Event()
    self._pid = _os.getpid()
    self._flusher = _threading.Thread(target=self._flush_loop, args=(self._stop,),
                                      name="FileWriter(%s)" % self._logdir, daemon=True)
    self._flusher.start()

  def _flush_loop(self, stop):
    """Flusher thread body: flushes every flush_secs until `stop` is set."""
    while not stop.wait(max(0.01, float(self._flush_secs))):
      with self._lock:
        if self._closed or stop.is_set():
          return
        self._flush_locked()

  def _flush_locked(self):
    """Flushes the file, keeping a write error for flush()/close() (lock held)."""
    try:
      self._file.flush()
    except (OSError, ValueError) as e:
      if self._error is None:
        self._error = e
    self._pending = 0

  def _raise_error(self):
    e, self._error = self._error, None
    if e is not None:
      from tfc import gfile as _gfile  # pylint: disable=g-import-not-at-top
      if isinstance(e, OSError):
        _gfile._raise(e, self._path)  # pylint: disable=protected-access
      raise e

  def get_logdir(self):
    return self._logdir

  def _write_event(self, event):
    """Appends one Event to the file's buffer (dropped after close), flushing
    once max_queue events wait."""
    self._write_record(event.SerializeToString())

  def _write_record(self, data):
    """_write_event for an Event already serialized."""
    record = _frame(data)
    with self._lock:
      if self._closed:
        return  # TF drops events written after close()
      if self._pid != _os.getpid():
        # fork(): the flusher stayed in the parent; this process gets its own
        self._start_flusher()
      try:
        self._file.write(record)
      except (OSError, ValueError) as e:
        if self._error is None:
          self._error = e
      self._pending += 1
      if self._pending >= self._max_queue:
        self._flush_locked()

  def add_event(self, event):
    """Writes an Event as it is."""
    self._write_event(event)

  def add_summary(self, summary, global_step=None):
    """Writes a Summary (a message or its serialized bytes) at `global_step`;
    the metadata of a tag is kept the first time only, as TF does."""
    if isinstance(summary, bytes):
      data = summary
      summ = _protos.Summary.FromString(summary)
    else:
      data = None
      summ = _protos.Summary()
      summ.CopyFrom(summary)
    for value in summ.value:
      if not value.HasField("metadata"):
        continue
      if value.tag in self._seen_summary_tags:
        value.ClearField("metadata")
        data = None
        continue
      self._seen_summary_tags.add(value.tag)
    if data is None:
      data = summ.SerializeToString()
    self._write_record(_event_bytes(_time.time(), global_step, 5, data))

  def add_graph(self, graph, global_step=None, graph_def=None):
    """Writes the graph (a Graph, or graph_def) for TensorBoard's graph view."""
    if graph is not None:
      graph_def = graph.as_graph_def(add_shapes=True)
    data = graph_def if isinstance(graph_def, bytes) else graph_def.SerializeToString()
    event = _protos.Event(wall_time=_time.time(), graph_def=data)
    if global_step is not None:
      event.step = int(global_step)
    self._write_event(event)

  def add_meta_graph(self, meta_graph_def, global_step=None):
    """Writes a MetaGraphDef."""
    event = _protos.Event(wall_time=_time.time(),
                          meta_graph_def=meta_graph_def.SerializeToString())
    if global_step is not None:
      event.step = int(global_step)
    self._write_event(event)

  def add_run_metadata(self, run_metadata, tag, global_step=None):
    """Writes a RunMetadata (step stats, partition graphs) under `tag`, which
    must be new to this writer (TensorBoard shows it by the graph)."""
    if tag in self._session_run_tags:
      raise ValueError("The provided tag was already used for this event type")
    self._session_run_tags.add(tag)
    tagged = _protos.TaggedRunMetadata(tag=tag,
                                       run_metadata=run_metadata.SerializeToString())
    event = _protos.Event(wall_time=_time.time(), tagged_run_metadata=tagged)
    if global_step is not None:
      event.step = int(global_step)
    self._write_event(event)

  def add_session_log(self, session_log, global_step=None):
    """Writes a SessionLog (START, STOP, CHECKPOINT)."""
    event = _protos.Event(wall_time=_time.time(), session_log=session_log)
    if global_step is not None:
      event.step = int(global_step)
    self._write_event(event)

  def flush(self):
    """Writes every event added so far to the file."""
    with self._lock:
      if self._closed:
        return
      self._flush_locked()
    self._raise_error()

  def close(self):
    """Writes what was added, stops the flusher thread and closes the file;
    reopen() starts a new file."""
    with self._lock:
      if self._closed:
        return
      self._closed = True
      self._stop.set()
      flusher = self._flusher if self._pid == _os.getpid() else None
      self._flush_locked()
      try:
        self._file.close()
      except (OSError, ValueError) as e:
        if self._error is None:
          self._error = e
    if flusher is not None and flusher is not _threading.current_thread():
      flusher.join()
    self._raise_error()

  def __enter__(self):
    return self

  def __exit__(self, *args):
    self.close()


class FileWriterCache(object):
  """One FileWriter per logdir, shared by the hooks writing there (created with the
  default graph, so its first events hold the graph)."""

  _cache = {}
  _lock = _threading.RLock()

  @staticmethod
  def clear():
    """Closes and forgets every cached writer."""
    with FileWriterCache._lock:
      for writer in FileWriterCache._cache.values():
        writer.close()
      FileWriterCache._cache = {}

  @staticmethod
  def get(logdir):
    """The FileWriter of `logdir` (made on first use)."""
    with FileWriterCache._lock:
      if logdir not in FileWriterCache._cache:
        FileWriterCache._cache[logdir] = FileWriter(logdir, graph=_ops.get_default_graph())
      return FileWriterCache._cache[logdir]


_events_file_counter = [0]


def _create_events_file(logdir, secs, suffix):
  """(path, file opened for writing) of a new events file in logdir.

  The name is TF 1.x's `events.out.tfevents.<secs>.<host><suffix>` when no
  file has it yet; otherwise (a second writer in the same second, in this
  process or another) `...<host>.<pid>.<n><suffix>` as TF 2's writers name
  theirs, n counting up until a name is free. The file is created
  exclusively, so two writers never share (and clobber) one file;
  TensorBoard reads every `events.out.tfevents.*` file of a directory."""
  import errno as _errno  # pylint: disable=g-import-not-at-top
  base = _os.path.join(logdir, "events.out.tfevents.%010d.%s" % (secs, _socket.gethostname()))
  path = base + suffix
  while True:
    try:
      return path, open(path, "xb")
    except OSError as e:
      if e.errno != _errno.EEXIST:
        from tfc import gfile as _gfile  # pylint: disable=g-import-not-at-top
        _gfile._raise(e, path)  # pylint: disable=protected-access
    path = "%s.%d.%d%s" % (base, _os.getpid(), _events_file_counter[0], suffix)
    _events_file_counter[0] += 1


def _make_logdir(logdir):
  """mkdir -p logdir; FailedPreconditionError naming the part of the path that
  is a file, PermissionDeniedError, ... as TF's file system reports them."""
  import errno as _errno  # pylint: disable=g-import-not-at-top
  try:
    _os.makedirs(logdir, exist_ok=True)
  except OSError as e:
    if e.errno in (_errno.ENOTDIR, _errno.EEXIST):
      part = logdir
      while part and not _os.path.exists(part):
        part = _os.path.dirname(part)
      if part and not _os.path.isdir(part):
        raise _errors.FailedPreconditionError(None, None, "%s is not a directory" % part) \
            from None
    from tfc import gfile as _gfile  # pylint: disable=g-import-not-at-top
    _gfile._raise(e, logdir)  # pylint: disable=protected-access


def _meta_graph_of(graph):
  from tfc.framework import meta_graph as _meta_graph  # pylint: disable=g-import-not-at-top
  with graph.as_default():
    return _meta_graph.export_meta_graph(graph=graph)


def get_summary_description(node_def):
  """The SummaryDescription of a TensorSummary node (its `description` attr, JSON);
  ValueError for a node of any other op."""
  if node_def.op != "TensorSummary":
    raise ValueError("Can't get_summary_description on %s" % node_def.op)
  from google.protobuf import json_format  # pylint: disable=g-import-not-at-top
  description = node_def.attr["description"].s
  if isinstance(description, bytes):
    description = description.decode("utf-8")
  summary_description = _protos.SummaryDescription()
  json_format.Parse(description, summary_description)
  return summary_description


def all_v2_summary_ops():
  """The ops TF 2-style summary functions added to the default graph (its "_SUMMARY_V2"
  collection); an empty list when there are none."""
  return _ops.get_collection("_SUMMARY_V2")


def __getattr__(name):
  if name in ("Summary", "Event", "SessionLog", "HistogramProto",
              "SummaryMetadata", "TaggedRunMetadata", "SummaryDescription"):
    return getattr(_protos, name)
  raise AttributeError("module 'tfc.summary' has no attribute %r" % name)
