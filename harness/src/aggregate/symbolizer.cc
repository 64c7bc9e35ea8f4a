#include "aggregate/symbolizer.h"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <map>
#include <unordered_map>
#include <utility>

namespace benchprof {
namespace {

// ---------------------------------------------------------------------------
// Names.

bool IsIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}

bool StartsWithWord(std::string_view text, size_t pos, std::string_view word) {
  return text.substr(pos, word.size()) == word &&
         (pos + word.size() == text.size() || !IsIdentifierChar(text[pos + word.size()]));
}

// Operator spellings after the keyword `operator`, longest first so that
// "operator<<=" is not read as "operator<" followed by a bracket.
constexpr std::string_view kOperatorSymbols[] = {
    "->*", "<=>", "<<=", ">>=", "()", "[]", "->", "<<", ">>", "<=", ">=", "==", "!=",
    "&&",  "||",  "++",  "--",  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "+",
    "-",   "*",   "/",   "%",   "^",  "&",  "|",  "~",  "!",  "=",  "<",  ">",  ","};

// Length of the operator symbol at text[pos], 0 if none.
size_t OperatorSymbolLength(std::string_view text, size_t pos) {
  for (std::string_view symbol : kOperatorSymbols) {
    if (text.substr(pos, symbol.size()) == symbol) return symbol.size();
  }
  return 0;
}

// Demangler spellings that wrap a function's name rather than being part of it.
constexpr std::string_view kSpecialPrefixes[] = {"non-virtual thunk to ", "virtual thunk to ",
                                                 "covariant return thunk to ",
                                                 "transaction clone for "};

// Lowercase hex of a build id note's bytes.
std::string HexBytes(const unsigned char* bytes, size_t size) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * size);
  for (size_t i = 0; i < size; ++i) {
    hex.push_back(kDigits[bytes[i] >> 4]);
    hex.push_back(kDigits[bytes[i] & 0xf]);
  }
  return hex;
}

// ---------------------------------------------------------------------------
// Finding separate debug files without debuginfod.

// dwfl_standard_find_debuginfo ends with a debuginfod query when
// DEBUGINFOD_URLS is set (Debian sets it for login shells), which can stall
// for minutes with no network. This does the local part only: the
// /usr/lib/debug/.build-id tree (libdwfl's own build-id lookup, which never
// goes to the network), then the .gnu_debuglink name beside the object, in
// its .debug/ directory and under /usr/lib/debug. Debuglink candidates are
// accepted only when their build id matches the object's, so objects
// without a build id get no debuglink lookup (CRC checking is not worth a
// second implementation of libdwfl's).
int FindDebuginfo(Dwfl_Module* module, void** userdata, const char* module_name, Dwarf_Addr base,
                  const char* file_name, const char* debuglink_file, GElf_Word debuglink_crc,
                  char** debuginfo_file_name) {
  int fd = dwfl_build_id_find_debuginfo(module, userdata, module_name, base, file_name,
                                        debuglink_file, debuglink_crc, debuginfo_file_name);
  if (fd >= 0) return fd;

  const unsigned char* build_id = nullptr;
  GElf_Addr build_id_vaddr = 0;
  const int build_id_size = dwfl_module_build_id(module, &build_id, &build_id_vaddr);
  if (build_id_size <= 0 || debuglink_file == nullptr || file_name == nullptr ||
      file_name[0] != '/' || std::strchr(debuglink_file, '/') != nullptr) {
    return -1;
  }
  struct stat main_stat {};
  const bool have_main_stat = stat(file_name, &main_stat) == 0;
  const std::string_view file(file_name);
  const std::string dir(file.substr(0, file.rfind('/')));
  const std::string candidates[] = {dir + "/" + debuglink_file, dir + "/.debug/" + debuglink_file,
                                    "/usr/lib/debug" + dir + "/" + debuglink_file};
  for (const std::string& candidate : candidates) {
    fd = open(candidate.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat candidate_stat {};
    bool match = false;
    if (fstat(fd, &candidate_stat) == 0 &&
        !(have_main_stat && candidate_stat.st_dev == main_stat.st_dev &&
          candidate_stat.st_ino == main_stat.st_ino)) {
      if (Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr); elf != nullptr) {
        const void* candidate_id = nullptr;
        const ssize_t size = dwelf_elf_gnu_build_id(elf, &candidate_id);
        match = size == build_id_size && std::memcmp(candidate_id, build_id, size) == 0;
        elf_end(elf);
      }
    }
    if (match) {
      *debuginfo_file_name = strdup(candidate.c_str());
      return fd;
    }
    close(fd);
  }
  return -1;
}

// The kernel's vDSO has no file: libdwfl asks for its ELF image through
// this callback (the only module reported without one), and gets a private
// copy of the mapped image, since libelf may write to what it is given.
int FindElf(Dwfl_Module* /*module*/, void** userdata, const char* /*module_name*/,
            Dwarf_Addr /*base*/, char** /*file_name*/, Elf** elf) {
  auto* image = static_cast<std::vector<char>*>(*userdata);
  if (image != nullptr && !image->empty()) *elf = elf_memory(image->data(), image->size());
  return -1;
}

