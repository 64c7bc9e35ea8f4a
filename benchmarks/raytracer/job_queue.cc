#include "raytracer/job_queue.h"

#include <algorithm>

namespace benchprof::raytracer {

SpinningMutex::SpinningMutex() {
  pthread_mutexattr_t attributes;
  pthread_mutexattr_init(&attributes);
  pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_ADAPTIVE_NP);
  pthread_mutex_init(&mutex_, &attributes);
  pthread_mutexattr_destroy(&attributes);
}

SpinningMutex::~SpinningMutex() { pthread_mutex_destroy(&mutex_); }

void SpinningMutex::lock() { pthread_mutex_lock(&mutex_); }

void SpinningMutex::unlock() { pthread_mutex_unlock(&mutex_); }

JobQueue::JobQueue(size_t capacity) : ring_(std::max<size_t>(capacity, 1)) {}

void JobQueue::Push(const PixelSpan& job) {
  std::unique_lock<SpinningMutex> lock(mutex_);
  if (size_ == ring_.size()) {
    ++sleeping_producers_;
    not_full_.wait(lock, [this] { return size_ <= ring_.size() / 2; });
    --sleeping_producers_;
  }
  ring_[(head_ + size_) % ring_.size()] = job;
  ++size_;
  const bool wake = sleeping_workers_ > 0;
  lock.unlock();
  if (wake) not_empty_.notify_one();
}

bool JobQueue::Pop(PixelSpan& job) {
  std::unique_lock<SpinningMutex> lock(mutex_);
  if (size_ == 0 && !closed_) {
    ++sleeping_workers_;
    not_empty_.wait(lock, [this] { return size_ > 0 || closed_; });
    --sleeping_workers_;
  }
  if (size_ == 0) return false;
  job = ring_[head_];
  head_ = (head_ + 1) % ring_.size();
  --size_;
  const bool wake = sleeping_producers_ > 0 && size_ <= ring_.size() / 2;
  lock.unlock();
  if (wake) not_full_.notify_one();
  return true;
}

void JobQueue::Close() {
  {
    std::lock_guard<SpinningMutex> lock(mutex_);
    closed_ = true;
  }
  not_empty_.notify_all();
}

}  // namespace benchprof::raytracer
