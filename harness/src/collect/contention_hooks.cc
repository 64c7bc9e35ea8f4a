// LOCK CONTEXT and ASYNC-SIGNAL-SAFE fast paths: the replacements of the
// pthread and semaphore functions a thread blocks in — mutex and rwlock
// locks and unlocks, condition-variable waits, semaphore waits, thread
// joins — and of syscall(), for its futex waits, for the contention sampler
// (contention_sampler.h). Defined in the executable, they take precedence
// over glibc's for every library in the process (std::mutex,
// std::shared_mutex, std::condition_variable and std::thread::join reach
// them through the PLT; libstdc++'s std::atomic::wait, counting_semaphore,
// latch and barrier call syscall(SYS_futex, ...) from inline code in the
// program, std::future from libstdc++); each forwards to the next
// definition (glibc's, or a sanitizer's interceptor) found with
// dlsym(RTLD_NEXT). syscall() is also called inside signal handlers (the
// unwinder validates addresses with it): its fast path only reads its
// arguments and forwards them.
//
// When nothing consumes waits (no block or mutex profile, no trace) each
// function is one relaxed load and a call through a pointer. Otherwise a
// lock is first tried without waiting (trylock): an uncontended lock costs
// that one attempt and no clock read; only a lock that was taken reads the
// clock before and after the real, blocking call. Unlocks check one slot of
// the waiter table while the mutex profile runs.
//
// Every hook returns what glibc's function returns, with the same errno
// and the same effect, for every argument (tests/
// contention_hooks_arguments_test.cc compares them call by call). glibc
// checks a clock id and a deadline before it tries the lock (rwlocks,
// semaphores, clock joins), or only once it must wait, when the kernel may
// also refuse a time before 1970 (mutexes): so a call whose clock or
// deadline glibc could not wait on is not tried first, nor timed, but
// forwarded as it is. sem_wait and sem_timedwait act on a pending
// cancellation before they try, and so do their hooks.
//
// Re-entrancy: the sampler's stack capture (libunwind) may lock a mutex of
// its own; a per-thread flag sends every hook called from inside a hook
// straight to the real function. The recording code keeps errno and holds
// off cancellation (HookWork below). Nothing here allocates.
//
// Every function is placed in the lock-hook section (hook_text.h), so
// contention profile stacks start at the caller.
#include <dlfcn.h>
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <time.h>

#include <atomic>

#include "collect/contention_sampler.h"
#include "collect/hook_text.h"
#include "collect/real_functions.h"

namespace {

using namespace benchprof::collect::real;  // the real functions, by their names
using benchprof::collect::WaitKind;
using benchprof::collect::internal::g_switches;
using benchprof::collect::internal::HasWaiters;
using benchprof::collect::internal::JoinWaiters;
using benchprof::collect::internal::LeaveWaiters;
using benchprof::collect::internal::NowNanos;
using benchprof::collect::internal::ObserverNow;
using benchprof::collect::internal::PrepareWaitRecord;
using benchprof::collect::internal::RecordUnlockCharge;
using benchprof::collect::internal::RecordWait;
using benchprof::collect::internal::TakeUnlockCharge;

// Set while this thread runs hook code after the real call: anything the
// recorders lock goes straight to the real function.
__thread bool t_in_hook __attribute__((tls_model("initial-exec"))) = false;

// A stretch of recording code in a hook: what it locks goes straight to
// the real functions (t_in_hook); errno is kept, as the stack capture sets
// it (libunwind checks addresses by reading and writing a pipe); and
// cancellation is held off, as those reads and writes are cancellation
// points: a lock, an unlock or a syscall() that glibc never ends by
// cancellation must not end there, and no capture may stop halfway.
class HookWork {
 public:
  HookWork() : saved_errno_(errno) {
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state_);
    t_in_hook = true;
  }

  ~HookWork() {
    t_in_hook = false;
    pthread_setcancelstate(cancel_state_, &cancel_state_);
    errno = saved_errno_;
  }

  HookWork(const HookWork&) = delete;
  HookWork& operator=(const HookWork&) = delete;