char* g_debuginfo_path = nullptr;  // libdwfl's default search path

const Dwfl_Callbacks kCallbacks = {
    .find_elf = FindElf,
    .find_debuginfo = FindDebuginfo,
    .section_address = nullptr,  // only for relocatable (ET_REL) files
    .debuginfo_path = &g_debuginfo_path,
};

// ---------------------------------------------------------------------------
// ELF symbols.

// Functions of one object, sorted by address, looked up by binary search.
class SymbolTable {
 public:
  void Build(Dwfl_Module* module) {
    ReadCodeSections(module);
    const int count = dwfl_module_getsymtab(module);
    for (int i = 0; i < count; ++i) {
      GElf_Sym sym;
      GElf_Addr address = 0;
      GElf_Word section = 0;
      Elf* elf = nullptr;
      Dwarf_Addr bias = 0;
      const char* name = dwfl_module_getsym_info(module, i, &sym, &address, &section, &elf, &bias);
      if (name == nullptr || name[0] == '\0' || section == SHN_UNDEF) continue;
      const int type = GELF_ST_TYPE(sym.st_info);
      if (type != STT_FUNC && type != STT_GNU_IFUNC) continue;
      entries_.push_back(Entry{address, sym.st_size, 0, BindingRank(sym), name});
    }
    // Aliases share an address; keep one, preferring a sized, global,
    // shorter name (malloc over __libc_malloc), so results are stable.
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
      if (a.start != b.start) return a.start < b.start;
      if ((a.size > 0) != (b.size > 0)) return a.size > 0;
      if (a.binding_rank != b.binding_rank) return a.binding_rank < b.binding_rank;
      const size_t a_length = std::strlen(a.name), b_length = std::strlen(b.name);
      if (a_length != b_length) return a_length < b_length;
      return std::strcmp(a.name, b.name) < 0;
    });
    entries_.erase(std::unique(entries_.begin(), entries_.end(),
                               [](const Entry& a, const Entry& b) { return a.start == b.start; }),
                   entries_.end());
    // Unsized symbols (some assembly, _init) extend to the next symbol but
    // not past their section: _init must not swallow the PLT after it.
    uint64_t max_end = 0;
    for (size_t i = 0; i < entries_.size(); ++i) {
      Entry& entry = entries_[i];
      if (entry.size > 0) {
        entry.end = entry.start + entry.size;
      } else {
        entry.end = i + 1 < entries_.size() ? entries_[i + 1].start : entry.start + 1;
        if (const Section* section = SectionAt(entry.start); section != nullptr) {
          entry.end = std::min(entry.end, section->end);
        }
        entry.end = std::max(entry.end, entry.start + 1);
      }
      max_end = std::max(max_end, entry.end);
      max_end_.push_back(max_end);
    }
  }

  // The innermost symbol containing `address`; kPltName inside a PLT, whose
  // stubs have no symbols; nullptr if nothing is known.
  const char* Find(uint64_t address) const {
    auto it = std::upper_bound(entries_.begin(), entries_.end(), address,
                               [](uint64_t a, const Entry& e) { return a < e.start; });
    for (size_t i = static_cast<size_t>(it - entries_.begin()); i-- > 0;) {
      if (max_end_[i] <= address) break;  // nothing at or before i reaches address
      if (entries_[i].end > address) return entries_[i].name;
    }
    const Section* section = SectionAt(address);
    return section != nullptr && section->is_plt ? kPltName : nullptr;
  }

  // The name given to addresses in .plt, .plt.sec and .plt.got.
  static constexpr char kPltName[] = "[plt]";

 private:
  struct Entry {
    uint64_t start;
    uint64_t size;
    uint64_t end;
    int binding_rank;
    const char* name;  // owned by the module's Elf, which outlives the table
  };

  static int BindingRank(const GElf_Sym& sym) {
    switch (GELF_ST_BIND(sym.st_info)) {
      case STB_GLOBAL:
        return 0;
      case STB_WEAK:
        return 1;
      default:
        return 2;
    }
  }

  struct Section {
    uint64_t start;
    uint64_t end;
    bool is_plt;
  };

  // Executable sections of the object's own ELF file, at runtime addresses.
  void ReadCodeSections(Dwfl_Module* module) {
    Dwarf_Addr bias = 0;
    Elf* elf = dwfl_module_getelf(module, &bias);
    size_t names = 0;
    if (elf == nullptr || elf_getshdrstrndx(elf, &names) != 0) return;
    for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn != nullptr; scn = elf_nextscn(elf, scn)) {
      GElf_Shdr shdr;
      if (gelf_getshdr(scn, &shdr) == nullptr || (shdr.sh_flags & SHF_EXECINSTR) == 0 ||
          shdr.sh_size == 0) {
        continue;
      }
      const char* name = elf_strptr(elf, names, shdr.sh_name);
      const bool is_plt = name != nullptr && std::strncmp(name, ".plt", 4) == 0;
      sections_.push_back(Section{shdr.sh_addr + bias, shdr.sh_addr + bias + shdr.sh_size, is_plt});
    }
    std::sort(sections_.begin(), sections_.end(),
              [](const Section& a, const Section& b) { return a.start < b.start; });
  }

  const Section* SectionAt(uint64_t address) const {
    auto it = std::upper_bound(sections_.begin(), sections_.end(), address,
                               [](uint64_t a, const Section& s) { return a < s.start; });
    if (it == sections_.begin() || address >= (it - 1)->end) return nullptr;
    return &*(it - 1);
  }

  std::vector<Entry> entries_;
  std::vector<uint64_t> max_end_;  // max_end_[i] = max end of entries_[0..i]
  std::vector<Section> sections_;  // sorted by start
};

