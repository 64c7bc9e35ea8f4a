#include "common/path_names.h"

#include <sys/stat.h>
#include <unistd.h>

#include <vector>

namespace benchprof {

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

StatusOr<std::string> FollowLinks(const std::string& path) {
  std::string current = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat info;
    if (lstat(current.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return current;
    std::vector<char> target(static_cast<size_t>(info.st_size > 0 ? info.st_size : 255) + 1);
    const ssize_t length = readlink(current.c_str(), target.data(), target.size());
    if (length < 0 || static_cast<size_t>(length) >= target.size()) {
      return Status::Error(path + ": cannot read the symbolic link " + current);
    }
    const std::string next(target.data(), static_cast<size_t>(length));
    current = next.starts_with('/') ? next : DirectoryOf(current) + "/" + next;
  }
  return Status::Error(path + ": too many levels of symbolic links");
}

}  // namespace benchprof