 private:
  int saved_errno_;
  int cancel_state_ = PTHREAD_CANCEL_ENABLE;
};

// Whether anything consumes waits: the one test on every hook's fast path.
bool TimingWaits() {
  return __builtin_expect(g_switches.timing_waits.load(std::memory_order_relaxed), 0);
}

// Whether the mutex profile runs: the one test on an unlock's fast path.
bool BlamingUnlocks() {
  return __builtin_expect(g_switches.blaming_unlocks.load(std::memory_order_relaxed), 0);
}

// Whether glibc waits on `clock`: only these two; with any other clock the
// clocked functions return EINVAL without trying the lock.
bool WaitableClock(clockid_t clock) { return clock == CLOCK_REALTIME || clock == CLOCK_MONOTONIC; }

// Whether glibc could wait until `deadline`: given, tv_nsec in [0, 1e9)
// (or EINVAL), not before 1970 (a past deadline waits for nothing, and the
// kernel refuses such a time for a priority-inheriting mutex, EINVAL where
// a try would have taken an owner-died robust one). Calls with any other
// deadline are forwarded untouched: what glibc does with them is glibc's.
bool WaitableDeadline(const timespec* deadline) {
  return deadline != nullptr && deadline->tv_sec >= 0 &&
         static_cast<unsigned long>(deadline->tv_nsec) < 1'000'000'000UL;
}

bool Waitable(clockid_t clock, const timespec* deadline) {
  return WaitableClock(clock) && WaitableDeadline(deadline);
}

// A wait about to block: its start, on both clocks, whether it joined the
// waiters of `lock` (the mutex profile; null for waits on no lock), and its
// block profile bucket. The stack is captured before the wait, so that the
// capture overlaps the wait instead of lengthening the critical section the
// waiter is about to enter.
class TimedWait {
 public:
  TimedWait(WaitKind kind, const void* lock) : kind_(kind), lock_(lock) {
    HookWork work;
    bucket_ = PrepareWaitRecord(kind);
    begin_ns_ = NowNanos();
    observer_begin_ = ObserverNow();
    joined_ = lock != nullptr && BlamingUnlocks() && JoinWaiters(lock, begin_ns_);
  }

  // The wait has ended (or its thread is being cancelled in it): records it.
  ~TimedWait() {
    HookWork work;
    const int64_t end_ns = NowNanos();
    if (joined_) LeaveWaiters(lock_, begin_ns_);
    RecordWait(kind_, begin_ns_, end_ns, observer_begin_, bucket_);
  }

  TimedWait(const TimedWait&) = delete;
  TimedWait& operator=(const TimedWait&) = delete;

 private:
  WaitKind kind_;
  const void* lock_;
  uint64_t bucket_;
  int64_t begin_ns_ = 0;
  uint64_t observer_begin_ = 0;
  bool joined_ = false;
};

// The slow paths. Each hook's fast path tests one switch and jumps to the
// real function; everything else is out of line, in the hook section.
// noclone: a specialised clone would leave the hook section.
#define BENCHPROF_SLOW_PATH [[gnu::noinline, gnu::noclone]] BENCHPROF_LOCK_HOOK_TEXT

// The helpers below are templates, which GCC places in .text whatever their
// section attribute: they are always inlined into the slow paths, so that
// the stack a recorder captures runs through hook-section code.
#define BENCHPROF_INLINE [[gnu::always_inline]] inline

// A lock that was taken when tried: timed around `acquire`, the real,
// blocking call.
template <typename Acquire>
BENCHPROF_INLINE int WaitForLock(WaitKind kind, const void* lock, Acquire acquire) {
  if (t_in_hook) return acquire();
  TimedWait wait(kind, lock);
  return acquire();
}

// A lock that may block: tried first (an uncontended lock ends there, with
// no clock read), timed only if taken.
template <typename TryLock, typename Acquire>
BENCHPROF_INLINE int LockObserved(WaitKind kind, const void* lock, TryLock try_lock,
                                  Acquire acquire) {
  const int tried = try_lock();
  if (tried != EBUSY) return tried;  // acquired, or an error acquiring would give too
  return WaitForLock(kind, lock, acquire);
}

