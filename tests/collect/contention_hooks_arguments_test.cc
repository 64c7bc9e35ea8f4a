// The lock hooks (collect/contention_hooks.cc) while the block and mutex
// profiles consume waits return exactly what glibc's own functions return,
// for every argument: each interposed function is called with each class
// of argument glibc checks (clock ids, tv_nsec out of range, expired and
// future deadlines, locks held by this thread or another, detached and
// finished threads, a pending cancellation, ...), once through the hook
// and once through glibc's definition (found with dlsym(RTLD_NEXT)) on an
// object in the same state, and the two outcomes must match: the result,
// errno, and the state left behind (who holds the lock and how often, the
// semaphore's value, whether the thread was joined).
//
// glibc is the oracle, so the test stays right when glibc changes; the
// cases leave out only the calls glibc itself never returns from (a plain
// lock of a mutex another thread holds, a join of a running thread with an
// invalid tv_nsec, on which glibc 2.36 spins).
#include <dlfcn.h>
#include <errno.h>
#include <gtest/gtest.h>
#include <linux/futex.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "collect/contention_sampler.h"
#include "collect/timed_scope.h"

namespace benchprof::collect {
namespace {

// One set of the interposed functions: glibc's, or this executable's hooks.
struct Functions {
  const char* name;
  int (*mutex_lock)(pthread_mutex_t*);
  int (*mutex_timedlock)(pthread_mutex_t*, const timespec*);
  int (*mutex_clocklock)(pthread_mutex_t*, clockid_t, const timespec*);
  int (*rdlock)(pthread_rwlock_t*);
  int (*timedrdlock)(pthread_rwlock_t*, const timespec*);
  int (*clockrdlock)(pthread_rwlock_t*, clockid_t, const timespec*);
  int (*wrlock)(pthread_rwlock_t*);
  int (*timedwrlock)(pthread_rwlock_t*, const timespec*);
  int (*clockwrlock)(pthread_rwlock_t*, clockid_t, const timespec*);
  int (*cond_wait)(pthread_cond_t*, pthread_mutex_t*);
  int (*cond_timedwait)(pthread_cond_t*, pthread_mutex_t*, const timespec*);
  int (*cond_clockwait)(pthread_cond_t*, pthread_mutex_t*, clockid_t, const timespec*);
  int (*sem_wait)(sem_t*);
  int (*sem_timedwait)(sem_t*, const timespec*);
  int (*sem_clockwait)(sem_t*, clockid_t, const timespec*);
  int (*join)(pthread_t, void**);
  int (*timedjoin)(pthread_t, void**, const timespec*);
  int (*clockjoin)(pthread_t, void**, clockid_t, const timespec*);
  long (*syscall)(long, ...);
};

// The definition after this executable's, at the version the hooks
// forward to (contention_hooks.cc: glibc keeps a pre-2002 condition
// variable under the plain name).
template <typename F>
F Next(const char* name, const char* version = nullptr) {
  void* next = version != nullptr ? dlvsym(RTLD_NEXT, name, version) : nullptr;
  if (next == nullptr) next = dlsym(RTLD_NEXT, name);
  return reinterpret_cast<F>(next);
}

const Functions& Glibc() {
  static const Functions glibc{
      "glibc",
      Next<decltype(Functions::mutex_lock)>("pthread_mutex_lock"),
      Next<decltype(Functions::mutex_timedlock)>("pthread_mutex_timedlock"),
      Next<decltype(Functions::mutex_clocklock)>("pthread_mutex_clocklock"),
      Next<decltype(Functions::rdlock)>("pthread_rwlock_rdlock"),
      Next<decltype(Functions::timedrdlock)>("pthread_rwlock_timedrdlock"),
      Next<decltype(Functions::clockrdlock)>("pthread_rwlock_clockrdlock"),
      Next<decltype(Functions::wrlock)>("pthread_rwlock_wrlock"),
      Next<decltype(Functions::timedwrlock)>("pthread_rwlock_timedwrlock"),
      Next<decltype(Functions::clockwrlock)>("pthread_rwlock_clockwrlock"),
      Next<decltype(Functions::cond_wait)>("pthread_cond_wait", "GLIBC_2.3.2"),
      Next<decltype(Functions::cond_timedwait)>("pthread_cond_timedwait", "GLIBC_2.3.2"),
      Next<decltype(Functions::cond_clockwait)>("pthread_cond_clockwait"),
      Next<decltype(Functions::sem_wait)>("sem_wait"),
      Next<decltype(Functions::sem_timedwait)>("sem_timedwait"),
      Next<decltype(Functions::sem_clockwait)>("sem_clockwait"),
      Next<decltype(Functions::join)>("pthread_join"),
      Next<decltype(Functions::timedjoin)>("pthread_timedjoin_np"),
      Next<decltype(Functions::clockjoin)>("pthread_clockjoin_np"),
      Next<decltype(Functions::syscall)>("syscall"),
  };
  return glibc;
}

// This executable's definitions: the hooks, linked in whole.
const Functions& Hooks() {
  static const Functions hooks{
      "hook",
      &pthread_mutex_lock,
      &pthread_mutex_timedlock,
      &pthread_mutex_clocklock,
      &pthread_rwlock_rdlock,
      &pthread_rwlock_timedrdlock,
      &pthread_rwlock_clockrdlock,
      &pthread_rwlock_wrlock,
      &pthread_rwlock_timedwrlock,
      &pthread_rwlock_clockwrlock,
      &pthread_cond_wait,
      &pthread_cond_timedwait,
      &pthread_cond_clockwait,
      &sem_wait,
      &sem_timedwait,
      &sem_clockwait,
      &pthread_join,
      &pthread_timedjoin_np,
      &pthread_clockjoin_np,
      &syscall,
  };
  return hooks;
}

// glibc's functions, then the hooks: every case calls both, in this order.
std::vector<const Functions*> Both() { return {&Glibc(), &Hooks()}; }

// errno before every call: a value no call sets, so that a hook that
// changes errno where glibc leaves it shows.
constexpr int kErrnoBefore = 4242;

// What one call did.
struct Outcome {
  bool returned = true;  // false: the thread was cancelled in the call
  long result = 0;
  int error = 0;      // errno after the call
  std::string state;  // what it left behind, in words

