// User annotations for benchprof's execution trace (`bench --trace=FILE`):
// tasks, regions and log messages, after Go's runtime/trace.
//
// A task is one logical operation (a request, a document) that may move
// between threads; a region is a stretch of one thread's time, optionally
// inside a task. In the trace, regions appear on their thread's track and,
// when they belong to a task, also on the task's own track, so a task's work
// can be followed across threads. `benchprof trace-summary` reports, per task
// type and region name, how many there were and how long they took.
//
//   #include <benchprof/trace.h>
//
//   benchprof::Task task = benchprof::NewTask("document");
//   {
//     benchprof::Region region = benchprof::StartRegion(task, "Unmarshal");
//     Parse(bytes);
//   }  // the region ends here
//   benchprof::WithRegion(task, "Search", [&] { hits += Search(doc); });
//   benchprof::Log(task, "result", "3 hits");
//   task.End();  // or let it go out of scope
//
// Names (task types, region names, log categories) must be string literals
// or otherwise live until the process exits: only the pointer is recorded.
// Log messages are copied (the first kMaxLogMessageBytes bytes).
//
// Cost: when no trace is being recorded, every call is one load and one
// well-predicted branch. Defining BENCHPROF_TRACE_DISABLED for the whole
// build turns every call into nothing at all: no code, no reference to the
// recorder (such a build need not link benchprof_trace). Translation units
// built with and without it get distinct Task and Region types (an inline
// namespace), so mixing them fails to link instead of misbehaving.
// While a trace is recorded, a region (begin and end) costs two timestamped
// events written to a per-thread buffer, without locks or allocation.
// Tracing starts before the first benchmark and stops after the last one;
// annotations made outside that window are ignored.
//
// Thread-safety: every function is thread-safe. A Task may be used from any
// thread, as long as it outlives the regions and logs that refer to it. A
// Region must end on the thread that started it, in last-started,
// first-ended order (it is a scope).
#ifndef BENCHPROF_TRACE_H_
#define BENCHPROF_TRACE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

