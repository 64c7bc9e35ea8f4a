// AtomicFile: output appears whole or not at all, and bad paths are caught
// at creation.
#include "common/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>
#include <utility>

#include "common/temporary_files.h"

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
  for (const auto& [mask, expected] : {std::pair<mode_t, mode_t>{022, 0644}, {027, 0640}}) {
    const std::string path = (dir_ / ("out-" + std::to_string(mask) + ".json")).string();
    const mode_t previous = umask(mask);
    StatusOr<AtomicFile> file = AtomicFile::Create(path);
    umask(previous);
    ASSERT_TRUE(file.ok());
    ASSERT_TRUE(file->Commit().ok());
    struct stat info;
    ASSERT_EQ(stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, expected) << "umask " << std::oct << mask;
  }
}

TEST_F(AtomicFileTest, AReplacedFileKeepsItsPermissions) {
  const std::string path = (dir_ / "out.json").string();
  std::ofstream(path) << "old";
  ASSERT_EQ(chmod(path.c_str(), 0600), 0);
  StatusOr<AtomicFile> file = AtomicFile::Create(path);
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE(file->WriteAndCommit("new").ok());
  struct stat info;
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0600u);
  EXPECT_EQ(Read(path), "new");

  // Someone else's file cannot keep its owner: the new one is ours, with
  // the bits a new file gets. (Needs root to give the file away.)
  if (geteuid() != 0) return;
  ASSERT_EQ(chown(path.c_str(), 65534, 65534), 0);
  const mode_t previous = umask(022);
  StatusOr<AtomicFile> theirs = AtomicFile::Create(path);
  umask(previous);
  ASSERT_TRUE(theirs.ok());
  ASSERT_TRUE(theirs->WriteAndCommit("ours").ok());
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_uid, 0u);
  EXPECT_EQ(info.st_mode & 07777, 0644u);
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
  // Not "does not exist": the reason is the name's length.
  const std::string long_directory = dir_.string() + "/" + std::string(300, 'd');
  EXPECT_EQ(AtomicFile::Create(long_directory + "/x").status().message(),
            long_directory + "/x: directory " + long_directory + ": File name too long");
  std::ofstream(dir_ / "plain") << "x";
  EXPECT_EQ(
      AtomicFile::Create((dir_ / "plain" / "x").string()).status().message(),
      (dir_ / "plain" / "x").string() + ": " + (dir_ / "plain").string() + " is not a directory");
  std::filesystem::remove(dir_ / "plain");
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

