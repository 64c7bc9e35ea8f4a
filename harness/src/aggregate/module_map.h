// Module map: the executable code loaded into this process, as pprof
// mappings need it.
//
// A profile's Mapping table names, for each range of executable memory, the
// file it came from and its build id, so pprof can match samples to
// binaries and tell two builds apart. LoadedModules() reads the dynamic
// loader's own list (dl_iterate_phdr) rather than /proc/self/maps: it gives
// the load bias and program headers directly, and the build id note is read
// from memory, so no file is opened.
//
//   std::vector<LoadedModule> modules = LoadedModules();
//   if (const LoadedModule* m = FindModule(modules, pc)) { ... m->path ... }
//
// Call LoadedModules() after sampling stops (it allocates), and before any
// library the samples may point into is dlclose()d.
//
// Thread-safety: both functions are thread-safe.
#ifndef BENCHPROF_AGGREGATE_MODULE_MAP_H_
#define BENCHPROF_AGGREGATE_MODULE_MAP_H_

#include <cstdint>
#include <string>
#include <vector>

namespace benchprof::aggregate {

// One executable (PF_X) PT_LOAD segment of a loaded object.
struct LoadedModule {
  // Absolute path of the object; the main executable's comes from
  // readlink("/proc/self/exe"). The kernel's vDSO is named "[vdso]".
  std::string path;
  // Lowercase hex of the NT_GNU_BUILD_ID note; "" if there is none, and
  // always "" for the vDSO.
  std::string build_id;
  // The segment's runtime address range [start, limit) and the file offset
  // of `start` (p_offset). Exact segment bounds, not page-rounded, so that
  // start - file_offset + p_offset - p_vaddr == load_bias.
  uint64_t start = 0;
  uint64_t limit = 0;
  uint64_t file_offset = 0;
  // Runtime address minus link-time address (dlpi_addr); 0 for non-PIE
  // executables.
  uint64_t load_bias = 0;
  bool is_main_executable = false;
};

// Every executable segment of every object the dynamic loader knows about:
// the main executable first, then shared libraries in load order, each
// object's segments in program-header order. The vDSO is included where
// the loader lists it (usually second), as "[vdso]" without a build id:
// benchmarks spend real time in it (clock_gettime), and samples there
// deserve a mapping and a name. Objects with no executable segment are
// left out.
std::vector<LoadedModule> LoadedModules();

// The module whose [start, limit) contains `address`, or nullptr. The
// pointer points into `modules`.
const LoadedModule* FindModule(const std::vector<LoadedModule>& modules, uint64_t address);

}  // namespace benchprof::aggregate

#endif  // BENCHPROF_AGGREGATE_MODULE_MAP_H_
