#include "common/atomic_file.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

namespace benchprof {
namespace {

std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string BaseNameOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

StatusOr<AtomicFile> AtomicFile::Create(const std::string& path) {
  if (path.empty()) return Status::Error("empty file name");
  struct stat info;
  if (stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) return Status::Error(path + ": is a directory");
    if (access(path.c_str(), W_OK) != 0) return Status::Error(path + ": not writable");
  }
  const std::string base = BaseNameOf(path);
  if (base.empty() || base == "." || base == "..") {
    return Status::Error(path + ": not a file name");
  }
  const std::string directory = DirectoryOf(path);
  if (stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    return Status::Error(path + ": directory " + directory + " does not exist");
  }

  std::string pattern = directory + "/." + base + ".tmp-XXXXXX";
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  const int fd = mkstemp(buffer.data());
  if (fd < 0) {
    return Status::Error(path + ": cannot create a file in " + directory + " (" +
                         std::strerror(errno) + ")");
  }
  // mkstemp makes the file private; give it the permissions any new file gets.
  const mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  close(fd);
  return AtomicFile(path, buffer.data());
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : path_(std::move(other.path_)), temp_path_(std::exchange(other.temp_path_, {})) {}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
  if (this != &other) {
    if (!temp_path_.empty()) unlink(temp_path_.c_str());
    path_ = std::move(other.path_);
    temp_path_ = std::exchange(other.temp_path_, {});
  }
  return *this;
}

AtomicFile::~AtomicFile() {
  if (!temp_path_.empty()) unlink(temp_path_.c_str());
}

Status AtomicFile::Commit() {
  if (temp_path_.empty()) return Status::Error(path_ + ": already written");
  const std::string temp = std::exchange(temp_path_, {});
  if (rename(temp.c_str(), path_.c_str()) != 0) {
    const int error = errno;
    unlink(temp.c_str());
    return Status::Error(path_ + ": cannot write (" + std::strerror(error) + ")");
  }
  return Status();
}

}  // namespace benchprof
