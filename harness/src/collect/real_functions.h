// LOCK CONTEXT and ASYNC-SIGNAL-SAFE: the real definitions (glibc's, or a
// sanitizer's interceptors) of the functions contention_hooks.cc replaces,
// found with dlsym(RTLD_NEXT) and called through one load and one jump.
// Every one is looked up before main (real_functions.cc), so a call from a
// hook, a signal handler or the allocator never runs dlsym.
//
//   return real::MutexLock::Call(m);
//
// Thread-safety: thread-safe (relaxed atomics; a lookup may run twice).
#ifndef BENCHPROF_COLLECT_REAL_FUNCTIONS_H_
#define BENCHPROF_COLLECT_REAL_FUNCTIONS_H_

#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>

#include <atomic>

namespace benchprof::collect::real {

// The next definition of `name`, at `version` if the C library versions it
// (glibc keeps an old pthread_cond_wait for binaries from before 2002).
inline void* Next(const char* name, const char* version = nullptr) {
  void* next = version != nullptr ? dlvsym(RTLD_NEXT, name, version) : nullptr;
  return next != nullptr ? next : dlsym(RTLD_NEXT, name);
}

// A function's name and, where the C library versions it, its version.
struct Symbol {
  const char* name;
  const char* version;
};

// The real definition of one function: its pointer starts out as a
// resolver that looks it up and calls it, so that a call is always one load
// and one jump (no null test, no register to keep); the global further down
// (real_functions.cc) resolves every one at start-up, so a benchmark never
// pays for dlsym.
template <const Symbol& kSymbol, typename Signature>
class Real;

template <const Symbol& kSymbol, typename R, typename... Args>
class Real<kSymbol, R(Args...)> {
 public:
  using Function = R (*)(Args...);

  static R Call(Args... args) { return function_.load(std::memory_order_relaxed)(args...); }

  static void Resolve() { function_.store(Lookup(), std::memory_order_relaxed); }

 private:
  static Function Lookup() {
    return reinterpret_cast<Function>(Next(kSymbol.name, kSymbol.version));
  }

  [[gnu::cold]] static R ResolveAndCall(Args... args) {
    const Function function = Lookup();
    function_.store(function, std::memory_order_relaxed);
    return function(args...);
  }

