// Chrome trace-event JSON ("JSON object format"), the file `--trace`
// writes: Perfetto UI, chrome://tracing and speedscope open it. The exact
// contract with `benchprof trace-summary` is docs/trace-format.md.
//
// Events are streamed to the file as they come (one per line), so the
// writer's memory does not grow with the trace; the file is complete only
// after End().
//
//   auto json = std::make_unique<ChromeJsonWriter>("trace.json.tmp");
//   json->Begin(info); json->Add(event); ...; Status done = json->End(totals);
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_TRACER_CHROME_JSON_WRITER_H_
#define BENCHPROF_TRACER_CHROME_JSON_WRITER_H_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "common/buffered_output_file.h"
#include "tracer/trace_formatter.h"

namespace benchprof::tracer {

class ChromeJsonWriter final : public TraceFormatter {
 public:
  // Writes to `path` (created or truncated at Begin()).
  explicit ChromeJsonWriter(std::string path) : out_(std::move(path), "the trace") {}

  void Begin(const TraceInfo& info) override;
  void Add(const TraceEvent& event) override;
  Status End(const TraceTotals& totals) override;
  uint64_t events_written() const override { return events_; }

 private:
  // Starts an entry: separator, then {"ph":"<ph>","pid":..,"tid":..,"ts":..
  void Open(char ph, pid_t tid, int64_t ts_ns);
  void Field(const char* key, std::string_view text);  // ,"key":"text"
  void Number(const char* key, uint64_t value);        // ,"key":value
  void Close();                                        // }
  // A counter event with args.busy (four decimals).
  void BusyCounter(const TraceEvent& e, std::string_view category, std::string_view name,
                   double busy);

  // Add() per kind of event. Defined in chrome_json_writer.cc, and always
  // inlined: they run once per event, and compile into Add() as the one
  // switch they were.
  //
  // Thread start or exit: an instant on the thread's track.
  [[gnu::always_inline]] inline void AddThreadMarker(const TraceEvent& e);
  // A region's begin or end, and again on its task's track if it has one.
  [[gnu::always_inline]] inline void AddRegion(const TraceEvent& e);
  // A task's begin or end on its own track (an async event).
  [[gnu::always_inline]] inline void AddTask(const TraceEvent& e);
  // A log message: an instant with the message and its task.
  [[gnu::always_inline]] inline void AddLog(const TraceEvent& e);
  // The begin or end of a timed loop or pause, named `name`.
  [[gnu::always_inline]] inline void AddBenchmarkSpan(const TraceEvent& e, bool begin,
                                                      std::string_view name);
  // A benchmark run: a complete event with its duration and counts.
  [[gnu::always_inline]] inline void AddRun(const TraceEvent& e);
  // The allocation totals: a counter event.
  [[gnu::always_inline]] inline void AddAllocations(const TraceEvent& e);
  // A wait of the thread (a contended lock, a condition variable, ...).
  [[gnu::always_inline]] inline void AddBlocked(const TraceEvent& e);

  BufferedOutputFile out_;
  std::string& buffer_ = out_.buffer();  // what Add() appends to
  std::string clock_;
  uint32_t cpus_ = 0;
  pid_t pid_ = 0;
  uint64_t events_ = 0;
};

}  // namespace benchprof::tracer

#endif  // BENCHPROF_TRACER_CHROME_JSON_WRITER_H_
