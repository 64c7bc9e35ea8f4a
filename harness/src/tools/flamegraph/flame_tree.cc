#include "tools/flamegraph/flame_tree.h"

#include <algorithm>
#include <charconv>
#include <utility>

namespace benchprof::flamegraph {

using encode::ProfileData;
using encode::ProfileFunction;
using encode::ProfileSample;

StatusOr<size_t> ChooseSampleIndex(const ProfileData& profile, std::string_view spec) {
  const auto& types = profile.sample_types;
  if (types.empty()) return Status::Error("the profile has no sample types");
  std::string known;
  for (size_t i = 0; i < types.size(); ++i) {
    known += (i == 0 ? "" : ", ") + std::to_string(i) + "=" + types[i].type;
  }
  if (spec.empty()) {
    if (profile.default_sample_type.empty()) return types.size() - 1;
    spec = profile.default_sample_type;
  }
  size_t index = 0;
  const auto [end, error] = std::from_chars(spec.data(), spec.data() + spec.size(), index);
  if (error == std::errc() && end == spec.data() + spec.size()) {
    if (index < types.size()) return index;
  } else {
    for (size_t i = 0; i < types.size(); ++i) {
      if (types[i].type == spec) return i;
    }
  }
  return Status::Error("no sample type \"" + std::string(spec) + "\" (the profile has " + known +
                       ")");
}

StatusOr<TagFocus> TagFocus::Parse(std::string_view spec) {
  TagFocus focus;
  focus.spec_ = std::string(spec);
  std::string_view list = spec;
  if (const size_t eq = spec.find('='); eq != std::string_view::npos) {
    focus.key_ = std::string(spec.substr(0, eq));
    if (focus.key_.empty()) return Status::Error("empty label key in \"" + focus.spec_ + "\"");
    list = spec.substr(eq + 1);
  }
  while (true) {
    const size_t comma = list.find(',');
    const std::string pattern(list.substr(0, comma));
    if (pattern.empty()) return Status::Error("empty regex in \"" + focus.spec_ + "\"");
    try {
      focus.regexes_.emplace_back(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      return Status::Error("invalid regex \"" + pattern + "\": " + e.what());
    }
    if (comma == std::string_view::npos) break;
    list = list.substr(comma + 1);
  }
  return focus;
}

bool TagFocus::Matches(const ProfileSample& sample) const {
  if (!key_.empty()) {
    for (const auto& label : sample.labels) {
      if (label.key != key_ || label.str.empty()) continue;
      for (const std::regex& re : regexes_) {
        if (std::regex_search(label.str, re)) return true;
      }
    }
    return false;
  }
  for (const std::regex& re : regexes_) {
    bool any = false;
    for (const auto& label : sample.labels) {
      if (!label.str.empty() && std::regex_search(label.key + ":" + label.str, re)) {
        any = true;
        break;
      }
    }
    if (!any) return false;
  }
  return true;
}

double NormalisedChange(const FlameTree& tree, size_t node) {
  if (!tree.differential) return 0;
  const FlameNode& root = tree.nodes[0];
  const double ratio =
      root.base == 0 ? 1 : static_cast<double>(root.value) / static_cast<double>(root.base);
  return static_cast<double>(tree.nodes[node].value) -
         static_cast<double>(tree.nodes[node].base) * ratio;
}

std::vector<bool> WidestFrames(const FlameTree& tree, size_t max_frames) {
  const size_t n = tree.nodes.size();
  max_frames = std::max<size_t>(max_frames, 1);
  std::vector<bool> kept(n, n <= max_frames);
  if (n <= max_frames) return kept;
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(i);
  const auto wider = [&](uint32_t a, uint32_t b) {
    const int64_t va = tree.nodes[a].value, vb = tree.nodes[b].value;
    return va != vb ? va > vb : a < b;
  };
  const auto last = order.begin() + static_cast<std::ptrdiff_t>(max_frames);
  std::nth_element(order.begin(), last, order.end(), wider);
  for (auto it = order.begin(); it != last; ++it) kept[*it] = true;
  kept[0] = true;
  // Per depth on the current path: whether that frame is kept.
  std::vector<bool> path;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t depth = tree.nodes[i].depth;
    path.resize(depth);
    if (depth > 0 && !path.back()) kept[i] = false;
    path.push_back(kept[i]);
  }
  return kept;
}

FlameTreeBuilder::FlameTreeBuilder(encode::ValueTypeName sample_type) {
  tree_.sample_type = std::move(sample_type);
  tree_.names.push_back({"all", ""});
  nodes_.emplace_back();
}

uint32_t FlameTreeBuilder::Intern(const ProfileFunction& function) {
  const std::string& name = function.name.empty() ? function.system_name : function.name;
  const auto [it, added] = name_ids_.try_emplace(name, static_cast<uint32_t>(tree_.names.size()));
  if (added) {
    std::string location = function.filename;
    if (!location.empty() && function.start_line > 0) {
      location += ":" + std::to_string(function.start_line);
    }
    tree_.names.push_back({name.empty() ? "?" : name, std::move(location)});
  }
  return it->second;
}

uint32_t FlameTreeBuilder::Child(uint32_t parent, uint32_t name) {
  const uint64_t key = uint64_t{parent} << 32 | name;
  const auto [it, added] = child_index_.try_emplace(key, static_cast<uint32_t>(nodes_.size()));
  if (added) {
    nodes_.push_back(BuildNode{name, 0, 0, {}});
    nodes_[parent].children.push_back(it->second);
  }
  return it->second;
}

void FlameTreeBuilder::Add(const ProfileData& profile, size_t index, const TagFocus* focus,
                           bool base) {
  Add(
      profile, index,
      [focus](const ProfileSample& sample) { return focus == nullptr || focus->Matches(sample); },
      base);
}

void FlameTreeBuilder::Add(const ProfileData& profile, size_t index,
                           const std::function<bool(const ProfileSample&)>& keep, bool base) {
  // Each location's frames, outermost first.
  std::vector<uint32_t> function_ids(profile.functions.size());
  for (size_t i = 0; i < profile.functions.size(); ++i) {
    function_ids[i] = Intern(profile.functions[i]);
  }
  std::vector<std::vector<uint32_t>> frames(profile.locations.size());
  for (size_t i = 0; i < profile.locations.size(); ++i) {
    const auto& lines = profile.locations[i].lines;
    for (auto line = lines.rbegin(); line != lines.rend(); ++line) {
      frames[i].push_back(function_ids[line->function_index]);
    }
    if (lines.empty()) {
      // An unsymbolized address. pprof shows it in hex; as an offset in its
      // file it stays the same from run to run (address randomization), so
      // a differential graph matches it across profiles.
      const encode::ProfileLocation& location = profile.locations[i];
      uint64_t address = location.address;
      std::string name;
      if (location.mapping_index && *location.mapping_index < profile.mappings.size()) {
        const encode::ProfileMapping& mapping = profile.mappings[*location.mapping_index];
        if (!mapping.filename.empty() && address >= mapping.start && address < mapping.limit) {
          name = mapping.filename.substr(mapping.filename.rfind('/') + 1) + "+";
          address = address - mapping.start + mapping.file_offset;
        }
      }
      char hex[32];
      const auto end = std::to_chars(hex, hex + sizeof hex, address, 16);
      frames[i].push_back(Intern({name + "0x" + std::string(hex, end.ptr), "", "", 0}));
    }
  }
  for (const ProfileSample& sample : profile.samples) {
    const int64_t value = sample.values[index];
    if (value == 0 || !keep(sample)) continue;
    ++(base ? tree_.base_samples : tree_.samples);
    uint32_t node = 0;
    (base ? nodes_[0].base : nodes_[0].value) += value;
    for (auto location = sample.location_indexes.rbegin();
         location != sample.location_indexes.rend(); ++location) {
      for (const uint32_t name : frames[*location]) {
        node = Child(node, name);
        (base ? nodes_[node].base : nodes_[node].value) += value;
      }
    }
  }
  if (base) tree_.differential = true;
}

FlameTree FlameTreeBuilder::Finish() && {
  const auto& names = tree_.names;
  const auto by_name = [&](uint32_t a, uint32_t b) {
    const FrameName& x = names[nodes_[a].name];
    const FrameName& y = names[nodes_[b].name];
    return x.function != y.function ? x.function < y.function : x.location < y.location;
  };
  // Preorder without recursion: stacks may be thousands of frames deep.
  std::vector<std::pair<uint32_t, uint32_t>> stack = {{0, 0}};
  tree_.nodes.reserve(nodes_.size());
  while (!stack.empty()) {
    const auto [id, depth] = stack.back();
    stack.pop_back();
    BuildNode& node = nodes_[id];
    tree_.nodes.push_back(FlameNode{node.name, depth, node.value, node.base});
    std::sort(node.children.begin(), node.children.end(), by_name);
    for (auto child = node.children.rbegin(); child != node.children.rend(); ++child) {
      stack.emplace_back(*child, depth + 1);
    }
  }
  // Names in order of first use, so the output does not depend on the order
  // of the profile's function table.
  std::vector<uint32_t> renumber(names.size(), UINT32_MAX);
  std::vector<FrameName> used;
  for (FlameNode& node : tree_.nodes) {
    if (renumber[node.name] == UINT32_MAX) {
      renumber[node.name] = static_cast<uint32_t>(used.size());
      used.push_back(std::move(tree_.names[node.name]));
    }
    node.name = renumber[node.name];
  }
  tree_.names = std::move(used);
  return std::move(tree_);
}

}  // namespace benchprof::flamegraph