// A wait that always blocks (a condition variable: Go counts every
// Cond.Wait), timed.
template <typename Wait>
BENCHPROF_INLINE int WaitObserved(WaitKind kind, Wait wait) {
  if (t_in_hook) return wait();
  TimedWait timed(kind, nullptr);
  return wait();
}

// Whether a semaphore wait acts on a pending cancellation even when it
// need not block, as glibc's sem_wait and sem_timedwait do (POSIX: they
// "shall" be cancellation points); its sem_clockwait does not.
enum class Cancellation : bool { kOnlyIfBlocked, kAlways };

// A semaphore wait blocks only when the count is 0: tried first.
template <typename Wait>
BENCHPROF_INLINE int SemaphoreObserved(sem_t* s, Cancellation cancellation, Wait wait) {
  if (cancellation == Cancellation::kAlways) pthread_testcancel();
  const int saved_errno = errno;
  if (SemTrywait::Call(s) == 0) return 0;
  errno = saved_errno;
  return WaitObserved(WaitKind::kSemaphore, wait);
}

// A join blocks only while the thread runs: tried first.
template <typename Wait>
BENCHPROF_INLINE int JoinObserved(pthread_t thread, void** result, Wait wait) {
  const int tried = Tryjoin::Call(thread, result);
  if (tried != EBUSY) return tried;
  return WaitObserved(WaitKind::kJoin, wait);
}

// The mutex profile's side of an unlock: takes its waiters' time before
// `unlock` (cheap, inside the critical section) and records it with the
// unlocker's stack after (outside it).
template <typename Unlock>
BENCHPROF_INLINE int UnlockBlamed(const void* lock, WaitKind kind, Unlock unlock) {
  if (t_in_hook || !HasWaiters(lock)) return unlock();
  const benchprof::collect::internal::UnlockCharge charge = TakeUnlockCharge(lock);
  const int result = unlock();
  if (charge.charge_ns > 0) {
    HookWork work;
    RecordUnlockCharge(kind, charge);
  }
  return result;
}

BENCHPROF_SLOW_PATH int MutexLockSlow(pthread_mutex_t* m) {
  return LockObserved(
      WaitKind::kMutex, m, [m] { return MutexTrylock::Call(m); },
      [m] { return MutexLock::Call(m); });
}

BENCHPROF_SLOW_PATH int MutexTimedlockSlow(pthread_mutex_t* m, const timespec* t) {
  if (!WaitableDeadline(t)) return MutexTimedlock::Call(m, t);
  return LockObserved(
      WaitKind::kMutex, m, [m] { return MutexTrylock::Call(m); },
      [m, t] { return MutexTimedlock::Call(m, t); });
}

BENCHPROF_SLOW_PATH int MutexClocklockSlow(pthread_mutex_t* m, clockid_t c, const timespec* t) {
  if (!Waitable(c, t)) return MutexClocklock::Call(m, c, t);
  return LockObserved(
      WaitKind::kMutex, m, [m] { return MutexTrylock::Call(m); },
      [m, c, t] { return MutexClocklock::Call(m, c, t); });
}

BENCHPROF_SLOW_PATH int MutexUnlockSlow(pthread_mutex_t* m) {
  return UnlockBlamed(m, WaitKind::kMutex, [m] { return MutexUnlock::Call(m); });
}

BENCHPROF_SLOW_PATH int RdlockSlow(pthread_rwlock_t* l) {
  return LockObserved(
      WaitKind::kRwlockRead, l, [l] { return Tryrdlock::Call(l); },
      [l] { return Rdlock::Call(l); });
}

BENCHPROF_SLOW_PATH int TimedrdlockSlow(pthread_rwlock_t* l, const timespec* t) {
  if (!WaitableDeadline(t)) return Timedrdlock::Call(l, t);
  return LockObserved(
      WaitKind::kRwlockRead, l, [l] { return Tryrdlock::Call(l); },
      [l, t] { return Timedrdlock::Call(l, t); });
}

