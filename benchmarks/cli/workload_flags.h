// The command-line conventions the workload CLIs (rss-search, raytrace)
// share: `--name=value` or `--name value` (one dash works too), switches as
// `--name` or `--name=true|false`, and one-line errors that name the flag.
//
//   WorkloadFlagReader reader(args, {"help", "h", "distinct"}, {"documents"});
//   WorkloadFlag flag;
//   std::string error;
//   while (reader.Next(&flag, &error)) {
//     if (flag.name == "documents") {
//       std::optional<int64_t> n = ParseWholeNumber(flag, 1, 4000, &error);
//       if (!n) return std::nullopt;
//     } ...
//   }
//   if (!error.empty()) return std::nullopt;
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_BENCHMARKS_CLI_WORKLOAD_FLAGS_H_
#define BENCHPROF_BENCHMARKS_CLI_WORKLOAD_FLAGS_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace benchprof::workload {

// One flag of a command line.
struct WorkloadFlag {
  std::string_view name;   // without dashes
  std::string_view value;  // a switch's is "true" or "false"
  std::string display;     // "--name", for messages
};

class WorkloadFlagReader {
 public:
  // `switches` take no value (or =true/=false); `valued` need one. The
  // arguments must outlive the reader.
  WorkloadFlagReader(std::span<const char* const> args,
                     std::initializer_list<std::string_view> switches,
                     std::initializer_list<std::string_view> valued);

  // Reads the next flag into `*flag`. Returns false at the end of the
  // arguments, or on a bad one with `*error` set to one line naming it (no
  // program name, no newline).
  bool Next(WorkloadFlag* flag, std::string* error);

 private:
  std::span<const char* const> args_;
  std::vector<std::string_view> switches_;
  std::vector<std::string_view> valued_;
  size_t next_ = 0;
};

// The flag's value as a whole number in [min, max], decimal or 0x
// hexadecimal; nothing, with `*error` set, if it is not one.
std::optional<int64_t> ParseWholeNumber(const WorkloadFlag& flag, int64_t min, int64_t max,
                                        std::string* error);
std::optional<uint64_t> ParseUnsigned(const WorkloadFlag& flag, std::string* error);

// The error for a value not among `choices`: "--scene: unknown scene 'x'
// (one of reference, dec2019, default-world)", `what` being "scene".
std::string UnknownChoice(const WorkloadFlag& flag, std::string_view what,
                          std::string_view choices);

}  // namespace benchprof::workload

#endif  // BENCHPROF_BENCHMARKS_CLI_WORKLOAD_FLAGS_H_
