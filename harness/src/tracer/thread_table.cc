// Cold paths only: claiming a slot happens once per thread and tracing
// session. Nothing here allocates (a thread's first event may be inside a
// benchmark's timed loop, where an allocation would count in allocs/op).
#include "tracer/thread_table.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <charconv>
#include <cstring>
#include <utility>

#include "tracer/trace_clock.h"

namespace benchprof::tracer {

constinit ThreadSlot g_thread_slots[kMaxThreads];
constinit std::atomic<uint32_t> g_thread_slots_used{0};

namespace {

class NameLock {
 public:
  explicit NameLock(ThreadSlot& slot) : slot_(slot) {
    while (slot_.name_lock.exchange(true, std::memory_order_acquire)) sched_yield();
  }
  ~NameLock() { slot_.name_lock.store(false, std::memory_order_release); }
  NameLock(const NameLock&) = delete;
  NameLock& operator=(const NameLock&) = delete;

 private:
  ThreadSlot& slot_;
};

char g_process_comm[17] = {};

// "thread <tid>", or the name the thread was given with
// pthread_setname_np if it differs from the process's (new threads inherit
// their creator's name, which says nothing).
void SetDefaultName(ThreadSlot& slot) {
  char own[17] = {};
  prctl(PR_GET_NAME, own);
  if (own[0] != '\0' && std::strcmp(own, g_process_comm) != 0) {
    SetSlotName(slot, own, NameRank::kSystem);
    return;
  }
  char text[32] = "thread ";
  const std::to_chars_result end = std::to_chars(text + 7, text + sizeof text - 1, slot.tid);
  SetSlotName(slot, std::string_view(text, static_cast<size_t>(end.ptr - text)),
              NameRank::kDefault);
}

}  // namespace

void RememberProcessThreadName() { prctl(PR_GET_NAME, g_process_comm); }

const char* ProcessThreadName() { return g_process_comm; }

int64_t CurrentThreadCpuNanos() {
  timespec now;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

ThreadSlot* ClaimSlot(bool internal, bool started_while_tracing) {
  for (uint32_t i = 0; i < kMaxThreads; ++i) {
    ThreadSlot& slot = g_thread_slots[i];
    SlotState expected = SlotState::kFree;
    if (slot.state.load(std::memory_order_relaxed) != SlotState::kFree ||
        !slot.state.compare_exchange_strong(expected, SlotState::kClaiming,
                                            std::memory_order_acquire)) {
      continue;
    }
    uint32_t used = g_thread_slots_used.load(std::memory_order_relaxed);
    while (used < i + 1 &&
           !g_thread_slots_used.compare_exchange_weak(used, i + 1, std::memory_order_release)) {
    }
    slot.pos = 0;
    slot.limit.store(0, std::memory_order_relaxed);
    slot.published.store(nullptr, std::memory_order_release);
    // A chunk left by the slot's last thread, which ended while no trace was
    // recorded (its session is over): back to the pool, or the pool shrinks.
    if (Chunk* stale = std::exchange(slot.chunk, nullptr); stale != nullptr) {
      stale->header.pool->Push(stale);
    }
    slot.generation = 0;  // no session yet: the first event announces the thread
    slot.internal = internal;
    slot.started_while_tracing = started_while_tracing;
    slot.tid = gettid();
    slot.has_cpu_clock = pthread_getcpuclockid(pthread_self(), &slot.cpu_clock) == 0;
    slot.start_ticks = ReadTicks();
    slot.start_cpu_nanos = CurrentThreadCpuNanos();
    slot.exit_ticks = 0;
    slot.exit_cpu_nanos = 0;
    SetDefaultName(slot);
    slot.serial.fetch_add(1, std::memory_order_relaxed);
    slot.state.store(SlotState::kLive, std::memory_order_release);
    return &slot;
  }
  return nullptr;
}

void SetSlotName(ThreadSlot& slot, std::string_view name, NameRank rank) {
  if (name.size() > kMaxThreadNameBytes) name = name.substr(0, kMaxThreadNameBytes);
  NameLock lock(slot);
  std::memcpy(slot.name, name.data(), name.size());
  slot.name_length = static_cast<uint8_t>(name.size());
  slot.name_rank = rank;
}

size_t CopySlotName(ThreadSlot& slot, char* out, NameRank* rank) {
  NameLock lock(slot);
  std::memcpy(out, slot.name, slot.name_length);
  if (rank != nullptr) *rank = slot.name_rank;
  return slot.name_length;
}

size_t ReadSystemThreadName(pid_t tid, char* out) {
  char path[64] = "/proc/self/task/";
  std::to_chars_result end = std::to_chars(path + 16, path + 40, tid);
  std::memcpy(end.ptr, "/comm", 6);
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  const ssize_t got = read(fd, out, 16);
  close(fd);
  if (got <= 0) return 0;
  size_t length = static_cast<size_t>(got);
  while (length > 0 && (out[length - 1] == '\n' || out[length - 1] == '\0')) --length;
  if (length == 0 ||
      (std::strlen(g_process_comm) == length && std::memcmp(out, g_process_comm, length) == 0)) {
    return 0;
  }
  return length;
}

}  // namespace benchprof::tracer