  bool operator==(const Outcome&) const = default;
};

std::string Describe(const Outcome& outcome) {
  std::ostringstream text;
  if (outcome.returned) {
    text << "returned " << outcome.result << ", errno " << outcome.error << ", ";
  } else {
    text << "cancelled in the call, ";
  }
  text << outcome.state;
  return text.str();
}

// The calls whose hooked outcome differs from glibc's, reported together
// at the end of a test (the first ones in full, and how many there are).
class Differences {
 public:
  void Compare(const std::string& call, const Outcome& glibc, const Outcome& hooked) {
    ++compared_;
    if (glibc == hooked) return;
    if (lines_.size() < 40) {
      lines_.push_back(call + "\n    glibc: " + Describe(glibc) +
                       "\n    hook:  " + Describe(hooked));
    }
    ++count_;
  }

  ~Differences() {
    EXPECT_GT(compared_, 0) << "no call was compared";
    if (count_ == 0) return;
    std::string text;
    for (const std::string& line : lines_) text += "  " + line + "\n";
    ADD_FAILURE() << count_ << " of " << compared_ << " calls differ from glibc's:\n" << text;
  }

 private:
  int compared_ = 0;
  int count_ = 0;
  std::vector<std::string> lines_;
};

// ---- arguments ----

struct Clock {
  clockid_t id;
  std::string name;
};

// Every clock id a caller could pass: the two glibc waits on, the other
// static ones, ids no clock has, and a thread's CPU clock (a negative,
// dynamic id).
std::vector<Clock> Clocks() {
  std::vector<Clock> clocks = {
      {CLOCK_REALTIME, "CLOCK_REALTIME"},
      {CLOCK_MONOTONIC, "CLOCK_MONOTONIC"},
      {CLOCK_PROCESS_CPUTIME_ID, "CLOCK_PROCESS_CPUTIME_ID"},
      {CLOCK_THREAD_CPUTIME_ID, "CLOCK_THREAD_CPUTIME_ID"},
      {CLOCK_MONOTONIC_RAW, "CLOCK_MONOTONIC_RAW"},
      {CLOCK_REALTIME_COARSE, "CLOCK_REALTIME_COARSE"},
      {CLOCK_MONOTONIC_COARSE, "CLOCK_MONOTONIC_COARSE"},
      {CLOCK_BOOTTIME, "CLOCK_BOOTTIME"},
      {CLOCK_REALTIME_ALARM, "CLOCK_REALTIME_ALARM"},
      {CLOCK_BOOTTIME_ALARM, "CLOCK_BOOTTIME_ALARM"},
      {CLOCK_TAI, "CLOCK_TAI"},
      {-1, "clock -1"},
      {64, "clock 64"},
      {INT_MIN, "clock INT_MIN"},
  };
  clockid_t cpu_clock;
  if (pthread_getcpuclockid(pthread_self(), &cpu_clock) == 0) {
    clocks.push_back({cpu_clock, "this thread's CPU clock"});
  }
  return clocks;
}

// The clocks the tests that take no clock argument use.
Clock Realtime() { return {CLOCK_REALTIME, "CLOCK_REALTIME"}; }

// A deadline argument: fixed, or some milliseconds after now on the clock
// of the call (on CLOCK_REALTIME when that clock has no time).
struct Deadline {
  std::string name;
  timespec fixed{};
  int64_t from_now_ms = -1;

  // Whether glibc may read it as a time to wait for (tv_nsec in range).
  bool Valid() const {
    return from_now_ms >= 0 || (fixed.tv_nsec >= 0 && fixed.tv_nsec < 1'000'000'000);
  }

  timespec On(clockid_t clock) const {
    if (from_now_ms < 0) return fixed;
    timespec now;
    if (clock_gettime(clock, &now) != 0) clock_gettime(CLOCK_REALTIME, &now);
    now.tv_nsec += from_now_ms * 1'000'000;
    now.tv_sec += now.tv_nsec / 1'000'000'000;
    now.tv_nsec %= 1'000'000'000;
    return now;
  }
};

std::vector<Deadline> Deadlines() {
  return {
      {"{0, 0} (expired)", {0, 0}},
      {"{-1, 0} (before 1970)", {-1, 0}},
      {"{LONG_MIN, 0}", {LONG_MIN, 0}},
      {"{0, 999999999}", {0, 999'999'999}},
      {"{0, -1}", {0, -1}},
      {"{0, 1000000000}", {0, 1'000'000'000}},
      {"{0, LONG_MAX}", {0, LONG_MAX}},
      {"{0, LONG_MIN}", {0, LONG_MIN}},
      {"{-1, -1}", {-1, -1}},
      {"now + 5 ms", {}, 5},
  };
}

// ---- threads ----

pid_t ThisThreadId() { return static_cast<pid_t>(::syscall(SYS_gettid)); }

// A second thread that runs what it is given, one task at a time: it holds
// the locks of the "held by another thread" states, always the same thread
// so that both calls of a case see the same owner.
class OtherThread {
 public:
  OtherThread() : thread_([this] { Loop(); }) {
    Run([this] { tid_ = ThisThreadId(); });
  }

  ~OtherThread() {
    Run([this] { stop_ = true; });
    thread_.join();
  }

  // Runs `task` on the other thread; returns when it has run.
  void Run(std::function<void()> task) {
    std::unique_lock<std::mutex> lock(mutex_);
    task_ = std::move(task);
    changed_.notify_all();
    changed_.wait(lock, [this] { return !task_; });
  }

  pid_t tid() const { return tid_; }

 private:
  void Loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
      changed_.wait(lock, [this] { return static_cast<bool>(task_); });
      task_();
      task_ = nullptr;
      changed_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::function<void()> task_;
  bool stop_ = false;
  pid_t tid_ = 0;
  std::thread thread_;
};

// Who a lock word or field names: this thread, the other thread, nobody,
// or a thread that is gone.
std::string OwnerName(pid_t owner, pid_t other) {
  if (owner == 0) return "nobody";
  if (owner == ThisThreadId()) return "this thread";
  if (owner == other) return "the other thread";
  return "a thread that is gone";
}

void WarmUpPriorityProtection() {
  pthread_mutexattr_t attributes;
  pthread_mutexattr_init(&attributes);
  pthread_mutexattr_setprotocol(&attributes, PTHREAD_PRIO_PROTECT);
  pthread_mutex_t mutex;
  pthread_mutex_init(&mutex, &attributes);
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (Glibc().mutex_lock(&mutex) == 0) pthread_mutex_unlock(&mutex);
  }
  pthread_mutex_destroy(&mutex);
  pthread_mutexattr_destroy(&attributes);
}

class ContentionHooksArgumentsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kContentionHooksEnabled) GTEST_SKIP() << "no lock hooks in this build (TSan)";
    ASSERT_TRUE(LockHooksAreLive());
    ASSERT_NE(reinterpret_cast<void*>(Glibc().mutex_clocklock),
              reinterpret_cast<void*>(Hooks().mutex_clocklock));
    // glibc 2.36 refuses a thread's first lock of a priority-protected
    // mutex (EINVAL; the next ones succeed): both threads get past it here,
    // so that glibc's call and the hook's see the same thread.
    WarmUpPriorityProtection();
    other_.Run(&WarmUpPriorityProtection);
    // The state the hooks do their work in: both profiles recording every
    // wait, this thread inside a benchmark's timed loop.
    ASSERT_TRUE(StartContentionProfile(ContentionProfile::kBlock, 1).ok());
    ASSERT_TRUE(StartContentionProfile(ContentionProfile::kMutex, 1).ok());
    BecomeRunner();
    EnterTimedRegion();
  }

