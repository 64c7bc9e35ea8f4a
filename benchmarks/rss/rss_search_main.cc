// rss-search: the Go newsfeed program (trace.go) as a command. Generates the
// synthetic corpus (on disk by default: one file read N times, as the
// original did), searches it with one variant and prints the original's
// result line, the elapsed and CPU time, and the search's allocations.
//
// The search is measured with <benchprof/measure.h>: the variants' threads'
// allocations count too, and generating the corpus does not.

#include <stdlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <span>
#include <string>
#include <system_error>

#include "benchprof/files.h"
#include "benchprof/measure.h"
#include "rss/document_set.h"
#include "rss/freq.h"
#include "rss/freq_flags.h"

namespace benchprof::rss {
namespace {

// A fresh directory under $TMPDIR (or /tmp), removed with its contents when
// destroyed.
class TempDirectory {
 public:
  TempDirectory() = default;
  TempDirectory(const TempDirectory&) = delete;
  TempDirectory& operator=(const TempDirectory&) = delete;
  ~TempDirectory() {
    std::error_code ignored;
    if (path_.empty()) return;
    std::filesystem::remove_all(path_, ignored);
    KeepOnInterruption(path_);
  }

  bool Create(std::string* error) {
    const char* base = std::getenv("TMPDIR");
    std::string pattern =
        std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/rss-search-XXXXXX";
    // Registered as it is made: an interruption removes it, and a corpus
    // half written into it.
    const std::string asked = pattern;  // mkdtemp may change it when it fails
    if (!CreateTemporaryDirectory(pattern)) {
      *error = "cannot create a temporary directory from " + asked + ": " + std::strerror(errno);
      return false;
    }
    path_ = pattern;
    return true;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Where the corpus goes in disk mode: --dir, created if need be, or a fresh
// temporary directory. Returns 0, or the exit code with the error printed.
int ChooseDirectory(const FreqFlags& flags, TempDirectory& temp, std::string* directory) {
  if (flags.storage != Storage::kDisk) return 0;
  std::string error;
  if (flags.directory.empty()) {
    if (!temp.Create(&error)) {
      std::cerr << "rss-search: " << error << "\n";
      return kExitFailed;
    }
    *directory = temp.path();
    return 0;
  }
  std::error_code ec;
  std::filesystem::create_directories(flags.directory, ec);
  if (ec || !std::filesystem::is_directory(flags.directory)) {
    std::cerr << "rss-search: --dir=" << flags.directory << ": cannot create the directory"
              << (ec ? ": " + ec.message() : std::string()) << "\n";
    return kExitUsage;
  }
  *directory = flags.directory;
  return 0;
}

int Run(std::span<const char* const> args) {
  std::string error;
  const std::optional<FreqFlags> flags = ParseFreqFlags(args, &error);
  if (!flags) {
    std::cerr << "rss-search: " << error << "\n";
    return kExitUsage;
  }
  if (flags->help) {
    std::cout << FreqUsage();
    return 0;
  }

  DocumentSetOptions options;
  options.documents = flags->documents;
  options.seed = flags->seed;
  options.storage = flags->storage;
  options.layout = flags->layout;
  TempDirectory temp;
  if (const int failed = ChooseDirectory(*flags, temp, &options.directory); failed != 0) {
    return failed;
  }
  const std::optional<DocumentSet> set = DocumentSet::Create(options, &error);
  if (!set) {
    std::cerr << "rss-search: " << error << "\n";
    return kExitFailed;
  }
  const int workers = flags->workers > 0 ? flags->workers : DefaultWorkers();

  FreqResult result;
  const RegionCost search =
      MeasureRegion([&] { result = Freq(flags->variant, *set, flags->topic, workers); });

  const double documents = static_cast<double>(set->size());
  // The Go program's last line, word for word.
  std::printf("Searching %zu files, found %s %lld times.\n", set->size(), flags->topic.c_str(),
              static_cast<long long>(result.hits));
  std::printf("variant: %s", std::string(VariantName(flags->variant)).c_str());
  if (UsesWorkers(flags->variant)) std::printf(", workers %d", workers);
  if (flags->storage == Storage::kMemory) {
    std::printf(", mode memory (%s)\n",
                flags->layout == Layout::kSharedFile ? "one document" : "distinct documents");
  } else if (flags->layout == Layout::kSharedFile) {
    std::printf(", mode disk (%s read %zu times)\n", set->path(0).c_str(), set->size());
  } else {
    std::printf(", mode disk (%zu files in %s)\n", set->size(), options.directory.c_str());
  }
  // CPU time of all threads: on a shared machine it shows what the search
  // cost when the elapsed time includes waiting for a core.
  std::printf("elapsed: %.3f s (%.1f us/document), cpu %.3f s\n", search.wall_seconds,
              search.wall_seconds * 1e6 / documents, search.cpu_seconds);
  if (search.allocations_counted) {
    std::printf("allocations: %llu (%.1f per document), %llu bytes (%.0f per document)\n",
                static_cast<unsigned long long>(search.allocations),
                static_cast<double>(search.allocations) / documents,
                static_cast<unsigned long long>(search.allocated_bytes),
                static_cast<double>(search.allocated_bytes) / documents);
  } else {
    std::printf("allocations: not counted in this build\n");
  }
  std::fflush(stdout);

  if (result.failed_documents > 0) {
    std::cerr << "rss-search: " << result.failed_documents << " of " << set->size()
              << " documents failed; first: " << result.first_error << "\n";
    return kExitFailed;
  }
  return 0;
}

}  // namespace
}  // namespace benchprof::rss

int main(int argc, char** argv) {
  // SIGINT and the like remove the corpus directory before the process ends.
  benchprof::HandleInterruptions("rss-search");
  return benchprof::rss::Run(
      std::span<const char* const>(argv + 1, static_cast<size_t>(argc > 0 ? argc - 1 : 0)));
}
