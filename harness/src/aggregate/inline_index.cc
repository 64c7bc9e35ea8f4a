#include "aggregate/inline_index.h"

#include <dwarf.h>

#include <algorithm>
#include <filesystem>
#include <limits>

namespace benchprof::aggregate::internal {
namespace {

// Tags whose children may hold functions or inlined calls. Everything else
// (types, variables, parameters) is skipped without being read.
bool MayContainCode(int tag) {
  switch (tag) {
    case DW_TAG_namespace:
    case DW_TAG_subprogram:
    case DW_TAG_inlined_subroutine:
    case DW_TAG_lexical_block:
    case DW_TAG_class_type:
    case DW_TAG_structure_type:
    case DW_TAG_union_type:
    case DW_TAG_try_block:
    case DW_TAG_catch_block:
    case DW_TAG_module:
      return true;
    default:
      return false;
  }
}

// libdw already joins line-table names with their directory entries; a
// name still relative is relative to the compilation directory. When that
// is relative too (a -fdebug-prefix-map'd build, like Debian's libc), the
// path stays relative: nothing better is known. An absolute path is
// normalised: a build whose compiler saw relative names (ccache's base_dir,
// CMake's relative paths) gives "/src/build/../lib/x.cc", shown as
// "/src/lib/x.cc".
std::string JoinPath(const char* comp_dir, const char* file) {
  if (file == nullptr) return "";
  if (file[0] != '/' && (comp_dir == nullptr || comp_dir[0] != '/')) return file;
  std::filesystem::path path = file[0] == '/' ? std::filesystem::path(file)
                                              : std::filesystem::path(comp_dir) / file;
  return path.lexically_normal().string();
}

}  // namespace

InlineIndex::InlineIndex(Dwarf_Die cu) : cu_(cu) {
  Dwarf_Attribute attr;
  comp_dir_ = dwarf_formstring(dwarf_attr(&cu_, DW_AT_comp_dir, &attr));
  if (dwarf_getsrcfiles(&cu_, &files_, &file_count_) != 0) {
    files_ = nullptr;
    file_count_ = 0;
  }
  Build();
}

int32_t InlineIndex::Innermost(uint64_t pc) const {
  auto it = std::upper_bound(sorted_.begin(), sorted_.end(), pc,
                             [](uint64_t a, const Range& r) { return a < r.start; });
  if (it == sorted_.begin()) return -1;
  int32_t node = static_cast<int32_t>((it - 1)->node);
  while (node >= 0 && !Contains(nodes_[node], pc)) node = nodes_[node].parent;
  return node;
}

int32_t InlineIndex::ScopeOfSubprogram(Dwarf_Off offset) {
  if (!subprograms_sorted_) {
    std::sort(subprogram_scopes_.begin(), subprogram_scopes_.end());
    subprograms_sorted_ = true;
  }
  auto it = std::lower_bound(subprogram_scopes_.begin(), subprogram_scopes_.end(),
                             std::make_pair(offset, std::numeric_limits<int32_t>::min()));
  return it == subprogram_scopes_.end() || it->first != offset ? kNoScope : it->second;
}

std::string InlineIndex::FilePath(Dwarf_Word index) const {
  if (files_ == nullptr || index >= file_count_) return "";
  return JoinPath(comp_dir_, dwarf_filesrc(files_, index, nullptr, nullptr));
}

std::string InlineIndex::LinePath(Dwarf_Line* line) const {
  return JoinPath(comp_dir_, dwarf_linesrc(line, nullptr, nullptr));
}

bool InlineIndex::Contains(const Node& node, uint64_t pc) const {
  for (uint32_t i = 0; i < node.range_count; ++i) {
    const Range& range = node_ranges_[node.first_range + i];
    if (pc >= range.start && pc < range.end) return true;
  }
  return false;
}

void InlineIndex::Build() {
  // Sibling chains still to walk, each with the node and the scope its
  // DIEs belong to.
  struct Chain {
    Dwarf_Die first;
    int32_t parent;
    int32_t scope;
  };
  std::vector<Chain> pending;
  Dwarf_Die child;
  if (dwarf_child(&cu_, &child) == 0) pending.push_back(Chain{child, -1, -1});
  while (!pending.empty()) {
    const Chain chain = pending.back();
    pending.pop_back();
    Dwarf_Die die = chain.first;
    while (true) {
      const int tag = dwarf_tag(&die);
      if (MayContainCode(tag)) {
        int32_t parent_of_children = chain.parent;
        if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
          const int32_t index = AddNode(die, chain.parent, tag == DW_TAG_subprogram);
          if (index >= 0) parent_of_children = index;
        }
        int32_t scope_of_children = chain.scope;
        if (tag == DW_TAG_subprogram) {
          subprogram_scopes_.emplace_back(dwarf_dieoffset(&die), chain.scope);
        }
        if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_lexical_block &&
            tag != DW_TAG_try_block && tag != DW_TAG_catch_block) {
          scope_of_children = static_cast<int32_t>(scopes_.size());
          scopes_.push_back(Scope{die, chain.scope, tag == DW_TAG_subprogram});
        }
        // Parents get smaller indexes than their children: they are added
        // before their child chain is queued.
        if (dwarf_child(&die, &child) == 0) {
          pending.push_back(Chain{child, parent_of_children, scope_of_children});
        }
      }
      Dwarf_Die sibling;
      if (dwarf_siblingof(&die, &sibling) != 0) break;
      die = sibling;
    }
  }
  for (uint32_t i = 0; i < nodes_.size(); ++i) {
    const Node& node = nodes_[i];
    for (uint32_t r = 0; r < node.range_count; ++r)
      sorted_.push_back(node_ranges_[node.first_range + r]);
  }
  // At equal starts the innermost range must come last: shorter ranges
  // after longer ones, children (higher indexes) after parents.
  std::sort(sorted_.begin(), sorted_.end(), [](const Range& a, const Range& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.end != b.end) return a.end > b.end;
    return a.node < b.node;
  });
}

int32_t InlineIndex::AddNode(Dwarf_Die die, int32_t parent, bool is_subprogram) {
  const uint32_t first = static_cast<uint32_t>(node_ranges_.size());
  const uint32_t index = static_cast<uint32_t>(nodes_.size());
  Dwarf_Addr base = 0, start = 0, end = 0;
  for (ptrdiff_t offset = 0; (offset = dwarf_ranges(&die, offset, &base, &start, &end)) > 0;) {
    if (end > start) node_ranges_.push_back(Range{start, end, index});
  }
  const uint32_t count = static_cast<uint32_t>(node_ranges_.size()) - first;
  if (count == 0) return -1;
  nodes_.push_back(Node{die, parent, first, count, is_subprogram});
  return static_cast<int32_t>(index);
}

}  // namespace benchprof::aggregate::internal
