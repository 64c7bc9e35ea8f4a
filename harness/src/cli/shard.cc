#include "cli/shard.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <unordered_set>

#include "common/number_parser.h"

namespace benchprof::cli {
namespace {

constexpr char kTotalVariable[] = "TEST_TOTAL_SHARDS";
constexpr char kIndexVariable[] = "TEST_SHARD_INDEX";
constexpr char kStatusFileVariable[] = "TEST_SHARD_STATUS_FILE";

// Decimal digits only: "+1", " 1" and "0x1" are no shard numbers.
std::optional<uint64_t> ParseCount(std::string_view text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  return ParseUnsigned(text, IntegerSyntax::kDecimal);
}

StatusOr<Shard> MakeShard(std::optional<uint64_t> index, std::optional<uint64_t> total) {
  if (!total || *total == 0 || *total > kMaxShards) {
    return Status::Error("the number of shards must be 1 to " + std::to_string(kMaxShards));
  }
  if (!index || *index >= *total) {
    return Status::Error("shard index " + (index ? std::to_string(*index) : std::string("?")) +
                         " is out of range for " + std::to_string(*total) + " shards (0 to " +
                         std::to_string(*total - 1) + ")");
  }
  return Shard{static_cast<size_t>(*index), static_cast<size_t>(*total)};
}

// A node of the trie of names: the names that continue with each byte.
struct NameTrie {
  bool ends_a_name = false;
  std::map<char, std::unique_ptr<NameTrie>> next;
};

// The characters special in a POSIX extended expression outside brackets.
// ']' and '}' are not, and libstdc++ refuses them escaped (error_escape).
void AppendLiteral(std::string& filter, char c) {
  if (std::string_view("\\^$.|?*+()[{").find(c) != std::string_view::npos) filter += '\\';
  filter += c;
}

// Appends what matches the rest of every name below `node`. Iterative
// along a chain of single continuations, so the recursion is as deep as
// the branches, not the bytes, of the longest name.
void AppendBranches(const NameTrie* node, std::string& filter) {
  while (node->next.size() == 1 && !node->ends_a_name) {
    AppendLiteral(filter, node->next.begin()->first);
    node = node->next.begin()->second.get();
  }
  if (node->next.empty()) return;
  filter += '(';
  bool first = true;
  for (const auto& [c, child] : node->next) {
    if (!first) filter += '|';
    first = false;
    AppendLiteral(filter, c);
    AppendBranches(child.get(), filter);
  }
  filter += ')';
  // POSIX leaves an empty alternative undefined; an optional group is not.
  if (node->ends_a_name) filter += '?';
}

}  // namespace

std::vector<std::string> NamesInShard(std::span<const std::string> listed, const Shard& shard) {
  std::vector<std::string> names;
  std::unordered_set<std::string_view> seen;
  size_t instance = 0;
  for (const std::string& name : listed) {
    if (!seen.insert(name).second) continue;
    if (shard.Contains(instance++)) names.push_back(name);
  }
  return names;
}

std::string ExactNamesFilter(std::span<const std::string> names) {
  NameTrie root;
  for (const std::string& name : names) {
    NameTrie* node = &root;
    for (const char c : name) {
      std::unique_ptr<NameTrie>& child = node->next[c];
      if (child == nullptr) child = std::make_unique<NameTrie>();
      node = child.get();
    }
    node->ends_a_name = true;
  }
  std::string filter = "^";
  AppendBranches(&root, filter);
  return filter + "$";
}

std::string Shard::Name() const { return std::to_string(index) + "/" + std::to_string(total); }

StatusOr<Shard> ParseShard(std::string_view text) {
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) {
    return Status::Error("expected I/N, shard I of N counted from 0 (e.g. 2/4, the third of four)");
  }
  const std::optional<uint64_t> index = ParseCount(text.substr(0, slash));
  const std::optional<uint64_t> total = ParseCount(text.substr(slash + 1));
  if (!index || !total) {
    return Status::Error("expected I/N, shard I of N counted from 0 (e.g. 2/4, the third of four)");
  }
  return MakeShard(index, total);
}

StatusOr<std::optional<EnvironmentShard>> ShardFromEnvironment() {
  const char* total_text = std::getenv(kTotalVariable);
  if (total_text == nullptr || *total_text == '\0') return std::optional<EnvironmentShard>();
  const std::optional<uint64_t> total = ParseCount(total_text);
  if (!total) {
    return Status::Error(std::string(kTotalVariable) + "=" + total_text + ": expected a number");
  }
  const char* index_text = std::getenv(kIndexVariable);
  if (index_text == nullptr) {
    return Status::Error(std::string(kTotalVariable) + " is set but " + kIndexVariable + " is not");
  }
  const std::optional<uint64_t> index = ParseCount(index_text);
  if (!index) {
    return Status::Error(std::string(kIndexVariable) + "=" + index_text + ": expected a number");
  }
  StatusOr<Shard> shard = MakeShard(index, total);
  if (!shard.ok()) {
    return shard.status().WithContext(std::string(kIndexVariable) + "=" + index_text + ", " +
                                      kTotalVariable + "=" + total_text);
  }
  EnvironmentShard found{*shard, ""};
  if (const char* status_file = std::getenv(kStatusFileVariable)) found.status_file = status_file;
  return std::optional<EnvironmentShard>(std::move(found));
}

Status TouchShardStatusFile(const std::string& path) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0 || futimens(fd, nullptr) != 0) {
    const int error = errno;
    if (fd >= 0) close(fd);
    return Status::Error(std::string(kStatusFileVariable) + "=" + path + ": " +
                         std::strerror(error));
  }
  close(fd);
  return Status();
}

}  // namespace benchprof::cli
