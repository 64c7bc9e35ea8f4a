// A server's cache of per-session state, in two versions: one that never
// evicts, so every session it ever saw stays in memory (the leak a heap
// profile's inuse_space finds), and one that keeps the most recently used
// `capacity` sessions.
//
//   SessionCache cache(1024);                 // 0: never evict
//   const Session& s = cache.Get("session-42");
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_BENCHMARKS_LEAK_SESSION_CACHE_H_
#define BENCHPROF_BENCHMARKS_LEAK_SESSION_CACHE_H_

#include <cstddef>
#include <list>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace benchprof::leak {

struct Session {
  std::string id;
  std::vector<std::string> roles;
};

// Builds the state of session `id` (what a server would read from its
// store): the allocations the cache keeps.
Session LoadSession(std::string_view id);

class SessionCache {
 public:
  // Keeps at most `capacity` sessions, evicting the least recently used;
  // 0 keeps every session forever.
  explicit SessionCache(size_t capacity) : capacity_(capacity) {}
  SessionCache(const SessionCache&) = delete;
  SessionCache& operator=(const SessionCache&) = delete;

  // The session `id`, loaded and cached if it is not cached.
  const Session& Get(std::string_view id);

  size_t size() const { return recent_.size(); }

 private:
  size_t capacity_;
  std::list<Session> recent_;  // most recently used first
  // Keys view the ids of the sessions in recent_.
  std::unordered_map<std::string_view, std::list<Session>::iterator> index_;
};

}  // namespace benchprof::leak

#endif  // BENCHPROF_BENCHMARKS_LEAK_SESSION_CACHE_H_
