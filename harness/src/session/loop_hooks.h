// Start-up self-test of the timed-loop interception (see loop_hooks.cc).
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_SESSION_LOOP_HOOKS_H_
#define BENCHPROF_SESSION_LOOP_HOOKS_H_

namespace benchmark {
class State;
}

namespace benchprof::session {

// True when this executable was linked with the --wrap options of
// benchprof::main, so calls from its objects to the four State functions
// reach the harness. It cannot see benchmarks compiled into shared
// libraries; the reporter catches those per run (their runs lack counters).
bool LoopHooksAreLinked();

}  // namespace benchprof::session

#endif  // BENCHPROF_SESSION_LOOP_HOOKS_H_
