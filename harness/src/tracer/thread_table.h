// The threads the recorder knows: one slot per live thread that has
// recorded an event (or was started while tracing), holding its chunk, its
// name, and what the CPU-usage sampler needs to read its CPU clock.
//
// HOT PATH: the owner thread reads `pos`, `limit` and `chunk` for every
// event (see event_emitter.h). Other threads touch a slot only in cold
// paths: the recorder's Stop() forces `limit` to 0 and reads `published`;
// the sampler reads identity, CPU clock and exit data and frees exited
// slots; the writer reads `published` at the end.
//
// Slots live in one static table and are reused, never freed, so any thread
// may read any slot at any time. A slot's owner publishes each change of
// `state` with release semantics.
//
// Thread-safety: as described per field.
#ifndef BENCHPROF_TRACER_THREAD_TABLE_H_
#define BENCHPROF_TRACER_THREAD_TABLE_H_

#include <sys/types.h>
#include <time.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tracer/trace_buffer.h"

namespace benchprof::tracer {

// Most threads traced at once; later threads' events are dropped (counted).
inline constexpr uint32_t kMaxThreads = 4096;
inline constexpr size_t kMaxThreadNameBytes = 47;

// How much a thread name says; a name only replaces one that says as much
// or less.
enum class NameRank : uint8_t {
  kDefault = 1,   // "thread <tid>"
  kSystem = 2,    // set with pthread_setname_np / prctl
  kExplicit = 3,  // given by the harness ("main", "benchmark worker 1")
};

enum class SlotState : uint8_t {
  kFree = 0,
  kClaiming,  // being set up by a new owner
  kLive,
  kExited,  // the owner ended; the sampler frees the slot after its last counter
};

struct alignas(64) ThreadSlot {
  // ---- hot, owner only (limit is also stored by Stop) ----
  uint32_t pos = 0;                // next free RecordSlot in chunk
  std::atomic<uint32_t> limit{0};  // RecordSlots usable; 0 forces the slow path
  Chunk* chunk = nullptr;          // the owner's view of its chunk
  // ---- cold, owner ----
  uint32_t generation = 0;                 // session of `chunk`'s records
  std::atomic<int> in_slow_path{0};        // Stop waits for 0 on every slot
  std::atomic<Chunk*> published{nullptr};  // `chunk`, for Stop and the writer
  // ---- identity: written by the owner before state becomes kLive ----
  std::atomic<SlotState> state{SlotState::kFree};
  std::atomic<uint32_t> serial{0};     // bumped at every claim
  bool internal = false;               // the recorder's own thread: no CPU counter
  bool started_while_tracing = false;  // claimed as the thread began (thread_hooks.cc)
  pid_t tid = 0;
  clockid_t cpu_clock = 0;
  bool has_cpu_clock = false;
  uint64_t start_ticks = 0;  // when the slot was claimed
  int64_t start_cpu_nanos = 0;
  // ---- exit: written by the owner before state becomes kExited ----
  uint64_t exit_ticks = 0;
  int64_t exit_cpu_nanos = 0;
  // ---- name: guarded by name_lock (owner writes, sampler reads) ----
  std::atomic<bool> name_lock{false};
  NameRank name_rank = NameRank::kDefault;
  uint8_t name_length = 0;
  char name[kMaxThreadNameBytes] = {};  // initialised: clang requires it of constinit
};

// The table, and how far into it slots have ever been claimed.
extern ThreadSlot g_thread_slots[kMaxThreads];
extern std::atomic<uint32_t> g_thread_slots_used;

// Claims a free slot for the calling thread, fills in its identity (tid,
// CPU clock, start time and CPU time, default name) and marks it live.
// `started_while_tracing`: the thread is just beginning, started while a
// trace is recorded. Returns nullptr if every slot is taken. Cold path; does
// not allocate.
ThreadSlot* ClaimSlot(bool internal, bool started_while_tracing);

// Sets the slot's name (cut to kMaxThreadNameBytes). Owner only.
void SetSlotName(ThreadSlot& slot, std::string_view name, NameRank rank);

// Copies the slot's name into `out` (kMaxThreadNameBytes at least) and
// returns its length; `rank` receives its rank if not null. Any thread.
size_t CopySlotName(ThreadSlot& slot, char* out, NameRank* rank = nullptr);

// The name thread `tid` of this process was given with pthread_setname_np,
// read from /proc without allocating; 0 if it has none of its own (it still
// has the process's) or cannot be read. Any thread.
size_t ReadSystemThreadName(pid_t tid, char* out /* 16 bytes */);

// Remembers the calling thread's name (call it on the main thread at
// start), so that threads that merely inherited it get "thread <tid>".
void RememberProcessThreadName();

// The name remembered by RememberProcessThreadName().
const char* ProcessThreadName();

// The calling thread's CPU time in nanoseconds.
int64_t CurrentThreadCpuNanos();

}  // namespace benchprof::tracer

#endif  // BENCHPROF_TRACER_THREAD_TABLE_H_