BENCHPROF_SLOW_PATH int ClockrdlockSlow(pthread_rwlock_t* l, clockid_t c, const timespec* t) {
  if (!Waitable(c, t)) return Clockrdlock::Call(l, c, t);
  return LockObserved(
      WaitKind::kRwlockRead, l, [l] { return Tryrdlock::Call(l); },
      [l, c, t] { return Clockrdlock::Call(l, c, t); });
}

BENCHPROF_SLOW_PATH int WrlockSlow(pthread_rwlock_t* l) {
  return LockObserved(
      WaitKind::kRwlockWrite, l, [l] { return Trywrlock::Call(l); },
      [l] { return Wrlock::Call(l); });
}

BENCHPROF_SLOW_PATH int TimedwrlockSlow(pthread_rwlock_t* l, const timespec* t) {
  if (!WaitableDeadline(t)) return Timedwrlock::Call(l, t);
  return LockObserved(
      WaitKind::kRwlockWrite, l, [l] { return Trywrlock::Call(l); },
      [l, t] { return Timedwrlock::Call(l, t); });
}

BENCHPROF_SLOW_PATH int ClockwrlockSlow(pthread_rwlock_t* l, clockid_t c, const timespec* t) {
  if (!Waitable(c, t)) return Clockwrlock::Call(l, c, t);
  return LockObserved(
      WaitKind::kRwlockWrite, l, [l] { return Trywrlock::Call(l); },
      [l, c, t] { return Clockwrlock::Call(l, c, t); });
}

BENCHPROF_SLOW_PATH int RwunlockSlow(pthread_rwlock_t* l) {
  return UnlockBlamed(l, WaitKind::kRwlockWrite, [l] { return Rwunlock::Call(l); });
}

BENCHPROF_SLOW_PATH int CondWaitSlow(pthread_cond_t* c, pthread_mutex_t* m) {
  return WaitObserved(WaitKind::kCondition, [c, m] { return CondWait::Call(c, m); });
}

BENCHPROF_SLOW_PATH int CondTimedwaitSlow(pthread_cond_t* c, pthread_mutex_t* m,
                                          const timespec* t) {
  if (!WaitableDeadline(t)) return CondTimedwait::Call(c, m, t);  // no wait to record
  return WaitObserved(WaitKind::kCondition, [c, m, t] { return CondTimedwait::Call(c, m, t); });
}

BENCHPROF_SLOW_PATH int CondClockwaitSlow(pthread_cond_t* c, pthread_mutex_t* m, clockid_t clock,
                                          const timespec* t) {
  if (!Waitable(clock, t)) return CondClockwait::Call(c, m, clock, t);
  return WaitObserved(WaitKind::kCondition,
                      [c, m, clock, t] { return CondClockwait::Call(c, m, clock, t); });
}

BENCHPROF_SLOW_PATH int SemWaitSlow(sem_t* s) {
  return SemaphoreObserved(s, Cancellation::kAlways, [s] { return SemWait::Call(s); });
}

BENCHPROF_SLOW_PATH int SemTimedwaitSlow(sem_t* s, const timespec* t) {
  if (!WaitableDeadline(t)) return SemTimedwait::Call(s, t);
  return SemaphoreObserved(s, Cancellation::kAlways, [s, t] { return SemTimedwait::Call(s, t); });
}

BENCHPROF_SLOW_PATH int SemClockwaitSlow(sem_t* s, clockid_t c, const timespec* t) {
  if (!Waitable(c, t)) return SemClockwait::Call(s, c, t);
  return SemaphoreObserved(s, Cancellation::kOnlyIfBlocked,
                           [s, c, t] { return SemClockwait::Call(s, c, t); });
}

// Whether futex operation `op` puts the caller to sleep until woken.
bool IsFutexWait(long op) {
  const long command = op & FUTEX_CMD_MASK;
  return command == FUTEX_WAIT || command == FUTEX_WAIT_BITSET;
}

