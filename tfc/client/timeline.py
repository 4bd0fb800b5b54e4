"""tf.python.client.timeline: a Chrome trace (chrome://tracing, Perfetto) of a
traced step's RunMetadata.step_stats.

    run_metadata = tf.RunMetadata()
    sess.run(y, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
             run_metadata=run_metadata)
    trace = timeline.Timeline(run_metadata.step_stats).generate_chrome_trace_format()
    open("timeline.json", "w").write(trace)

The trace is TF's: a JSON object with "traceEvents"; process metadata first
("Allocators", then "<device> Compute" and "<device> Tensors" per device),
then one complete event ("ph": "X", category "Op", name the op type, args
name/op/input0...) per executed node, on lanes so that overlapping nodes of a
device never share one; dataflow arrows ("s"/"t") where a tensor crosses
lanes or devices; with show_memory, tensor objects and per-allocator memory
counters.
"""
import collections
import copy
import json
import re

AllocationMaximum = collections.namedtuple("AllocationMaximum",
                                           ("timestamp", "num_bytes", "tensors"))
StepStatsAnalysis = collections.namedtuple("StepStatsAnalysis",
                                           ("chrome_trace", "allocator_maximums"))

_LABEL = re.compile(r"(.*) = (.*)\((.*)\)")


class _ChromeTraceFormatter(object):
  """Builds the traceEvents list: metadata events, then the others."""

  def __init__(self, show_memory=False):
    self._show_memory = show_memory
    self._events = []
    self._metadata = []

  @staticmethod
  def _event(ph, category, name, pid, tid, timestamp):
    return {"ph": ph, "cat": category, "name": name, "pid": pid, "tid": tid, "ts": timestamp}

  def emit_pid(self, name, pid):
    self._metadata.append({"name": "process_name", "ph": "M", "pid": pid,
                           "args": {"name": name}})

  def emit_tid(self, name, pid, tid):
    self._metadata.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid,
                           "args": {"name": name}})

  def emit_region(self, timestamp, duration, pid, tid, category, name, args):
    event = self._event("X", category, name, pid, tid, timestamp)
    event["dur"] = duration
    event["args"] = args
    self._events.append(event)

  def emit_obj_create(self, category, name, timestamp, pid, tid, object_id):
    event = self._event("N", category, name, pid, tid, timestamp)
    event["id"] = object_id
    self._events.append(event)

  def emit_obj_delete(self, category, name, timestamp, pid, tid, object_id):
    event = self._event("D", category, name, pid, tid, timestamp)
    event["id"] = object_id
    self._events.append(event)

  def emit_obj_snapshot(self, category, name, timestamp, pid, tid, object_id, snapshot):
    event = self._event("O", category, name, pid, tid, timestamp)
    event["id"] = object_id
    event["args"] = {"snapshot": snapshot}
    self._events.append(event)

  def emit_flow_start(self, name, timestamp, pid, tid, flow_id):
    event = self._event("s", "DataFlow", name, pid, tid, timestamp)
    event["id"] = flow_id
    self._events.append(event)

  def emit_flow_end(self, name, timestamp, pid, tid, flow_id):
    event = self._event("t", "DataFlow", name, pid, tid, timestamp)
    event["id"] = flow_id
    self._events.append(event)

  def emit_counter(self, category, name, pid, timestamp, counter, value):
    event = self._event("C", category, name, pid, 0, timestamp)
    event["args"] = {counter: value}
    self._events.append(event)

  def emit_counters(self, category, name, pid, timestamp, counters):
    event = self._event("C", category, name, pid, 0, timestamp)
    event["args"] = dict(counters)
    self._events.append(event)

  def format_to_string(self, pretty=False):
    """The trace as JSON (indented when pretty)."""
    trace = {"traceEvents": self._metadata + self._events}
    if pretty:
      return json.dumps(trace, indent=4, separators=(",", ": "))
    return json.dumps(trace, separators=(",", ":"))


class _Tensor(object):
  """A tensor produced in the step: when it was made, used and released."""

  def __init__(self, name, object_id, timestamp, pid, allocator, num_bytes):
    self.name = name
    self.object_id = object_id
    self.create_time = timestamp
    self.pid = pid
    self.allocator = allocator
    self.num_bytes = num_bytes
    self._unrefs = []

  def add_ref(self, timestamp):
    del timestamp

  def add_unref(self, timestamp):
    self._unrefs.append(timestamp)

  @property
  def last_unref(self):
    return max(self._unrefs)


def _parse_label(label):
  """(node, op, [inputs]) of a "node = Op(a, b)" timeline label."""
  m = _LABEL.match(label)
  if m is None:
    return "unknown", "unknown", []
  node, op, inputs = m.groups()
  return node, op, inputs.split(", ") if inputs else []


