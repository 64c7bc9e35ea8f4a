// The link-time interception of Google Benchmark 1.7.1's timed loop.
//
// `for (auto _ : state)`, KeepRunning() and KeepRunningBatch() are inline
// code in the benchmark's own object files that calls the library's
// out-of-line State::StartKeepRunning() and State::FinishKeepRunning();
// PauseTiming()/ResumeTiming() are out-of-line too. benchprof::main links
// with `--wrap=<mangled name>` for all four, so those calls land here, and
// `__real_<name>` reaches the library. The library's own pause/resume inside
// Start/FinishKeepRunning do not pass through here (they are internal calls),
// so the Pause/Resume wrappers see exactly the user's calls.
//
// This file deliberately does not include benchmark.h: it declares the
// mangled names as C functions, which the header's member declarations would
// contradict.
#include "session/loop_hooks.h"

#include "session/timed_loop.h"

#define BENCHPROF_STATE_START _ZN9benchmark5State16StartKeepRunningEv
#define BENCHPROF_STATE_FINISH _ZN9benchmark5State17FinishKeepRunningEv
#define BENCHPROF_STATE_PAUSE _ZN9benchmark5State11PauseTimingEv
#define BENCHPROF_STATE_RESUME _ZN9benchmark5State12ResumeTimingEv

#define BENCHPROF_CONCAT_(a, b) a##b
#define BENCHPROF_CONCAT(a, b) BENCHPROF_CONCAT_(a, b)
#define BENCHPROF_REAL(name) BENCHPROF_CONCAT(__real_, name)
#define BENCHPROF_WRAP(name) BENCHPROF_CONCAT(__wrap_, name)

using benchmark::State;

extern "C" {

// With --wrap these references resolve to the wrappers below; without it, to
// the library. LoopHooksAreLinked() compares the two.
void BENCHPROF_STATE_START(State*);
void BENCHPROF_STATE_FINISH(State*);
void BENCHPROF_STATE_PAUSE(State*);
void BENCHPROF_STATE_RESUME(State*);

// Weak: an executable linked without --wrap still links (the wrappers are
// then never called), and its self-test explains what is missing.
__attribute__((weak)) void BENCHPROF_REAL(BENCHPROF_STATE_START)(State*);
__attribute__((weak)) void BENCHPROF_REAL(BENCHPROF_STATE_FINISH)(State*);
__attribute__((weak)) void BENCHPROF_REAL(BENCHPROF_STATE_PAUSE)(State*);
__attribute__((weak)) void BENCHPROF_REAL(BENCHPROF_STATE_RESUME)(State*);

void BENCHPROF_WRAP(BENCHPROF_STATE_START)(State* state) {
  benchprof::session::BeforeLoopStart(*state);
  BENCHPROF_REAL(BENCHPROF_STATE_START)(state);  // start barrier, timer starts
  benchprof::session::AfterLoopStart(*state);
}

void BENCHPROF_WRAP(BENCHPROF_STATE_FINISH)(State* state) {
  benchprof::session::BeforeLoopFinish(*state);
  BENCHPROF_REAL(BENCHPROF_STATE_FINISH)(state);  // timer stops, finish barrier
  benchprof::session::AfterLoopFinish(*state);
}

void BENCHPROF_WRAP(BENCHPROF_STATE_PAUSE)(State* state) {
  benchprof::session::BeforePause(*state);
  BENCHPROF_REAL(BENCHPROF_STATE_PAUSE)(state);
}

void BENCHPROF_WRAP(BENCHPROF_STATE_RESUME)(State* state) {
  BENCHPROF_REAL(BENCHPROF_STATE_RESUME)(state);
  benchprof::session::AfterResume(*state);
}

}  // extern "C"

namespace benchprof::session {

bool LoopHooksAreLinked() {
  using Hook = void (*)(State*);
  // volatile: the comparison must happen at run time, against what the
  // linker resolved, not be folded by the compiler.
  volatile Hook resolved[] = {&BENCHPROF_STATE_START, &BENCHPROF_STATE_FINISH,
                              &BENCHPROF_STATE_PAUSE, &BENCHPROF_STATE_RESUME};
  const Hook wrappers[] = {
      &BENCHPROF_WRAP(BENCHPROF_STATE_START), &BENCHPROF_WRAP(BENCHPROF_STATE_FINISH),
      &BENCHPROF_WRAP(BENCHPROF_STATE_PAUSE), &BENCHPROF_WRAP(BENCHPROF_STATE_RESUME)};
  for (int i = 0; i < 4; ++i) {
    if (resolved[i] != wrappers[i]) return false;
  }
  return true;
}

}  // namespace benchprof::session
