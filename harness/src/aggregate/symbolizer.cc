#include "aggregate/symbolizer.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <unordered_map>
#include <utility>

#include "aggregate/elf_symbol_table.h"
#include "aggregate/function_name.h"
#include "aggregate/inline_index.h"
#include "aggregate/object_file.h"

namespace benchprof::aggregate {
namespace {

using internal::ElfSymbolTable;
using internal::InlineIndex;
using internal::ObjectFile;

// A string attribute of `die`, following abstract_origin/specification;
// nullptr if absent.
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

// Names and call site of one function or inlined-call node, as frames
// need them.
struct NodeInfo {
  std::string name;
  std::string system_name;
  int64_t start_line = 0;
  std::string call_file;  // inlined calls only: where the call is
  int64_t call_line = 0;
};

// One compilation unit's inline index, with the names worked out for its
// nodes and scopes so far.
struct Unit {
  explicit Unit(Dwarf_Die cu) : index(cu), info_slot(index.node_count(), -1) {}

  // The cached NodeInfo of node `node`, or nullptr.
  const NodeInfo* info(int32_t node) const {
    const int32_t slot = info_slot[node];
    return slot < 0 ? nullptr : &infos[slot];
  }
  const NodeInfo& set_info(int32_t node, NodeInfo node_info) {
    info_slot[node] = static_cast<int32_t>(infos.size());
    infos.push_back(std::move(node_info));
    return infos.back();
  }

  InlineIndex index;
  std::vector<int32_t> info_slot;  // per node: index into infos, -1 if none yet
  std::deque<NodeInfo> infos;      // deque: references stay valid
  // Qualified name of each scope; "" until computed.
  std::unordered_map<int32_t, std::string> scope_names;
};

// One loaded object (all its executable segments) and everything read from
// its files, created on the first address asked about inside it.
struct Object {
  size_t first_module = 0;  // the segment whose path, build id and bias open it

  bool opened = false;
  ObjectFile file;

  bool symbols_built = false;
  ElfSymbolTable symbols;

  bool dwarf_loaded = false;
  Dwarf* dwarf = nullptr;  // nullptr: no debug info
  std::unordered_map<Dwarf_Off, std::unique_ptr<Unit>> units;
};

}  // namespace

struct Symbolizer::Impl {
  std::vector<LoadedModule> modules;
  std::vector<ModuleSymbolQuality> quality;
  std::vector<std::unique_ptr<Object>> objects;
  std::vector<size_t> object_of_module;
  std::vector<size_t> modules_by_start;  // module indexes sorted by start
  struct Answer {
    std::vector<SymbolizedFrame> frames;
    bool from_dies = false;
  };
  std::unordered_map<uint64_t, Answer> memo;
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
    if (!object.opened) {
      object.opened = true;
      object.file.Open(modules[object.first_module]);
    }
    return object;
  }

