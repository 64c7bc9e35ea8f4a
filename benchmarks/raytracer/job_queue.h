// JobQueue: the bounded blocking queue that feeds a render's worker pool,
// the analogue of the Go original's job channel.
//
// A producer Push()es spans of pixels and workers Pop() them, waiting while
// the queue is empty, until Close() (Pop() then drains what is left and
// returns false). The ring is allocated once, so passing a job allocates
// nothing; what a job costs is taking the lock on both sides, which
// per-pixel jobs pay 307,200 times per 640x480 frame and per-line jobs 480
// times. Sleeping is kept off that path: the lock spins before it sleeps
// (SpinningMutex), a side signals the other only if it is asleep, and a
// producer that finds the queue full sleeps until it is half empty, not until
// the next slot frees (otherwise producer and workers take turns sleeping and
// every pixel costs two context switches).
//
// Example:
//   JobQueue queue(2);
//   std::thread worker([&] { PixelSpan job; while (queue.Pop(job)) Render(job); });
//   queue.Push({0, 0, 640});
//   queue.Close();
//   worker.join();
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_BENCHMARKS_RAYTRACER_JOB_QUEUE_H_
#define BENCHPROF_BENCHMARKS_RAYTRACER_JOB_QUEUE_H_

#include <pthread.h>

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

namespace benchprof::raytracer {

// Pixels x_begin .. x_end - 1 of row y.
struct PixelSpan {
  int y = 0;
  int x_begin = 0;
  int x_end = 0;
};

// A mutex that spins briefly before sleeping (glibc's adaptive mutex): the
// queue's critical sections are a few loads and stores, so a worker that
// finds the lock taken nearly always gets it in less time than a sleep and
// wake-up would take.
class SpinningMutex {
 public:
  SpinningMutex();
  ~SpinningMutex();
  SpinningMutex(const SpinningMutex&) = delete;
  SpinningMutex& operator=(const SpinningMutex&) = delete;

  void lock();
  void unlock();

 private:
  pthread_mutex_t mutex_;
};

class JobQueue {
 public:
  // A queue that holds up to `capacity` (at least 1) jobs.
  explicit JobQueue(size_t capacity);
  JobQueue(const JobQueue&) = delete;
  JobQueue& operator=(const JobQueue&) = delete;

  // Adds a job; if the queue is full, first waits until it is half empty.
  // Must not follow Close().
  void Push(const PixelSpan& job);

  // Takes the oldest job, waiting while the queue is empty and open. Returns
  // false once the queue is closed and empty.
  bool Pop(PixelSpan& job);

  // No more jobs will come; wakes every waiting worker.
  void Close();

 private:
  SpinningMutex mutex_;
  std::condition_variable_any not_empty_;
  std::condition_variable_any not_full_;
  std::vector<PixelSpan> ring_;  // guarded by mutex_, as are the fields below
  size_t head_ = 0;
  size_t size_ = 0;
  int sleeping_producers_ = 0;
  int sleeping_workers_ = 0;
  bool closed_ = false;
};

}  // namespace benchprof::raytracer

#endif  // BENCHPROF_BENCHMARKS_RAYTRACER_JOB_QUEUE_H_
