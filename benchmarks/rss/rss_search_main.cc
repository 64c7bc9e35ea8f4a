// rss-search: the Go newsfeed program (trace.go) as a command. Generates the
// synthetic corpus (on disk by default: one file read N times, as the
// original did), searches it with one variant and prints the original's
// result line, the elapsed and CPU time, and the search's allocations.
//
// Allocations are counted by the harness's allocator hooks (linked in
// whole): this thread is marked as a timed runner around the search, so the
// variants' threads count too, and generating the corpus does not.

#include <stdlib.h>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <span>
#include <string>
#include <system_error>

#include "collect/alloc_counter.h"
#include "collect/timed_scope.h"
#include "rss/document_set.h"
#include "rss/freq.h"
#include "rss/freq_flags.h"

namespace benchprof::rss {
namespace {

constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

// CPU time of all threads: on a shared machine it shows what the search
// cost when the elapsed time includes waiting for a core.
double ProcessCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// A fresh directory under $TMPDIR (or /tmp), removed with its contents when
// destroyed.
class TempDirectory {
 public:
  TempDirectory() = default;
  TempDirectory(const TempDirectory&) = delete;
  TempDirectory& operator=(const TempDirectory&) = delete;
  ~TempDirectory() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }

  bool Create(std::string* error) {
    const char* base = std::getenv("TMPDIR");
    std::string pattern =
        std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/rss-search-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
      *error = "cannot create a temporary directory from " + pattern;
      return false;
    }
    path_ = pattern;
    return true;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

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
  if (flags->storage == Storage::kDisk) {
    if (flags->directory.empty()) {
      if (!temp.Create(&error)) {
        std::cerr << "rss-search: " << error << "\n";
        return kExitFailed;
      }
      options.directory = temp.path();
    } else {
      std::error_code ec;
      std::filesystem::create_directories(flags->directory, ec);
      if (ec || !std::filesystem::is_directory(flags->directory)) {
        std::cerr << "rss-search: --dir: cannot create directory " << flags->directory << "\n";
        return kExitUsage;
      }
      options.directory = flags->directory;
    }
  }
  const std::optional<DocumentSet> set = DocumentSet::Create(options, &error);
  if (!set) {
    std::cerr << "rss-search: " << error << "\n";
    return kExitFailed;
  }
  const int workers = flags->workers > 0 ? flags->workers : DefaultWorkers();

  collect::BecomeRunner();
  const collect::AllocTotals before = collect::TotalAllocations();
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = ProcessCpuSeconds();
  collect::EnterTimedRegion();
  const FreqResult result = Freq(flags->variant, *set, flags->topic, workers);
  collect::LeaveTimedRegion();
  const double cpu_seconds = ProcessCpuSeconds() - cpu_start;
  const auto stop = std::chrono::steady_clock::now();
  const collect::AllocTotals search = collect::TotalAllocations() - before;

  const double seconds = std::chrono::duration<double>(stop - start).count();
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
  std::printf("elapsed: %.3f s (%.1f us/document), cpu %.3f s\n", seconds,
              seconds * 1e6 / documents, cpu_seconds);
  if (collect::kAllocHooksEnabled) {
    std::printf("allocations: %llu (%.1f per document), %llu bytes (%.0f per document)\n",
                static_cast<unsigned long long>(search.allocs), search.allocs / documents,
                static_cast<unsigned long long>(search.bytes), search.bytes / documents);
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
  return benchprof::rss::Run(
      std::span<const char* const>(argv + 1, static_cast<size_t>(argc > 0 ? argc - 1 : 0)));
}
