#include "support/go_pprof.h"

namespace benchprof::testing {

ProcessResult RunGoPprof(const std::string& go, const std::vector<std::string>& args,
                         const TempDir& home) {
  std::vector<std::string> argv = {go, "tool", "pprof"};
  argv.insert(argv.end(), args.begin(), args.end());
  // Run from `home`: pprof searches sources from its working directory and
  // strips a source path up to the first directory named like the working
  // directory's last component (ctest runs tests in .../tests, and the
  // fixtures live in <source>/tests/fixtures).
  return RunProcess(argv,
                    {"HOME=" + home.path(), "GOCACHE=" + home.File("gocache"),
                     "GOTOOLCHAIN=local", "GOFLAGS=", "PPROF_TMPDIR=" + home.path()},
                    home.path());
}

}  // namespace benchprof::testing