// A futex wait, timed; recorded only if the thread slept (EAGAIN: the word
// had changed, it never did). The stack is captured after the wait, as most
// futex waits that return at once would waste a capture made before.
BENCHPROF_SLOW_PATH long FutexWaitSlow(long a1, long a2, long a3, long a4, long a5, long a6) {
  const SyscallFunction real = RealSyscall();
  if (t_in_hook) return real(SYS_futex, a1, a2, a3, a4, a5, a6);
  const int64_t begin_ns = NowNanos();
  const uint64_t observer_begin = ObserverNow();
  const long result = real(SYS_futex, a1, a2, a3, a4, a5, a6);
  if (result == 0 || errno == ETIMEDOUT || errno == EINTR) {
    const int64_t end_ns = NowNanos();
    HookWork work;
    RecordWait(WaitKind::kFutex, begin_ns, end_ns, observer_begin,
               PrepareWaitRecord(WaitKind::kFutex));
  }
  return result;
}

BENCHPROF_SLOW_PATH int JoinSlow(pthread_t thread, void** result) {
  return JoinObserved(thread, result, [thread, result] { return Join::Call(thread, result); });
}

BENCHPROF_SLOW_PATH int TimedjoinSlow(pthread_t thread, void** result, const timespec* t) {
  if (!WaitableDeadline(t)) return Timedjoin::Call(thread, result, t);
  return JoinObserved(thread, result,
                      [thread, result, t] { return Timedjoin::Call(thread, result, t); });
}

BENCHPROF_SLOW_PATH int ClockjoinSlow(pthread_t thread, void** result, clockid_t c,
                                      const timespec* t) {
  if (!Waitable(c, t)) return Clockjoin::Call(thread, result, c, t);
  return JoinObserved(thread, result,
                      [thread, result, c, t] { return Clockjoin::Call(thread, result, c, t); });
}

#undef BENCHPROF_INLINE
#undef BENCHPROF_SLOW_PATH

}  // namespace

