// Runs a program to completion and captures what it printed, for tests that
// check binaries the way a user sees them: output and exit code.
//
//   ProcessResult r = RunProcess({BENCH_PATH, "--benchmem", "--benchmark_filter=Alg"});
//   EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_TESTS_SUPPORT_SUBPROCESS_H_
#define BENCHPROF_TESTS_SUPPORT_SUBPROCESS_H_

#include <string>
#include <vector>

namespace benchprof::testing {

struct ProcessResult {
  int exit_code = -1;   // -1 if the process did not exit normally
  int term_signal = 0;  // the signal that killed it, if any
  std::string stdout_text;
  std::string stderr_text;
  long max_rss_kb = 0;  // the child's peak resident memory (getrusage's ru_maxrss)
};

// Runs argv[0] (a path) with the given arguments, this process's environment
// with `extra_env` entries ("NAME=value") added or replacing those of the
// same name, and the working directory `cwd` (empty: inherited). Standard
// input is /dev/null.
ProcessResult RunProcess(const std::vector<std::string>& argv,
                         const std::vector<std::string>& extra_env = {},
                         const std::string& cwd = "");

// A fresh empty directory under $TMPDIR (or /tmp), removed with its
// contents when the object is destroyed.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // path() + "/" + name
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// The whole content of a file; empty if it cannot be read.
std::string ReadFile(const std::string& path);

// True if `path` names an existing file system entry.
bool FileExists(const std::string& path);

// Names of the entries in `directory` (no "." or "..").
std::vector<std::string> ListDirectory(const std::string& directory);

}  // namespace benchprof::testing

#endif  // BENCHPROF_TESTS_SUPPORT_SUBPROCESS_H_
