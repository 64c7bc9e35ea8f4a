// Reading one dump file of Valgrind's callgrind (`callgrind.out.PID.N`,
// written at CALLGRIND_DUMP_STATS_AT): the instructions executed (the `Ir`
// event) between the counters' last reset and the dump, over every thread.
// Only the header is read: its `summary:` line holds the total.
//
//   StatusOr<CallgrindDump> dump = ReadCallgrindDump("/tmp/x/callgrind.out.42.3");
//   if (dump.ok() && dump->trigger == "Client Request: BM_Foo") ... dump->instructions
//
// Thread-safety: thread-safe.
#ifndef BENCHPROF_PROFILES_CALLGRIND_DUMP_H_
#define BENCHPROF_PROFILES_CALLGRIND_DUMP_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace benchprof::profiles {

struct CallgrindDump {
  std::string trigger;        // the header's "desc: Trigger:" text
  uint64_t instructions = 0;  // Ir in the dump's summary
};

// Parses the header of `text` (a dump's contents, or its beginning). Fails,
// naming the problem, if there is no summary line or Ir is not the first
// event.
StatusOr<CallgrindDump> ParseCallgrindHeader(std::string_view text);

// `text` (a whole dump written with --compress-strings=no) without its call
// arcs of count 0: the callers that were already running when counting
// started (main, the library's runner, the benchmark function's caller)
// carry the whole dump's cost on such arcs, and callgrind_annotate 3.19
// adds a calls=0 arc's cost to the caller's own cost, showing
// __libc_start_main with 100%. Every other line is kept.
std::string WithoutUncountedCalls(std::string_view text);

// Reads the header of the dump file `path` and parses it.
StatusOr<CallgrindDump> ReadCallgrindDump(const std::string& path);

}  // namespace benchprof::profiles

#endif  // BENCHPROF_PROFILES_CALLGRIND_DUMP_H_
