#include "aggregate/elf_symbol_table.h"

#include <libelf.h>

#include <algorithm>
#include <cstring>

namespace benchprof::aggregate::internal {

void ElfSymbolTable::Build(Dwfl_Module* module) {
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

const char* ElfSymbolTable::Find(uint64_t address) const {
  auto it = std::upper_bound(entries_.begin(), entries_.end(), address,
                             [](uint64_t a, const Entry& e) { return a < e.start; });
  for (size_t i = static_cast<size_t>(it - entries_.begin()); i-- > 0;) {
    if (max_end_[i] <= address) break;  // nothing at or before i reaches address
    if (entries_[i].end > address) return entries_[i].name;
  }
  const Section* section = SectionAt(address);
  return section != nullptr && section->is_plt ? kPltName : nullptr;
}

int ElfSymbolTable::BindingRank(const GElf_Sym& sym) {
  switch (GELF_ST_BIND(sym.st_info)) {
    case STB_GLOBAL:
      return 0;
    case STB_WEAK:
      return 1;
    default:
      return 2;
  }
}

void ElfSymbolTable::ReadCodeSections(Dwfl_Module* module) {
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

const ElfSymbolTable::Section* ElfSymbolTable::SectionAt(uint64_t address) const {
  auto it = std::upper_bound(sections_.begin(), sections_.end(), address,
                             [](uint64_t a, const Section& s) { return a < s.start; });
  if (it == sections_.begin() || address >= (it - 1)->end) return nullptr;
  return &*(it - 1);
}

}  // namespace benchprof::aggregate::internal
