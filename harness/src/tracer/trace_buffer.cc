// HOT PATH (slow side): Pop, Push and Submit run on recording threads when
// a chunk fills. Lock-free, no allocation.
#include "tracer/trace_buffer.h"

#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <new>

namespace benchprof::tracer {

ChunkPool* ChunkPool::Create(uint32_t chunks) {
  if (chunks == 0) return nullptr;
  // The pool's own fields live in the same mapping, before the chunks:
  // nothing on the heap for an object that is never freed.
  constexpr size_t kHeaderBytes =
      (sizeof(ChunkPool) + alignof(Chunk) - 1) / alignof(Chunk) * alignof(Chunk);
  void* memory = mmap(nullptr, kHeaderBytes + size_t{chunks} * sizeof(Chunk),
                      PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) return nullptr;
  auto* chunk_memory = reinterpret_cast<Chunk*>(static_cast<char*>(memory) + kHeaderBytes);
  return new (memory) ChunkPool(chunk_memory, chunks);
}

ChunkPool::ChunkPool(Chunk* chunks, uint32_t size) : chunks_(chunks), size_(size) {
  for (uint32_t i = 0; i < size; ++i) {
    Chunk* chunk = new (&chunks_[i]) Chunk;
    chunk->header.index = i;
    chunk->header.pool = this;
  }
  // Chunk 0 first: a short trace touches the fewest pages.
  for (uint32_t i = size; i-- > 0;) Push(&chunks_[i]);
}

Chunk* ChunkPool::Pop() {
  uint64_t head = free_head_.load(std::memory_order_acquire);
  for (;;) {
    const auto first = static_cast<uint32_t>(head);
    if (first == 0) return nullptr;
    Chunk* chunk = &chunks_[first - 1];
    // May read a chunk another thread has just popped: the tag makes the
    // exchange below fail then, and the memory is never unmapped.
    const uint32_t next = chunk->header.next_free.load(std::memory_order_relaxed);
    const uint64_t replacement = ((head >> 32) + 1) << 32 | next;
    if (free_head_.compare_exchange_weak(head, replacement, std::memory_order_acquire,
                                         std::memory_order_acquire)) {
      return chunk;
    }
  }
}

void ChunkPool::Push(Chunk* chunk) {
  chunk->header.count.store(0, std::memory_order_relaxed);
  chunk->header.formatted = 0;
  chunk->header.next_submitted = nullptr;
  uint64_t head = free_head_.load(std::memory_order_relaxed);
  for (;;) {
    chunk->header.next_free.store(static_cast<uint32_t>(head), std::memory_order_relaxed);
    const uint64_t replacement = ((head >> 32) + 1) << 32 | (chunk->header.index + 1);
    if (free_head_.compare_exchange_weak(head, replacement, std::memory_order_release,
                                         std::memory_order_relaxed)) {
      return;
    }
  }
}

void ChunkPool::Submit(Chunk* chunk) {
  Chunk* head = submitted_head_.load(std::memory_order_relaxed);
  do {
    chunk->header.next_submitted = head;
  } while (!submitted_head_.compare_exchange_weak(head, chunk, std::memory_order_release,
                                                  std::memory_order_relaxed));
  // Exactly one Submit() reaches the mark between two TakeSubmitted().
  const uint32_t waiting = submitted_count_.fetch_add(1, std::memory_order_relaxed) + 1;
  if (waiting == std::max<uint32_t>(size_ / 4, 1)) WakeWriter();
}

void ChunkPool::WakeWriter() {
  if (writer_doorbell_.exchange(1, std::memory_order_release) == 0) {
    syscall(SYS_futex, &writer_doorbell_, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
  }
}

void ChunkPool::WaitForSubmissions(std::chrono::milliseconds timeout) {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(timeout);
  const timespec relative = {
      static_cast<time_t>(seconds.count()),
      static_cast<long>(std::chrono::nanoseconds(timeout - seconds).count())};
  // Returns at once if the doorbell rang since the last wait; a spurious
  // wake-up (EINTR) only makes the writer look early.
  syscall(SYS_futex, &writer_doorbell_, FUTEX_WAIT_PRIVATE, 0, &relative, nullptr, 0);
  writer_doorbell_.store(0, std::memory_order_relaxed);
}

Chunk* ChunkPool::TakeSubmitted() {
  Chunk* newest = submitted_head_.exchange(nullptr, std::memory_order_acquire);
  // A Submit() racing with this may be counted in the wrong round: the
  // writer then wakes a chunk early or late once.
  submitted_count_.store(0, std::memory_order_relaxed);
  Chunk* oldest = nullptr;
  while (newest != nullptr) {
    Chunk* next = newest->header.next_submitted;
    newest->header.next_submitted = oldest;
    oldest = newest;
    newest = next;
  }
  return oldest;
}

}  // namespace benchprof::tracer
