// Built unoptimised with BENCHPROF_TRACE_DISABLED and linked without
// benchprof_trace: it links only if a compiled-out build refers to no
// recorder symbol at all.
#define BENCHPROF_TRACE_DISABLED
#include "benchprof/trace.h"

int main() {
  benchprof::Task task = benchprof::NewTask("type");
  benchprof::Region region = benchprof::StartRegion(task, "region");
  benchprof::Log(task, "category", "message");
  const int result = benchprof::WithRegion("region", [] { return 0; });
  return result + (benchprof::TraceIsRecording() ? 1 : 0);
}
