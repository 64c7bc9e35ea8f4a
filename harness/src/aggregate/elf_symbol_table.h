// ELF symbol table: the functions of one loaded object, sorted by address
// for binary search.
//
// libdwfl's own address-to-symbol lookup (dwfl_module_addrinfo) scans the
// whole symbol table on every call; the symbolizer asks about thousands of
// addresses, so it reads each object's table once into this. Aliases are
// folded to one stable name, unsized symbols (some assembly, _init) are
// given the room up to the next symbol, and the PLT, whose stubs have no
// symbols, is named kPltName.
//
//   ElfSymbolTable symbols;
//   symbols.Build(module);  // a Dwfl_Module reported at runtime addresses
//   if (const char* name = symbols.Find(pc)) { ... ShortFunctionName(name) ... }
//
// Thread-safety: thread-compatible (Find is const and may run concurrently
// once Build has returned).
#ifndef BENCHPROF_AGGREGATE_ELF_SYMBOL_TABLE_H_
#define BENCHPROF_AGGREGATE_ELF_SYMBOL_TABLE_H_

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include <cstdint>
#include <vector>

namespace benchprof::aggregate::internal {

class ElfSymbolTable {
 public:
  // The name given to addresses in .plt, .plt.sec and .plt.got.
  static constexpr char kPltName[] = "[plt]";

  // Reads the function symbols (STT_FUNC, STT_GNU_IFUNC) and executable
  // sections of `module`, at the addresses libdwfl reports them at. Call
  // once, on an empty table. Names point into the module's Elf, which must
  // outlive the table. A module without symbols gives an empty table.
  void Build(Dwfl_Module* module);

  // The innermost symbol containing `address`; kPltName inside a PLT;
  // nullptr if nothing is known (padding between functions, an address
  // outside the object). Where aliases share an address, the name is the
  // one preferred by size, then binding (global, weak, local), then length,
  // then spelling: malloc over __libc_malloc.
  const char* Find(uint64_t address) const;

 private:
  struct Entry {
    uint64_t start;
    uint64_t size;
    uint64_t end;
    int binding_rank;
    const char* name;  // owned by the module's Elf, which outlives the table
  };

  struct Section {
    uint64_t start;
    uint64_t end;
    bool is_plt;
  };

  static int BindingRank(const GElf_Sym& sym);

  // Executable sections of the object's own ELF file, at runtime addresses.
  void ReadCodeSections(Dwfl_Module* module);

  const Section* SectionAt(uint64_t address) const;

  std::vector<Entry> entries_;
  std::vector<uint64_t> max_end_;  // max_end_[i] = max end of entries_[0..i]
  std::vector<Section> sections_;  // sorted by start
};

}  // namespace benchprof::aggregate::internal

#endif  // BENCHPROF_AGGREGATE_ELF_SYMBOL_TABLE_H_
