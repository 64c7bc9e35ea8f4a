// Object file: one loaded object's ELF file and debug information, opened
// through a libdwfl session of its own.
//
// The symbolizer opens an object the first time an address inside it is
// asked about. Each object gets its own Dwfl, so one unreadable or replaced
// file cannot disturb the others. The main executable is read through
// /proc/self/exe (the file actually running, even if its path was rebuilt
// since), the vDSO from a copy of the image the kernel mapped, and any
// other object from its path, checked against the build id it was loaded
// with. Separate debug files are found by FindLocalDebuginfo
// (debug_file_finder.h), never through debuginfod.
//
//   ObjectFile file;
//   if (Dwfl_Module* module = file.Open(loaded_module)) {
//     Dwarf_Addr bias = 0;
//     Dwarf* dwarf = dwfl_module_getdwarf(module, &bias);  // nullptr: no DWARF
//   }
//
// Thread-safety: thread-compatible (libdwfl handles are not thread-safe).
#ifndef BENCHPROF_AGGREGATE_OBJECT_FILE_H_
#define BENCHPROF_AGGREGATE_OBJECT_FILE_H_

#include <elfutils/libdwfl.h>

#include <vector>

#include "aggregate/module_map.h"

namespace benchprof::aggregate::internal {

class ObjectFile {
 public:
  ObjectFile() = default;
  ~ObjectFile();

  // Not copyable or movable: libdwfl keeps a pointer to vdso_image_.
  ObjectFile(const ObjectFile&) = delete;
  ObjectFile& operator=(const ObjectFile&) = delete;

  // Reports the object `loaded` is a segment of (its path, load bias and
  // build id; "[vdso]" for the vDSO, is_main_executable for the main
  // executable) to a new Dwfl. Returns the module, whose addresses are
  // runtime addresses; nullptr when the file cannot be read, or its build
  // id differs from a non-empty `loaded.build_id` (a library replaced on
  // disk since it was loaded would give wrong names). Call at most once.
  Dwfl_Module* Open(const LoadedModule& loaded);

  // What Open returned; nullptr before Open.
  Dwfl_Module* module() const { return module_; }

 private:
  Dwfl* dwfl_ = nullptr;
  Dwfl_Module* module_ = nullptr;
  std::vector<char> vdso_image_;  // must outlive dwfl_
};

}  // namespace benchprof::aggregate::internal

#endif  // BENCHPROF_AGGREGATE_OBJECT_FILE_H_
