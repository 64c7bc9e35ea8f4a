#include "tools/gate/side_runner.h"

#include <sys/wait.h>

#include <chrono>
#include <utility>

#include "common/child_process.h"
#include "common/whole_file.h"
#include "tools/text_format.h"

namespace benchprof::gate {
namespace {

constexpr int64_t kGraceNs = 60'000'000'000;  // past --timeout, before SIGKILL
constexpr size_t kMaxLog = size_t{64} << 20;

// The first line of `text` that contains `needle`, "" if none.
std::string LineWith(const std::string& text, std::string_view needle) {
  const size_t at = text.find(needle);
  if (at == std::string::npos) return "";
  const size_t begin = text.rfind('\n', at);
  const size_t end = text.find('\n', at);
  return text.substr(begin == std::string::npos ? 0 : begin + 1,
                     end == std::string::npos ? std::string::npos
                                              : end - (begin == std::string::npos ? 0 : begin + 1));
}

// The last non-empty line of `text`.
std::string LastLine(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  const size_t begin = text.rfind('\n');
  return begin == std::string::npos ? text : text.substr(begin + 1);
}

// What the binary said about the failure: the line naming the benchmark if
// there is one (a crash or timeout report, ERROR OCCURRED), else its last
// line on the error stream.
std::string Testimony(const std::string& stdout_log, const std::string& stderr_log) {
  const StatusOr<std::string> err = ReadWholeFile(stderr_log, kMaxLog);
  const StatusOr<std::string> out = ReadWholeFile(stdout_log, kMaxLog);
  for (const auto& [text, needle] :
       {std::pair{&err, "crashed ("}, std::pair{&err, "timed out after"},
        std::pair{&out, "ERROR OCCURRED"}}) {
    if (!text->ok()) continue;
    if (std::string line = LineWith(**text, needle); !line.empty()) return line;
  }
  return err.ok() ? LastLine(*err) : "";
}

}  // namespace

SideRunner::SideRunner(std::string work_dir, std::vector<std::string> bench_args,
                       int64_t timeout_ns)
    : work_dir_(std::move(work_dir)), bench_args_(std::move(bench_args)), timeout_ns_(timeout_ns) {}

std::string SideRunner::PathFor(const Side& side, const std::string& tag,
                                const std::string& suffix) const {
  return work_dir_ + "/" + side.name + "-" + tag + suffix;
}

StatusOr<std::string> SideRunner::Run(const Side& side, const std::string& tag,
                                      const std::vector<std::string>& extra) const {
  const std::string results = PathFor(side, tag, ".json");
  ChildSpec spec;
  spec.argv = {side.binary, "--benchmark_repetitions=1"};
  spec.argv.insert(spec.argv.end(), bench_args_.begin(), bench_args_.end());
  spec.argv.insert(spec.argv.end(), extra.begin(), extra.end());
  if (timeout_ns_ > 0 && side.benchprof) {
    spec.argv.push_back("--timeout=" + std::to_string(timeout_ns_ / 1'000'000) + "ms");
  }
  spec.argv.push_back("--benchmark_out=" + results);
  spec.argv.push_back("--benchmark_out_format=json");
  spec.stdout_path = PathFor(side, tag, ".out");
  spec.stderr_path = PathFor(side, tag, ".err");
  spec.own_process_group = true;
  const std::string who = side.name + " (" + tools::OneLine(side.binary) + "), " + tag;
  const auto started = std::chrono::steady_clock::now();
  StatusOr<pid_t> child = StartChild(spec);
  if (!child.ok()) return Status::Error(side.name + ": " + child.status().message());
  const int64_t grace = side.benchprof ? kGraceNs : 0;
  const ChildExit end = WaitForChild(*child, timeout_ns_ > 0 ? timeout_ns_ + grace : 0);
  run_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (end.timed_out) {
    return Status::Error(who + (side.benchprof
                                    ? ": still running " + std::to_string(grace / 1'000'000'000) +
                                          " s after its --timeout; killed"
                                    : ": ran past --timeout; killed"));
  }
  if (WIFEXITED(end.status) && WEXITSTATUS(end.status) == 0) return results;
  std::string problem = who + ": " + DescribeWaitStatus(end.status);
  if (WIFEXITED(end.status) && WEXITSTATUS(end.status) == 3) {
    problem = who + ": the filter matched no benchmark";
  }
  const std::string said = Testimony(spec.stdout_path, spec.stderr_path);
  if (!said.empty()) problem += ": " + tools::OneLine(said);
  return Status::Error(problem);
}

StatusOr<bool> SideRunner::LinksBenchprof(const std::string& name,
                                          const std::string& binary) const {
  ChildSpec spec;
  spec.argv = {binary, "--version"};
  spec.stdout_path = work_dir_ + "/" + name + "-version.out";
  spec.stderr_path = "";
  StatusOr<pid_t> child = StartChild(spec);
  if (!child.ok()) return Status::Error(name + ": " + child.status().message());
  const ChildExit end = WaitForChild(*child, 60'000'000'000);
  const StatusOr<std::string> said = ReadWholeFile(spec.stdout_path, kMaxLog);
  return WIFEXITED(end.status) && WEXITSTATUS(end.status) == 0 && said.ok() &&
         said->starts_with("benchprof ");
}

std::string ReservedBenchFlag(const std::vector<std::string>& bench_args) {
  for (const std::string& arg : bench_args) {
    std::string_view name = arg;
    while (name.starts_with('-')) name.remove_prefix(1);
    name = name.substr(0, name.find('='));
    for (const char* reserved :
         {"benchmark_out", "benchmark_out_format", "instructions", "callgrind_out", "timeout"}) {
      if (arg.starts_with('-') && name == reserved) return arg;
    }
  }
  return "";
}

std::string ExactFilter(const std::string& name) {
  std::string filter = "^";
  for (const char c : name) {
    // ']' and '}' are literal where no '[' or '{' opens them (and every
    // '[' and '{' is escaped); libstdc++ refuses them escaped.
    if (std::string_view("\\^$.|?*+()[{").find(c) != std::string_view::npos) filter += '\\';
    filter += c;
  }
  return filter + "$";
}

}  // namespace benchprof::gate
