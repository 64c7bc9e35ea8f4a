// Calls into the trace API from a translation unit compiled with
// BENCHPROF_TRACE_DISABLED (trace_disabled_calls.cc).
#ifndef BENCHPROF_TESTS_TRACER_TRACE_DISABLED_CALLS_H_
#define BENCHPROF_TESTS_TRACER_TRACE_DISABLED_CALLS_H_

namespace benchprof::testing {

// Uses every annotation `rounds` times; returns whether the API said a trace
// was being recorded (it never does when compiled out).
bool AnnotateWithTracingCompiledOut(int rounds);

}  // namespace benchprof::testing

#endif  // BENCHPROF_TESTS_TRACER_TRACE_DISABLED_CALLS_H_
