// Reading a callgrind file (Valgrind's callgrind format, as `bench
// --instructions --callgrind_out=DIR` keeps one per reported run) into the
// instructions each function executed itself: its "self" cost in the Ir
// event, without what the functions it called executed. Name compression
// ("fn=(12) name", later "fn=(12)"), relative positions ("+3", "-2", "*"),
// several position columns ("positions: instr line") and inlined files
// (fi=, fe=) are understood; call costs (the line after "calls=") are
// inclusive costs of the callee and are not added to the caller.
//
//   StatusOr<CallgrindProfile> p = ReadCallgrindFile("cg/callgrind.out.BM_Foo");
//   for (const CallgrindFunction& f : p->functions) ... f.name, f.self, f.hottest_line
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_TOOLS_GATE_CALLGRIND_FUNCTIONS_H_
#define BENCHPROF_TOOLS_GATE_CALLGRIND_FUNCTIONS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace benchprof::gate {

// One function's own instructions.
struct CallgrindFunction {
  std::string name;          // as callgrind names it (demangled, with parameters)
  std::string file;          // the file of its costliest line
  int64_t hottest_line = 0;  // its costliest line (0: unknown)
  uint64_t self = 0;         // instructions executed in it, not in its callees
  uint64_t hottest_line_self = 0;
};

struct CallgrindProfile {
  uint64_t iterations = 0;  // the header's "desc: Iterations:" (bench writes it), 0 if absent
  uint64_t total = 0;       // the sum of every function's self cost
  std::vector<CallgrindFunction> functions;  // by name
};

// Parses a whole callgrind file. Fails with one line (naming the line
// number) on a file that is not in callgrind's format or has no Ir event.
StatusOr<CallgrindProfile> ParseCallgrindFile(std::string_view text);

// Reads and parses the file at `path`; errors name the path.
StatusOr<CallgrindProfile> ReadCallgrindFile(const std::string& path);

}  // namespace benchprof::gate

#endif  // BENCHPROF_TOOLS_GATE_CALLGRIND_FUNCTIONS_H_