  void TearDown() override {
    LeaveTimedRegion();
    StopContentionProfile(ContentionProfile::kBlock);
    StopContentionProfile(ContentionProfile::kMutex);
  }

  OtherThread other_;
};

// ---- errno ----

// A hook that records a wait captures the waiter's stack, and the
// unwinder's memory checks set errno (EAGAIN, reading an empty pipe) while
// glibc's call may fail without touching it (EDEADLK here). The process's
// first captures show it: this is the file's first test, and SetUp leaves
// them to it.
TEST_F(ContentionHooksArgumentsTest, ARecordedWaitLeavesErrnoAlone) {
  const auto deadlock = [](const Functions& functions) {
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_t mutex;
    pthread_mutex_init(&mutex, &attributes);
    pthread_mutexattr_destroy(&attributes);
    EXPECT_EQ(Glibc().mutex_lock(&mutex), 0);
    errno = kErrnoBefore;
    EXPECT_EQ(functions.mutex_lock(&mutex), EDEADLK) << functions.name;
    EXPECT_EQ(errno, kErrnoBefore) << functions.name << "'s pthread_mutex_lock changed errno";
    pthread_mutex_unlock(&mutex);
    pthread_mutex_destroy(&mutex);
  };
  for (const Functions* functions : Both()) deadlock(*functions);
  // And a thread's first captures.
  for (int thread = 0; thread < 4; ++thread) {
    std::thread([&] {
      for (const Functions* functions : Both()) deadlock(*functions);
    }).join();
  }
}

// ---- mutexes ----

struct MutexKind {
  std::string name;
  int type;
  int protocol;
  int robust;
};

std::vector<MutexKind> MutexKinds() {
  return {
      {"normal", PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_NONE, PTHREAD_MUTEX_STALLED},
      {"recursive", PTHREAD_MUTEX_RECURSIVE, PTHREAD_PRIO_NONE, PTHREAD_MUTEX_STALLED},
      {"errorcheck", PTHREAD_MUTEX_ERRORCHECK, PTHREAD_PRIO_NONE, PTHREAD_MUTEX_STALLED},
      {"adaptive", PTHREAD_MUTEX_ADAPTIVE_NP, PTHREAD_PRIO_NONE, PTHREAD_MUTEX_STALLED},
      {"robust", PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_NONE, PTHREAD_MUTEX_ROBUST},
      {"robust errorcheck", PTHREAD_MUTEX_ERRORCHECK, PTHREAD_PRIO_NONE, PTHREAD_MUTEX_ROBUST},
      {"priority-inheriting", PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_INHERIT, PTHREAD_MUTEX_STALLED},
      {"priority-inheriting errorcheck", PTHREAD_MUTEX_ERRORCHECK, PTHREAD_PRIO_INHERIT,
       PTHREAD_MUTEX_STALLED},
      {"priority-inheriting robust recursive", PTHREAD_MUTEX_RECURSIVE, PTHREAD_PRIO_INHERIT,
       PTHREAD_MUTEX_ROBUST},
      {"priority-protected", PTHREAD_MUTEX_NORMAL, PTHREAD_PRIO_PROTECT, PTHREAD_MUTEX_STALLED},
  };
}

enum class Holder { kNobody, kThisThread, kOtherThread, kDeadThread };

std::string HolderName(Holder holder) {
  switch (holder) {
    case Holder::kNobody:
      return "free";
    case Holder::kThisThread:
      return "held by this thread";
    case Holder::kOtherThread:
      return "held by another thread";
    case Holder::kDeadThread:
      return "held by a thread that ended";
  }
  return "?";
}

// A mutex of one kind in one state, for one call; unlocked and destroyed
// afterwards whatever the call did.
class TestMutex {
 public:
  TestMutex(const MutexKind& kind, Holder holder, OtherThread& other)
      : holder_(holder), other_(other) {
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    pthread_mutexattr_settype(&attributes, kind.type);
    pthread_mutexattr_setprotocol(&attributes, kind.protocol);
    pthread_mutexattr_setrobust(&attributes, kind.robust);
    EXPECT_EQ(pthread_mutex_init(&mutex_, &attributes), 0) << kind.name;
    pthread_mutexattr_destroy(&attributes);
    switch (holder) {
      case Holder::kNobody:
        break;
      case Holder::kThisThread:
        EXPECT_EQ(Glibc().mutex_lock(&mutex_), 0);
        break;
      case Holder::kOtherThread:
        other_.Run([this] { EXPECT_EQ(Glibc().mutex_lock(&mutex_), 0); });
        break;
      case Holder::kDeadThread:
        std::thread([this] { EXPECT_EQ(Glibc().mutex_lock(&mutex_), 0); }).join();
        break;
    }
  }

