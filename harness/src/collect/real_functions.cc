// Looks every real function (real_functions.h) up before main.
#include "collect/real_functions.h"

namespace benchprof::collect::real {
namespace {

// Looks every real function up before main, outside any benchmark.
const bool g_resolved_at_startup = [] {
  RealSyscall();
  MutexLock::Resolve(), MutexTrylock::Resolve(), MutexTimedlock::Resolve();
  MutexClocklock::Resolve(), MutexUnlock::Resolve(), Rdlock::Resolve(), Tryrdlock::Resolve();
  Timedrdlock::Resolve(), Clockrdlock::Resolve(), Wrlock::Resolve(), Trywrlock::Resolve();
  Timedwrlock::Resolve(), Clockwrlock::Resolve(), Rwunlock::Resolve(), CondWait::Resolve();
  CondTimedwait::Resolve(), CondClockwait::Resolve(), SemWait::Resolve(), SemTrywait::Resolve();
  SemTimedwait::Resolve(), SemClockwait::Resolve(), Join::Resolve(), Tryjoin::Resolve();
  Timedjoin::Resolve(), Clockjoin::Resolve();
  return true;
}();

}  // namespace
}  // namespace benchprof::collect::real
