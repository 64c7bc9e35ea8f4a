// Thread start and exit hooks for collectors that must act on every thread
// started while they run (the CPU sampler arms the new thread's timer, the
// tracer gives it a track): pthread_create is replaced (symbol interposition
// from the executable, so std::thread and every library's threads pass
// through it) by a version that runs the new thread's start routine through
// a trampoline calling the registered listeners.
//
// Which listeners a new thread gets is decided in the creating thread, by
// each listener's wants_new_thread(), so a collector can keep its own
// threads out. When no listener wants the thread (always, when none is
// registered), the real pthread_create is called unchanged.
//
//   constexpr collect::ThreadListener kListener{&Running, &ArmThisThread, &DisarmThisThread};
//   collect::AddThreadListener(&kListener);   // before the collector starts
//
// Thread-safety: AddThreadListener from one thread, before the threads it
// should see are created; the hooks run on any thread.
#ifndef BENCHPROF_COLLECT_THREAD_HOOKS_H_
#define BENCHPROF_COLLECT_THREAD_HOOKS_H_

namespace benchprof::collect {

struct ThreadListener {
  // In the creating thread, before the thread exists: whether this listener
  // hooks it. Must not allocate (it runs inside pthread_create).
  bool (*wants_new_thread)();
  // First thing on the new thread, before its start routine. May be null.
  void (*on_thread_start)();
  // When the start routine returns (not when the thread calls pthread_exit).
  // May be null.
  void (*on_thread_exit)();
};

// The most listeners that can be registered.
inline constexpr int kMaxThreadListeners = 8;

// Registers `listener` (which must outlive the process's threads) for
// threads created from now on. Registering one twice has no effect. Returns
// false when kMaxThreadListeners are registered already.
bool AddThreadListener(const ThreadListener* listener);

}  // namespace benchprof::collect

#endif  // BENCHPROF_COLLECT_THREAD_HOOKS_H_