  // Names a frame from a DWARF function or inlined-call DIE. A C++ linkage
  // name is demangled; any other linkage name is an assembler label (glibc's
  // "__GI_qsort" for qsort), so DW_AT_name is the name. Without a linkage
  // name, DW_AT_name is qualified with the scopes it is declared in.
  void NameFrame(Unit& unit, Dwarf_Die* die, SymbolizedFrame& frame) {
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
      // No linkage name, so no system name. Leaving it empty also keeps
      // pprof from "demangling" the name: when name == system_name it strips
      // anything in parentheses, "(anonymous namespace)" included.
      frame.name = Qualify(unit, die, name);
    }
  }

  // `name` prefixed with the scopes of the declaration `die` stands for.
  std::string Qualify(Unit& unit, Dwarf_Die* die, const char* name) {
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
      const int32_t scope = unit.index.ScopeOfSubprogram(dwarf_dieoffset(&chain[i]));
      if (scope == InlineIndex::kNoScope) continue;
      if (scope < 0) return name;
      return ScopeName(unit, scope) + "::" + name;
    }
    return name;
  }

  const std::string& ScopeName(Unit& unit, int32_t index) {
    std::string& qualified = unit.scope_names[index];
    if (!qualified.empty()) return qualified;
    const InlineIndex::Scope& scope = unit.index.scope(index);
    Dwarf_Die die = scope.die;
    std::string name;
    if (scope.is_function) {
      SymbolizedFrame function;
      NameFrame(unit, &die, function);
      name = std::move(function.name);
    } else {
      name = scope.parent >= 0 ? ScopeName(unit, scope.parent) + "::" : "";
      const char* own = StringAttribute(&die, DW_AT_name);
      if (own == nullptr || *own == '\0') {
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
  static int64_t StartLine(Unit& unit, Dwarf_Die* die) {
    if (const int64_t line = LineAttribute(die, DW_AT_decl_line, /*integrate=*/true); line > 0) {
      return line;
    }
    Dwarf_Addr entry = 0;
    int line = 0;
    if (dwarf_entrypc(die, &entry) != 0) return 0;
    Dwarf_Line* row = dwarf_getsrc_die(unit.index.cu(), entry);
    return row != nullptr && dwarf_lineno(row, &line) == 0 ? line : 0;
  }

  // What a node contributes to every frame it appears in, computed once:
  // attribute lookups and demangling cost microseconds, and outer
  // functions recur in most stacks.
  const NodeInfo& InfoFor(Unit& unit, int32_t index, const char* elf_symbol) {
    if (const NodeInfo* cached = unit.info(index); cached != nullptr) return *cached;
    const InlineIndex::Node& node = unit.index.node(index);
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
          unit.index.FilePath(static_cast<Dwarf_Word>(LineAttribute(&die, DW_AT_call_file, false)));
      info.call_line = LineAttribute(&die, DW_AT_call_line, false);
    }
    return unit.set_info(index, std::move(info));
  }

  // Frames from the DWARF of the unit holding `address`; false if there is
  // no function DIE for it.
  bool SymbolizeDwarf(Object& object, uint64_t address, const char* elf_symbol,
                      std::vector<SymbolizedFrame>& frames, bool& from_dies) {
    Dwarf_Addr bias = 0;
    Dwarf_Die* cu_die = dwfl_module_addrdie(object.file.module(), address, &bias);
    if (cu_die == nullptr) return false;
    auto [it, inserted] = object.units.try_emplace(dwarf_dieoffset(cu_die));
    if (inserted) it->second = std::make_unique<Unit>(*cu_die);
    Unit& unit = *it->second;
    const uint64_t pc = address - bias;

    std::string file;
    int64_t line = 0;
    if (Dwarf_Line* row = dwarf_getsrc_die(unit.index.cu(), pc); row != nullptr) {
      file = unit.index.LinePath(row);
      int number = 0;
      if (dwarf_lineno(row, &number) == 0) line = number;
    }

    for (int32_t index = unit.index.Innermost(pc); index >= 0;) {
      const InlineIndex::Node& node = unit.index.node(index);
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
    if (elf_symbol == nullptr || dwarf_haspc(unit.index.cu(), pc) != 1) return false;
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
    if (object.file.module() == nullptr) return frames;
    if (!object.symbols_built) {
      object.symbols.Build(object.file.module());
      object.symbols_built = true;
    }
    const char* elf_symbol = object.symbols.Find(address);
    if (!object.dwarf_loaded) {
      Dwarf_Addr bias = 0;
      object.dwarf = dwfl_module_getdwarf(object.file.module(), &bias);
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
  for (size_t i = 0; i < impl.modules.size(); ++i) {
    const LoadedModule& module = impl.modules[i];
    auto [it, inserted] =
        object_index.try_emplace({module.path, module.load_bias}, impl.objects.size());
    if (inserted) {
      auto object = std::make_unique<Object>();
      object->first_module = i;
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

namespace {

void Count(const std::vector<SymbolizedFrame>& frames, bool from_dies,
           ModuleSymbolQuality& quality) {
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

}  // namespace

std::vector<SymbolizedFrame> Symbolizer::Symbolize(uint64_t address) {
  Impl& impl = *impl_;
  if (auto it = impl.memo.find(address); it != impl.memo.end()) return it->second.frames;
  Impl::Answer answer;
  const int module_index = impl.FindModuleIndex(address);
  if (module_index >= 0) {
    answer.frames = impl.Resolve(static_cast<size_t>(module_index), address, answer.from_dies);
    Count(answer.frames, answer.from_dies, impl.quality[static_cast<size_t>(module_index)]);
  }
  return impl.memo.emplace(address, std::move(answer)).first->second.frames;
}

void Symbolizer::CountQuality(uint64_t address, ModuleSymbolQuality& counts) {
  Symbolize(address);
  const Impl::Answer& answer = impl_->memo.at(address);
  Count(answer.frames, answer.from_dies, counts);
}

const std::vector<LoadedModule>& Symbolizer::modules() const { return impl_->modules; }

const ModuleSymbolQuality& Symbolizer::quality(size_t module_index) const {
  return impl_->quality[module_index];
}

}  // namespace benchprof::aggregate