namespace benchprof {

// Longest log message kept; longer messages are cut to this many bytes.
inline constexpr size_t kMaxLogMessageBytes = 200;

namespace trace_internal {

// True while a trace is recorded. Written only when tracing starts and
// stops; relaxed loads are enough because an annotation racing with the
// start or stop may be recorded or not, either is correct.
extern std::atomic<bool> g_recording;

// The recorder's entry points (harness/src/tracer/trace_recorder.cc), for the
// inline functions below: call them only after trace_gate::Recording() said
// true. A call that races with the end of tracing records nothing.
uint64_t BeginTask(const char* type, uint64_t parent_id) noexcept;
void EndTask(uint64_t id, const char* type) noexcept;
void BeginRegion(uint64_t task_id, const char* name) noexcept;
void EndRegion(uint64_t task_id, const char* name) noexcept;
void LogMessage(uint64_t task_id, const char* category, std::string_view message) noexcept;

}  // namespace trace_internal

#ifdef BENCHPROF_TRACE_DISABLED
#define BENCHPROF_TRACE_ABI_NAMESPACE trace_compiled_out
#else
#define BENCHPROF_TRACE_ABI_NAMESPACE trace_compiled_in
#endif

inline namespace BENCHPROF_TRACE_ABI_NAMESPACE {

// The switch between "compiled in" and "compiled out". Its own namespace:
// a second `trace_internal` here would make that name ambiguous.
namespace trace_gate {

#ifdef BENCHPROF_TRACE_DISABLED
inline constexpr bool kCompiledIn = false;
#else
inline constexpr bool kCompiledIn = true;
#endif

// `if constexpr` on kCompiledIn, not a plain branch: a discarded statement
// odr-uses nothing, so a disabled build refers to no recorder symbol even
// unoptimised.
inline bool Recording() noexcept {
  if constexpr (!kCompiledIn) {
    return false;
  } else {
    return __builtin_expect(benchprof::trace_internal::g_recording.load(std::memory_order_relaxed),
                            0);
  }
}

}  // namespace trace_gate

// A task: one logical operation, possibly spanning threads. Move-only; ends
// when End() is called or when it is destroyed, whichever is first. A Task
// created while no trace is recorded is inert: its regions are still
// recorded on their threads, but belong to no task.
class Task {
 public:
  Task() = default;
  Task(Task&& other) noexcept
      : id_(std::exchange(other.id_, 0)), type_(std::exchange(other.type_, nullptr)) {}
  Task& operator=(Task&& other) noexcept {
    if (this != &other) {
      End();
      id_ = std::exchange(other.id_, 0);
      type_ = std::exchange(other.type_, nullptr);
    }
    return *this;
  }
  Task(const Task&) = delete;
  Task& operator=(const Task&) = delete;
  ~Task() { End(); }

  // Ends the task now. Later calls do nothing.
  void End() noexcept {
    if constexpr (trace_gate::kCompiledIn) {
      if (id_ != 0) benchprof::trace_internal::EndTask(std::exchange(id_, 0), type_);
    }
  }

  // The task's id in the trace; 0 for an inert or ended task.
  uint64_t id() const { return id_; }

 private:
  friend Task NewTask(const char* type) noexcept;
  friend Task NewTask(const Task& parent, const char* type) noexcept;
  Task(uint64_t id, const char* type) : id_(id), type_(type) {}

  uint64_t id_ = 0;
  const char* type_ = nullptr;
};

// Starts a task of the given type (e.g. "document"). `type` must live until
// the process exits; trace-summary groups tasks by it.
inline Task NewTask(const char* type) noexcept {
  if constexpr (trace_gate::kCompiledIn) {
    if (trace_gate::Recording()) {
      return Task(benchprof::trace_internal::BeginTask(type, 0), type);
    }
  }
  return Task();
}

// Starts a subtask of `parent`; the trace records the parent's id.
inline Task NewTask(const Task& parent, const char* type) noexcept {
  if constexpr (trace_gate::kCompiledIn) {
    if (trace_gate::Recording()) {
      return Task(benchprof::trace_internal::BeginTask(type, parent.id()), type);
    }
  }
  return Task();
}

// A region: a stretch of the current thread's time. Move-only; ends when
// End() is called or when it is destroyed, whichever is first.
class [[nodiscard]] Region {
 public:
  Region() = default;
  Region(Region&& other) noexcept
      : task_id_(other.task_id_), name_(std::exchange(other.name_, nullptr)) {}
  Region& operator=(Region&&) = delete;
  Region(const Region&) = delete;
  Region& operator=(const Region&) = delete;
  ~Region() { End(); }

  // Ends the region now. Later calls do nothing.
  void End() noexcept {
    if constexpr (trace_gate::kCompiledIn) {
      if (name_ != nullptr) {
        benchprof::trace_internal::EndRegion(task_id_, std::exchange(name_, nullptr));
      }
    }
  }

 private:
  friend Region StartRegion(const Task& task, const char* name) noexcept;
  Region(uint64_t task_id, const char* name) : task_id_(task_id), name_(name) {}

  uint64_t task_id_ = 0;
  const char* name_ = nullptr;  // nullptr: not recording, or ended
};

// Starts a region named `name` (e.g. "Unmarshal") on the calling thread,
// inside `task`. `name` must live until the process exits.
inline Region StartRegion(const Task& task, const char* name) noexcept {
  if constexpr (trace_gate::kCompiledIn) {
    if (trace_gate::Recording()) {
      benchprof::trace_internal::BeginRegion(task.id(), name);
      return Region(task.id(), name);
    }
  }
  return Region();
}

// Starts a region that belongs to no task.
inline Region StartRegion(const char* name) noexcept { return StartRegion(Task(), name); }

// Runs fn() inside a region and returns what it returns.
template <typename Fn>
decltype(auto) WithRegion(const Task& task, const char* name, Fn&& fn) {
  Region region = StartRegion(task, name);
  return std::forward<Fn>(fn)();
}

// Runs fn() inside a region that belongs to no task.
template <typename Fn>
decltype(auto) WithRegion(const char* name, Fn&& fn) {
  return WithRegion(Task(), name, std::forward<Fn>(fn));
}

// Records a message at this instant, on the calling thread, in `task`.
// `category` must live until the process exits; `message` is copied.
inline void Log(const Task& task, const char* category, std::string_view message) noexcept {
  if constexpr (trace_gate::kCompiledIn) {
    if (trace_gate::Recording()) {
      benchprof::trace_internal::LogMessage(task.id(), category, message);
    }
  }
}

// Records a message that belongs to no task.
inline void Log(const char* category, std::string_view message) noexcept {
  Log(Task(), category, message);
}

// True while a trace is being recorded: for code that would do extra work
// only to annotate (formatting a log message, say).
inline bool TraceIsRecording() noexcept { return trace_gate::Recording(); }

}  // namespace BENCHPROF_TRACE_ABI_NAMESPACE
}  // namespace benchprof

#endif  // BENCHPROF_TRACE_H_
