// Threads that benchprof runs itself (the trace writer, the trace CPU
// sampler): what they wait for is not the program's, so the contention
// sampler and the tracer leave their waits out.
//
// ASYNC-SIGNAL-SAFE and lock context: IsOwnThread() is one thread-local
// load; it runs inside the interposed pthread and syscall functions.
#ifndef BENCHPROF_COMMON_OWN_THREAD_H_
#define BENCHPROF_COMMON_OWN_THREAD_H_

namespace benchprof {

namespace internal {
extern __thread bool t_own_thread __attribute__((tls_model("initial-exec")));
}  // namespace internal

// Marks the calling thread as benchprof's own, for the rest of its life.
inline void MarkOwnThread() { internal::t_own_thread = true; }

// Whether MarkOwnThread() was called on this thread.
inline bool IsOwnThread() { return internal::t_own_thread; }

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_OWN_THREAD_H_
