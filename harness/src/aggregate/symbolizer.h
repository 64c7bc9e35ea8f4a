// Symbolizer: code addresses of this process -> functions, source files,
// lines and inline frames, for the CPU and heap profiles.
//
// `go tool pprof` cannot symbolize C++ (no inline frames, DW_AT_name only),
// so benchprof writes fully symbolized profiles. This runs in the profiled
// process after sampling stops, never in a signal handler. It reads the
// main executable's and every shared library's symbol table and DWARF
// through libdw, and is built for thousands of addresses:
//   * one sorted symbol table per object, built on first use (libdw's own
//     address-to-symbol lookup is a linear scan): elf_symbol_table.h;
//   * one inline-range index per compilation unit, built on first use by a
//     single walk of the unit's DIEs (dwarf_getscopes rescans the whole unit
//     on every call, ~10 ms per address on template-heavy code):
//     inline_index.h;
//   * every answer memoized by address.
// Each object is opened in a libdwfl session of its own (object_file.h).
// Separate debug files are found by build id under /usr/lib/debug (and
// through .gnu_debuglink beside the object, checked by build id); debuginfod
// is never asked, whatever DEBUGINFOD_URLS says, so stopping a profile can
// never wait on the network (debug_file_finder.h). Names are shortened by
// ShortFunctionName (function_name.h, included here for this header's
// users).
//
//   Symbolizer symbolizer(LoadedModules());
//   for (const SymbolizedFrame& frame : symbolizer.Symbolize(pc)) {
//     // innermost inlined callee first, the out-of-line function last
//   }
//
// Addresses are taken as given: pass the interrupted PC for a leaf and
// return address - 1 for every caller, so that the line and inline chain
// belong to the call instruction.
//
// Thread-safety: thread-compatible (Symbolize fills caches).
#ifndef BENCHPROF_AGGREGATE_SYMBOLIZER_H_
#define BENCHPROF_AGGREGATE_SYMBOLIZER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aggregate/function_name.h"  // part of this header's API
#include "aggregate/module_map.h"

namespace benchprof::aggregate {

// One function frame at an address: what a pprof Line and its Function need.
struct SymbolizedFrame {
  // Demangled, without return type, parameter list or cv/ref qualifiers,
  // template arguments kept: "std::vector<int, std::allocator<int> >::push_back".
  // C names as they are. GCC gives functions with internal linkage (in
  // anonymous namespaces, or templates instantiated on lambdas) no DWARF
  // linkage name: an out-of-line one is named from its ELF symbol, an
  // inlined one from DW_AT_name qualified with its enclosing DWARF scopes,
  // an unnamed class (a lambda's closure) written "{lambda}". Code in a
  // PLT stub is named "[plt]".
  std::string name;
  // The mangled linkage name: DW_AT_linkage_name, else the ELF symbol
  // (without GCC's ".constprop.0"-style clone suffix when DWARF supplied the
  // frame), else the qualified DW_AT_name.
  std::string system_name;
  // Source path as compiled: DW_AT_comp_dir joined with the line table's
  // name, so absolute unless the build mapped its directories away with
  // -fdebug-prefix-map (Debian's libc: "./stdlib/msort.c"). "" without
  // debug info.
  std::string filename;
  // The line executing in this frame: the line table's line for the
  // innermost frame, the inlined call's DW_AT_call_line for each outer one.
  // 0 when unknown (and on lines the compiler marks as line 0).
  int64_t line = 0;
  // The line the function is declared on (DW_AT_decl_line through
  // abstract_origin/specification; for artificial functions such as a
  // lambda's operator(), the line of its entry point). 0 when unknown.
  int64_t start_line = 0;
};

// How well the addresses asked about in one module were resolved, counted
// once per distinct address. pprof's Mapping.has_* flags promise that every
// location of the mapping is resolved, so each flag below holds only when
// its count equals `addresses` (vacuously true for a module never asked
// about).
struct ModuleSymbolQuality {
  uint64_t addresses = 0;         // distinct addresses symbolized in the module
  uint64_t with_function = 0;     // got at least one frame, every frame named
  uint64_t with_filename = 0;     // got frames, every frame has a filename
  uint64_t with_line = 0;         // got frames, every frame has a line > 0
  uint64_t with_inline_info = 0;  // resolved from DWARF function/inline DIEs

  bool has_functions() const { return with_function == addresses; }
  bool has_filenames() const { return with_filename == addresses; }
  bool has_line_numbers() const { return with_line == addresses; }
  bool has_inline_frames() const { return with_inline_info == addresses; }
};

class Symbolizer {
 public:
  // Symbolizes addresses inside `modules` (usually LoadedModules()). Opens
  // nothing yet: each object's files and debug info are read the first
  // time an address inside it is asked about.
  explicit Symbolizer(std::vector<LoadedModule> modules);
  ~Symbolizer();

  Symbolizer(const Symbolizer&) = delete;
  Symbolizer& operator=(const Symbolizer&) = delete;

  // The frames at `address`: innermost inlined callee first, the physical
  // (out-of-line) function last. Code without DWARF gives one frame from
  // the ELF symbol table (no filename, line 0); code with a line table but
  // no function DIEs (assembly) gives that frame with the table's file and
  // line. Empty when the address is in no module or in no known function
  // (padding between functions, a module whose files cannot be read or no
  // longer match its build id). The first call for an address counts it in
  // quality(); later calls return the memoized answer.
  std::vector<SymbolizedFrame> Symbolize(uint64_t address);

  // Adds `address` to `counts` as quality() counts it (symbolizing it
  // first if need be): for users of a shared symbolizer that report on
  // their own addresses only (each pprof file's mappings).
  void CountQuality(uint64_t address, ModuleSymbolQuality& counts);

  // The modules given to the constructor.
  const std::vector<LoadedModule>& modules() const;

  // Resolution counts for modules()[module_index] over every distinct
  // address symbolized so far; the reference stays valid (and current) for
  // the symbolizer's lifetime. REQUIRES: module_index < modules().size().
  const ModuleSymbolQuality& quality(size_t module_index) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace benchprof::aggregate

#endif  // BENCHPROF_AGGREGATE_SYMBOLIZER_H_