namespace benchprof {
namespace {

TEST_F(AtomicFileTest, ALinkStaysAndItsTargetIsReplaced) {
  std::filesystem::create_directories(dir_ / "real");
  std::ofstream(dir_ / "real" / "out.json") << "old";
  // link.json -> hop.json -> real/out.json
  std::filesystem::create_symlink("real/out.json", dir_ / "hop.json");
  std::filesystem::create_symlink("hop.json", dir_ / "link.json");
  StatusOr<AtomicFile> file = AtomicFile::Create((dir_ / "link.json").string());
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_FALSE(file->writes_through());
  // The temporary is beside the target, so the rename stays on its file system.
  EXPECT_EQ(std::filesystem::path(file->temp_path()).parent_path(), dir_ / "real");
  std::ofstream(file->temp_path()) << "new";
  ASSERT_TRUE(file->Commit().ok());
  EXPECT_TRUE(std::filesystem::is_symlink(dir_ / "link.json"));
  EXPECT_TRUE(std::filesystem::is_symlink(dir_ / "hop.json"));
  EXPECT_EQ(Read(dir_ / "real" / "out.json"), "new");
  EXPECT_EQ(Read(dir_ / "link.json"), "new");
}

TEST_F(AtomicFileTest, ADanglingLinkGetsItsTargetCreated) {
  std::filesystem::create_symlink("made.json", dir_ / "link.json");
  StatusOr<AtomicFile> file = AtomicFile::Create((dir_ / "link.json").string());
  ASSERT_TRUE(file.ok()) << file.status().message();
  std::ofstream(file->temp_path()) << "made";
  ASSERT_TRUE(file->Commit().ok());
  EXPECT_TRUE(std::filesystem::is_symlink(dir_ / "link.json"));
  EXPECT_EQ(Read(dir_ / "made.json"), "made");
}

TEST_F(AtomicFileTest, ALinkLoopIsAnError) {
  std::filesystem::create_symlink("b", dir_ / "a");
  std::filesystem::create_symlink("a", dir_ / "b");
  StatusOr<AtomicFile> file = AtomicFile::Create((dir_ / "a").string());
  ASSERT_FALSE(file.ok());
  EXPECT_NE(file.status().message().find("too many levels of symbolic links"), std::string::npos);
  EXPECT_EQ(Entries(), 2u);
}

TEST_F(AtomicFileTest, DevicesAndFifosAreWrittenDirectly) {
  const std::string fifo = (dir_ / "fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {std::string("/dev/null"), fifo}) {
    StatusOr<AtomicFile> file = AtomicFile::Create(path);
    ASSERT_TRUE(file.ok()) << file.status().message();
    EXPECT_TRUE(file->writes_through());
    EXPECT_EQ(file->temp_path(), path);
    EXPECT_TRUE(file->Commit().ok());
  }
  {
    StatusOr<AtomicFile> dropped = AtomicFile::Create(fifo);
    ASSERT_TRUE(dropped.ok());
  }  // not committed: the FIFO is not removed
  struct stat info;
  ASSERT_EQ(stat(fifo.c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode));
  ASSERT_EQ(stat("/dev/null", &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode));
  EXPECT_EQ(Entries(), 1u);
}

// What a second signal does while another thread writes the outputs:
// RemoveAllTemporaries(), then _exit. Whatever the writer does after the
// removal must not bring a temporary back. The registry closes for the
// whole process, so each case runs in a child (a death test).
TEST_F(AtomicFileTest, AfterTheExitRemovedTemporariesNoneIsCreatedOrReopenedOrCommitted) {
  const std::string path = (dir_ / "out.json").string();
  std::ofstream(path) << "old";
  EXPECT_EXIT(
      {
        StatusOr<AtomicFile> writing = AtomicFile::Create(path);
        if (!writing.ok()) _exit(10);
        const std::string temp = writing->temp_path();
        RemoveAllTemporaries();
        if (access(temp.c_str(), F_OK) == 0) _exit(11);  // removed
        // The writer opens its temporary by name: no new file.
        if (OpenForWriting(temp, "wb") != nullptr || errno != ECANCELED) _exit(12);
        if (access(temp.c_str(), F_OK) == 0) _exit(13);
        if (writing->WriteAndCommit("new").ok()) _exit(14);
        if (AtomicFile::Create(path).ok()) _exit(15);
        _exit(Entries() == 1 && Read(path) == "old" ? 0 : 16);
      },
      ::testing::ExitedWithCode(0), "");
}

// A directory made by CreateTemporaryDirectory is registered as it is made:
// the exit's removal takes it with its contents, and none is made after.
TEST_F(AtomicFileTest, ATemporaryDirectoryIsRemovedWithItsContentsAtTheExit) {
  const std::string pattern = (dir_ / "scratch-XXXXXX").string();
  EXPECT_EXIT(
      {
        std::string made = pattern;
        if (!CreateTemporaryDirectory(made) || made == pattern) _exit(10);
        if (!std::filesystem::is_directory(made)) _exit(11);
        std::ofstream(made + "/corpus.txt") << "half written";
        RemoveAllTemporaries();
        if (std::filesystem::exists(made)) _exit(12);
        std::string late = pattern;
        if (CreateTemporaryDirectory(late) || errno != ECANCELED) _exit(13);
        _exit(Entries() == 0 ? 0 : 14);
      },
      ::testing::ExitedWithCode(0), "");
  std::string bad = (dir_ / "missing" / "scratch-XXXXXX").string();
  EXPECT_FALSE(CreateTemporaryDirectory(bad));
  EXPECT_EQ(errno, ENOENT);
}

// A thread that keeps writing files into a registered directory by its
// path (as rss-search writes its corpus) cannot keep the exit's removal
// from taking it: the directory is gone afterwards, and nothing is left
// beside it.
TEST_F(AtomicFileTest, ADirectoryBeingFilledIsRemovedAtTheExit) {
  const std::string pattern = (dir_ / "corpus-XXXXXX").string();
  EXPECT_EXIT(
      {
        std::string made = pattern;
        if (!CreateTemporaryDirectory(made)) _exit(10);
        std::atomic<bool> stop{false};
        std::atomic<int> written{0};
        std::thread writer([&] {
          for (int i = 0; !stop.load(); ++i) {
            std::ofstream(made + "/doc-" + std::to_string(i) + ".xml") << "<rss/>";
            written.fetch_add(1);
          }
        });
        while (written.load() < 2000) std::this_thread::yield();
        RemoveAllTemporaries();
        const bool gone = !std::filesystem::exists(made);
        stop.store(true);
        writer.join();
        if (!gone) _exit(11);
        _exit(Entries() == 0 ? 0 : 12);
      },
      ::testing::ExitedWithCode(0), "");
}

// Paths that are not registered temporaries (devices, FIFOs, a user's own
// file) open as fopen() does until the exit closes the registry.
TEST_F(AtomicFileTest, OpenForWritingOpensOtherPathsDirectly) {
  const std::string path = (dir_ / "plain.txt").string();
  std::FILE* file = OpenForWriting(path, "w");
  ASSERT_NE(file, nullptr) << std::strerror(errno);
  std::fputs("text", file);
  ASSERT_EQ(std::fclose(file), 0);
  EXPECT_EQ(Read(path), "text");
}

}  // namespace
}  // namespace benchprof
