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
import queue as _queue
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

  add_* queue the event; a daemon thread (started by the constructor and by
  reopen(), never at import) writes them to the file and flushes it every
  `flush_secs`; at most `max_queue` events wait (add_* blocks beyond that).
  flush() returns once everything queued is on disk; close() flushes, stops
  the thread and closes the file (later events are dropped, as in TF). After
  fork() the child's first write starts a thread of its own.
  """

  def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None,
               filename_suffix=None, session=None):
    del session
    self._logdir = str(logdir)
    self._max_queue = max_queue
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
    """Starts a new events file (and its writer thread) after close(); no-op while open."""
    with self._lock:
      if not self._closed:
        return
      self._open()

  def _open(self):
    """Creates logdir and a new events file (tfc.errors on an unusable logdir),
    writes the file_version event and starts the writer thread."""
    _make_logdir(self._logdir)
    now = _time.time()
    self._path, self._file = _create_events_file(self._logdir, int(now), self._suffix)
    self._file.write(_frame(_protos.Event(wall_time=now,
                                          file_version="brain.Event:2").SerializeToString()))
    self._file.flush()
    self._closed = False
    self._error = None
    self._start_worker()

  def _start_worker(self):
    """A daemon thread writing queued records (at most max_queue wait), flushing
    the file every flush_secs; made again in a child process after fork()."""
    self._queue = _queue.Queue(max(1, int(self._max_queue)))
    self._pid = _os.getpid()
    self._worker = _threading.Thread(target=self._write_loop,
                                     args=(self._queue, self._file, self._flush_secs),
                                     name="FileWriter(%s)" % self._logdir, daemon=True)
    self._worker.start()

  def _write_loop(self, q, f, flush_secs):
    """Writer thread body: writes each record; None ends it."""
    next_flush = _time.time() + flush_secs
    while True:
      try:
        record = q.get(timeout=max(0.0, next_flush - _time.time()))
      except _queue.Empty:
        record = False
      try:
        if record is None:
          return
        if record:
          f.write(record)
        if _time.time() >= next_flush:
          f.flush()
          next_flush = _time.time() + flush_secs
      except (OSError, ValueError) as e:  # reported by the next flush() or close()
        if self._error is None:
          self._error = e
      finally:
        if record is not False:
          q.task_done()

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
    """Queues one Event (blocks while max_queue records wait; dropped after close)."""
    record = _frame(event.SerializeToString())
    with self._lock:
      if self._closed:
        return  # TF drops events written after close()
      if self._pid != _os.getpid():
        # fork(): the writer thread stayed in the parent; this process gets its own
        self._start_worker()
      q = self._queue
    q.put(record)

  def add_event(self, event):
    """Writes an Event as it is."""
    self._write_event(event)

  def add_summary(self, summary, global_step=None):
    """Writes a Summary (a message or its serialized bytes) at `global_step`;
    the metadata of a tag is kept the first time only, as TF does."""
    if isinstance(summary, bytes):
      summ = _protos.Summary.FromString(summary)
    else:
      summ = _protos.Summary()
      summ.CopyFrom(summary)
    for value in summ.value:
      if not value.HasField("metadata"):
        continue
      if value.tag in self._seen_summary_tags:
        value.ClearField("metadata")
        continue
      self._seen_summary_tags.add(value.tag)
    event = _protos.Event(wall_time=_time.time(), summary=summ)
    if global_step is not None:
      event.step = int(global_step)
    self._write_event(event)

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
    """Waits until the queued events are written, then flushes the file."""
    with self._lock:
      if self._closed:
        return
      if self._pid != _os.getpid():
        self._start_worker()
      q = self._queue
    q.join()
    with self._lock:
      if not self._closed:
        self._file.flush()
    self._raise_error()

  def close(self):
    """Writes what is queued, stops the writer thread and closes the file;
    reopen() starts a new file."""
    with self._lock:
      if self._closed:
        return
      self._closed = True
      q, worker = self._queue, self._worker
      same_process = self._pid == _os.getpid()
    if same_process:
      q.put(None)
      worker.join()
    self._file.flush()
    self._file.close()
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
