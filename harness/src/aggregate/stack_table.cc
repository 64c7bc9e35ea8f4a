#include "aggregate/stack_table.h"

#include <utility>

#include "aggregate/module_map.h"

namespace benchprof::aggregate {

using encode::ProfileData;
using encode::ProfileFunction;
using encode::ProfileLine;
using encode::ProfileLocation;
using encode::ProfileMapping;

StackTable::StackTable(Symbolizer& symbolizer) : symbolizer_(symbolizer) {
  for (const LoadedModule& module : symbolizer_.modules()) {
    ProfileMapping mapping;
    mapping.start = module.start;
    mapping.limit = module.limit;
    mapping.file_offset = module.file_offset;
    mapping.filename = module.path;
    mapping.build_id = module.build_id;
    mappings_.push_back(std::move(mapping));
  }
  quality_.resize(mappings_.size());
}

size_t StackTable::FunctionFor(const SymbolizedFrame& frame) {
  auto key = std::make_tuple(frame.name, frame.system_name, frame.filename, frame.start_line);
  auto [it, inserted] = function_by_key_.emplace(std::move(key), functions_.size());
  if (inserted) {
    functions_.push_back(
        ProfileFunction{frame.name, frame.system_name, frame.filename, frame.start_line});
  }
  return it->second;
}

size_t StackTable::LocationFor(uint64_t address) {
  auto [it, inserted] = location_by_address_.emplace(address, locations_.size());
  if (!inserted) return it->second;

  ProfileLocation location;
  location.address = address;
  const std::vector<LoadedModule>& modules = symbolizer_.modules();
  if (const LoadedModule* module = FindModule(modules, address)) {
    location.mapping_index = static_cast<size_t>(module - modules.data());
    for (const SymbolizedFrame& frame : symbolizer_.Symbolize(address)) {
      location.lines.push_back(ProfileLine{FunctionFor(frame), frame.line});
    }
    symbolizer_.CountQuality(address, quality_[*location.mapping_index]);
  }
  locations_.push_back(std::move(location));
  return it->second;
}

std::vector<size_t> StackTable::Locations(std::span<const uintptr_t> stack, bool leaf_is_pc) {
  std::vector<size_t> locations;
  locations.reserve(stack.size() + 1);
  for (size_t i = 0; i < stack.size(); ++i) {
    // Return addresses point after the call; the call itself is one byte back.
    locations.push_back(LocationFor(i == 0 && leaf_is_pc ? stack[i] : stack[i] - 1));
  }
  return locations;
}

size_t StackTable::PseudoLocation(const std::string& function_name) {
  auto [it, inserted] = pseudo_locations_.emplace(function_name, locations_.size());
  if (inserted) {
    ProfileLocation location;
    location.lines.push_back(
        ProfileLine{FunctionFor(SymbolizedFrame{function_name, "", "", 0, 0}), 0});
    locations_.push_back(std::move(location));
  }
  return it->second;
}

void StackTable::MoveInto(ProfileData& profile) {
  // pprof trusts these flags and never re-symbolizes a flagged mapping, so
  // each is set only when every location in the mapping earned it.
  for (size_t i = 0; i < mappings_.size(); ++i) {
    const ModuleSymbolQuality& quality = quality_[i];
    ProfileMapping& mapping = mappings_[i];
    const bool asked = quality.addresses > 0;
    mapping.has_functions = asked && quality.has_functions();
    mapping.has_filenames = asked && quality.has_filenames();
    mapping.has_line_numbers = asked && quality.has_line_numbers();
    mapping.has_inline_frames = asked && quality.has_inline_frames();
  }
  profile.mappings = std::move(mappings_);
  profile.locations = std::move(locations_);
  profile.functions = std::move(functions_);
  mappings_.clear();
  locations_.clear();
  functions_.clear();
  location_by_address_.clear();
  pseudo_locations_.clear();
  function_by_key_.clear();
}

}  // namespace benchprof::aggregate
