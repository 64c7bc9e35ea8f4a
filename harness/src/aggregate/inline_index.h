// Inline index: every function and inlined call of one DWARF compilation
// unit with its address ranges, for finding the inline chain at a pc.
//
// libdw's dwarf_getscopes answers the same question, but rescans the whole
// unit on every call (~10 ms per address on template-heavy code). This
// index is built by a single walk of the unit's DIEs, skipping types,
// variables and parameters without reading them. A lookup finds the last
// range starting at or before the pc and climbs parent links to the first
// node containing it: DWARF nests a function's inlined calls inside it, so
// that node is the innermost frame, and its parents up to the first
// subprogram are the frames it was inlined into.
//
// The same walk records where functions are declared (namespaces, classes,
// enclosing functions), for naming functions that have no linkage name:
// GCC omits it for internal linkage (anonymous namespaces, lambdas), and a
// second walk when the first nameless function shows up would cost as much
// again.
//
//   Dwarf_Addr bias = 0;
//   Dwarf_Die* cu_die = dwfl_module_addrdie(module, address, &bias);
//   InlineIndex unit(*cu_die);
//   for (int32_t i = unit.Innermost(address - bias); i >= 0; i = unit.node(i).parent) {
//     // unit.node(i).die: innermost inlined call first; stop after the
//     // first node with is_subprogram, the out-of-line function.
//   }
//
// Thread-safety: thread-compatible (ScopeOfSubprogram sorts on first use).
// The Dwarf the unit belongs to must outlive the index.
#ifndef BENCHPROF_AGGREGATE_INLINE_INDEX_H_
#define BENCHPROF_AGGREGATE_INLINE_INDEX_H_

#include <elfutils/libdw.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace benchprof::aggregate::internal {

class InlineIndex {
 public:
  // A function (DW_TAG_subprogram) or inlined call
  // (DW_TAG_inlined_subroutine) with code addresses. Declarations and
  // abstract instances, which have none, get no node.
  struct Node {
    Dwarf_Die die;
    int32_t parent;  // nearest enclosing function or inlined call; -1 at top
    uint32_t first_range;
    uint32_t range_count;
    bool is_subprogram;
  };

  // A DIE names may be declared in: a namespace, class, structure, union,
  // module or function (local classes, lambdas). Blocks and inlined calls
  // are not scopes of their own.
  struct Scope {
    Dwarf_Die die;
    int32_t parent;    // enclosing scope; -1 for the unit
    bool is_function;  // a function body (local classes, lambdas)
  };
  static constexpr int32_t kNoScope = -2;

  // Indexes the unit whose DW_TAG_compile_unit DIE is `cu`, reading its
  // DIEs and file table now.
  explicit InlineIndex(Dwarf_Die cu);

  // The innermost node whose ranges contain `pc` (a DWARF address, i.e.
  // the runtime address minus the module's bias), or -1.
  int32_t Innermost(uint64_t pc) const;

  // Node `index`, REQUIRES: 0 <= index < node_count(). Parents have
  // smaller indexes than their children.
  const Node& node(int32_t index) const { return nodes_[index]; }
  size_t node_count() const { return nodes_.size(); }

  // The unit's DIE, for libdw's per-unit calls (dwarf_getsrc_die, ...).
  Dwarf_Die* cu() { return &cu_; }

  // The scope enclosing the subprogram DIE at `offset` (-1: the unit's top
  // level), or kNoScope if the DIE is not in this unit.
  int32_t ScopeOfSubprogram(Dwarf_Off offset);

  // Scope `index`, REQUIRES: 0 <= index, and index came from
  // ScopeOfSubprogram or another scope's parent.
  const Scope& scope(int32_t index) const { return scopes_[index]; }

  // Path of file `index` of the unit's line table (as DW_AT_call_file
  // numbers it), joined to the compilation directory; "" if unknown.
  std::string FilePath(Dwarf_Word index) const;

  // Path of a line table row's file, joined to the compilation directory.
  std::string LinePath(Dwarf_Line* line) const;

 private:
  struct Range {
    uint64_t start;
    uint64_t end;
    uint32_t node;
  };

  bool Contains(const Node& node, uint64_t pc) const;

  void Build();

  // Adds a node for a DIE with code addresses; -1 (and nothing added) for
  // declarations and abstract instances, which have none.
  int32_t AddNode(Dwarf_Die die, int32_t parent, bool is_subprogram);

  Dwarf_Die cu_;
  const char* comp_dir_ = nullptr;
  Dwarf_Files* files_ = nullptr;
  size_t file_count_ = 0;
  std::vector<Node> nodes_;
  std::vector<Range> node_ranges_;  // grouped by node
  std::vector<Range> sorted_;       // all ranges, by start
  std::vector<Scope> scopes_;
  std::vector<std::pair<Dwarf_Off, int32_t>> subprogram_scopes_;  // DIE -> enclosing scope
  bool subprograms_sorted_ = false;
};

}  // namespace benchprof::aggregate::internal

#endif  // BENCHPROF_AGGREGATE_INLINE_INDEX_H_
