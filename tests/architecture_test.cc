// The rooms of docs/architecture.md are the code's: every #include of every
// source file in harness/ and benchmarks/ is allowed by the "may include"
// column of its room's row, so the page cannot drift from the dependency
// graph and a private header cannot leak into a room that must not see it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace benchprof {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = SOURCE_DIR;

// One row of the rooms table.
struct Room {
  std::string path;                  // "harness/src/tools/compare/"
  std::vector<std::string> allowed;  // "common/", "profiles/profile.h", ...
};

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The backquoted words of a table cell.
std::vector<std::string> Quoted(const std::string& cell) {
  std::vector<std::string> words;
  static const std::regex kQuoted("`([^`]*)`");
  for (auto it = std::sregex_iterator(cell.begin(), cell.end(), kQuoted);
       it != std::sregex_iterator(); ++it) {
    words.push_back((*it)[1]);
  }
  return words;
}

std::vector<Room> ReadRooms() {
  std::vector<Room> rooms;
  std::istringstream page(ReadFile(kSourceDir / "docs/architecture.md"));
  bool in_table = false;
  for (std::string line; std::getline(page, line);) {
    if (line.starts_with("| room | holds | may include |")) {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    if (!line.starts_with("|")) break;
    if (line.starts_with("| ---")) continue;
    std::vector<std::string> cells;
    std::istringstream row(line.substr(1));
    for (std::string cell; std::getline(row, cell, '|');) cells.push_back(cell);
    if (cells.size() < 3) continue;
    const std::vector<std::string> path = Quoted(cells[0]);
    if (path.size() != 1) continue;
    rooms.push_back({path[0], Quoted(cells[2])});
  }
  return rooms;
}

// The room a file belongs to: the row with the longest path that contains it.
const Room* RoomOf(const std::vector<Room>& rooms, const std::string& file) {
  const Room* best = nullptr;
  for (const Room& room : rooms) {
    if (file.starts_with(room.path) && (best == nullptr || room.path.size() > best->path.size())) {
      best = &room;
    }
  }
  return best;
}

// Where an include resolves, as a path from the source directory; "" if it
// is no file of harness/ or benchmarks/ (a generated header, say).
std::string Resolve(const std::string& include) {
  for (const char* root : {"harness/src/", "harness/include/", "benchmarks/"}) {
    if (fs::exists(kSourceDir / root / include)) return std::string(root) + include;
  }
  return "";
}

bool Allowed(const std::vector<Room>& rooms, const Room& room, const std::string& include) {
  const std::string resolved = Resolve(include);
  if (!resolved.empty() && RoomOf(rooms, resolved) == &room) return true;  // its own
  const size_t slash = include.rfind('/');
  const std::string directory = slash == std::string::npos ? "" : include.substr(0, slash + 1);
  for (const std::string& entry : room.allowed) {
    if (entry == include || (entry.ends_with('/') && entry == directory)) return true;
  }
  return false;
}

std::vector<std::string> SourceFiles() {
  std::vector<std::string> files;
  for (const char* top : {"harness", "benchmarks"}) {
    for (const auto& entry : fs::recursive_directory_iterator(kSourceDir / top)) {
      const std::string extension = entry.path().extension();
      if (extension == ".cc" || extension == ".h") {
        files.push_back(fs::relative(entry.path(), kSourceDir).string());
      }
    }
  }
  return files;
}

TEST(ArchitectureTest, TheRoomsTableIsThere) {
  const std::vector<Room> rooms = ReadRooms();
  ASSERT_GE(rooms.size(), 12u) << "docs/architecture.md lost its rooms table";
  for (const char* path : {"harness/src/collect/", "harness/src/session/", "benchmarks/"}) {
    bool found = false;
    for (const Room& room : rooms) found |= room.path == path;
    EXPECT_TRUE(found) << path;
  }
}

TEST(ArchitectureTest, EveryIncludeIsAllowedByItsRoom) {
  const std::vector<Room> rooms = ReadRooms();
  static const std::regex kInclude(R"re(^#include "([^"]+)")re");
  static const std::regex kBenchmarkHeader(R"re(^#include <benchmark/)re");
  size_t checked = 0;
  for (const std::string& file : SourceFiles()) {
    const Room* room = RoomOf(rooms, file);
    ASSERT_NE(room, nullptr) << file << " is in no room of docs/architecture.md";
    std::istringstream text(ReadFile(kSourceDir / file));
    int line_number = 0;
    for (std::string line; std::getline(text, line);) {
      ++line_number;
      std::smatch match;
      if (std::regex_search(line, match, kInclude)) {
        ++checked;
        EXPECT_TRUE(Allowed(rooms, *room, match[1]))
            << file << ":" << line_number << " includes \"" << match[1] << "\", which "
            << room->path << " may not (docs/architecture.md)";
      }
      if (room->path.starts_with("harness/src/tools/")) {
        EXPECT_FALSE(std::regex_search(line, kBenchmarkHeader))
            << file << ":" << line_number << ": the benchprof tool links no Google Benchmark";
      }
    }
  }
  EXPECT_GT(checked, 300u) << "includes checked";
}

TEST(ArchitectureTest, AForbiddenIncludeIsCaught) {
  const std::vector<Room> rooms = ReadRooms();
  const Room* collect = RoomOf(rooms, "harness/src/collect/cpu_sampler.cc");
  const Room* session = RoomOf(rooms, "harness/src/session/main.cc");
  const Room* workloads = RoomOf(rooms, "benchmarks/raytracer/raytrace_main.cc");
  ASSERT_NE(collect, nullptr);
  ASSERT_NE(session, nullptr);
  ASSERT_NE(workloads, nullptr);
  EXPECT_TRUE(Allowed(rooms, *collect, "collect/timed_scope.h"));
  EXPECT_TRUE(Allowed(rooms, *collect, "common/status.h"));
  EXPECT_FALSE(Allowed(rooms, *collect, "tracer/trace_recorder.h"));
  EXPECT_TRUE(Allowed(rooms, *session, "profiles/profile_registry.h"));
  EXPECT_FALSE(Allowed(rooms, *session, "profiles/cpu_profile.h"));
  EXPECT_TRUE(Allowed(rooms, *workloads, "benchprof/measure.h"));
  EXPECT_TRUE(Allowed(rooms, *workloads, "raytracer/canvas.h"));
  EXPECT_FALSE(Allowed(rooms, *workloads, "collect/alloc_counter.h"));
}

}  // namespace
}  // namespace benchprof