// ---------------------------------------------------------------------------
// Inline frames.

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
// path stays relative: nothing better is known.
std::string JoinPath(const char* comp_dir, const char* file) {
  if (file == nullptr) return "";
  if (file[0] == '/' || comp_dir == nullptr || comp_dir[0] != '/') return file;
  std::string path = comp_dir;
  if (path.back() != '/') path.push_back('/');
  return path + file;
}

// Names and call site of one function or inlined-call node, as frames
// need them.
struct NodeInfo {
  std::string name;
  std::string system_name;
  int64_t start_line = 0;
  std::string call_file;  // inlined calls only: where the call is
  int64_t call_line = 0;
};

// Every function and inlined call of one compilation unit with its address
// ranges, built by one walk of the unit's DIEs. A lookup finds the last
// range starting at or before the pc and climbs parent links to the first
// node containing it: DWARF nests a function's inlined calls inside it, so
// that node is the innermost frame.
class CuIndex {
 public:
  struct Node {
    Dwarf_Die die;
    int32_t parent;  // nearest enclosing function or inlined call; -1 at top
    uint32_t first_range;
    uint32_t range_count;
    bool is_subprogram;
  };

  explicit CuIndex(Dwarf_Die cu) : cu_(cu) {
    Dwarf_Attribute attr;
    comp_dir_ = dwarf_formstring(dwarf_attr(&cu_, DW_AT_comp_dir, &attr));
    if (dwarf_getsrcfiles(&cu_, &files_, &file_count_) != 0) {
      files_ = nullptr;
      file_count_ = 0;
    }
    Build();
  }

  // The innermost node whose ranges contain `pc` (a DWARF address), or -1.
  int32_t Innermost(uint64_t pc) const {
    auto it = std::upper_bound(sorted_.begin(), sorted_.end(), pc,
                               [](uint64_t a, const Range& r) { return a < r.start; });
    if (it == sorted_.begin()) return -1;
    int32_t node = static_cast<int32_t>((it - 1)->node);
    while (node >= 0 && !Contains(nodes_[node], pc)) node = nodes_[node].parent;
    return node;
  }

  const Node& node(int32_t index) const { return nodes_[index]; }
  Dwarf_Die* cu() { return &cu_; }

  // Where names are declared, for naming functions that have no linkage
  // name (GCC omits it for internal linkage: anonymous namespaces, lambdas).
  // Recorded by the same walk as the ranges: a second walk when the first
  // nameless function shows up would cost as much again.
  struct Scope {
    Dwarf_Die die;
    int32_t parent;    // enclosing scope; -1 for the unit
    bool is_function;  // a function body (local classes, lambdas)
  };
  static constexpr int32_t kNoScope = -2;

  // The scope enclosing the subprogram DIE at `offset` (-1: the unit's top
  // level), or kNoScope if the DIE is not in this unit.
  int32_t ScopeOfSubprogram(Dwarf_Off offset) {
    if (!subprograms_sorted_) {
      std::sort(subprogram_scopes_.begin(), subprogram_scopes_.end());
      subprograms_sorted_ = true;
    }
    auto it = std::lower_bound(subprogram_scopes_.begin(), subprogram_scopes_.end(),
                               std::make_pair(offset, std::numeric_limits<int32_t>::min()));
    return it == subprogram_scopes_.end() || it->first != offset ? kNoScope : it->second;
  }
  const Scope& scope(int32_t index) const { return scopes_[index]; }

  // Memo for the qualified name of a scope; "" until computed.
  std::string& scope_name(int32_t index) { return scope_names_[index]; }

  // The cached NodeInfo of node `index`, or nullptr.
  const NodeInfo* info(int32_t index) const {
    const int32_t slot = info_slot_[index];
    return slot < 0 ? nullptr : &infos_[slot];
  }
  const NodeInfo& set_info(int32_t index, NodeInfo info) {
    info_slot_[index] = static_cast<int32_t>(infos_.size());
    infos_.push_back(std::move(info));
    return infos_.back();
  }