  static constinit inline std::atomic<Function> function_{&ResolveAndCall};
};

inline constexpr Symbol kMutexLock{"pthread_mutex_lock", nullptr};
inline constexpr Symbol kMutexTrylock{"pthread_mutex_trylock", nullptr};
inline constexpr Symbol kMutexTimedlock{"pthread_mutex_timedlock", nullptr};
inline constexpr Symbol kMutexClocklock{"pthread_mutex_clocklock", nullptr};
inline constexpr Symbol kMutexUnlock{"pthread_mutex_unlock", nullptr};
inline constexpr Symbol kRdlock{"pthread_rwlock_rdlock", nullptr};
inline constexpr Symbol kTryrdlock{"pthread_rwlock_tryrdlock", nullptr};
inline constexpr Symbol kTimedrdlock{"pthread_rwlock_timedrdlock", nullptr};
inline constexpr Symbol kClockrdlock{"pthread_rwlock_clockrdlock", nullptr};
inline constexpr Symbol kWrlock{"pthread_rwlock_wrlock", nullptr};
inline constexpr Symbol kTrywrlock{"pthread_rwlock_trywrlock", nullptr};
inline constexpr Symbol kTimedwrlock{"pthread_rwlock_timedwrlock", nullptr};
inline constexpr Symbol kClockwrlock{"pthread_rwlock_clockwrlock", nullptr};
inline constexpr Symbol kRwunlock{"pthread_rwlock_unlock", nullptr};
inline constexpr Symbol kCondWait{"pthread_cond_wait", "GLIBC_2.3.2"};
inline constexpr Symbol kCondTimedwait{"pthread_cond_timedwait", "GLIBC_2.3.2"};
inline constexpr Symbol kCondClockwait{"pthread_cond_clockwait", nullptr};
inline constexpr Symbol kSemWait{"sem_wait", nullptr};
inline constexpr Symbol kSemTrywait{"sem_trywait", nullptr};
inline constexpr Symbol kSemTimedwait{"sem_timedwait", nullptr};
inline constexpr Symbol kSemClockwait{"sem_clockwait", nullptr};
inline constexpr Symbol kJoin{"pthread_join", nullptr};
inline constexpr Symbol kTryjoin{"pthread_tryjoin_np", nullptr};
inline constexpr Symbol kTimedjoin{"pthread_timedjoin_np", nullptr};
inline constexpr Symbol kClockjoin{"pthread_clockjoin_np", nullptr};

using MutexLock = Real<kMutexLock, int(pthread_mutex_t*)>;
using MutexTrylock = Real<kMutexTrylock, int(pthread_mutex_t*)>;
using MutexTimedlock = Real<kMutexTimedlock, int(pthread_mutex_t*, const timespec*)>;
using MutexClocklock = Real<kMutexClocklock, int(pthread_mutex_t*, clockid_t, const timespec*)>;
using MutexUnlock = Real<kMutexUnlock, int(pthread_mutex_t*)>;
using Rdlock = Real<kRdlock, int(pthread_rwlock_t*)>;
using Tryrdlock = Real<kTryrdlock, int(pthread_rwlock_t*)>;
using Timedrdlock = Real<kTimedrdlock, int(pthread_rwlock_t*, const timespec*)>;
using Clockrdlock = Real<kClockrdlock, int(pthread_rwlock_t*, clockid_t, const timespec*)>;
using Wrlock = Real<kWrlock, int(pthread_rwlock_t*)>;
using Trywrlock = Real<kTrywrlock, int(pthread_rwlock_t*)>;
using Timedwrlock = Real<kTimedwrlock, int(pthread_rwlock_t*, const timespec*)>;
using Clockwrlock = Real<kClockwrlock, int(pthread_rwlock_t*, clockid_t, const timespec*)>;
using Rwunlock = Real<kRwunlock, int(pthread_rwlock_t*)>;
using CondWait = Real<kCondWait, int(pthread_cond_t*, pthread_mutex_t*)>;
using CondTimedwait = Real<kCondTimedwait, int(pthread_cond_t*, pthread_mutex_t*, const timespec*)>;
using CondClockwait =
    Real<kCondClockwait, int(pthread_cond_t*, pthread_mutex_t*, clockid_t, const timespec*)>;
using SemWait = Real<kSemWait, int(sem_t*)>;
using SemTrywait = Real<kSemTrywait, int(sem_t*)>;
using SemTimedwait = Real<kSemTimedwait, int(sem_t*, const timespec*)>;
using SemClockwait = Real<kSemClockwait, int(sem_t*, clockid_t, const timespec*)>;
using Join = Real<kJoin, int(pthread_t, void**)>;
using Tryjoin = Real<kTryjoin, int(pthread_t, void**)>;
using Timedjoin = Real<kTimedjoin, int(pthread_t, void**, const timespec*)>;
using Clockjoin = Real<kClockjoin, int(pthread_t, void**, clockid_t, const timespec*)>;

// glibc's syscall(), variadic, which the class above cannot forward to.
using SyscallFunction = long (*)(long, ...);
inline constinit std::atomic<SyscallFunction> g_real_syscall{nullptr};

inline SyscallFunction RealSyscall() {
  SyscallFunction real = g_real_syscall.load(std::memory_order_relaxed);
  if (__builtin_expect(real == nullptr, 0)) {  // a call before start-up resolved it
    real = reinterpret_cast<SyscallFunction>(Next("syscall"));
    g_real_syscall.store(real, std::memory_order_relaxed);
  }
  return real;
}

}  // namespace benchprof::collect::real

#endif  // BENCHPROF_COLLECT_REAL_FUNCTIONS_H_
