#include "aggregate/run_labels.h"

#include <utility>

namespace benchprof::aggregate {

void RunLabels::NoteReportedRun(uint32_t segment, RunLabel label) {
  label_by_final_segment_.emplace(segment, std::move(label));
}

const RunLabel& RunLabels::LabelOf(uint32_t segment) const {
  auto label = label_by_final_segment_.lower_bound(segment);
  return label == label_by_final_segment_.end() ? unreported_ : label->second;
}

}  // namespace benchprof::aggregate