  // Absolute path of file `index` of the unit's line table; "" if unknown.
  std::string FilePath(Dwarf_Word index) const {
    if (files_ == nullptr || index >= file_count_) return "";
    return JoinPath(comp_dir_, dwarf_filesrc(files_, index, nullptr, nullptr));
  }

  // Absolute path of a line table row's file.
  std::string LinePath(Dwarf_Line* line) const {
    return JoinPath(comp_dir_, dwarf_linesrc(line, nullptr, nullptr));
  }

 private:
  struct Range {
    uint64_t start;
    uint64_t end;
    uint32_t node;
  };

  bool Contains(const Node& node, uint64_t pc) const {
    for (uint32_t i = 0; i < node.range_count; ++i) {
      const Range& range = node_ranges_[node.first_range + i];
      if (pc >= range.start && pc < range.end) return true;
    }
    return false;
  }

  void Build() {
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
    info_slot_.assign(nodes_.size(), -1);
    // At equal starts the innermost range must come last: shorter ranges
    // after longer ones, children (higher indexes) after parents.
    std::sort(sorted_.begin(), sorted_.end(), [](const Range& a, const Range& b) {
      if (a.start != b.start) return a.start < b.start;
      if (a.end != b.end) return a.end > b.end;
      return a.node < b.node;
    });
  }

  // Adds a node for a DIE with code addresses; -1 (and nothing added) for
  // declarations and abstract instances, which have none.
  int32_t AddNode(Dwarf_Die die, int32_t parent, bool is_subprogram) {
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

  Dwarf_Die cu_;
  const char* comp_dir_ = nullptr;
  Dwarf_Files* files_ = nullptr;
  size_t file_count_ = 0;
  std::vector<Node> nodes_;
  std::vector<Range> node_ranges_;  // grouped by node
  std::vector<Range> sorted_;       // all ranges, by start
  std::vector<int32_t> info_slot_;  // per node: index into infos_, -1 if none yet
  std::deque<NodeInfo> infos_;      // deque: references stay valid
  std::vector<Scope> scopes_;
  std::vector<std::pair<Dwarf_Off, int32_t>> subprogram_scopes_;  // DIE -> enclosing scope
  bool subprograms_sorted_ = false;
  std::unordered_map<int32_t, std::string> scope_names_;
};

const char* StringAttribute(Dwarf_Die* die, unsigned int name) {
  Dwarf_Attribute attr;
  return dwarf_formstring(dwarf_attr_integrate(die, name, &attr));
}

int64_t LineAttribute(Dwarf_Die* die, unsigned int name, bool integrate) {
  Dwarf_Attribute attr;
  Dwarf_Attribute* found =
      integrate ? dwarf_attr_integrate(die, name, &attr) : dwarf_attr(die, name, &attr);
  Dwarf_Word value = 0;
  if (found == nullptr || dwarf_formudata(found, &value) != 0) return 0;
  return static_cast<int64_t>(value);
}

// A mangled name without GCC's clone suffix ("_Z3fooi.constprop.0" ->
// "_Z3fooi"), so clones share the linkage name DWARF gives the original.
// Mangled names never contain '.'; other names are left alone.
std::string WithoutCloneSuffix(const char* symbol) {
  std::string_view name(symbol);
  if (name.substr(0, 2) == "_Z") name = name.substr(0, name.find('.'));
  return std::string(name);
}

// ---------------------------------------------------------------------------
// Objects.

// One loaded object (all its executable segments) and everything read from
// its files, created on the first address asked about inside it.
struct Object {
  std::string path;
  std::string build_id;
  uint64_t load_bias = 0;
  bool is_vdso = false;
  bool is_main = false;

  bool opened = false;
  Dwfl* dwfl = nullptr;
  Dwfl_Module* module = nullptr;
  std::vector<char> vdso_image;  // must outlive dwfl

  bool symbols_built = false;
  SymbolTable symbols;

  bool dwarf_loaded = false;
  Dwarf* dwarf = nullptr;  // nullptr: no debug info
  std::unordered_map<Dwarf_Off, std::unique_ptr<CuIndex>> units;

