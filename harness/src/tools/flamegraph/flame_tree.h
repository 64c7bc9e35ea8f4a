// FlameTree: a pprof profile as the call tree a flame graph draws, built
// the way pprof's flame graph builds it: frames are merged by function name
// along each stack (root first), inline frames expanded as pprof expands
// them (a Location's Lines are innermost first, so its outermost frame comes
// first on the way down), and every sample adds its value for the chosen
// sample type to each frame of its path.
//
// A differential tree also carries, per frame, the value of a base profile
// along the same path (pprof's -diff_base): the drawing colours frames by
// NormalisedChange, the head minus the base scaled to the head's total.
//
//   StatusOr<size_t> index = ChooseSampleIndex(profile, "alloc_space");
//   StatusOr<TagFocus> focus = TagFocus::Parse("benchmark=BM_AlgorithmOne");
//   FlameTreeBuilder builder(profile.sample_types[*index]);
//   builder.Add(profile, *index, &*focus, /*base=*/false);
//   FlameTree tree = std::move(builder).Finish();
//
// An address without symbols is named by its file and offset
// ("libfoo.so+0x1a2b"), which address randomization does not change, or in
// hex when it has no mapping. Children are sorted by name, so the same profile always gives the
// same tree (and the same bytes on output).
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_TOOLS_FLAMEGRAPH_FLAME_TREE_H_
#define BENCHPROF_TOOLS_FLAMEGRAPH_FLAME_TREE_H_

#include <cstdint>
#include <functional>
#include <regex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/status.h"
#include "encode/profile_data.h"

namespace benchprof::flamegraph {

// The sample type `spec` names in `profile`: a type name ("alloc_space") or
// a 0-based index ("1"); the empty spec means the profile's
// default_sample_type, or its last type when it names none (pprof's rule).
// Fails naming the types the profile has.
StatusOr<size_t> ChooseSampleIndex(const encode::ProfileData& profile, std::string_view spec);

// pprof's -tagfocus for string labels: "KEY=REGEX[,REGEX...]" keeps samples
// with a label KEY whose value any of the regexes matches (unanchored), and
// "REGEX[,REGEX...]" keeps samples where every regex matches some label's
// "key:value". Regexes are ECMAScript (std::regex), close to pprof's RE2 for
// the names benchmarks have.
class TagFocus {
 public:
  // Fails on an empty spec, an empty key or regex, or a regex that does not
  // compile.
  static StatusOr<TagFocus> Parse(std::string_view spec);

  // Whether `sample` is kept.
  bool Matches(const encode::ProfileSample& sample) const;

  const std::string& spec() const { return spec_; }

 private:
  std::string spec_;
  std::string key_;  // empty: match "key:value" of any label, all regexes
  std::vector<std::regex> regexes_;
};

// One frame name: the function as pprof names it and where it is.
struct FrameName {
  std::string function;
  std::string location;  // "file:line" (the function's start line), "file", or ""
};

// One frame of the tree, in preorder.
struct FlameNode {
  uint32_t name = 0;   // into FlameTree::names
  uint32_t depth = 0;  // the root ("all samples") is 0
  int64_t value = 0;   // the samples through this frame (inclusive)
  int64_t base = 0;    // the same in the base profile (differential trees)
};

struct FlameTree {
  encode::ValueTypeName sample_type;  // what values are, e.g. {"cpu", "nanoseconds"}
  bool differential = false;
  std::vector<FrameName> names;  // names[0] is the root's
  std::vector<FlameNode> nodes;  // preorder; nodes[0] is the root; children by name
  uint64_t samples = 0;          // head samples kept (after the tag focus)
  uint64_t base_samples = 0;
};

// The change of frame `node` (an index into tree.nodes) in a differential
// tree: head − base × (head total / base total), i.e. the base scaled to the
// head's total (unscaled when the base's total is 0); 0 when the tree is not
// differential. `go tool pprof -diff_base -normalize` scales the other way,
// the head to the base's total, so its changes are these times
// base total / head total (same signs, same proportions); plain -diff_base
// scales nothing.
double NormalisedChange(const FlameTree& tree, size_t node);

// Which frames of `tree` a drawing of at most `max_frames` (at least 1)
// keeps, kept[i] for tree.nodes[i]: the widest, and of frames equally wide
// the earlier in preorder, so the shallower on a path (a deep recursion
// keeps its top). A frame whose caller is not kept is not kept either
// (with negative sample values a frame can be wider than its caller), so
// the frames kept form a tree under the root, which is always kept.
std::vector<bool> WidestFrames(const FlameTree& tree, size_t max_frames);

// Accumulates samples of one or two profiles into a tree.
class FlameTreeBuilder {
 public:
  explicit FlameTreeBuilder(encode::ValueTypeName sample_type);

  // Adds the samples of `profile` that `focus` keeps (all when null), with
  // value sample_types[index], to the head (or the base) side.
  void Add(const encode::ProfileData& profile, size_t index, const TagFocus* focus, bool base);

  // The same for the samples `keep` returns true for.
  void Add(const encode::ProfileData& profile, size_t index,
           const std::function<bool(const encode::ProfileSample&)>& keep, bool base);

  FlameTree Finish() &&;

 private:
  struct BuildNode {
    uint32_t name = 0;
    int64_t value = 0;
    int64_t base = 0;
    std::vector<uint32_t> children;
  };
  uint32_t Intern(const encode::ProfileFunction& function);
  uint32_t Child(uint32_t parent, uint32_t name);

  FlameTree tree_;
  std::unordered_map<std::string, uint32_t> name_ids_;
  std::vector<BuildNode> nodes_;
  std::unordered_map<uint64_t, uint32_t> child_index_;  // parent << 32 | name
};

}  // namespace benchprof::flamegraph

#endif  // BENCHPROF_TOOLS_FLAMEGRAPH_FLAME_TREE_H_