extern "C" {

BENCHPROF_LOCK_HOOK_TEXT int pthread_mutex_lock(pthread_mutex_t* m) {
  return TimingWaits() ? MutexLockSlow(m) : MutexLock::Call(m);
}

BENCHPROF_LOCK_HOOK_TEXT int pthread_mutex_timedlock(pthread_mutex_t* m, const timespec* t) {
  return TimingWaits() ? MutexTimedlockSlow(m, t) : MutexTimedlock::Call(m, t);
}

BENCHPROF_LOCK_HOOK_TEXT int pthread_mutex_clocklock(pthread_mutex_t* m, clockid_t c,
                                                     const timespec* t) {
  return TimingWaits() ? MutexClocklockSlow(m, c, t) : MutexClocklock::Call(m, c, t);
}

BENCHPROF_LOCK_HOOK_TEXT int pthread_mutex_unlock(pthread_mutex_t* m) {
  return BlamingUnlocks() ? MutexUnlockSlow(m) : MutexUnlock::Call(m);
}

BENCHPROF_LOCK_HOOK_TEXT int pthread_rwlock_rdlock(pthread_rwlock_t* l) {
  return TimingWaits() ? RdlockSlow(l) : Rdlock::Call(l);
}

BENCHPROF_LOCK_HOOK_TEXT int pthread_rwlock_timedrdlock(pthread_rwlock_t* l, const timespec* t) {
  return TimingWaits() ? TimedrdlockSlow(l, t) : Timedrdlock::Call(l, t);
}

BENCHPROF_LOCK_HOOK_TEXT int pthread_rwlock_clockrdlock(pthread_rwlock_t* l, clockid_t c,
                                                        const timespec* t) {
  return TimingWaits() ? ClockrdlockSlow(l, c, t) : Clockrdlock::Call(l, c, t);
}

BENCHPROF_LOCK_HOOK_TEXT int pthread_rwlock_wrlock(pthread_rwlock_t* l) {
  return TimingWaits() ? WrlockSlow(l) : Wrlock::Call(l);
}

BENCHPROF_LOCK_HOOK_TEXT int pthread_rwlock_timedwrlock(pthread_rwlock_t* l, const timespec* t) {
  return TimingWaits() ? TimedwrlockSlow(l, t) : Timedwrlock::Call(l, t);
}

BENCHPROF_LOCK_HOOK_TEXT int pthread_rwlock_clockwrlock(pthread_rwlock_t* l, clockid_t c,
                                                        const timespec* t) {
  return TimingWaits() ? ClockwrlockSlow(l, c, t) : Clockwrlock::Call(l, c, t);
}

BENCHPROF_LOCK_HOOK_TEXT int pthread_rwlock_unlock(pthread_rwlock_t* l) {
  return BlamingUnlocks() ? RwunlockSlow(l) : Rwunlock::Call(l);
}

BENCHPROF_LOCK_HOOK_TEXT int pthread_cond_wait(pthread_cond_t* c, pthread_mutex_t* m) {
  return TimingWaits() ? CondWaitSlow(c, m) : CondWait::Call(c, m);
}

BENCHPROF_LOCK_HOOK_TEXT int pthread_cond_timedwait(pthread_cond_t* c, pthread_mutex_t* m,
                                                    const timespec* t) {
  return TimingWaits() ? CondTimedwaitSlow(c, m, t) : CondTimedwait::Call(c, m, t);
}

BENCHPROF_LOCK_HOOK_TEXT int pthread_cond_clockwait(pthread_cond_t* c, pthread_mutex_t* m,
                                                    clockid_t clock, const timespec* t) {
  return TimingWaits() ? CondClockwaitSlow(c, m, clock, t) : CondClockwait::Call(c, m, clock, t);
}

BENCHPROF_LOCK_HOOK_TEXT int sem_wait(sem_t* s) {
  return TimingWaits() ? SemWaitSlow(s) : SemWait::Call(s);
}

BENCHPROF_LOCK_HOOK_TEXT int sem_timedwait(sem_t* s, const timespec* t) {
  return TimingWaits() ? SemTimedwaitSlow(s, t) : SemTimedwait::Call(s, t);
}

BENCHPROF_LOCK_HOOK_TEXT int sem_clockwait(sem_t* s, clockid_t c, const timespec* t) {
  return TimingWaits() ? SemClockwaitSlow(s, c, t) : SemClockwait::Call(s, c, t);
}

BENCHPROF_LOCK_HOOK_TEXT int pthread_join(pthread_t thread, void** result) {
  return TimingWaits() ? JoinSlow(thread, result) : Join::Call(thread, result);
}

BENCHPROF_LOCK_HOOK_TEXT int pthread_timedjoin_np(pthread_t thread, void** result,
                                                  const timespec* t) {
  return TimingWaits() ? TimedjoinSlow(thread, result, t) : Timedjoin::Call(thread, result, t);
}

BENCHPROF_LOCK_HOOK_TEXT int pthread_clockjoin_np(pthread_t thread, void** result, clockid_t c,
                                                  const timespec* t) {
  return TimingWaits() ? ClockjoinSlow(thread, result, c, t)
                       : Clockjoin::Call(thread, result, c, t);
}

// syscall() takes up to six arguments after the number; like glibc's own,
// this one reads all six, whatever the caller passed (the x86-64 calling
// convention makes the extra reads harmless).
BENCHPROF_LOCK_HOOK_TEXT long syscall(long number, ...) {
  va_list arguments;
  va_start(arguments, number);
  const long a1 = va_arg(arguments, long), a2 = va_arg(arguments, long);
  const long a3 = va_arg(arguments, long), a4 = va_arg(arguments, long);
  const long a5 = va_arg(arguments, long), a6 = va_arg(arguments, long);
  va_end(arguments);
  if (number == SYS_futex && TimingWaits() && IsFutexWait(a2)) {
    return FutexWaitSlow(a1, a2, a3, a4, a5, a6);
  }
  return RealSyscall()(number, a1, a2, a3, a4, a5, a6);
}

}  // extern "C"