  Object() = default;
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;
  ~Object() {
    if (dwfl != nullptr) dwfl_end(dwfl);
  }
};

// Copies the vDSO image the kernel mapped at AT_SYSINFO_EHDR: program
// segments and section headers (which lie past the loadable part but in the
// same pages).
std::vector<char> CopyVdsoImage(uint64_t* start, uint64_t* end) {
  const unsigned long base = getauxval(AT_SYSINFO_EHDR);
  if (base == 0) return {};
  const auto* ehdr = reinterpret_cast<const GElf_Ehdr*>(base);
  if (std::memcmp(ehdr->e_ident, ELFMAG, SELFMAG) != 0 || ehdr->e_ident[EI_CLASS] != ELFCLASS64) {
    return {};
  }
  const auto* phdrs = reinterpret_cast<const GElf_Phdr*>(base + ehdr->e_phoff);
  uint64_t load_end = 0, first_vaddr = std::numeric_limits<uint64_t>::max();
  for (int i = 0; i < ehdr->e_phnum; ++i) {
    if (phdrs[i].p_type != PT_LOAD) continue;
    load_end = std::max<uint64_t>(load_end, phdrs[i].p_offset + phdrs[i].p_filesz);
    first_vaddr = std::min<uint64_t>(first_vaddr, phdrs[i].p_vaddr);
  }
  if (load_end == 0) return {};
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t mapped_end = (load_end + page - 1) / page * page;
  uint64_t size = load_end;
  const uint64_t sections_end =
      ehdr->e_shoff + static_cast<uint64_t>(ehdr->e_shnum) * ehdr->e_shentsize;
  if (ehdr->e_shoff != 0 && sections_end <= mapped_end) size = std::max(size, sections_end);
  const char* image = reinterpret_cast<const char*>(base);
  *start = base + first_vaddr;
  *end = base + load_end;
  return std::vector<char>(image, image + size);
}

// Reports the object to a Dwfl of its own, so one unreadable or replaced
// file cannot disturb the others. Leaves `module` null on failure.
void Open(Object& object) {
  object.opened = true;
  elf_version(EV_CURRENT);
  object.dwfl = dwfl_begin(&kCallbacks);
  if (object.dwfl == nullptr) return;
  dwfl_report_begin(object.dwfl);
  if (object.is_vdso) {
    uint64_t start = 0, end = 0;
    object.vdso_image = CopyVdsoImage(&start, &end);
    if (!object.vdso_image.empty()) {
      object.module = dwfl_report_module(object.dwfl, "[vdso]", start, end);
      void** userdata = nullptr;
      if (object.module != nullptr) {
        dwfl_module_info(object.module, &userdata, nullptr, nullptr, nullptr, nullptr, nullptr,
                         nullptr);
        *userdata = &object.vdso_image;
      }
    }
  } else {
    // The main executable is opened through /proc/self/exe: that is the
    // file actually running even if its path was rebuilt since. libdwfl
    // takes the descriptor only on success.
    const int fd = object.is_main ? open("/proc/self/exe", O_RDONLY | O_CLOEXEC) : -1;
    object.module = dwfl_report_elf(object.dwfl, object.path.c_str(), object.path.c_str(), fd,
                                    object.load_bias, /*add_p_vaddr=*/true);
    if (object.module == nullptr && fd >= 0) close(fd);
  }
  dwfl_report_end(object.dwfl, nullptr, nullptr);
  if (object.module == nullptr || object.build_id.empty()) return;
  // A library replaced on disk since it was loaded would give wrong names.
  const unsigned char* bits = nullptr;
  GElf_Addr vaddr = 0;
  const int size = dwfl_module_build_id(object.module, &bits, &vaddr);
  if (size <= 0 || HexBytes(bits, static_cast<size_t>(size)) != object.build_id) {
    object.module = nullptr;
  }
}

}  // namespace

// ---------------------------------------------------------------------------
// Public name helpers.

std::string FunctionNameFromDemangled(std::string_view text) {
  std::string prefix;
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (std::string_view special : kSpecialPrefixes) {
      if (text.substr(0, special.size()) == special) {
        prefix.append(special);
        text.remove_prefix(special.size());
        stripped = true;
      }
    }
  }
  // GCC clones: "f(int) [clone .constprop.0] [clone .cold]".
  while (!text.empty() && text.back() == ']') {
    const size_t clone = text.rfind(" [clone ");
    if (clone == std::string_view::npos) break;
    text = text.substr(0, clone);
  }

  // One pass, tracking brackets. A space outside all brackets ends a return
  // type; the last top-level "(" opens the parameter list. '<' and '>' are
  // comparisons inside parentheses (template arguments like "(3)>(2)"), and
  // operator names are skipped whole so their brackets are not counted.
  std::vector<char> open;
  size_t name_start = 0;
  size_t params = std::string_view::npos;
  size_t params_name_start = 0;
  bool in_conversion_type = false;  // "operator unsigned long": spaces are part of the name
  for (size_t i = 0; i < text.size();) {
    if (text[i] == 'o' && (i == 0 || !IsIdentifierChar(text[i - 1])) &&
        StartsWithWord(text, i, "operator")) {
      i += 8;
      if (i < text.size() && text[i] == ' ') {
        bool keyword = false;
        for (std::string_view word : {"new", "delete", "co_await"}) {
          if (StartsWithWord(text, i + 1, word)) {
            i += 1 + word.size();
            if (text.substr(i, 2) == "[]") i += 2;
            keyword = true;
            break;
          }
        }
        if (!keyword) {
          if (open.empty()) in_conversion_type = true;
          ++i;
        }
        continue;
      }
      if (text.substr(i, 2) == "\"\"") {  // user-defined literal: operator"" _suffix
        i += 2;
        if (i < text.size() && text[i] == ' ') ++i;
        while (i < text.size() && IsIdentifierChar(text[i])) ++i;
        continue;
      }
      i += OperatorSymbolLength(text, i);
      // "operator< <int>": the demangler separates template arguments.
      if (i + 1 < text.size() && text[i] == ' ' && text[i + 1] == '<') ++i;
      continue;
    }
    const char c = text[i];
    const bool in_parens = !open.empty() && open.back() == '(';
    switch (c) {
      case '(':
        if (open.empty()) {
          params = i;
          params_name_start = name_start;
          in_conversion_type = false;
        }
        open.push_back(c);
        break;
      case '[':
      case '{':
        open.push_back(c);
        break;
      case '<':
        if (!in_parens) open.push_back(c);
        break;
      case ')':
      case ']':
      case '}': {
        const char opener = c == ')' ? '(' : c == ']' ? '[' : '{';
        // Drop unclosed '<' (a comparison after all) down to the opener.
        auto match = std::find(open.rbegin(), open.rend(), opener);
        if (match != open.rend()) open.erase(std::prev(match.base()), open.end());
        break;
      }
      case '>':
        if (!in_parens && !open.empty() && open.back() == '<') open.pop_back();
        break;
      case ' ':
        if (open.empty() && !in_conversion_type) name_start = i + 1;
        break;
      default:
        break;
    }
    ++i;
  }
  if (params == std::string_view::npos || params <= params_name_start) {
    return prefix + std::string(text);
  }
  return prefix + std::string(text.substr(params_name_start, params - params_name_start));
}

