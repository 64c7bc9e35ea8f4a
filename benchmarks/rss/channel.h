// Channel<T>: a bounded, closable FIFO between threads, the analogue of a
// buffered Go channel in the newsfeed program (`make(chan string, g)`, the
// pipeline's `make(chan []byte, 100)`).
//
// Send() waits while the channel is full; Receive() waits while it is empty
// and open, and returns nothing once it is closed and drained, which is how
// a Go `for x := range ch` loop ends. Unlike a Go channel, sending on a
// closed channel is not a crash: Send() returns false and drops the value.
//
// Example:
//   Channel<size_t> jobs(2);
//   std::thread worker([&] { while (std::optional<size_t> i = jobs.Receive()) Work(*i); });
//   for (size_t i = 0; i < n; ++i) jobs.Send(i);
//   jobs.Close();
//   worker.join();
//
// One mutex and two condition variables. Waking a sleeping thread is what
// costs (tens of µs of CPU on our VMs, against ~100 µs to parse a document),
// so a sender that found the channel full can be left asleep until the
// channel has drained to a low-water mark (`resume_at`), and then refill it
// in one go, instead of being woken for every slot that frees.
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_BENCHMARKS_RSS_CHANNEL_H_
#define BENCHPROF_BENCHMARKS_RSS_CHANNEL_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <utility>

namespace benchprof::rss {

template <typename T>
class Channel {
 public:
  // A channel holding at most `capacity` values (at least 1). A sender that
  // finds it full sleeps until it holds at most `resume_at` values (at most
  // capacity - 1, the default).
  explicit Channel(size_t capacity, std::optional<size_t> resume_at = std::nullopt)
      : capacity_(capacity == 0 ? 1 : capacity),
        resume_at_(resume_at && *resume_at < capacity_ ? *resume_at : capacity_ - 1) {}
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  // Appends `value`, waiting while the channel is full. Returns false, and
  // drops the value, if the channel is or becomes closed.
  bool Send(T value) {
    std::unique_lock lock(mutex_);
    not_full_.wait(lock, [&] { return closed_ || queue_.size() < capacity_; });
    if (closed_) return false;
    queue_.push_back(std::move(value));
    lock.unlock();
    not_empty_.notify_one();
    return true;
  }

  // Takes the oldest value, waiting while the channel is empty and open.
  // Returns nothing when the channel is closed and empty.
  std::optional<T> Receive() {
    std::unique_lock lock(mutex_);
    not_empty_.wait(lock, [&] { return closed_ || !queue_.empty(); });
    if (queue_.empty()) return std::nullopt;
    std::optional<T> value(std::move(queue_.front()));
    queue_.pop_front();
    const bool wake_sender = queue_.size() <= resume_at_;
    lock.unlock();
    if (wake_sender) not_full_.notify_one();
    return value;
  }

  // No more sends: receivers drain what is queued, then get nothing. Wakes
  // every waiting sender (their values are dropped) and receiver. Idempotent.
  void Close() {
    {
      std::lock_guard lock(mutex_);
      closed_ = true;
    }
    not_empty_.notify_all();
    not_full_.notify_all();
  }

 private:
  const size_t capacity_;
  const size_t resume_at_;
  std::mutex mutex_;
  std::condition_variable not_empty_;
  std::condition_variable not_full_;
  std::deque<T> queue_;
  bool closed_ = false;
};

}  // namespace benchprof::rss

#endif  // BENCHPROF_BENCHMARKS_RSS_CHANNEL_H_
