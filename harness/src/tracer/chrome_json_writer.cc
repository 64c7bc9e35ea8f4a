#include "tracer/chrome_json_writer.h"

#include <algorithm>
#include <charconv>
#include <cinttypes>
#include <string>

#include "common/json_value.h"

namespace benchprof::tracer {
namespace {


void AppendInteger(std::string& out, uint64_t value) {
  char digits[24];
  const std::to_chars_result end = std::to_chars(digits, digits + sizeof digits, value);
  out.append(digits, end.ptr);
}

// Microseconds with three decimals (nanosecond resolution), as the format's
// `ts` and `dur` are in microseconds.
void AppendMicros(std::string& out, int64_t nanos) {
  if (nanos < 0) nanos = 0;
  AppendInteger(out, static_cast<uint64_t>(nanos / 1000));
  const auto fraction = static_cast<unsigned>(nanos % 1000);
  const char text[5] = {'.', static_cast<char>('0' + fraction / 100),
                        static_cast<char>('0' + fraction / 10 % 10),
                        static_cast<char>('0' + fraction % 10), '\0'};
  out.append(text, 4);
}

// Four decimals, locale-independent (a benchmark may have set a locale whose
// decimal separator is a comma).
void AppendFixed(std::string& out, double value) {
  char text[32];
  const auto [end, ec] =
      std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, 4);
  out.append(text, ec == std::errc() ? end : text);
}

std::string HexId(uint64_t id) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%" PRIx64, id);
  return text;
}

}  // namespace

void ChromeJsonWriter::Begin(const TraceInfo& info) {
  pid_ = info.pid;
  cpus_ = info.cpus;
  out_.Open();
  buffer_ = "{\"traceEvents\":[\n";
  buffer_ += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":";
  AppendInteger(buffer_, static_cast<uint64_t>(pid_));
  buffer_ += ",\"tid\":";
  AppendInteger(buffer_, static_cast<uint64_t>(pid_));
  buffer_ += ",\"args\":{\"name\":";
  json::AppendQuoted(buffer_, info.process_name);
  buffer_ += "}}";
  ++events_;
  clock_ = info.clock;
}

void ChromeJsonWriter::Open(char ph, pid_t tid, int64_t ts_ns) {
  buffer_ += ",\n{\"ph\":\"";
  buffer_ += ph;
  buffer_ += "\",\"pid\":";
  AppendInteger(buffer_, static_cast<uint64_t>(pid_));
  buffer_ += ",\"tid\":";
  AppendInteger(buffer_, static_cast<uint64_t>(tid));
  buffer_ += ",\"ts\":";
  AppendMicros(buffer_, ts_ns);
  ++events_;
}

void ChromeJsonWriter::Field(const char* key, std::string_view text) {
  buffer_ += ",\"";
  buffer_ += key;
  buffer_ += "\":";
  json::AppendQuoted(buffer_, text);
}

void ChromeJsonWriter::Number(const char* key, uint64_t value) {
  buffer_ += ",\"";
  buffer_ += key;
  buffer_ += "\":";
  AppendInteger(buffer_, value);
}

void ChromeJsonWriter::BusyCounter(const TraceEvent& e, std::string_view category,
                                   std::string_view name, double busy) {
  Open('C', e.tid, e.ts_ns);
  Field("cat", category);
  Field("name", name);
  buffer_ += ",\"args\":{\"busy\":";
  AppendFixed(buffer_, busy);
  buffer_ += '}';
  Close();
}

void ChromeJsonWriter::Close() {
  buffer_ += '}';
  out_.FlushIfLarge();
}

void ChromeJsonWriter::AddThreadMarker(const TraceEvent& e) {
  Open('i', e.tid, e.ts_ns);
  buffer_ += ",\"s\":\"t\"";
  Field("cat", "thread");
  Field("name", e.type == EventType::kThreadStart ? "thread start" : "thread exit");
  Close();
}

void ChromeJsonWriter::AddRegion(const TraceEvent& e) {
  const bool begin = e.type == EventType::kRegionBegin;
  Open(begin ? 'B' : 'E', e.tid, e.ts_ns);
  Field("cat", "region");
  Field("name", e.name);
  if (begin) {
    buffer_ += ",\"args\":{\"task\":";
    AppendInteger(buffer_, e.task_id);
    buffer_ += '}';
  }
  Close();
  if (e.task_id != 0) {
    // The same region on its task's track, so the task can be followed
    // across threads.
    Open(begin ? 'b' : 'e', e.tid, e.ts_ns);
    Field("cat", "task");
    Field("name", e.name);
    Field("id", HexId(e.task_id));
    buffer_ += ",\"args\":{\"kind\":\"region\"}";
    Close();
  }
}

void ChromeJsonWriter::AddTask(const TraceEvent& e) {
  const bool begin = e.type == EventType::kTaskBegin;
  Open(begin ? 'b' : 'e', e.tid, e.ts_ns);
  Field("cat", "task");
  Field("name", e.name);
  Field("id", HexId(e.task_id));
  buffer_ += ",\"args\":{\"kind\":\"task\"";
  if (begin) Field("parent", HexId(e.parent_id));
  buffer_ += '}';
  Close();
}

