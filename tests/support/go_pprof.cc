#include "support/go_pprof.h"

namespace benchprof::testing {

ProcessResult RunGoPprof(const std::string& go, const std::vector<std::string>& args,
                         const TempDir& home) {
  std::vector<std::string> argv = {go, "tool", "pprof"};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunProcess(argv, {"HOME=" + home.path(), "GOCACHE=" + home.File("gocache"),
                           "GOTOOLCHAIN=local", "GOFLAGS=", "PPROF_TMPDIR=" + home.path()});
}

}  // namespace benchprof::testing
