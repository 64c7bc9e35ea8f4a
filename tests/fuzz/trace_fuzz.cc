// Fuzz target for trace-summary's streaming trace reader and the summary.
#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "fuzz/fuzz_targets.h"
#include "tools/trace_summary/trace_file_reader.h"
#include "tools/trace_summary/trace_summary.h"
#include "tools/trace_summary/trace_summary_format.h"

namespace benchprof::fuzz {

void Trace(std::string_view data) {
  // The first byte picks the chunk size (1 to 64 bytes, or the default), the
  // rest is the file.
  if (data.empty()) return;
  const uint8_t pick = static_cast<uint8_t>(data[0]);
  data.remove_prefix(1);
  trace_summary::TraceReadOptions small;
  small.chunk_bytes = pick < 192 ? pick % 64 + 1 : trace_summary::kDefaultTraceChunkBytes;

  trace_summary::TraceSummarizer summarizer;
  uint64_t events = 0;
  StatusOr<trace_summary::TraceFileInfo> info = trace_summary::ReadTraceText(
      data, "in.json",
      [&](const trace_summary::TraceEvent& event) {
        ++events;
        summarizer.Add(event);
      },
      small);

  // One chunk: the same outcome, whatever the chunking.
  uint64_t whole_events = 0;
  StatusOr<trace_summary::TraceFileInfo> whole = trace_summary::ReadTraceText(
      data, "in.json", [&](const trace_summary::TraceEvent&) { ++whole_events; },
      trace_summary::TraceReadOptions{.chunk_bytes = data.size() + 1});
  FUZZ_CHECK(info.ok() == whole.ok(), "chunking changes whether a trace reads");
  if (!info.ok()) {
    FUZZ_CHECK(info.status().message() == whole.status().message(), "chunking changes the error");
    FUZZ_CHECK(info.status().message().starts_with("in.json"), "an error without the file");
    FUZZ_CHECK(info.status().message().find('\n') == std::string::npos,
               "an error of several lines");
    return;
  }
  FUZZ_CHECK(events == whole_events && info->events == events, "chunking changes the events");
  FUZZ_CHECK(info->truncated == whole->truncated, "chunking changes the truncation");
  const trace_summary::TraceSummary summary = std::move(summarizer).Finish("in.json", *info);
  (void)trace_summary::RenderTraceSummary(summary, trace_summary::TraceSummaryFormat::kText);
  (void)trace_summary::RenderTraceSummary(summary, trace_summary::TraceSummaryFormat::kJson);
}

}  // namespace benchprof::fuzz
