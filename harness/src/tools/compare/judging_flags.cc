#include "tools/compare/judging_flags.h"

#include <string>

namespace benchprof::compare {

void DeclareJudgingFlags(FlagSet& flags, CompareOptions* options) {
  flags.Custom(
      "threshold", "[REGEX=]METRIC:VALUE[,METRIC:VALUE...]",
      [options](std::string_view value) {
        const Status added = options->thresholds.Add(value);
        return added.ok() ? std::string() : added.message();
      },
      "gate METRIC with VALUE: N% (relative), N (absolute, in the metric's unit; ns for time) "
      "or off. METRIC \"time\" is each benchmark's time metric. With REGEX=, only for "
      "benchmarks whose name matches. Repeatable; later flags win. Default: "
      "time:5%,allocs/op:0,B/op:0,instructions/op:1%");
  flags.Number("alpha", "A", 0, 1, &options->alpha, "significance level (default 0.05)");
  flags.Number("confidence", "C", 0, 1, &options->confidence,
               "confidence level of the intervals (default 0.95)");
}

}  // namespace benchprof::compare