std::string ShortFunctionName(const std::string& symbol) {
  if (symbol.size() < 2 || symbol[0] != '_' || symbol[1] != 'Z') return symbol;
  int status = 0;
  char* demangled = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  if (status != 0 || demangled == nullptr) {
    std::free(demangled);
    return symbol;
  }
  std::string name = FunctionNameFromDemangled(demangled);
  std::free(demangled);
  return name;
}

// ---------------------------------------------------------------------------
// Symbolizer.

struct Symbolizer::Impl {
  std::vector<LoadedModule> modules;
  std::vector<ModuleSymbolQuality> quality;
  std::vector<std::unique_ptr<Object>> objects;
  std::vector<size_t> object_of_module;
  std::vector<size_t> modules_by_start;  // module indexes sorted by start
  std::unordered_map<uint64_t, std::vector<SymbolizedFrame>> memo;
  std::unordered_map<std::string, std::string> short_names;  // demangling is ~2 µs

  int FindModuleIndex(uint64_t address) const {
    auto it =
        std::upper_bound(modules_by_start.begin(), modules_by_start.end(), address,
                         [this](uint64_t a, size_t index) { return a < modules[index].start; });
    if (it == modules_by_start.begin()) return -1;
    const size_t index = *(it - 1);
    return address < modules[index].limit ? static_cast<int>(index) : -1;
  }

  const std::string& ShortName(const char* symbol) {
    auto [it, inserted] = short_names.try_emplace(symbol);
    if (inserted) it->second = ShortFunctionName(it->first);
    return it->second;
  }

  Object& ObjectFor(size_t module_index) {
    Object& object = *objects[object_of_module[module_index]];
    if (!object.opened) Open(object);
    return object;
  }

  // Names a frame from a DWARF function or inlined-call DIE. A C++ linkage
  // name is demangled; any other linkage name is an assembler label (glibc's
  // "__GI_qsort" for qsort), so DW_AT_name is the name. Without a linkage
  // name, DW_AT_name is qualified with the scopes it is declared in.
  void NameFrame(CuIndex& unit, Dwarf_Die* die, SymbolizedFrame& frame) {
    const char* linkage = StringAttribute(die, DW_AT_linkage_name);
    if (linkage == nullptr) linkage = StringAttribute(die, DW_AT_MIPS_linkage_name);
    const char* name = StringAttribute(die, DW_AT_name);
    if (linkage != nullptr && linkage[0] == '_' && linkage[1] == 'Z') {
      frame.system_name = linkage;
      frame.name = ShortName(linkage);
    } else if (linkage != nullptr) {
      frame.system_name = linkage;
      frame.name = name != nullptr ? name : linkage;
    } else if (name != nullptr) {
      frame.name = Qualify(unit, die, name);
      frame.system_name = frame.name;
    }
  }