  // Unlocks it wherever it is held: a robust mutex left locked would stay
  // in its thread's list of robust mutexes, which glibc writes through.
  ~TestMutex() {
    if (holder_ == Holder::kOtherThread) other_.Run([this] { pthread_mutex_unlock(&mutex_); });
    // After EOWNERDEAD this thread holds it, in glibc's "inconsistent" state.
    if (mutex_.__data.__owner == kInconsistent &&
        static_cast<pid_t>(mutex_.__data.__lock & FUTEX_TID_MASK) == ThisThreadId()) {
      EXPECT_EQ(pthread_mutex_consistent(&mutex_), 0);
    }
    if (mutex_.__data.__owner == ThisThreadId()) {
      for (int held = Count(); held > 0; --held) pthread_mutex_unlock(&mutex_);
    }
    pthread_mutex_destroy(&mutex_);
  }

  pthread_mutex_t* get() { return &mutex_; }

  // Who holds it, and how often (a recursive mutex).
  std::string State() const {
    const int owner = mutex_.__data.__owner;
    return "mutex owner " +
           (owner == kInconsistent ? "inconsistent" : OwnerName(owner, other_.tid())) + ", count " +
           std::to_string(mutex_.__data.__count);
  }

 private:
  // glibc's owner of a robust mutex whose owner died, until it is made
  // consistent (its PTHREAD_MUTEX_INCONSISTENT).
  static constexpr int kInconsistent = INT_MAX;

  int Count() const { return mutex_.__data.__count > 0 ? mutex_.__data.__count : 1; }

  pthread_mutex_t mutex_;
  Holder holder_;
  OtherThread& other_;
};

std::vector<Holder> MutexHolders(const MutexKind& kind) {
  std::vector<Holder> holders = {Holder::kNobody, Holder::kThisThread, Holder::kOtherThread};
  if (kind.robust == PTHREAD_MUTEX_ROBUST) holders.push_back(Holder::kDeadThread);
  return holders;
}

// Whether glibc's untimed lock returns in this state: not while another
// thread holds it, nor while this thread holds a mutex that does not
// check its owner (glibc deadlocks, as POSIX allows).
bool LockReturns(const MutexKind& kind, Holder holder) {
  if (holder == Holder::kOtherThread) return false;
  if (holder == Holder::kThisThread) {
    return kind.type == PTHREAD_MUTEX_ERRORCHECK || kind.type == PTHREAD_MUTEX_RECURSIVE;
  }
  return true;
}

// Calls `call` with each set of functions on a fresh mutex in `holder`'s
// state and compares.
template <typename Call>
void CompareOnMutex(Differences& differences, const std::string& call, const MutexKind& kind,
                    Holder holder, OtherThread& other, Call call_with) {
  Outcome outcomes[2];
  int i = 0;
  for (const Functions* functions : Both()) {
    TestMutex mutex(kind, holder, other);
    errno = kErrnoBefore;
    outcomes[i].result = call_with(*functions, mutex.get());
    outcomes[i].error = errno;
    outcomes[i].state = mutex.State();
    ++i;
  }
  differences.Compare(call + " on a " + kind.name + " mutex " + HolderName(holder), outcomes[0],
                      outcomes[1]);
}

TEST_F(ContentionHooksArgumentsTest, MutexLockReturnsWhatGlibcReturns) {
  Differences differences;
  for (const MutexKind& kind : MutexKinds()) {
    for (const Holder holder : MutexHolders(kind)) {
      if (!LockReturns(kind, holder)) continue;
      CompareOnMutex(differences, "pthread_mutex_lock", kind, holder, other_,
                     [](const Functions& f, pthread_mutex_t* m) { return f.mutex_lock(m); });
    }
  }
}

TEST_F(ContentionHooksArgumentsTest, MutexTimedlockReturnsWhatGlibcReturns) {
  Differences differences;
  for (const MutexKind& kind : MutexKinds()) {
    for (const Holder holder : MutexHolders(kind)) {
      for (const Deadline& deadline : Deadlines()) {
        CompareOnMutex(differences, "pthread_mutex_timedlock(" + deadline.name + ")", kind, holder,
                       other_, [&](const Functions& f, pthread_mutex_t* m) {
                         const timespec t = deadline.On(CLOCK_REALTIME);
                         return f.mutex_timedlock(m, &t);
                       });
      }
    }
  }
}

TEST_F(ContentionHooksArgumentsTest, MutexClocklockReturnsWhatGlibcReturns) {
  Differences differences;
  for (const MutexKind& kind : MutexKinds()) {
    for (const Holder holder : MutexHolders(kind)) {
      for (const Clock& clock : Clocks()) {
        for (const Deadline& deadline : Deadlines()) {
          CompareOnMutex(differences,
                         "pthread_mutex_clocklock(" + clock.name + ", " + deadline.name + ")", kind,
                         holder, other_, [&](const Functions& f, pthread_mutex_t* m) {
                           const timespec t = deadline.On(clock.id);
                           return f.mutex_clocklock(m, clock.id, &t);
                         });
        }
      }
    }
  }
}

// ---- rwlocks ----

struct RwlockKind {
  std::string name;
  int preference;
};

std::vector<RwlockKind> RwlockKinds() {
  return {{"reader-preferring", PTHREAD_RWLOCK_PREFER_READER_NP},
          {"writer-preferring", PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP}};
}

enum class RwHolder { kNobody, kThisReader, kThisWriter, kOtherReader, kOtherWriter };

std::vector<RwHolder> RwHolders() {
  return {RwHolder::kNobody, RwHolder::kThisReader, RwHolder::kThisWriter, RwHolder::kOtherReader,
          RwHolder::kOtherWriter};
}

std::string RwHolderName(RwHolder holder) {
  switch (holder) {
    case RwHolder::kNobody:
      return "free";
    case RwHolder::kThisReader:
      return "read-locked by this thread";
    case RwHolder::kThisWriter:
      return "write-locked by this thread";
    case RwHolder::kOtherReader:
      return "read-locked by another thread";
    case RwHolder::kOtherWriter:
      return "write-locked by another thread";
  }
  return "?";
}

// An rwlock in one state, for one call; this thread's and the other
// thread's locks are released afterwards.
class TestRwlock {
 public:
  TestRwlock(const RwlockKind& kind, RwHolder holder, OtherThread& other)
      : holder_(holder), other_(other) {
    pthread_rwlockattr_t attributes;
    pthread_rwlockattr_init(&attributes);
    pthread_rwlockattr_setkind_np(&attributes, kind.preference);
    EXPECT_EQ(pthread_rwlock_init(&lock_, &attributes), 0);
    pthread_rwlockattr_destroy(&attributes);
    switch (holder) {
      case RwHolder::kNobody:
        break;
      case RwHolder::kThisReader:
        EXPECT_EQ(Glibc().rdlock(&lock_), 0);
        ++own_locks_;
        break;
      case RwHolder::kThisWriter:
        EXPECT_EQ(Glibc().wrlock(&lock_), 0);
        ++own_locks_;
        break;
      case RwHolder::kOtherReader:
        other_.Run([this] { EXPECT_EQ(Glibc().rdlock(&lock_), 0); });
        break;
      case RwHolder::kOtherWriter:
        other_.Run([this] { EXPECT_EQ(Glibc().wrlock(&lock_), 0); });
        break;
    }
  }

