// StackTable: the mappings, locations and functions of a profile, built from
// raw code addresses by the symbolizer. Shared by the CPU and heap profile
// builders, which differ only in their samples.
//
//   Symbolizer symbolizer(LoadedModules());
//   StackTable table(symbolizer);
//   std::vector<size_t> stack = table.Locations(addresses, /*leaf_is_pc=*/true);
//   ProfileData profile;
//   table.MoveInto(profile);
//
// Conventions (pprof and Go): one Location per distinct address; a return
// address is looked up one byte back, so its line and inline frames are
// those of the call; pseudo-frames ("[benchprof] ...") have no address and
// no system name (pprof would otherwise strip their parenthesised words).
//
// Thread-safety: thread-compatible.
#ifndef BENCHPROF_AGGREGATE_STACK_TABLE_H_
#define BENCHPROF_AGGREGATE_STACK_TABLE_H_

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "aggregate/symbolizer.h"
#include "encode/profile_data.h"

namespace benchprof::aggregate {

class StackTable {
 public:
  // `symbolizer` must outlive the table; other tables may share it (each
  // counts the quality of its own addresses for its mappings' has_* flags).
  explicit StackTable(Symbolizer& symbolizer);

  // Location indexes of `stack`, innermost first. With `leaf_is_pc`,
  // stack[0] is an interrupted instruction; every other entry is a return
  // address.
  std::vector<size_t> Locations(std::span<const uintptr_t> stack, bool leaf_is_pc);

  // The location of a pseudo-function named `function_name`.
  size_t PseudoLocation(const std::string& function_name);

  // Moves mappings, locations and functions into `profile` and sets each
  // mapping's has_* flags from what symbolization achieved. The table is
  // empty afterwards.
  void MoveInto(encode::ProfileData& profile);

 private:
  size_t LocationFor(uint64_t address);
  size_t FunctionFor(const SymbolizedFrame& frame);

  Symbolizer& symbolizer_;
  std::vector<ModuleSymbolQuality> quality_;  // per mapping, of this table's addresses
  std::vector<encode::ProfileMapping> mappings_;
  std::vector<encode::ProfileLocation> locations_;
  std::vector<encode::ProfileFunction> functions_;
  std::unordered_map<uint64_t, size_t> location_by_address_;
  std::map<std::string, size_t> pseudo_locations_;
  std::map<std::tuple<std::string, std::string, std::string, int64_t>, size_t> function_by_key_;
};

}  // namespace benchprof::aggregate

#endif  // BENCHPROF_AGGREGATE_STACK_TABLE_H_