class Timeline(object):
  """The Chrome trace of a StepStats (RunMetadata.step_stats)."""

  def __init__(self, step_stats, graph=None):
    self._origin_step_stats = step_stats
    self._step_stats = None
    self._graph = graph
    self._chrome_trace = _ChromeTraceFormatter()
    self._next_pid = 0
    self._device_pids = {}
    self._tensor_pids = {}
    self._tensors = {}
    self._next_flow_id = 0
    self._flow_starts = {}
    self._allocator_maximums = {}

  def _new_pid(self):
    pid = self._next_pid
    self._next_pid += 1
    return pid

  def _allocate_pids(self):
    self._allocators_pid = self._new_pid()
    self._chrome_trace.emit_pid("Allocators", self._allocators_pid)
    for dev in self._step_stats.dev_stats:
      self._device_pids[dev.device] = self._new_pid()
      self._tensor_pids[dev.device] = self._new_pid()
      self._chrome_trace.emit_pid(dev.device + " Compute", self._device_pids[dev.device])
      self._chrome_trace.emit_pid(dev.device + " Tensors", self._tensor_pids[dev.device])

  def _assign_lanes(self):
    """thread_id := the first lane free at the node's start (a new lane if none)."""
    for dev in self._step_stats.dev_stats:
      lane_ends = [0]
      for ns in dev.node_stats:
        end = ns.all_start_micros + ns.all_end_rel_micros
        for lane, lane_end in enumerate(lane_ends):
          if ns.all_start_micros > lane_end:
            lane_ends[lane] = end
            break
        else:
          lane = len(lane_ends)
          lane_ends.append(end)
        ns.thread_id = lane

  def _analyze_tensors(self, show_memory):
    for dev in self._step_stats.dev_stats:
      device_pid = self._device_pids[dev.device]
      tensors_pid = self._tensor_pids[dev.device]
      for ns in dev.node_stats:
        start = ns.all_start_micros
        end = start + ns.all_end_rel_micros
        for index, output in enumerate(ns.output):
          name = ns.node_name if index == 0 else "%s:%d" % (ns.node_name, index)
          alloc = output.tensor_description.allocation_description
          tensor = _Tensor(name, len(self._tensors), start, tensors_pid, alloc.allocator_name,
                           alloc.requested_bytes)
          self._tensors[name] = tensor
          tensor.add_ref(start)
          tensor.add_unref(end)
          self._flow_starts[name] = (end, device_pid, ns.thread_id)
          if show_memory:
            self._chrome_trace.emit_obj_create("Tensor", name, start, tensors_pid,
                                               ns.thread_id, tensor.object_id)
            desc = str(output.tensor_description).replace('"', "")
            self._chrome_trace.emit_obj_snapshot("Tensor", name, end - 1, tensors_pid,
                                                 ns.thread_id, tensor.object_id,
                                                 {"tensor_description": desc})

  def _show_compute(self, show_dataflow):
    for dev in self._step_stats.dev_stats:
      device_pid = self._device_pids[dev.device]
      gpu_trace = "/stream:" in dev.device or "/memcpy" in dev.device
      for ns in dev.node_stats:
        start = ns.all_start_micros
        end = start + ns.all_end_rel_micros
        name, inputs = ns.node_name, []
        if gpu_trace:
          op = (ns.node_name.split(":") + ["unknown"])[1]
        elif name == "RecvTensor":
          op = "RecvTensor"
        else:
          _, op, inputs = _parse_label(ns.timeline_label)
        args = {"name": name, "op": op}
        for i, input_name in enumerate(inputs):
          args["input%d" % i] = input_name
        self._chrome_trace.emit_region(start, ns.all_end_rel_micros, device_pid, ns.thread_id,
                                       "Op", op, args)
        if gpu_trace or name == "RecvTensor":
          continue
        for input_name in inputs:
          if input_name not in self._tensors:
            cut = input_name.rfind("/_")
            if cut > 0:
              input_name = input_name[:cut]
          tensor = self._tensors.get(input_name)
          if tensor is None:
            continue
          tensor.add_ref(start)
          tensor.add_unref(end - 1)
          if show_dataflow:
            made_at, made_pid, made_tid = self._flow_starts[input_name]
            if made_pid != device_pid or made_tid != ns.thread_id:
              flow_id = self._next_flow_id
              self._next_flow_id += 1
              self._chrome_trace.emit_flow_start(input_name, made_at, made_pid, made_tid,
                                                 flow_id)
              self._chrome_trace.emit_flow_end(input_name, start, device_pid, ns.thread_id,
                                               flow_id)

  def _show_memory_counters(self):
    by_allocator = {}
    for name, tensor in self._tensors.items():
      self._chrome_trace.emit_obj_delete("Tensor", name, tensor.last_unref, tensor.pid, 0,
                                         tensor.object_id)
      events = by_allocator.setdefault(tensor.allocator, [])
      events.append((tensor.create_time, tensor.num_bytes, name))
      events.append((tensor.last_unref, -tensor.num_bytes, name))
    maxima = {}
    for allocator, events in by_allocator.items():
      events.sort()
      total = 0
      live = set()
      maxima[allocator] = AllocationMaximum(timestamp=0, num_bytes=0, tensors=set())
      for timestamp, num_bytes, name in sorted(events, key=lambda e: e[0]):
        total += num_bytes
        if num_bytes < 0:
          live.discard(name)
        else:
          live.add(name)
        if total > maxima[allocator].num_bytes:
          maxima[allocator] = AllocationMaximum(timestamp=timestamp, num_bytes=total,
                                                tensors=set(live))
        self._chrome_trace.emit_counter("Memory", allocator, self._allocators_pid, timestamp,
                                        allocator, total)
    self._allocator_maximums = maxima

  def analyze_step_stats(self, show_dataflow=True, show_memory=True, op_time="schedule"):
    """The trace formatter and the peak memory per allocator."""
    del op_time  # tfc traces CPU devices only: their op time is the schedule
    self._step_stats = copy.deepcopy(self._origin_step_stats)
    self._allocate_pids()
    self._assign_lanes()
    self._analyze_tensors(show_memory)
    self._show_compute(show_dataflow)
    if show_memory:
      self._show_memory_counters()
    return StepStatsAnalysis(chrome_trace=self._chrome_trace,
                             allocator_maximums=self._allocator_maximums)

  def generate_chrome_trace_format(self, show_dataflow=True, show_memory=False,
                                   op_time="schedule"):
    """The step as Chrome trace JSON (a str)."""
    analysis = self.analyze_step_stats(show_dataflow=show_dataflow, show_memory=show_memory,
                                       op_time=op_time)
    return analysis.chrome_trace.format_to_string(pretty=True)
