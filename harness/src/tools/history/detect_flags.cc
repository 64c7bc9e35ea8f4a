#include "tools/history/detect_flags.h"

#include <string>

namespace benchprof::history {

void DeclareDetectFlags(FlagSet& flags, DetectOptions* options, bool with_thresholds) {
  flags.Int("window", "N", 4, 100000, &options->window,
            "runs on each side of a candidate change point that its t-test sees (default 50, "
            "as Apache Otava)");
  flags.Number("max-p", "P", 0, 1, &options->max_p,
               "the p-value a change point must reach, corrected for the splits tried "
               "(default 0.001, as Apache Otava)");
  if (!with_thresholds) return;
  flags.Custom(
      "threshold", "[REGEX=]METRIC:VALUE[,METRIC:VALUE...]",
      [options](std::string_view value) {
        const Status added = options->thresholds.Add(value);
        return added.ok() ? std::string() : added.message();
      },
      "how far an exact metric must move to be a change point: N% (relative), N (in the "
      "metric's unit) or off. Repeatable; later flags win. Default: "
      "allocs/op:0,B/op:0,instructions/op:1%");
}

}  // namespace benchprof::history
