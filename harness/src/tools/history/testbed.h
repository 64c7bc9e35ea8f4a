// Which testbed ran a run: an identity made from stable facts of the
// machine and the build only, so that runs on one machine stay one series
// however its clock speed wandered, and runs on different machines (or
// different compilers, Google Benchmark versions or build types) do not
// mix.
//
// Facts: cpu_model (/proc/cpuinfo "model name"), cores (online CPUs), memory
// ("<n> GiB", MemTotal rounded to GiB), os (/etc/os-release ID and
// VERSION_ID), kernel (the major.minor series of the release), and from the
// result file's context: gbench_version, build_type (library_build_type) and
// compiler (if present). Never frequencies (MHz) or bogomips. The
// fingerprint is FNV-1a 64 over the sorted facts, as 16 hexadecimal digits;
// the default name "<cores>c-<cpu>-<fingerprint's first 8>" reads, e.g.
// "8c-xeon-e5-2690-v4-1a2b3c4d".
//
//   MachineFacts m = ReadMachineFacts(MachineFiles{});
//   TestbedIdentity t = MakeTestbed(m, results.context, "");
//
// Thread-safety: thread-compatible (reads files).
#ifndef BENCHPROF_TOOLS_HISTORY_TESTBED_H_
#define BENCHPROF_TOOLS_HISTORY_TESTBED_H_

#include <string>
#include <utility>
#include <vector>

#include "tools/history/history_store.h"

namespace benchprof::history {

// Where the machine's facts are read from (tests point them elsewhere).
struct MachineFiles {
  std::string cpuinfo = "/proc/cpuinfo";
  std::string meminfo = "/proc/meminfo";
  std::string os_release = "/etc/os-release";
  std::string kernel_release;  // "" : uname(2)'s release
  int cores = 0;               // 0: the online CPUs
};

// Key/value facts, sorted by key; a fact that cannot be read is absent.
using Facts = std::vector<std::pair<std::string, std::string>>;

// The machine's stable facts.
Facts ReadMachineFacts(const MachineFiles& files);

// The testbed: `machine` plus the build facts of `context` (a result
// file's context), its fingerprint, and `name` or the derived name.
TestbedIdentity MakeTestbed(const Facts& machine,
                            const std::vector<std::pair<std::string, std::string>>& context,
                            const std::string& name);

// FNV-1a 64 of `bytes`, as 16 lower-case hexadecimal digits.
std::string Fnv1a64Hex(std::string_view bytes);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_TESTBED_H_
