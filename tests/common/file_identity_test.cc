// CheckDistinctFiles: two spellings of one file are caught, whether the
// file exists or not; different files and devices pass.
#include "common/file_identity.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

namespace benchprof {
namespace {

class FileIdentityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("benchprof-identity-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_ / "sub");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  std::filesystem::path dir_;
};

TEST_F(FileIdentityTest, TwoSpellingsOfOneFileAreCaught) {
  std::ofstream(Path("exists")) << "x";
  std::filesystem::create_symlink("exists", dir_ / "link");
  std::filesystem::create_hard_link(dir_ / "exists", dir_ / "hard");
  std::filesystem::create_symlink("made", dir_ / "dangling");
  const std::vector<std::pair<std::string, std::string>> same = {
      {Path("exists"), Path("sub/../exists")},
      {Path("exists"), Path("link")},
      {Path("exists"), Path("hard")},
      {Path("new"), Path("sub/../new")},  // neither exists yet
      {Path("made"), Path("dangling")},   // a link to a file not made yet
  };
  for (const auto& [a, b] : same) {
    const std::vector<NamedPath> paths = {{"--cpuprofile", a}, {"input", b}};
    const Status status = CheckDistinctFiles(paths);
    ASSERT_FALSE(status.ok()) << a << " " << b;
    EXPECT_EQ(status.message(), "--cpuprofile=" + a + " and input " + b + " are the same file");
  }
}

TEST_F(FileIdentityTest, DifferentFilesAndDevicesPass) {
  std::ofstream(Path("a")) << "a";
  const std::vector<NamedPath> paths = {{"--cpuprofile", Path("a")},
                                        {"--memprofile", Path("b")},
                                        {"--trace", Path("sub/a")},
                                        {"--blockprofile", "/dev/null"},
                                        {"--mutexprofile", "/dev/null"}};
  EXPECT_TRUE(CheckDistinctFiles(paths).ok()) << CheckDistinctFiles(paths).message();
}

}  // namespace
}  // namespace benchprof
