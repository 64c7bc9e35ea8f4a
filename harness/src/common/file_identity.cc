#include "common/file_identity.h"

#include <sys/stat.h>

#include <optional>
#include <vector>

#include "common/path_names.h"

namespace benchprof {
namespace {

struct Identity {
  dev_t device = 0;
  ino_t inode = 0;
  std::string name;  // empty for an existing file; else the name in that directory

  bool operator==(const Identity&) const = default;
};

// Which file `path` names; nullopt for a device, or a path that cannot be
// resolved (AtomicFile reports those).
std::optional<Identity> Identify(const std::string& path) {
  struct stat info;
  if (stat(path.c_str(), &info) == 0) {
    if (S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode)) return std::nullopt;
    return Identity{info.st_dev, info.st_ino, ""};
  }
  // Not there yet: where it will be made, a dangling link followed (as
  // AtomicFile follows it).
  const StatusOr<std::string> target = FollowLinks(path);
  if (!target.ok() || stat(DirectoryOf(*target).c_str(), &info) != 0) return std::nullopt;
  return Identity{info.st_dev, info.st_ino, BaseNameOf(*target)};
}

std::string Spelled(const NamedPath& named) {
  return named.what.starts_with("--") ? named.what + "=" + named.path
                                      : named.what + " " + named.path;
}

}  // namespace

Status CheckDistinctFiles(std::span<const NamedPath> paths) {
  std::vector<std::optional<Identity>> identities;
  identities.reserve(paths.size());
  for (const NamedPath& named : paths) identities.push_back(Identify(named.path));
  for (size_t i = 0; i < paths.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (identities[i] && identities[j] && *identities[i] == *identities[j]) {
        return Status::Error(Spelled(paths[j]) + " and " + Spelled(paths[i]) +
                             " are the same file");
      }
    }
  }
  return Status();
}

}  // namespace benchprof