  // `name` prefixed with the scopes of the declaration `die` stands for.
  std::string Qualify(CuIndex& unit, Dwarf_Die* die, const char* name) {
    // The declaration is at the end of the abstract_origin/specification
    // chain; definitions out of line sit at the top level.
    Dwarf_Die chain[8];
    int length = 0;
    chain[length++] = *die;
    while (length < 8) {
      Dwarf_Attribute attr;
      Dwarf_Attribute* ref = dwarf_attr(&chain[length - 1], DW_AT_abstract_origin, &attr);
      if (ref == nullptr) ref = dwarf_attr(&chain[length - 1], DW_AT_specification, &attr);
      if (ref == nullptr || dwarf_formref_die(ref, &chain[length]) == nullptr) break;
      ++length;
    }
    for (int i = length - 1; i >= 0; --i) {
      const int32_t scope = unit.ScopeOfSubprogram(dwarf_dieoffset(&chain[i]));
      if (scope == CuIndex::kNoScope) continue;
      if (scope < 0) return name;
      return ScopeName(unit, scope) + "::" + name;
    }
    return name;
  }

  const std::string& ScopeName(CuIndex& unit, int32_t index) {
    std::string& qualified = unit.scope_name(index);
    if (!qualified.empty()) return qualified;
    const CuIndex::Scope& scope = unit.scope(index);
    Dwarf_Die die = scope.die;
    std::string name;
    if (scope.is_function) {
      SymbolizedFrame function;
      NameFrame(unit, &die, function);
      name = std::move(function.name);
    } else {
      name = scope.parent >= 0 ? ScopeName(unit, scope.parent) + "::" : "";
      const char* own = StringAttribute(&die, DW_AT_name);
      if (own == nullptr) {
        // Unnamed namespaces and classes; GCC leaves lambda closures unnamed.
        own = dwarf_tag(&die) == DW_TAG_namespace ? "(anonymous namespace)" : "{lambda}";
      }
      name += own;
    }
    // Elements of an unordered_map stay put while the recursion above adds
    // others, so `qualified` is still the slot.
    qualified = std::move(name);
    return qualified;
  }

  // The line the function starts on: DW_AT_decl_line, else (artificial
  // functions such as a lambda's operator()) the line of its entry point.
  static int64_t StartLine(CuIndex& unit, Dwarf_Die* die) {
    if (const int64_t line = LineAttribute(die, DW_AT_decl_line, /*integrate=*/true); line > 0) {
      return line;
    }
    Dwarf_Addr entry = 0;
    int line = 0;
    if (dwarf_entrypc(die, &entry) != 0) return 0;
    Dwarf_Line* row = dwarf_getsrc_die(unit.cu(), entry);
    return row != nullptr && dwarf_lineno(row, &line) == 0 ? line : 0;
  }

  // What a node contributes to every frame it appears in, computed once:
  // attribute lookups and demangling cost microseconds, and outer
  // functions recur in most stacks.
  const NodeInfo& InfoFor(CuIndex& unit, int32_t index, const char* elf_symbol) {
    if (const NodeInfo* cached = unit.info(index); cached != nullptr) return *cached;
    const CuIndex::Node& node = unit.node(index);
    Dwarf_Die die = node.die;
    NodeInfo info;
    // The out-of-line function is the ELF symbol at the address: when
    // DWARF has no linkage name for it (internal linkage), a mangled ELF
    // name is the exact one. C names ("main" for "main.cold") are not.
    const bool has_linkage_name = StringAttribute(&die, DW_AT_linkage_name) != nullptr ||
                                  StringAttribute(&die, DW_AT_MIPS_linkage_name) != nullptr;
    SymbolizedFrame names;
    if (node.is_subprogram && !has_linkage_name && elf_symbol != nullptr &&
        std::strncmp(elf_symbol, "_Z", 2) == 0) {
      names.system_name = WithoutCloneSuffix(elf_symbol);
      names.name = ShortName(elf_symbol);
    } else {
      NameFrame(unit, &die, names);
    }
    info.name = std::move(names.name);
    info.system_name = std::move(names.system_name);
    info.start_line = StartLine(unit, &die);
    if (!node.is_subprogram) {
      info.call_file =
          unit.FilePath(static_cast<Dwarf_Word>(LineAttribute(&die, DW_AT_call_file, false)));
      info.call_line = LineAttribute(&die, DW_AT_call_line, false);
    }
    return unit.set_info(index, std::move(info));
  }

