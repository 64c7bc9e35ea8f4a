// Compiled with BENCHPROF_TRACE_DISABLED (see CMakeLists.txt).
#include "tracer/trace_disabled_calls.h"

#include "benchprof/trace.h"

#ifndef BENCHPROF_TRACE_DISABLED
#error "this file must be compiled with BENCHPROF_TRACE_DISABLED"
#endif

namespace benchprof::testing {

bool AnnotateWithTracingCompiledOut(int rounds) {
  bool recording = false;
  for (int i = 0; i < rounds; ++i) {
    Task task = NewTask("compiled-out");
    Task child = NewTask(task, "compiled-out child");
    {
      Region region = StartRegion(task, "CompiledOut");
      WithRegion("CompiledOutToo", [] {});
      Log(task, "compiled-out", "message");
      Log("compiled-out", "message");
    }
    recording |= TraceIsRecording() || task.id() != 0;
  }
  return recording;
}

}  // namespace benchprof::testing