void ChromeJsonWriter::AddLog(const TraceEvent& e) {
  Open('i', e.tid, e.ts_ns);
  buffer_ += ",\"s\":\"t\"";
  Field("cat", "log");
  Field("name", e.name);
  buffer_ += ",\"args\":{\"message\":";
  json::AppendQuoted(buffer_, e.message);
  Number("task", e.task_id);
  buffer_ += '}';
  Close();
}

void ChromeJsonWriter::AddBenchmarkSpan(const TraceEvent& e, bool begin, std::string_view name) {
  Open(begin ? 'B' : 'E', e.tid, e.ts_ns);
  Field("cat", "benchmark");
  Field("name", name);
  Close();
}

void ChromeJsonWriter::AddRun(const TraceEvent& e) {
  Open('X', e.tid, e.ts_ns);
  buffer_ += ",\"dur\":";
  AppendMicros(buffer_, e.dur_ns);
  Field("cat", "benchmark");
  Field("name", e.name);
  buffer_ += ",\"args\":{\"iterations\":";
  AppendInteger(buffer_, e.iterations);
  Number("threads", e.threads);
  Number("calls", e.calls);
  buffer_ += '}';
  Close();
}

void ChromeJsonWriter::AddBlocked(const TraceEvent& e) {
  Open('X', e.tid, e.ts_ns);
  buffer_ += ",\"dur\":";
  AppendMicros(buffer_, e.dur_ns);
  Field("cat", "blocked");
  Field("name", e.name);
  Close();
}

void ChromeJsonWriter::AddAllocations(const TraceEvent& e) {
  Open('C', e.tid, e.ts_ns);
  Field("cat", "memory");
  Field("name", "allocations");
  buffer_ += ",\"args\":{\"bytes\":";
  AppendInteger(buffer_, e.bytes);
  Number("objects", e.objects);
  buffer_ += '}';
  Close();
}

void ChromeJsonWriter::Add(const TraceEvent& e) {
  switch (e.type) {
    case EventType::kThreadStart:
    case EventType::kThreadExit:
      AddThreadMarker(e);
      break;
    case EventType::kRegionBegin:
    case EventType::kRegionEnd:
      AddRegion(e);
      break;
    case EventType::kTaskBegin:
    case EventType::kTaskEnd:
      AddTask(e);
      break;
    case EventType::kLog:
      AddLog(e);
      break;
    case EventType::kLoopBegin:
    case EventType::kLoopEnd:
      AddBenchmarkSpan(e, e.type == EventType::kLoopBegin, "timed loop");
      break;
    case EventType::kPauseBegin:
    case EventType::kPauseEnd:
      AddBenchmarkSpan(e, e.type == EventType::kPauseBegin, "paused");
      break;
    case EventType::kRun:
      AddRun(e);
      break;
    case EventType::kCpuUsage:
      BusyCounter(e, "cpu", e.name, std::clamp(e.busy, 0.0, 1.0));
      break;
    case EventType::kProcessCpu:
      BusyCounter(e, "process", "CPUs", std::max(e.busy, 0.0));
      break;
    case EventType::kAllocations:
      AddAllocations(e);
      break;
    case EventType::kBlocked:
      AddBlocked(e);
      break;
  }
}

Status ChromeJsonWriter::End(const TraceTotals& totals) {
  if (totals.dropped_events > 0) {
    Open('i', totals.writer_tid, totals.end_ns);
    buffer_ += ",\"s\":\"t\"";
    Field("cat", "benchprof");
    Field("name", "benchprof: dropped events");
    buffer_ += ",\"args\":{\"count\":";
    AppendInteger(buffer_, totals.dropped_events);
    buffer_ += '}';
    Close();
  }
  for (const auto& [tid, name] : totals.thread_names) {
    buffer_ += ",\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":";
    AppendInteger(buffer_, static_cast<uint64_t>(pid_));
    buffer_ += ",\"tid\":";
    AppendInteger(buffer_, static_cast<uint64_t>(tid));
    buffer_ += ",\"args\":{\"name\":";
    json::AppendQuoted(buffer_, name);
    buffer_ += "}}";
    ++events_;
  }
  buffer_ += "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"producer\":\"benchprof ";
  buffer_ += BENCHPROF_TRACE_PRODUCER_VERSION;
  buffer_ += '"';
  Field("clock", clock_);
  Number("dropped_events", totals.dropped_events);
  Number("events", events_);
  buffer_ += ",\"clock_drift_ns\":";
  buffer_ += std::to_string(totals.clock_drift_ns);
  Number("cpus", cpus_);
  if (!totals.interrupted_by.empty()) Field("interrupted", totals.interrupted_by);
  if (totals.window_ns > 0) {
    Number("window_ns", static_cast<uint64_t>(totals.window_ns));
    Number("discarded_events", totals.discarded_events);
  }
  buffer_ += "}}\n";
  return out_.Finish();
}

}  // namespace benchprof::tracer
