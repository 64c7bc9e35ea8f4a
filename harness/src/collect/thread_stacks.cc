// ASYNC-SIGNAL-SAFE: OnStackSignal() runs in a signal handler on any thread,
// possibly inside malloc. It takes no lock, never allocates, calls only
// gettid, CaptureStackInSignalHandler (stack_capture.h: guarded against
// re-entry) and atomics, and preserves errno. CaptureThreadStacks runs on an
// ordinary thread.
//
// Shared state: g_slots[0, g_slot_count) are the threads asked; the caller
// fills a slot's tid and sets it kAsked before raising the count; the
// handler of that thread fills frames and depth, then sets kAnswered
// (release); the caller reads only answered slots (acquire), and sets the
// count back to 0, so a late handler finds no slot.
#include "collect/thread_stacks.h"

#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <thread>

#include "collect/stack_capture.h"
#include "common/process_threads.h"

namespace benchprof::collect {
namespace {

constexpr int kMaxThreads = 1024;

enum SlotState : int { kUnused = 0, kAsked = 1, kAnswered = 2 };

struct Slot {
  std::atomic<pid_t> tid{0};
  std::atomic<int> state{kUnused};
  int depth = 0;
  uintptr_t frames[kMaxThreadStackFrames];
};

Slot g_slots[kMaxThreads];
std::atomic<int> g_slot_count{0};

// Async-signal-safe.
void OnStackSignal(int, siginfo_t*, void* context) {
  const int saved_errno = errno;
  const auto self = static_cast<pid_t>(syscall(SYS_gettid));
  const int count = g_slot_count.load(std::memory_order_acquire);
  for (int i = 0; i < count; ++i) {
    Slot& slot = g_slots[i];
    if (slot.tid.load(std::memory_order_relaxed) != self ||
        slot.state.load(std::memory_order_acquire) != kAsked) {
      continue;
    }
    slot.depth = CaptureInterruptedStack(context, slot.frames, kMaxThreadStackFrames);
    slot.state.store(kAnswered, std::memory_order_release);
    break;
  }
  errno = saved_errno;
}

bool InstallHandler() {
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_sigaction = &OnStackSignal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  return sigaction(ThreadStackSignal(), &action, nullptr) == 0;
}

}  // namespace

int ThreadStackSignal() { return SIGRTMIN + 5; }

std::vector<ThreadStack> CaptureThreadStacks(std::chrono::milliseconds wait) {
  static const bool installed = InstallHandler();
  const pid_t self = gettid();
  std::vector<ThreadStack> stacks;
  for (const pid_t tid : ListProcessThreads()) {
    if (tid != self && stacks.size() < static_cast<size_t>(kMaxThreads)) {
      stacks.push_back({tid, false, {}});
    }
  }
  if (!installed) return stacks;
  const int count = static_cast<int>(stacks.size());
  for (int i = 0; i < count; ++i) {
    g_slots[i].tid.store(stacks[static_cast<size_t>(i)].tid, std::memory_order_relaxed);
    g_slots[i].state.store(kAsked, std::memory_order_release);
  }
  g_slot_count.store(count, std::memory_order_release);
  const pid_t pid = getpid();
  for (int i = 0; i < count; ++i) {
    if (syscall(SYS_tgkill, pid, g_slots[i].tid.load(), ThreadStackSignal()) != 0) {
      g_slots[i].state.store(kUnused);  // ended meanwhile
    }
  }
  const auto deadline = std::chrono::steady_clock::now() + wait;
  for (;;) {
    bool pending = false;
    for (int i = 0; i < count; ++i) pending = pending || g_slots[i].state.load() == kAsked;
    if (!pending || std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  for (int i = 0; i < count; ++i) {
    Slot& slot = g_slots[i];
    if (slot.state.load(std::memory_order_acquire) != kAnswered) continue;
    ThreadStack& stack = stacks[static_cast<size_t>(i)];
    stack.captured = true;
    stack.frames.assign(slot.frames, slot.frames + slot.depth);
  }
  g_slot_count.store(0, std::memory_order_release);
  for (int i = 0; i < count; ++i) g_slots[i].state.store(kUnused);
  return stacks;
}

}  // namespace benchprof::collect
