// The dlclose() replacement behind library_unload_hook.h.
#include "collect/library_unload_hook.h"

#include <dlfcn.h>

#include <atomic>

namespace benchprof::collect {
namespace {

using CloseFunction = int (*)(void*);

CloseFunction RealDlclose() {
  static const CloseFunction real = reinterpret_cast<CloseFunction>(dlsym(RTLD_NEXT, "dlclose"));
  return real;
}
const CloseFunction g_resolved_at_startup = RealDlclose();

std::atomic<bool> g_keep_loaded{false};
std::atomic<uint64_t> g_kept{0};

}  // namespace

void KeepLibrariesLoaded() { g_keep_loaded.store(true, std::memory_order_release); }

uint64_t KeptLibraryUnloads() { return g_kept.load(std::memory_order_relaxed); }

}  // namespace benchprof::collect

extern "C" int dlclose(void* handle) {
  using namespace benchprof::collect;
  if (g_keep_loaded.load(std::memory_order_acquire)) {
    g_kept.fetch_add(1, std::memory_order_relaxed);
    return 0;
  }
  const CloseFunction real = RealDlclose();
  return real != nullptr ? real(handle) : -1;
}
