#include "common/atomic_file.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <utility>

#include "common/path_names.h"
#include "common/temporary_files.h"

namespace benchprof {
namespace {

// Whether writes to `path` must go to it directly: a device, a FIFO, or a
// name under /dev or /proc (/dev/stdout is a link to whatever fd 1 is; a
// rename over what it resolves to would take the file from under the shell).
bool WritesThrough(const std::string& path, const struct stat& info) {
  return S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode) || S_ISFIFO(info.st_mode) ||
         S_ISSOCK(info.st_mode) || path.starts_with("/dev/") || path.starts_with("/proc/");
}

// Removes the temporaries of `base` in `directory` that processes which no
// longer exist left behind: ".BASE.tmp-PID-XXXXXX".
void RemoveStaleTemporaries(const std::string& directory, const std::string& base) {
  DIR* listing = opendir(directory.c_str());
  if (listing == nullptr) return;
  const std::string prefix = "." + base + ".tmp-";
  while (const dirent* entry = readdir(listing)) {
    const std::string_view name = entry->d_name;
    if (!name.starts_with(prefix)) continue;
    const std::string_view rest = name.substr(prefix.size());
    const size_t dash = rest.find('-');
    if (dash == 0 || dash == std::string_view::npos) continue;
    pid_t pid = 0;
    const auto [end, error] = std::from_chars(rest.data(), rest.data() + dash, pid);
    if (error != std::errc() || end != rest.data() + dash || pid <= 0) continue;
    if (kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    unlinkat(dirfd(listing), entry->d_name, 0);
  }
  closedir(listing);
}

// The process's umask, read without setting it: umask() can only read by
// writing, and another thread creating a file in between would get the
// wrong permissions. Falls back to that only without /proc.
mode_t CurrentUmask() {
  if (std::FILE* status = std::fopen("/proc/self/status", "re")) {
    char line[256];
    unsigned mask = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, status) != nullptr) {
      found = std::sscanf(line, "Umask: %o", &mask) == 1;
    }
    std::fclose(status);
    if (found) return static_cast<mode_t>(mask);
  }
  const mode_t mask = umask(0);
  umask(mask);
  return mask;
}

}  // namespace

StatusOr<AtomicFile> AtomicFile::Create(const std::string& path) {
  if (path.empty()) return Status::Error("empty file name");
  struct stat info;
  if (stat(path.c_str(), &info) == 0) {
    if (S_ISDIR(info.st_mode)) return Status::Error(path + ": is a directory");
    if (access(path.c_str(), W_OK) != 0) return Status::Error(path + ": not writable");
    if (S_ISSOCK(info.st_mode)) return Status::Error(path + ": is a socket");
    if (WritesThrough(path, info)) return AtomicFile(path, path, /*write_through=*/true);
  }
  // A link is kept: its target is what gets replaced.
  StatusOr<std::string> followed = FollowLinks(path);
  if (!followed.ok()) return followed.status();
  const std::string& target = *followed;
  const std::string base = BaseNameOf(target);
  if (base.empty() || base == "." || base == "..") {
    return Status::Error(path + ": not a file name");
  }
  const std::string directory = DirectoryOf(target);
  if (stat(directory.c_str(), &info) != 0) {
    if (errno == ENOENT)
      return Status::Error(path + ": directory " + directory + " does not exist");
    return Status::Error(path + ": directory " + directory + ": " + std::strerror(errno));
  }
  if (!S_ISDIR(info.st_mode)) return Status::Error(path + ": " + directory + " is not a directory");

  RemoveStaleTemporaries(directory, base);
  // The process id in the name lets a later run remove what a killed one
  // (SIGKILL) left behind.
  std::string temp = directory + "/." + base + ".tmp-" + std::to_string(getpid()) + "-XXXXXX";
  const int fd = CreateTemporary(temp);
  if (fd < 0) {
    return Status::Error(path + ": cannot create a file in " + directory + " (" +
                         std::strerror(errno) + ")");
  }
  // mkstemp makes the file private. One that replaces a file of ours keeps
  // its permission bits (an output kept private stays so); otherwise, as a
  // new file, those the umask gives. Someone else's file cannot keep its
  // owner, so its bits would mean something else: not copied.
  struct stat replaced;
  const mode_t mode = stat(target.c_str(), &replaced) == 0 && S_ISREG(replaced.st_mode) &&
                              replaced.st_uid == geteuid()
                          ? replaced.st_mode & 0777
                          : 0666 & ~CurrentUmask();
  const bool mode_set = fchmod(fd, mode) == 0;
  const int error = errno;
  close(fd);
  if (!mode_set) {
    unlink(temp.c_str());
    UnregisterTemporary(temp);
    return Status::Error(path + ": cannot set the permissions of a file in " + directory + " (" +
                         std::strerror(error) + ")");
  }
  AtomicFile file(path, temp, /*write_through=*/false);
  file.target_ = target;
  return file;
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : path_(std::move(other.path_)),
      target_(std::move(other.target_)),
      temp_path_(std::exchange(other.temp_path_, {})),
      write_through_(other.write_through_) {}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
  if (this != &other) {
    RemoveTemporary();
    path_ = std::move(other.path_);
    target_ = std::move(other.target_);
    temp_path_ = std::exchange(other.temp_path_, {});
    write_through_ = other.write_through_;
  }
  return *this;
}

AtomicFile::~AtomicFile() { RemoveTemporary(); }

void AtomicFile::RemoveTemporary() {
  if (temp_path_.empty() || write_through_) return;
  unlink(temp_path_.c_str());
  UnregisterTemporary(temp_path_);
}

Status AtomicFile::Commit() {
  if (temp_path_.empty()) return Status::Error(path_ + ": already written");
  const std::string temp = std::exchange(temp_path_, {});
  if (write_through_) return Status();
  if (const int error = CommitTemporary(temp, target_); error != 0) {
    return Status::Error(path_ + ": cannot write (" + std::strerror(error) + ")");
  }
  return Status();
}

Status AtomicFile::WriteAndCommit(std::string_view contents) {
  errno = 0;
  std::FILE* stream = OpenForWriting(temp_path_, "wb");
  bool ok = stream != nullptr;
  if (ok) ok = std::fwrite(contents.data(), 1, contents.size(), stream) == contents.size();
  int error = errno;
  if (stream != nullptr && std::fclose(stream) != 0) {
    if (ok) error = errno;
    ok = false;
  }
  if (!ok) {
    return Status::Error(path_ + ": write failed" +
                         (error != 0 ? std::string(" (") + std::strerror(error) + ")" : "") +
                         (write_through_ ? "" : "; the file is unchanged"));
  }
  return Commit();
}

}  // namespace benchprof
