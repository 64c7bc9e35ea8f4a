#include "aggregate/cpu_profile_builder.h"

#include <utility>

namespace benchprof {
namespace {

constexpr char kTruncatedFrame[] = "[benchprof] truncated stack (unwinding failed)";
constexpr char kLostBufferFull[] = "[benchprof] lost samples: sample buffer full";
constexpr char kLostReentrant[] = "[benchprof] lost samples: signal while unwinding";

}  // namespace

CpuProfileBuilder::CpuProfileBuilder(int hz, Symbolizer& symbolizer)
    : period_(1'000'000'000 / hz), symbolizer_(symbolizer) {
  for (const LoadedModule& module : symbolizer_.modules()) {
    ProfileMapping mapping;
    mapping.start = module.start;
    mapping.limit = module.limit;
    mapping.file_offset = module.file_offset;
    mapping.filename = module.path;
    mapping.build_id = module.build_id;
    profile_.mappings.push_back(std::move(mapping));
  }
}

size_t CpuProfileBuilder::FunctionFor(const SymbolizedFrame& frame) {
  auto key = std::make_tuple(frame.name, frame.system_name, frame.filename, frame.start_line);
  auto [it, inserted] = function_by_key_.emplace(std::move(key), profile_.functions.size());
  if (inserted) {
    profile_.functions.push_back(
        ProfileFunction{frame.name, frame.system_name, frame.filename, frame.start_line});
  }
  return it->second;
}

size_t CpuProfileBuilder::LocationFor(uint64_t address) {
  auto [it, inserted] = location_by_address_.emplace(address, profile_.locations.size());
  if (!inserted) return it->second;

  ProfileLocation location;
  location.address = address;
  const std::vector<LoadedModule>& modules = symbolizer_.modules();
  if (const LoadedModule* module = FindModule(modules, address)) {
    location.mapping_index = static_cast<size_t>(module - modules.data());
    for (const SymbolizedFrame& frame : symbolizer_.Symbolize(address)) {
      location.lines.push_back(ProfileLine{FunctionFor(frame), frame.line});
    }
  }
  profile_.locations.push_back(std::move(location));
  return it->second;
}

size_t CpuProfileBuilder::PseudoLocation(const std::string& function_name) {
  auto [it, inserted] = pseudo_locations_.emplace(function_name, profile_.locations.size());
  if (inserted) {
    ProfileLocation location;
    // No system name: pprof would strip the parenthesised words of a name
    // equal to its system name.
    location.lines.push_back(
        ProfileLine{FunctionFor(SymbolizedFrame{function_name, "", "", 0, 0}), 0});
    profile_.locations.push_back(std::move(location));
  }
  return it->second;
}

void CpuProfileBuilder::AddSample(std::span<const uintptr_t> stack, uint64_t weight,
                                  const RunLabel& label, bool truncated) {
  std::vector<size_t> locations;
  locations.reserve(stack.size() + 1);
  for (size_t i = 0; i < stack.size(); ++i) {
    // Return addresses point after the call; the call itself is one byte back.
    locations.push_back(LocationFor(i == 0 ? stack[i] : stack[i] - 1));
  }
  if (truncated) locations.push_back(PseudoLocation(kTruncatedFrame));
  weight_by_stack_[{std::move(locations), label}] += weight;
}

ProfileData CpuProfileBuilder::Build(int64_t start_unix_nanos, int64_t duration_nanos,
                                     const LostSamples& lost, std::vector<std::string> comments) {
  const RunLabel no_label;
  if (lost.buffer_full > 0) {
    weight_by_stack_[{{PseudoLocation(kLostBufferFull)}, no_label}] += lost.buffer_full;
  }
  if (lost.reentrant > 0) {
    weight_by_stack_[{{PseudoLocation(kLostReentrant)}, no_label}] += lost.reentrant;
  }

  ProfileData profile = std::move(profile_);
  profile.sample_types = {{"samples", "count"}, {"cpu", "nanoseconds"}};
  profile.period_type = {"cpu", "nanoseconds"};
  profile.period = period_;
  profile.time_nanos = start_unix_nanos;
  profile.duration_nanos = duration_nanos;
  profile.comments = std::move(comments);

  for (auto& [key, weight] : weight_by_stack_) {
    const auto& [locations, label] = key;
    ProfileSample sample;
    sample.location_indexes = locations;
    sample.values = {static_cast<int64_t>(weight), static_cast<int64_t>(weight) * period_};
    if (!label.benchmark.empty()) {
      sample.labels.push_back(ProfileLabel{"benchmark", label.benchmark, 0, ""});
      sample.labels.push_back(ProfileLabel{"threads", "", label.threads, "threads"});
    }
    profile.samples.push_back(std::move(sample));
  }

  // pprof trusts these flags and never re-symbolizes a flagged mapping, so
  // each is set only when every location in the mapping earned it.
  for (size_t i = 0; i < profile.mappings.size(); ++i) {
    const ModuleSymbolQuality& quality = symbolizer_.quality(i);
    ProfileMapping& mapping = profile.mappings[i];
    const bool asked = quality.addresses > 0;
    mapping.has_functions = asked && quality.has_functions();
    mapping.has_filenames = asked && quality.has_filenames();
    mapping.has_line_numbers = asked && quality.has_line_numbers();
    mapping.has_inline_frames = asked && quality.has_inline_frames();
  }
  return profile;
}

}  // namespace benchprof
