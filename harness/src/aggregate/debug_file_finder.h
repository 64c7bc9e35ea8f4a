// Debug file finder: the separate debug file of an object, looked up on the
// local disk only.
//
// Distributions strip debug information into separate files (Debian's
// *-dbgsym packages install them under /usr/lib/debug). libdwfl finds them
// through a Dwfl_Callbacks::find_debuginfo hook; its standard one,
// dwfl_standard_find_debuginfo, ends with a debuginfod query when
// DEBUGINFOD_URLS is set (Debian sets it for login shells), which can stall
// for minutes with no network. FindLocalDebuginfo is a drop-in replacement
// that never goes to the network, so stopping a profile never waits on it:
//
//   char* debuginfo_path = nullptr;  // libdwfl's default search path
//   const Dwfl_Callbacks callbacks = {
//       .find_elf = dwfl_linux_proc_find_elf,
//       .find_debuginfo = internal::FindLocalDebuginfo,
//       .debuginfo_path = &debuginfo_path,
//   };
//
// Thread-safety: thread-safe (no state of its own; libdwfl calls it with the
// module it is opening).
#ifndef BENCHPROF_AGGREGATE_DEBUG_FILE_FINDER_H_
#define BENCHPROF_AGGREGATE_DEBUG_FILE_FINDER_H_

#include <elfutils/libdwfl.h>
#include <gelf.h>

namespace benchprof::aggregate::internal {

// A Dwfl_Callbacks::find_debuginfo: the parameters are libdwfl's. Looks,
// in order,
//   * in the /usr/lib/debug/.build-id tree, through libdwfl's own build-id
//     lookup (dwfl_build_id_find_debuginfo, which never goes to the
//     network and is given every parameter as is);
//   * for the .gnu_debuglink name `debuglink_file` of an object at the
//     absolute path `file_name`: beside the object, in its .debug/
//     directory, and under /usr/lib/debug followed by the object's
//     directory.
// Debuglink candidates are accepted only when their build id matches the
// object's, so objects without a build id get no debuglink lookup (CRC
// checking is not worth a second implementation of libdwfl's), and the
// object itself is never taken for its own debug file.
// Returns an open descriptor of the debug file, which libdwfl then owns,
// with *debuginfo_file_name set to a malloc()ed copy of its path; -1 when
// there is none.
int FindLocalDebuginfo(Dwfl_Module* module, void** userdata, const char* module_name,
                       Dwarf_Addr base, const char* file_name, const char* debuglink_file,
                       GElf_Word debuglink_crc, char** debuginfo_file_name);

}  // namespace benchprof::aggregate::internal

#endif  // BENCHPROF_AGGREGATE_DEBUG_FILE_FINDER_H_
