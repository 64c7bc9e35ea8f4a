#include "tracer/record_decoder.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string_view>

namespace benchprof::tracer {
namespace {

std::string_view NameOf(uint64_t pointer) {
  const auto* name = reinterpret_cast<const char*>(pointer);
  return name != nullptr ? std::string_view(name) : std::string_view("(null)");
}

bool SameName(const char* a, const char* b) {
  return a == b || (a != nullptr && b != nullptr && std::strcmp(a, b) == 0);
}

// The `bytes` bytes of payload that follow the record at `at`.
std::string_view Payload(const Chunk& chunk, uint32_t at, size_t bytes) {
  return std::string_view(chunk.slots[at + 1].bytes, bytes);
}

uint64_t PayloadWord(const Chunk& chunk, uint32_t at, int index) {
  uint64_t word;
  std::memcpy(&word, chunk.slots[at + 1].bytes + 8 * index, sizeof word);
  return word;
}

}  // namespace

int64_t RecordDecoder::OrderedTime(ThreadState& thread, uint64_t ticks) {
  thread.last_ns = std::max(thread.last_ns, clock_.NanosSinceStart(ticks));
  return thread.last_ns;
}

void RecordDecoder::OpenSpanOn(ThreadState& thread, const TraceEvent& begin, EventType end_type) {
  const char* name = begin.type == EventType::kRegionBegin ? begin.name.data() : nullptr;
  thread.open.push_back({end_type, name, begin.task_id});
  out_.Add(begin);
}

void RecordDecoder::EmitEnd(const OpenSpan& span, pid_t tid, int64_t ts) {
  TraceEvent end;
  end.type = span.end_type;
  end.tid = tid;
  end.ts_ns = ts;
  end.task_id = span.task_id;
  if (span.name != nullptr) end.name = span.name;
  out_.Add(end);
}

void RecordDecoder::CloseSpanOn(ThreadState& thread, TraceEvent end) {
  const bool region = end.type == EventType::kRegionEnd;
  size_t match = thread.open.size();
  while (match-- > 0) {
    const OpenSpan& span = thread.open[match];
    if (span.end_type == end.type &&
        (!region || (span.task_id == end.task_id && SameName(span.name, end.name.data())))) {
      break;
    }
  }
  if (match == static_cast<size_t>(-1)) {
    ++unmatched_ends_;
    return;
  }
  while (thread.open.size() > match + 1) {
    EmitEnd(thread.open.back(), end.tid, end.ts_ns);
    thread.open.pop_back();
  }
  EmitEnd(thread.open.back(), end.tid, end.ts_ns);
  thread.open.pop_back();
}

void RecordDecoder::RenameThread(ThreadState& thread, uint64_t rank, std::string_view name) {
  if (rank >= thread.name_rank) {
    thread.name.assign(name);
    thread.name_rank = rank;
  }
}

void RecordDecoder::DecodeSpanRecord(const Record& r, pid_t tid, ThreadState& thread) {
  TraceEvent e;
  e.tid = tid;
  e.ts_ns = OrderedTime(thread, r.ticks);
  switch (r.kind()) {
    case RecordKind::kThreadStart:
    case RecordKind::kThreadExit:
      e.type =
          r.kind() == RecordKind::kThreadStart ? EventType::kThreadStart : EventType::kThreadExit;
      out_.Add(e);
      break;
    case RecordKind::kRegionBegin:
      e.type = EventType::kRegionBegin;
      e.name = NameOf(r.b);
      e.task_id = r.a;
      OpenSpanOn(thread, e, EventType::kRegionEnd);
      break;
    case RecordKind::kRegionEnd:
      e.type = EventType::kRegionEnd;
      e.name = NameOf(r.b);
      e.task_id = r.a;
      CloseSpanOn(thread, e);
      break;
    case RecordKind::kLoopBegin:
      e.type = EventType::kLoopBegin;
      OpenSpanOn(thread, e, EventType::kLoopEnd);
      break;
    case RecordKind::kLoopEnd:
      e.type = EventType::kLoopEnd;
      CloseSpanOn(thread, e);
      break;
    case RecordKind::kPauseBegin:
      e.type = EventType::kPauseBegin;
      OpenSpanOn(thread, e, EventType::kPauseEnd);
      break;
    case RecordKind::kPauseEnd:
      e.type = EventType::kPauseEnd;
      CloseSpanOn(thread, e);
      break;
    default:  // not a span record; Decode() does not pass one
      break;
  }
}

void RecordDecoder::DecodeTaskRecord(const Chunk& chunk, uint32_t at, pid_t tid,
                                     ThreadState& thread) {
  const Record& r = chunk.slots[at].record;
  TraceEvent e;
  e.tid = tid;
  e.ts_ns = OrderedTime(thread, r.ticks);
  e.name = NameOf(r.b);
  e.task_id = r.a;
  switch (r.kind()) {
    case RecordKind::kTaskBegin:
      e.type = EventType::kTaskBegin;
      e.parent_id = r.payload() > 0 ? PayloadWord(chunk, at, 0) : 0;
      // Another thread's chunk may already have ended it.
      if (ended_before_begun_.erase(r.a) == 0) {
        open_tasks_[r.a] = {reinterpret_cast<const char*>(r.b), tid};
      }
      break;
    case RecordKind::kTaskEnd:
      e.type = EventType::kTaskEnd;
      if (open_tasks_.erase(r.a) == 0) ended_before_begun_.insert(r.a);
      break;
    case RecordKind::kLog:
      e.type = EventType::kLog;
      e.message = Payload(chunk, at, r.c());
      break;
    default:  // not a task record; Decode() does not pass one
      return;
  }
  out_.Add(e);
}

void RecordDecoder::DecodeMeasurement(const Chunk& chunk, uint32_t at, pid_t tid) {
  const Record& r = chunk.slots[at].record;
  TraceEvent e;
  e.tid = tid;
  // Measurements are reported once their interval is complete: their time
  // is not the thread's latest, so it is not ordered, only kept >= 0.
  switch (r.kind()) {
    case RecordKind::kRun:
      e.type = EventType::kRun;
      e.ts_ns = clock_.NanosSinceStart(r.ticks);
      e.dur_ns = std::max<int64_t>(0, clock_.NanosSinceStart(r.a) - e.ts_ns);
      e.name = NameOf(r.b);
      e.threads = r.c();
      e.iterations = PayloadWord(chunk, at, 0);
      e.calls = PayloadWord(chunk, at, 1);
      break;
    case RecordKind::kBlocked:
      e.type = EventType::kBlocked;
      e.ts_ns = clock_.NanosSinceStart(r.ticks);
      e.dur_ns = std::max<int64_t>(0, clock_.NanosSinceStart(r.a) - e.ts_ns);
      e.name = NameOf(r.b);
      break;
    case RecordKind::kCpuUsage:
      e.type = EventType::kCpuUsage;
      e.ts_ns = std::max<int64_t>(0, clock_.NanosSinceStart(r.ticks));
      e.subject_tid = static_cast<pid_t>(r.a);
      e.busy = std::bit_cast<double>(r.b);
      e.name = Payload(chunk, at, r.c());
      break;
    case RecordKind::kProcessCpu:
      e.type = EventType::kProcessCpu;
      e.ts_ns = std::max<int64_t>(0, clock_.NanosSinceStart(r.ticks));
      e.busy = std::bit_cast<double>(r.b);
      break;
    case RecordKind::kAllocations:
      e.type = EventType::kAllocations;
      e.ts_ns = std::max<int64_t>(0, clock_.NanosSinceStart(r.ticks));
      e.bytes = r.a;
      e.objects = r.b;
      break;
    default:  // not a measurement; Decode() does not pass one
      return;
  }
  out_.Add(e);
}

void RecordDecoder::Decode(const Chunk& chunk, uint32_t from, uint32_t to) {
  const pid_t tid = chunk.header.tid;
  ThreadState& thread = threads_[tid];
  for (uint32_t at = from; at < to; at += 1 + chunk.slots[at].record.payload()) {
    const Record& r = chunk.slots[at].record;
    if (at + 1 + r.payload() > to) break;  // cannot happen: records are published whole
    switch (r.kind()) {
      case RecordKind::kInvalid:
        break;
      case RecordKind::kThreadName:
        RenameThread(r.a == 0 ? thread : threads_[static_cast<pid_t>(r.a)], r.b,
                     Payload(chunk, at, r.c()));
        break;
      case RecordKind::kThreadStart:
      case RecordKind::kThreadExit:
      case RecordKind::kRegionBegin:
      case RecordKind::kRegionEnd:
      case RecordKind::kLoopBegin:
      case RecordKind::kLoopEnd:
      case RecordKind::kPauseBegin:
      case RecordKind::kPauseEnd:
        DecodeSpanRecord(r, tid, thread);
        break;
      case RecordKind::kTaskBegin:
      case RecordKind::kTaskEnd:
      case RecordKind::kLog:
        DecodeTaskRecord(chunk, at, tid, thread);
        break;
      case RecordKind::kRun:
      case RecordKind::kBlocked:
      case RecordKind::kCpuUsage:
      case RecordKind::kProcessCpu:
      case RecordKind::kAllocations:
        DecodeMeasurement(chunk, at, tid);
        break;
    }
  }
}

void RecordDecoder::Finish(uint64_t end_ticks, TraceTotals& totals) {
  const int64_t end_ns = clock_.NanosSinceStart(end_ticks);
  int64_t latest = end_ns;
  for (auto& [tid, thread] : threads_) {
    const int64_t at = std::max(end_ns, thread.last_ns);
    while (!thread.open.empty()) {
      EmitEnd(thread.open.back(), tid, at);
      thread.open.pop_back();
    }
    latest = std::max(latest, at);
  }
  for (const auto& [id, task] : open_tasks_) {
    ThreadState& thread = threads_[task.tid];
    TraceEvent end;
    end.type = EventType::kTaskEnd;
    end.tid = task.tid;
    end.ts_ns = std::max(end_ns, thread.last_ns);
    end.name = NameOf(reinterpret_cast<uint64_t>(task.type));
    end.task_id = id;
    out_.Add(end);
  }
  open_tasks_.clear();
  totals.end_ns = latest;
  totals.thread_names.clear();
  for (const auto& [tid, thread] : threads_) {
    if (!thread.name.empty()) totals.thread_names.emplace_back(tid, thread.name);
  }
}

}  // namespace benchprof::tracer
