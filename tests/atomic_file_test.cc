// AtomicFile: output appears whole or not at all, and bad paths are caught
// at creation.
#include "common/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace benchprof {
namespace {

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("benchprof-atomic-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  size_t Entries() const {
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir_)) ++n;
    return n;
  }
  std::string Read(const std::filesystem::path& p) const {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  std::filesystem::path dir_;
};

TEST_F(AtomicFileTest, CommitMovesTheTemporaryIntoPlace) {
  const std::string path = (dir_ / "out.json").string();
  StatusOr<AtomicFile> file = AtomicFile::Create(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_NE(file->temp_path(), path);
  EXPECT_EQ(std::filesystem::path(file->temp_path()).parent_path(), dir_);
  EXPECT_FALSE(std::filesystem::exists(path));
  std::ofstream(file->temp_path()) << "whole";
  ASSERT_TRUE(file->Commit().ok());
  EXPECT_EQ(Read(path), "whole");
  EXPECT_EQ(Entries(), 1u);
  EXPECT_FALSE(file->Commit().ok());
}

TEST_F(AtomicFileTest, UncommittedFileLeavesNothingAndKeepsTheOldContent) {
  const std::string path = (dir_ / "out.json").string();
  std::ofstream(path) << "old";
  {
    StatusOr<AtomicFile> file = AtomicFile::Create(path);
    ASSERT_TRUE(file.ok());
    std::ofstream(file->temp_path()) << "half-writ";
  }
  EXPECT_EQ(Read(path), "old");
  EXPECT_EQ(Entries(), 1u);
}

TEST_F(AtomicFileTest, NewFilesGetOrdinaryPermissions) {
  const std::string path = (dir_ / "out.json").string();
  const mode_t mask = umask(022);
  StatusOr<AtomicFile> file = AtomicFile::Create(path);
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE(file->Commit().ok());
  umask(mask);
  struct stat info;
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0644u);
}

TEST_F(AtomicFileTest, BadPathsAreReportedWithTheProblem) {
  EXPECT_EQ(AtomicFile::Create("").status().message(), "empty file name");
  EXPECT_EQ(AtomicFile::Create((dir_ / "missing" / "x").string()).status().message(),
            (dir_ / "missing" / "x").string() + ": directory " + (dir_ / "missing").string() +
                " does not exist");
  EXPECT_EQ(AtomicFile::Create(dir_.string()).status().message(),
            dir_.string() + ": is a directory");
  EXPECT_EQ(AtomicFile::Create((dir_ / "..").string()).status().message(),
            (dir_ / "..").string() + ": is a directory");
  EXPECT_EQ(AtomicFile::Create(dir_.string() + "/gone/").status().message(),
            dir_.string() + "/gone/: not a file name");
  if (geteuid() != 0) {  // root may write anywhere
    std::filesystem::permissions(
        dir_, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    EXPECT_FALSE(AtomicFile::Create((dir_ / "x").string()).ok());
    std::filesystem::permissions(dir_, std::filesystem::perms::owner_all);
  }
  EXPECT_EQ(Entries(), 0u);
}

TEST_F(AtomicFileTest, MoveTransfersOwnershipOfTheTemporary) {
  const std::string path = (dir_ / "out.json").string();
  StatusOr<AtomicFile> file = AtomicFile::Create(path);
  ASSERT_TRUE(file.ok());
  AtomicFile moved = std::move(file).value();
  EXPECT_TRUE(std::filesystem::exists(moved.temp_path()));
  ASSERT_TRUE(moved.Commit().ok());
  EXPECT_TRUE(std::filesystem::exists(path));
}

}  // namespace
}  // namespace benchprof