  ~TestRwlock() {
    for (; own_locks_ > 0; --own_locks_) pthread_rwlock_unlock(&lock_);
    if (holder_ == RwHolder::kOtherReader || holder_ == RwHolder::kOtherWriter) {
      other_.Run([this] { pthread_rwlock_unlock(&lock_); });
    }
    pthread_rwlock_destroy(&lock_);
  }

  pthread_rwlock_t* get() { return &lock_; }

  // The call took the lock once more.
  void Took() { ++own_locks_; }

  // Its words as glibc keeps them: readers and phase bits, writers, and
  // the writer that holds it.
  std::string State() const {
    return "readers word " + std::to_string(lock_.__data.__readers) + ", writers word " +
           std::to_string(lock_.__data.__writers) + ", writer " +
           OwnerName(lock_.__data.__cur_writer, other_.tid());
  }

 private:
  pthread_rwlock_t lock_;
  RwHolder holder_;
  OtherThread& other_;
  int own_locks_ = 0;
};

// Whether glibc's untimed rdlock or wrlock returns in this state.
bool RwlockReturns(bool write, RwHolder holder) {
  if (write) return holder == RwHolder::kNobody || holder == RwHolder::kThisWriter;
  return holder != RwHolder::kOtherWriter;
}

template <typename Call>
void CompareOnRwlock(Differences& differences, const std::string& call, const RwlockKind& kind,
                     RwHolder holder, OtherThread& other, Call call_with) {
  Outcome outcomes[2];
  int i = 0;
  for (const Functions* functions : Both()) {
    TestRwlock lock(kind, holder, other);
    errno = kErrnoBefore;
    outcomes[i].result = call_with(*functions, lock.get());
    outcomes[i].error = errno;
    outcomes[i].state = lock.State();
    if (outcomes[i].result == 0) lock.Took();
    ++i;
  }
  differences.Compare(call + " on a " + kind.name + " rwlock " + RwHolderName(holder), outcomes[0],
                      outcomes[1]);
}

TEST_F(ContentionHooksArgumentsTest, RwlockUntimedLocksReturnWhatGlibcReturns) {
  Differences differences;
  for (const RwlockKind& kind : RwlockKinds()) {
    for (const RwHolder holder : RwHolders()) {
      if (RwlockReturns(false, holder)) {
        CompareOnRwlock(differences, "pthread_rwlock_rdlock", kind, holder, other_,
                        [](const Functions& f, pthread_rwlock_t* l) { return f.rdlock(l); });
      }
      if (RwlockReturns(true, holder)) {
        CompareOnRwlock(differences, "pthread_rwlock_wrlock", kind, holder, other_,
                        [](const Functions& f, pthread_rwlock_t* l) { return f.wrlock(l); });
      }
    }
  }
}

TEST_F(ContentionHooksArgumentsTest, RwlockTimedLocksReturnWhatGlibcReturns) {
  Differences differences;
  for (const RwlockKind& kind : RwlockKinds()) {
    for (const RwHolder holder : RwHolders()) {
      for (const Deadline& deadline : Deadlines()) {
        CompareOnRwlock(differences, "pthread_rwlock_timedrdlock(" + deadline.name + ")", kind,
                        holder, other_, [&](const Functions& f, pthread_rwlock_t* l) {
                          const timespec t = deadline.On(CLOCK_REALTIME);
                          return f.timedrdlock(l, &t);
                        });
        CompareOnRwlock(differences, "pthread_rwlock_timedwrlock(" + deadline.name + ")", kind,
                        holder, other_, [&](const Functions& f, pthread_rwlock_t* l) {
                          const timespec t = deadline.On(CLOCK_REALTIME);
                          return f.timedwrlock(l, &t);
                        });
      }
    }
  }
}

TEST_F(ContentionHooksArgumentsTest, RwlockClockLocksReturnWhatGlibcReturns) {
  Differences differences;
  for (const RwlockKind& kind : RwlockKinds()) {
    for (const RwHolder holder : RwHolders()) {
      for (const Clock& clock : Clocks()) {
        for (const Deadline& deadline : Deadlines()) {
          const std::string arguments = "(" + clock.name + ", " + deadline.name + ")";
          CompareOnRwlock(differences, "pthread_rwlock_clockrdlock" + arguments, kind, holder,
                          other_, [&](const Functions& f, pthread_rwlock_t* l) {
                            const timespec t = deadline.On(clock.id);
                            return f.clockrdlock(l, clock.id, &t);
                          });
          CompareOnRwlock(differences, "pthread_rwlock_clockwrlock" + arguments, kind, holder,
                          other_, [&](const Functions& f, pthread_rwlock_t* l) {
                            const timespec t = deadline.On(clock.id);
                            return f.clockwrlock(l, clock.id, &t);
                          });
        }
      }
    }
  }
}

// ---- condition variables ----

// Whether glibc's unlock refuses a thread that does not hold a mutex of
// this kind (then a condition-variable wait returns at once): found by
// asking glibc.
bool UnlockChecksOwner(const MutexKind& kind, OtherThread& other) {
  TestMutex mutex(kind, Holder::kNobody, other);
  return pthread_mutex_unlock(mutex.get()) != 0;
}

template <typename Call>
void CompareOnCondition(Differences& differences, const std::string& call, const MutexKind& kind,
                        Holder holder, OtherThread& other, Call call_with) {
  Outcome outcomes[2];
  int i = 0;
  for (const Functions* functions : Both()) {
    TestMutex mutex(kind, holder, other);
    pthread_cond_t condition = PTHREAD_COND_INITIALIZER;
    errno = kErrnoBefore;
    outcomes[i].result = call_with(*functions, &condition, mutex.get());
    outcomes[i].error = errno;
    outcomes[i].state = mutex.State();
    pthread_cond_destroy(&condition);
    ++i;
  }
  differences.Compare(call + " with a " + kind.name + " mutex " + HolderName(holder), outcomes[0],
                      outcomes[1]);
}

TEST_F(ContentionHooksArgumentsTest, ConditionWaitsReturnWhatGlibcReturns) {
  Differences differences;
  for (const MutexKind& kind : MutexKinds()) {
    // A mutex this thread does not hold is an error only for the kinds
    // whose unlock checks the owner; the others would wait forever.
    std::vector<Holder> holders = {Holder::kThisThread};
    if (UnlockChecksOwner(kind, other_)) {
      holders.push_back(Holder::kNobody);
      holders.push_back(Holder::kOtherThread);
    }
    for (const Holder holder : holders) {
      if (holder != Holder::kThisThread) {
        CompareOnCondition(differences, "pthread_cond_wait", kind, holder, other_,
                           [](const Functions& f, pthread_cond_t* c, pthread_mutex_t* m) {
                             return f.cond_wait(c, m);
                           });
      }
      for (const Deadline& deadline : Deadlines()) {
        CompareOnCondition(differences, "pthread_cond_timedwait(" + deadline.name + ")", kind,
                           holder, other_,
                           [&](const Functions& f, pthread_cond_t* c, pthread_mutex_t* m) {
                             const timespec t = deadline.On(CLOCK_REALTIME);
                             return f.cond_timedwait(c, m, &t);
                           });
        for (const Clock& clock : Clocks()) {
          CompareOnCondition(
              differences, "pthread_cond_clockwait(" + clock.name + ", " + deadline.name + ")",
              kind, holder, other_, [&](const Functions& f, pthread_cond_t* c, pthread_mutex_t* m) {
                const timespec t = deadline.On(clock.id);
                return f.cond_clockwait(c, m, clock.id, &t);
              });
        }
      }
    }
  }
}

// ---- semaphores ----

template <typename Call>
void CompareOnSemaphore(Differences& differences, const std::string& call, int shared,
                        unsigned value, Call call_with) {
  Outcome outcomes[2];
  int i = 0;
  for (const Functions* functions : Both()) {
    sem_t semaphore;
    EXPECT_EQ(sem_init(&semaphore, shared, value), 0);
    errno = kErrnoBefore;
    outcomes[i].result = call_with(*functions, &semaphore);
    outcomes[i].error = errno;
    int left = -1;
    sem_getvalue(&semaphore, &left);
    outcomes[i].state = "semaphore value " + std::to_string(left);
    sem_destroy(&semaphore);
    ++i;
  }
  differences.Compare(call + " on a " + (shared ? "process-shared" : "private") +
                          " semaphore of value " + std::to_string(value),
                      outcomes[0], outcomes[1]);
}

TEST_F(ContentionHooksArgumentsTest, SemaphoreWaitsReturnWhatGlibcReturns) {
  Differences differences;
  for (const int shared : {0, 1}) {
    for (const unsigned value : {0u, 1u, 2u}) {
      if (value > 0) {
        CompareOnSemaphore(differences, "sem_wait", shared, value,
                           [](const Functions& f, sem_t* s) { return f.sem_wait(s); });
      }
      for (const Deadline& deadline : Deadlines()) {
        CompareOnSemaphore(differences, "sem_timedwait(" + deadline.name + ")", shared, value,
                           [&](const Functions& f, sem_t* s) {
                             const timespec t = deadline.On(CLOCK_REALTIME);
                             return f.sem_timedwait(s, &t);
                           });
        for (const Clock& clock : Clocks()) {
          CompareOnSemaphore(differences,
                             "sem_clockwait(" + clock.name + ", " + deadline.name + ")", shared,
                             value, [&](const Functions& f, sem_t* s) {
                               const timespec t = deadline.On(clock.id);
                               return f.sem_clockwait(s, clock.id, &t);
                             });
        }
      }
    }
  }
}

// ---- joins ----

enum class Joinee { kFinished, kRunning, kDetached, kSelf };

std::string JoineeName(Joinee joinee) {
  switch (joinee) {
    case Joinee::kFinished:
      return "a thread that ended";
    case Joinee::kRunning:
      return "a running thread";
    case Joinee::kDetached:
      return "a detached running thread";
    case Joinee::kSelf:
      return "this thread";
  }
  return "?";
}

void* const kThreadResult = reinterpret_cast<void*>(0x7e57);
void* const kResultBefore = reinterpret_cast<void*>(0xbef0);

// Whether /proc shows the thread `tid` of this process.
bool ThreadExists(pid_t tid) {
  return access(("/proc/self/task/" + std::to_string(tid)).c_str(), F_OK) == 0;
}

// A thread to join, in one state; joined afterwards if the call did not.
class TestThread {
 public:
  explicit TestThread(Joinee joinee) : joinee_(joinee) {
    if (joinee == Joinee::kSelf) {
      thread_ = pthread_self();
      return;
    }
    EXPECT_EQ(pthread_create(&thread_, nullptr, &Body, this), 0);
    while (tid_.load() == 0) sched_yield();
    if (joinee == Joinee::kDetached) {
      EXPECT_EQ(pthread_detach(thread_), 0);
    }
    if (joinee == Joinee::kFinished) {
      Release();
      // The kernel clears the thread's id word, which glibc's join reads,
      // before the thread leaves /proc.
      while (ThreadExists(tid_.load())) sched_yield();
    }
  }

