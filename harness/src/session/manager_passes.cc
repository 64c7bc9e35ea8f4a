// The forwarding managers, and the wrappers (linker --wrap) of the
// library's RegisterMemoryManager and RegisterProfilerManager that install
// them. As in loop_hooks.cc, __wrap_ and __real_ are spelled as C functions
// named after the mangled C++ names.
#include "session/manager_passes.h"

#include "session/timed_loop.h"

#define BENCHPROF_REGISTER_MEMORY _ZN9benchmark21RegisterMemoryManagerEPNS_13MemoryManagerE
#define BENCHPROF_REGISTER_PROFILER _ZN9benchmark23RegisterProfilerManagerEPNS_15ProfilerManagerE

#define BENCHPROF_CONCAT_(a, b) a##b
#define BENCHPROF_CONCAT(a, b) BENCHPROF_CONCAT_(a, b)
#define BENCHPROF_REAL(name) BENCHPROF_CONCAT(__real_, name)
#define BENCHPROF_WRAP(name) BENCHPROF_CONCAT(__wrap_, name)

namespace benchprof::session {
namespace {

bool g_in_manager_pass = false;

void BeginManagerPass() {
  g_in_manager_pass = true;
  // 1.9 calls ProfilerManager::AfterSetupStart() inside StartKeepRunning(),
  // after benchprof's own start hook took the loop for a measured run.
  WithdrawAnnouncedLoop();
}

void EndManagerPass() { g_in_manager_pass = false; }

class MemoryManagerForwarder : public benchmark::MemoryManager {
 public:
  explicit MemoryManagerForwarder(benchmark::MemoryManager* user) : user_(user) {}

  void Start() override {
    BeginManagerPass();
    user_->Start();
  }

#if BENCHPROF_BENCHMARK_VERSION_NUMBER < 10800
  // 1.7 has both Stop()s; the user may have implemented either.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  void Stop(Result* result) override {
    user_->Stop(result);
    EndManagerPass();
  }
#pragma GCC diagnostic pop
#endif
  void Stop(Result& result) override {
    user_->Stop(result);
    EndManagerPass();
  }

 private:
  benchmark::MemoryManager* user_;
};

#if BENCHPROF_HAS_PROFILER_MANAGER
class ProfilerManagerForwarder : public benchmark::ProfilerManager {
 public:
  explicit ProfilerManagerForwarder(benchmark::ProfilerManager* user) : user_(user) {}

  void AfterSetupStart() override {
    BeginManagerPass();
    user_->AfterSetupStart();
  }
  void BeforeTeardownStop() override {
    user_->BeforeTeardownStop();
    EndManagerPass();
  }

 private:
  benchmark::ProfilerManager* user_;
};
#endif

}  // namespace

bool InManagerPass() { return g_in_manager_pass; }

benchmark::MemoryManager* ForwardingMemoryManager(benchmark::MemoryManager* user) {
  if (user == nullptr) return nullptr;
  // One forwarder per registration, alive to the end: the library keeps
  // the pointer. Registrations are few (usually one).
  return new MemoryManagerForwarder(user);
}

#if BENCHPROF_HAS_PROFILER_MANAGER
benchmark::ProfilerManager* ForwardingProfilerManager(benchmark::ProfilerManager* user) {
  if (user == nullptr) return nullptr;
  return new ProfilerManagerForwarder(user);
}
#endif

}  // namespace benchprof::session

extern "C" {

// Weak: without --wrap (a program not linked with benchprof::main) the
// wrappers are never called and nothing refers to the real functions.
__attribute__((weak)) void BENCHPROF_REAL(BENCHPROF_REGISTER_MEMORY)(benchmark::MemoryManager*);

void BENCHPROF_WRAP(BENCHPROF_REGISTER_MEMORY)(benchmark::MemoryManager* user) {
  BENCHPROF_REAL(BENCHPROF_REGISTER_MEMORY)(benchprof::session::ForwardingMemoryManager(user));
}

#if BENCHPROF_HAS_PROFILER_MANAGER
__attribute__((weak)) void BENCHPROF_REAL(BENCHPROF_REGISTER_PROFILER)(benchmark::ProfilerManager*);

void BENCHPROF_WRAP(BENCHPROF_REGISTER_PROFILER)(benchmark::ProfilerManager* user) {
  BENCHPROF_REAL(BENCHPROF_REGISTER_PROFILER)(benchprof::session::ForwardingProfilerManager(user));
}
#endif

}  // extern "C"
