#include "aggregate/debug_file_finder.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <libelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <string_view>

namespace benchprof::aggregate::internal {

int FindLocalDebuginfo(Dwfl_Module* module, void** userdata, const char* module_name,
                       Dwarf_Addr base, const char* file_name, const char* debuglink_file,
                       GElf_Word debuglink_crc, char** debuginfo_file_name) {
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

}  // namespace benchprof::aggregate::internal
