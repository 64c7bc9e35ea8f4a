#include "aggregate/module_map.h"

#include <elf.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <cstring>
#include <string_view>

namespace benchprof::aggregate {
namespace {

using Phdr = ElfW(Phdr);
using Nhdr = ElfW(Nhdr);

constexpr char kHexDigits[] = "0123456789abcdef";

std::string ToHex(const unsigned char* bytes, size_t size) {
  std::string hex;
  hex.reserve(2 * size);
  for (size_t i = 0; i < size; ++i) {
    hex.push_back(kHexDigits[bytes[i] >> 4]);
    hex.push_back(kHexDigits[bytes[i] & 0xf]);
  }
  return hex;
}

size_t AlignUp(size_t value, size_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

// Finds NT_GNU_BUILD_ID in one loaded PT_NOTE segment. Notes are padded to
// the segment's alignment: 4 for the classic notes, 8 for segments that
// also hold .note.gnu.property.
std::string BuildIdInNoteSegment(const unsigned char* notes, size_t size, size_t alignment) {
  if (alignment != 8) alignment = 4;
  size_t offset = 0;
  while (offset + sizeof(Nhdr) <= size) {
    Nhdr header;
    std::memcpy(&header, notes + offset, sizeof(header));
    const size_t name_offset = offset + sizeof(header);
    const size_t desc_offset = name_offset + AlignUp(header.n_namesz, alignment);
    const size_t next = desc_offset + AlignUp(header.n_descsz, alignment);
    if (desc_offset > size || header.n_descsz > size - desc_offset) break;
    if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 &&
        std::memcmp(notes + name_offset, "GNU", 4) == 0 && header.n_descsz > 0) {
      return ToHex(notes + desc_offset, header.n_descsz);
    }
    if (next <= offset) break;
    offset = next;
  }
  return "";
}

std::string MainExecutablePath() {
  char buffer[PATH_MAX];
  const ssize_t length = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  if (length <= 0) return "";
  return std::string(buffer, static_cast<size_t>(length));
}

// Loader names are absolute unless a program dlopen()ed a relative path;
// pprof needs a name it can open from anywhere.
std::string AbsolutePath(const char* name) {
  if (name[0] == '/') return name;
  char* resolved = realpath(name, nullptr);
  if (resolved == nullptr) return name;
  std::string path = resolved;
  free(resolved);
  return path;
}

struct IterationState {
  std::vector<LoadedModule>* modules;
  const Phdr* vdso_phdrs;
  bool first = true;
};

int AddObject(dl_phdr_info* info, size_t /*size*/, void* data) {
  auto* state = static_cast<IterationState*>(data);
  const bool is_main = state->first;
  state->first = false;
  const bool is_vdso = state->vdso_phdrs != nullptr && info->dlpi_phdr == state->vdso_phdrs;

  std::string path;
  if (is_main) {
    path = MainExecutablePath();
  } else if (is_vdso) {
    path = "[vdso]";
  } else if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') {
    path = AbsolutePath(info->dlpi_name);
  } else {
    return 0;  // Nothing pprof could open or name.
  }

  std::string build_id;
  if (!is_vdso) {
    for (ElfW(Half) i = 0; i < info->dlpi_phnum && build_id.empty(); ++i) {
      const Phdr& phdr = info->dlpi_phdr[i];
      if (phdr.p_type != PT_NOTE) continue;
      build_id = BuildIdInNoteSegment(
          reinterpret_cast<const unsigned char*>(info->dlpi_addr + phdr.p_vaddr), phdr.p_memsz,
          phdr.p_align);
    }
  }

  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const Phdr& phdr = info->dlpi_phdr[i];
    if (phdr.p_type != PT_LOAD || (phdr.p_flags & PF_X) == 0 || phdr.p_memsz == 0) continue;
    LoadedModule module;
    module.path = path;
    module.build_id = build_id;
    module.start = info->dlpi_addr + phdr.p_vaddr;
    module.limit = module.start + phdr.p_memsz;
    module.file_offset = phdr.p_offset;
    module.load_bias = info->dlpi_addr;
    module.is_main_executable = is_main;
    state->modules->push_back(std::move(module));
  }
  return 0;
}

}  // namespace

std::vector<LoadedModule> LoadedModules() {
  std::vector<LoadedModule> modules;
  IterationState state{&modules, nullptr};
  // The loader reports the vDSO under a name that is not a file
  // ("linux-vdso.so.1"); it is recognised by its program headers, which sit
  // in the image the kernel announced in the auxiliary vector.
  if (const unsigned long vdso = getauxval(AT_SYSINFO_EHDR); vdso != 0) {
    const auto* ehdr = reinterpret_cast<const ElfW(Ehdr)*>(vdso);
    state.vdso_phdrs = reinterpret_cast<const Phdr*>(vdso + ehdr->e_phoff);
  }
  dl_iterate_phdr(AddObject, &state);
  return modules;
}

const LoadedModule* FindModule(const std::vector<LoadedModule>& modules, uint64_t address) {
  // A process has tens of modules and callers memoize by address, so a
  // linear scan is enough and needs no sorted copy of the list.
  for (const LoadedModule& module : modules) {
    if (address >= module.start && address < module.limit) return &module;
  }
  return nullptr;
}

}  // namespace benchprof::aggregate