  ~TestThread() {
    if (joinee_ == Joinee::kSelf) return;
    Release();
    if (joinee_ != Joinee::kDetached && !joined_) {
      EXPECT_EQ(pthread_join(thread_, nullptr), 0);
    }
    // A detached thread reads this object until it ends.
    while (ThreadExists(tid_.load())) sched_yield();
  }

  pthread_t get() const { return thread_; }
  void Joined() { joined_ = true; }

 private:
  static void* Body(void* argument) {
    auto* self = static_cast<TestThread*>(argument);
    self->tid_.store(ThisThreadId());
    while (!self->released_.load()) self->released_.wait(false);
    return kThreadResult;
  }

  void Release() {
    released_.store(true);
    released_.notify_all();
  }

  Joinee joinee_;
  pthread_t thread_{};
  std::atomic<pid_t> tid_{0};
  std::atomic<bool> released_{false};
  bool joined_ = false;
};

template <typename Call>
void CompareOnThread(Differences& differences, const std::string& call, Joinee joinee,
                     Call call_with) {
  Outcome outcomes[2];
  int i = 0;
  for (const Functions* functions : Both()) {
    TestThread thread(joinee);
    void* result = kResultBefore;
    errno = kErrnoBefore;
    outcomes[i].result = call_with(*functions, thread.get(), &result);
    outcomes[i].error = errno;
    // glibc stores the thread's result exactly when it joins it.
    const bool joined = result == kThreadResult;
    outcomes[i].state = joined                    ? "thread joined"
                        : result == kResultBefore ? "thread not joined"
                                                  : "result overwritten";
    if (joined || outcomes[i].result == 0) thread.Joined();
    ++i;
  }
  differences.Compare(call + " of " + JoineeName(joinee), outcomes[0], outcomes[1]);
}

TEST_F(ContentionHooksArgumentsTest, JoinsReturnWhatGlibcReturns) {
  if (!ThreadExists(ThisThreadId())) GTEST_SKIP() << "no /proc/self/task to see threads end";
  Differences differences;
  for (const Joinee joinee :
       {Joinee::kFinished, Joinee::kRunning, Joinee::kDetached, Joinee::kSelf}) {
    if (joinee != Joinee::kRunning) {
      CompareOnThread(differences, "pthread_join", joinee,
                      [](const Functions& f, pthread_t t, void** r) { return f.join(t, r); });
    }
    for (const Deadline& deadline : Deadlines()) {
      // glibc 2.36 spins forever on a running thread given a bad tv_nsec.
      if (joinee == Joinee::kRunning && !deadline.Valid()) continue;
      CompareOnThread(differences, "pthread_timedjoin_np(" + deadline.name + ")", joinee,
                      [&](const Functions& f, pthread_t t, void** r) {
                        const timespec time = deadline.On(CLOCK_REALTIME);
                        return f.timedjoin(t, r, &time);
                      });
      for (const Clock& clock : Clocks()) {
        CompareOnThread(differences,
                        "pthread_clockjoin_np(" + clock.name + ", " + deadline.name + ")", joinee,
                        [&](const Functions& f, pthread_t t, void** r) {
                          const timespec time = deadline.On(clock.id);
                          return f.clockjoin(t, r, clock.id, &time);
                        });
      }
    }
  }
}

// ---- cancellation ----

// Each call runs on a thread that has cancelled itself, in a child process
// (a cancelled thread unwinds, which must not take this test down with
// it), on objects in shared memory; the child reports whether the call
// returned and what it did.
struct CancelReport {
  std::atomic<int> returned{0};
  long result = 0;
  int error = 0;
  sem_t semaphore;          // for the semaphore waits, of the value given
  pthread_mutex_t mutex;    // for the mutex locks: the child's main thread holds it
  pthread_rwlock_t rwlock;  // for the rwlock locks: the child's main thread writes
  uint32_t futex_word = 0;  // for futex waits: stays 0
};

template <typename Call>
Outcome CallWithCancellationPending(const Functions& functions, unsigned value, Call call_with) {
  void* memory = mmap(nullptr, sizeof(CancelReport), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  EXPECT_NE(memory, MAP_FAILED);
  if (memory == MAP_FAILED) return {};
  auto* report = new (memory) CancelReport;
  sem_init(&report->semaphore, 1, value);
  const pid_t child = fork();
  if (child == 0) {
    // fork() stopped the profiles in the child: start them again, so that
    // the hooks do there what they do in the parent.
    StopContentionProfile(ContentionProfile::kBlock);
    StopContentionProfile(ContentionProfile::kMutex);
    if (!StartContentionProfile(ContentionProfile::kBlock, 1).ok() ||
        !StartContentionProfile(ContentionProfile::kMutex, 1).ok()) {
      _exit(3);
    }
    pthread_mutex_init(&report->mutex, nullptr);
    pthread_rwlock_init(&report->rwlock, nullptr);
    Glibc().mutex_lock(&report->mutex);
    Glibc().wrlock(&report->rwlock);
    struct Context {
      const Functions* functions;
      CancelReport* report;
      Call* call;
    } context{&functions, report, &call_with};
    pthread_t caller;
    pthread_create(
        &caller, nullptr,
        [](void* argument) -> void* {
          auto* given = static_cast<Context*>(argument);
          pthread_cancel(pthread_self());
          errno = kErrnoBefore;
          const long result = (*given->call)(*given->functions, *given->report);
          given->report->error = errno;
          given->report->result = result;
          given->report->returned.store(1);
          return nullptr;
        },
        &context);
    void* ended = nullptr;
    pthread_join(caller, &ended);
    _exit(ended == PTHREAD_CANCELED ? 0 : 1);
  }
  int status = 0;
  EXPECT_EQ(waitpid(child, &status, 0), child);
  EXPECT_FALSE(WIFEXITED(status) && WEXITSTATUS(status) == 3) << "could not start the profiles";
  Outcome outcome;
  outcome.returned = report->returned.load() != 0;
  if (outcome.returned) {
    outcome.result = report->result;
    outcome.error = report->error;
  }
  int left = -1;
  sem_getvalue(&report->semaphore, &left);
  outcome.state = "semaphore value " + std::to_string(left);
  if (WIFSIGNALED(status))
    outcome.state += ", child killed by signal " + std::to_string(WTERMSIG(status));
  report->~CancelReport();
  munmap(memory, sizeof(CancelReport));
  return outcome;
}

// glibc's sem_wait and sem_timedwait act on a pending cancellation even
// when the semaphore could be taken (its sem_clockwait only once it
// blocks).
TEST_F(ContentionHooksArgumentsTest, SemaphoreWaitsActOnAPendingCancellationAsGlibcDoes) {
  Differences differences;
  for (const unsigned value : {0u, 1u}) {
    const std::string on = " on a semaphore of value " + std::to_string(value);
    const auto compare = [&](const std::string& call, auto call_with) {
      differences.Compare(call + on + ", cancellation pending",
                          CallWithCancellationPending(Glibc(), value, call_with),
                          CallWithCancellationPending(Hooks(), value, call_with));
    };
    // With value 0 an untimed wait would block: the cancellation ends it.
    compare("sem_wait",
            [](const Functions& f, CancelReport& r) { return f.sem_wait(&r.semaphore); });
    for (const Deadline& deadline : Deadlines()) {
      compare("sem_timedwait(" + deadline.name + ")",
              [deadline](const Functions& f, CancelReport& r) {
                const timespec t = deadline.On(CLOCK_REALTIME);
                return f.sem_timedwait(&r.semaphore, &t);
              });
      for (const Clock& clock :
           {Realtime(), Clock{CLOCK_MONOTONIC, "CLOCK_MONOTONIC"}, Clock{-1, "clock -1"}}) {
        compare("sem_clockwait(" + clock.name + ", " + deadline.name + ")",
                [deadline, clock](const Functions& f, CancelReport& r) {
                  const timespec t = deadline.On(clock.id);
                  return f.sem_clockwait(&r.semaphore, clock.id, &t);
                });
      }
    }
  }
}

// Locks and syscall() are no cancellation points, but the hooks' stack
// capture calls some (libunwind checks addresses with read and write): a
// contended lock that times out must return ETIMEDOUT, not end its thread
// half-recorded. (A new thread's first captures walk the most.)
TEST_F(ContentionHooksArgumentsTest, ContendedLocksAreNoCancellationPoints) {
  Differences differences;
  const auto compare = [&](const std::string& call, auto call_with) {
    differences.Compare(call + ", cancellation pending",
                        CallWithCancellationPending(Glibc(), 0, call_with),
                        CallWithCancellationPending(Hooks(), 0, call_with));
  };
  const auto soon = [](clockid_t clock) { return Deadline{"", {}, 1}.On(clock); };
  compare("pthread_mutex_timedlock(now + 1 ms) of a mutex another thread holds",
          [&](const Functions& f, CancelReport& r) {
            const timespec t = soon(CLOCK_REALTIME);
            return f.mutex_timedlock(&r.mutex, &t);
          });
  compare("pthread_mutex_clocklock(CLOCK_MONOTONIC, now + 1 ms) of a mutex another thread holds",
          [&](const Functions& f, CancelReport& r) {
            const timespec t = soon(CLOCK_MONOTONIC);
            return f.mutex_clocklock(&r.mutex, CLOCK_MONOTONIC, &t);
          });
  compare("pthread_rwlock_timedrdlock(now + 1 ms) of an rwlock another thread writes",
          [&](const Functions& f, CancelReport& r) {
            const timespec t = soon(CLOCK_REALTIME);
            return f.timedrdlock(&r.rwlock, &t);
          });
  compare(
      "pthread_rwlock_clockwrlock(CLOCK_MONOTONIC, now + 1 ms) of an rwlock another thread "
      "writes",
      [&](const Functions& f, CancelReport& r) {
        const timespec t = soon(CLOCK_MONOTONIC);
        return f.clockwrlock(&r.rwlock, CLOCK_MONOTONIC, &t);
      });
  compare("syscall(SYS_futex, FUTEX_WAIT_PRIVATE, 1 ms)", [](const Functions& f, CancelReport& r) {
    const timespec timeout{0, 1'000'000};
    return f.syscall(SYS_futex, &r.futex_word, FUTEX_WAIT_PRIVATE, 0, &timeout, nullptr, 0);
  });
}

// ---- futex waits through syscall() ----

TEST_F(ContentionHooksArgumentsTest, FutexWaitsReturnWhatTheKernelReturns) {
  Differences differences;
  struct Operation {
    std::string name;
    long op;
    bool absolute;
  };
  const std::vector<Operation> operations = {
      {"FUTEX_WAIT", FUTEX_WAIT, false},
      {"FUTEX_WAIT_PRIVATE", FUTEX_WAIT_PRIVATE, false},
      {"FUTEX_WAIT|FUTEX_CLOCK_REALTIME", FUTEX_WAIT | FUTEX_CLOCK_REALTIME, false},
      {"FUTEX_WAIT_BITSET", FUTEX_WAIT_BITSET, true},
      {"FUTEX_WAIT_BITSET_PRIVATE", FUTEX_WAIT_BITSET_PRIVATE, true},
      {"FUTEX_WAIT_BITSET|FUTEX_CLOCK_REALTIME", FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, true},
  };
  alignas(8) static uint32_t words[2];
  struct Address {
    std::string name;
    uint32_t* address;
  };
  const std::vector<Address> addresses = {
      {"an aligned word", &words[0]},
      {"a misaligned word", reinterpret_cast<uint32_t*>(reinterpret_cast<char*>(&words[0]) + 1)},
      {"a null address", nullptr},
  };
  for (const Operation& operation : operations) {
    for (const Address& address : addresses) {
      for (const uint32_t expected : {1u, 2u}) {
        for (const uint32_t bitset : {FUTEX_BITSET_MATCH_ANY, 0u}) {
          if (!operation.absolute && bitset == 0) continue;  // FUTEX_WAIT reads no bitset
          for (const Deadline& deadline : Deadlines()) {
            // FUTEX_WAIT's timeout is relative: a fixed one of more than a
            // few milliseconds would be waited for.
            if (!operation.absolute && deadline.Valid() && deadline.from_now_ms < 0 &&
                (deadline.fixed.tv_sec > 0 || deadline.fixed.tv_nsec > 5'000'000)) {
              continue;
            }
            Outcome outcomes[2];
            int i = 0;
            for (const Functions* functions : Both()) {
              words[0] = 1;
              // "now + 5 ms" is 5 ms for FUTEX_WAIT.
              timespec timeout = deadline.On(operation.op & FUTEX_CLOCK_REALTIME ? CLOCK_REALTIME
                                                                                 : CLOCK_MONOTONIC);
              if (!operation.absolute && deadline.from_now_ms >= 0) {
                timeout = {0, deadline.from_now_ms * 1'000'000};
              }
              errno = kErrnoBefore;
              outcomes[i].result = functions->syscall(SYS_futex, address.address, operation.op,
                                                      expected, &timeout, nullptr, bitset);
              outcomes[i].error = errno;
              outcomes[i].state = "word " + std::to_string(words[0]);
              ++i;
            }
            differences.Compare("syscall(SYS_futex, " + address.name + ", " + operation.name +
                                    ", " + std::to_string(expected) + " (word 1), " +
                                    deadline.name + ", bitset " + std::to_string(bitset) + ")",
                                outcomes[0], outcomes[1]);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace benchprof::collect