  // Frames from the DWARF of the unit holding `address`; false if there is
  // no function DIE for it.
  bool SymbolizeDwarf(Object& object, uint64_t address, const char* elf_symbol,
                      std::vector<SymbolizedFrame>& frames, bool& from_dies) {
    Dwarf_Addr bias = 0;
    Dwarf_Die* cu_die = dwfl_module_addrdie(object.module, address, &bias);
    if (cu_die == nullptr) return false;
    auto [it, inserted] = object.units.try_emplace(dwarf_dieoffset(cu_die));
    if (inserted) it->second = std::make_unique<CuIndex>(*cu_die);
    CuIndex& unit = *it->second;
    const uint64_t pc = address - bias;

    std::string file;
    int64_t line = 0;
    if (Dwarf_Line* row = dwarf_getsrc_die(unit.cu(), pc); row != nullptr) {
      file = unit.LinePath(row);
      int number = 0;
      if (dwarf_lineno(row, &number) == 0) line = number;
    }

    for (int32_t index = unit.Innermost(pc); index >= 0;) {
      const CuIndex::Node& node = unit.node(index);
      const NodeInfo& info = InfoFor(unit, index, elf_symbol);
      SymbolizedFrame frame;
      frame.name = info.name;
      frame.system_name = info.system_name;
      frame.filename = std::move(file);
      frame.line = line;
      frame.start_line = info.start_line;
      frames.push_back(std::move(frame));
      if (node.is_subprogram) break;
      // The caller's position is where this inlined call was made.
      file = info.call_file;
      line = info.call_line;
      index = node.parent;
    }
    if (!frames.empty()) {
      from_dies = true;
      return true;
    }
    // Code with a line table but no function DIE (assembly): the ELF name
    // with the line table's position. libdwfl hands out the nearest unit for
    // addresses in no unit at all (crt files built without -g), whose line
    // rows would be a stranger's: check the unit really covers the pc.
    if (elf_symbol == nullptr || dwarf_haspc(unit.cu(), pc) != 1) return false;
    SymbolizedFrame frame;
    frame.system_name = elf_symbol;
    frame.name = ShortName(elf_symbol);
    frame.filename = std::move(file);
    frame.line = line;
    frames.push_back(std::move(frame));
    return true;
  }

  std::vector<SymbolizedFrame> Resolve(size_t module_index, uint64_t address, bool& from_dies) {
    std::vector<SymbolizedFrame> frames;
    Object& object = ObjectFor(module_index);
    if (object.module == nullptr) return frames;
    if (!object.symbols_built) {
      object.symbols.Build(object.module);
      object.symbols_built = true;
    }
    const char* elf_symbol = object.symbols.Find(address);
    if (!object.dwarf_loaded) {
      Dwarf_Addr bias = 0;
      object.dwarf = dwfl_module_getdwarf(object.module, &bias);
      object.dwarf_loaded = true;
    }
    if (object.dwarf != nullptr && SymbolizeDwarf(object, address, elf_symbol, frames, from_dies)) {
      return frames;
    }
    if (elf_symbol != nullptr) {
      SymbolizedFrame frame;
      frame.system_name = elf_symbol;
      frame.name = ShortName(elf_symbol);
      frames.push_back(std::move(frame));
    }
    return frames;
  }
};

Symbolizer::Symbolizer(std::vector<LoadedModule> modules) : impl_(std::make_unique<Impl>()) {
  Impl& impl = *impl_;
  impl.modules = std::move(modules);
  impl.quality.resize(impl.modules.size());
  // Segments of one object share its files: group by (path, load bias).
  std::map<std::pair<std::string, uint64_t>, size_t> object_index;
  for (const LoadedModule& module : impl.modules) {
    auto [it, inserted] =
        object_index.try_emplace({module.path, module.load_bias}, impl.objects.size());
    if (inserted) {
      auto object = std::make_unique<Object>();
      object->path = module.path;
      object->build_id = module.build_id;
      object->load_bias = module.load_bias;
      object->is_vdso = module.path == "[vdso]";
      object->is_main = module.is_main_executable;
      impl.objects.push_back(std::move(object));
    }
    impl.object_of_module.push_back(it->second);
  }
  impl.modules_by_start.resize(impl.modules.size());
  for (size_t i = 0; i < impl.modules.size(); ++i) impl.modules_by_start[i] = i;
  std::sort(impl.modules_by_start.begin(), impl.modules_by_start.end(),
            [&impl](size_t a, size_t b) { return impl.modules[a].start < impl.modules[b].start; });
}

Symbolizer::~Symbolizer() = default;

std::vector<SymbolizedFrame> Symbolizer::Symbolize(uint64_t address) {
  Impl& impl = *impl_;
  if (auto it = impl.memo.find(address); it != impl.memo.end()) return it->second;
  std::vector<SymbolizedFrame> frames;
  const int module_index = impl.FindModuleIndex(address);
  if (module_index >= 0) {
    bool from_dies = false;
    frames = impl.Resolve(static_cast<size_t>(module_index), address, from_dies);
    ModuleSymbolQuality& quality = impl.quality[static_cast<size_t>(module_index)];
    bool named = !frames.empty(), filed = !frames.empty(), lined = !frames.empty();
    for (const SymbolizedFrame& frame : frames) {
      named = named && !frame.name.empty();
      filed = filed && !frame.filename.empty();
      lined = lined && frame.line > 0;
    }
    ++quality.addresses;
    quality.with_function += named;
    quality.with_filename += filed;
    quality.with_line += lined;
    quality.with_inline_info += from_dies;
  }
  return impl.memo.emplace(address, std::move(frames)).first->second;
}

const std::vector<LoadedModule>& Symbolizer::modules() const { return impl_->modules; }

const ModuleSymbolQuality& Symbolizer::quality(size_t module_index) const {
  return impl_->quality[module_index];
}

}  // namespace benchprof
