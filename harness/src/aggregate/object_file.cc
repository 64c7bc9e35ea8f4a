#include "aggregate/object_file.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "aggregate/debug_file_finder.h"

namespace benchprof::aggregate::internal {
namespace {

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
    .find_debuginfo = FindLocalDebuginfo,
    .section_address = nullptr,  // only for relocatable (ET_REL) files
    .debuginfo_path = &g_debuginfo_path,
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

}  // namespace

ObjectFile::~ObjectFile() {
  if (dwfl_ != nullptr) dwfl_end(dwfl_);
}

Dwfl_Module* ObjectFile::Open(const LoadedModule& loaded) {
  elf_version(EV_CURRENT);
  dwfl_ = dwfl_begin(&kCallbacks);
  if (dwfl_ == nullptr) return nullptr;
  dwfl_report_begin(dwfl_);
  if (loaded.path == "[vdso]") {
    uint64_t start = 0, end = 0;
    vdso_image_ = CopyVdsoImage(&start, &end);
    if (!vdso_image_.empty()) {
      module_ = dwfl_report_module(dwfl_, "[vdso]", start, end);
      void** userdata = nullptr;
      if (module_ != nullptr) {
        dwfl_module_info(module_, &userdata, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
        *userdata = &vdso_image_;
      }
    }
  } else {
    // The main executable is opened through /proc/self/exe: that is the
    // file actually running even if its path was rebuilt since. libdwfl
    // takes the descriptor only on success.
    const int fd = loaded.is_main_executable ? open("/proc/self/exe", O_RDONLY | O_CLOEXEC) : -1;
    module_ = dwfl_report_elf(dwfl_, loaded.path.c_str(), loaded.path.c_str(), fd, loaded.load_bias,
                              /*add_p_vaddr=*/true);
    if (module_ == nullptr && fd >= 0) close(fd);
  }
  dwfl_report_end(dwfl_, nullptr, nullptr);
  if (module_ == nullptr || loaded.build_id.empty()) return module_;
  // A library replaced on disk since it was loaded would give wrong names.
  const unsigned char* bits = nullptr;
  GElf_Addr vaddr = 0;
  const int size = dwfl_module_build_id(module_, &bits, &vaddr);
  if (size <= 0 || HexBytes(bits, static_cast<size_t>(size)) != loaded.build_id) {
    module_ = nullptr;
  }
  return module_;
}

}  // namespace benchprof::aggregate::internal
