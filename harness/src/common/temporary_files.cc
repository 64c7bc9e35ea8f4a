#include "common/temporary_files.h"

#include <unistd.h>

#include <mutex>
#include <set>

namespace benchprof {
namespace {

struct Registry {
  std::mutex mutex;
  std::set<std::string> paths;  // guarded by mutex
  bool closed = false;          // guarded by mutex
};

// Never destroyed: an interruption may come while static destructors run.
Registry& TheRegistry() {
  static Registry* registry = new Registry;
  return *registry;
}

}  // namespace

void RegisterTemporary(const std::string& path) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  if (registry.closed) {
    unlink(path.c_str());
    return;
  }
  registry.paths.insert(path);
}

void UnregisterTemporary(const std::string& path) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  registry.paths.erase(path);
}

void RemoveAllTemporaries() {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  for (const std::string& path : registry.paths) unlink(path.c_str());
  registry.paths.clear();
  registry.closed = true;
}

}  // namespace benchprof
