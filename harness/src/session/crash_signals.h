// What bench does when a benchmark crashes (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
// SIGABRT, an uncaught exception): the crashing thread's stack with the
// benchmark's name, the completed results written, the temporaries
// removed, and then the process dies of the original signal (default
// action: core dumps still work).
//
// The crashing thread may hold any lock, the allocator's included, so its
// handler does only async-signal-safe work: it records its stack (libunwind,
// collect/stack_capture.h), asks the interruption watcher to do the rest
// (a real-time signal, CrashReportSignal(), which only the watcher takes),
// waits at most kCrashReportWait for it, and re-raises. The watcher
// symbolizes and writes on its own thread; if that deadlocks on a lock the
// crashed thread holds (a crash inside malloc), the wait ends and the
// process dies as it would have, after the handler printed the raw
// addresses.
//
//   InstallCrashHandlers();            // main thread
//   SetCrashWatcher(gettid());         // the watcher thread
//   // watcher, on CrashReportSignal(): CrashReport r = TakeCrashReport(); ...; CrashHandled();
//
// Thread-safety: InstallCrashHandlers once; EnsureAlternateSignalStack on any
// thread; TakeCrashReport and CrashHandled on the watcher thread.
#ifndef BENCHPROF_SESSION_CRASH_SIGNALS_H_
#define BENCHPROF_SESSION_CRASH_SIGNALS_H_

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <vector>

namespace benchprof::session {

// AddressSanitizer and ThreadSanitizer report deadly signals themselves
// (with more than a stack): their builds keep their handlers.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kCrashHandlersInstalled = false;
#else
inline constexpr bool kCrashHandlersInstalled = true;
#endif

// How long a crashing thread waits for the watcher's report and outputs.
inline constexpr std::chrono::seconds kCrashReportWait{10};

// The signal that tells the watcher of a crash (SIGRTMIN + 6): block it in
// every thread but the watcher's, which waits for it.
int CrashReportSignal();

// Installs the crash handlers and the terminate handler (which names an
// uncaught exception, then aborts), with an alternate signal stack for the
// calling thread and the main thread's stack overflow in mind: call it on
// the main thread. Does nothing where !kCrashHandlersInstalled. Until
// SetCrashWatcher(), a crash goes straight to the default action.
void InstallCrashHandlers();

// Gives the calling thread an alternate signal stack if it has none, so that
// a stack overflow on it is reported too; the stack is unmapped when the
// thread ends. Benchmark threads call it before each loop (the library
// starts new ones for every run), outside the timed region. The stack is
// mapped with mmap, not malloc: the heap profile does not see it. Does
// nothing where !kCrashHandlersInstalled.
void EnsureAlternateSignalStack();

// In a child forked by a benchmark (pthread_atfork's child handler): the
// default action for every crash signal and the terminate handler from
// before InstallCrashHandlers(), so that the child's crash is its own, as
// without benchprof. Async-signal-safe.
void UninstallCrashHandlersInChild();

// The thread to tell of a crash (the watcher calls it, for itself).
void SetCrashWatcher(pid_t watcher);

struct CrashReport {
  int signal_number = 0;
  pid_t tid = 0;                  // the crashing thread
  uintptr_t fault_address = 0;    // si_addr
  std::vector<uintptr_t> frames;  // the faulting instruction first
};

// The crash the watcher was told of.
CrashReport TakeCrashReport();

// The watcher is done: the crashing thread may re-raise.
void CrashHandled();

}  // namespace benchprof::session

#endif  // BENCHPROF_SESSION_CRASH_SIGNALS_H_
