// What `bench --timeout` prints about a hung run: every thread's stack
// (collect/thread_stacks.h), symbolized with the profiles' symbolizer
// (functions, inline frames, files and lines), as Go prints every goroutine
// when a test times out.
//
//   thread 4242 (bench):
//     BM_Endless
//         /src/bench.cc:47
//     ...
//
// The stacks are captured async-signal-safely in each thread and
// symbolized afterwards on the calling thread, which may allocate: the
// other threads keep running and hold no lock the symbolizer needs.
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_SESSION_THREAD_STACK_DUMP_H_
#define BENCHPROF_SESSION_THREAD_STACK_DUMP_H_

#include <string>
#include <vector>

#include "collect/thread_stacks.h"

namespace benchprof::session {

// The report of `stacks`, one block per thread, each line ending in '\n'.
std::string DescribeThreadStacks(const std::vector<collect::ThreadStack>& stacks);

}  // namespace benchprof::session

#endif  // BENCHPROF_SESSION_THREAD_STACK_DUMP_H_
