#include "tools/history/run_files.h"

#include "common/whole_file.h"
#include "tools/history/record_command.h"

namespace benchprof::history {

StatusOr<RunFiles> ReadRunFiles(const std::vector<std::string>& paths) {
  StatusOr<results::ResultSet> results = results::ReadResultFiles(paths);
  if (!results.ok()) return results.status();
  if (results->benchmarks.empty()) {
    return Status::Error(paths.front() + ": no measured benchmark (all skipped)");
  }
  std::vector<std::string> contents;
  for (const std::string& path : paths) {
    StatusOr<std::string> bytes = ReadWholeFile(path, size_t{1} << 32);
    if (!bytes.ok()) return bytes.status();
    contents.push_back(std::move(*bytes));
  }
  RunFiles run;
  run.content_hash = ContentHash(contents);
  run.context = results->context.empty() ? results->config : results->context;
  run.results = std::move(*results);
  return run;
}

}  // namespace benchprof::history
