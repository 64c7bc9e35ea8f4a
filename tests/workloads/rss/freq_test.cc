// The six newsfeed search variants: each finds the Go program's 28,000 hits
// in the default corpus, reads the files on disk every time, and reports a
// missing or malformed document as a failure without stopping, hanging or
// crashing.

#include "rss/freq.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "rss/corpus.h"
#include "rss/document_set.h"
#include "rss_test_util.h"
#include "support/subprocess.h"

namespace benchprof::rss {
namespace {

using ::benchprof::testing::TempDir;

void WriteText(const std::string& path, const std::string& text) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr) << path;
  ASSERT_EQ(std::fwrite(text.data(), 1, text.size(), file), text.size());
  ASSERT_EQ(std::fclose(file), 0);
}

DocumentSet MakeSet(int documents, Storage storage, Layout layout, const std::string& directory) {
  DocumentSetOptions options;
  options.documents = documents;
  options.storage = storage;
  options.layout = layout;
  options.directory = directory;
  std::string error;
  std::optional<DocumentSet> set = DocumentSet::Create(options, &error);
  EXPECT_TRUE(set.has_value()) << error;
  return std::move(*set);
}

TEST(FreqVariantTest, NamesRoundTrip) {
  for (Variant variant : kAllVariants) {
    EXPECT_EQ(ParseVariant(VariantName(variant)), variant);
    EXPECT_NE(kVariantNames.find(VariantName(variant)), std::string_view::npos);
  }
  EXPECT_EQ(ParseVariant("freq"), std::nullopt);
  EXPECT_EQ(ParseVariant(""), std::nullopt);
  EXPECT_TRUE(UsesWorkers(Variant::kPool));
  EXPECT_FALSE(UsesWorkers(Variant::kPipeline));
  EXPECT_GE(DefaultWorkers(), 1);
}

class FreqTest : public ::testing::TestWithParam<Variant> {
 protected:
  TempDir dir_;
};

std::string VariantParamName(const ::testing::TestParamInfo<Variant>& info) {
  return std::string(VariantName(info.param));
}

INSTANTIATE_TEST_SUITE_P(AllVariants, FreqTest, ::testing::ValuesIn(kAllVariants),
                         VariantParamName);

// The Go program's run: 4000 names, one file on disk read 4000 times,
// "found president 28000 times" (400 names in Debug and sanitizer builds).
TEST_P(FreqTest, FindsTheGoProgramsCountInTheDefaultCorpus) {
  const DocumentSet set =
      MakeSet(kCorpusTestDocuments, Storage::kDisk, Layout::kSharedFile, dir_.path());
  const FreqResult result = Freq(GetParam(), set, kDefaultTopic);
  EXPECT_EQ(result.failed_documents, 0) << result.first_error;
  EXPECT_EQ(result.hits, int64_t{kTopicHitsPerDocument} * kCorpusTestDocuments);
  if (kFullCorpus) {
    EXPECT_EQ(result.hits, 28000);
  }
}

TEST_P(FreqTest, SameCountInMemoryAndWithDistinctFiles) {
  constexpr int kDocuments = 40;
  for (Storage storage : {Storage::kMemory, Storage::kDisk}) {
    for (Layout layout : {Layout::kSharedFile, Layout::kFilePerDocument}) {
      TempDir dir;
      const DocumentSet set = MakeSet(kDocuments, storage, layout, dir.path());
      const FreqResult result = Freq(GetParam(), set, kDefaultTopic);
      EXPECT_EQ(result.failed_documents, 0) << result.first_error;
      EXPECT_EQ(result.hits, kTopicHitsPerDocument * kDocuments);
      EXPECT_EQ(Freq(GetParam(), set, "President").hits,
                (kTopicHitsIgnoringCasePerDocument - kTopicHitsPerDocument) * kDocuments);
    }
  }
}

TEST_P(FreqTest, ReadsTheFileOnDiskForEveryDocument) {
  constexpr int kDocuments = 25;
  const DocumentSet set = MakeSet(kDocuments, Storage::kDisk, Layout::kSharedFile, dir_.path());
  ASSERT_EQ(set.path(3), dir_.File("newsfeed.xml"));
  ASSERT_EQ(set.path(0), set.path(kDocuments - 1));
  // Replaced after the set was made: only a search that reads the file
  // finds 2 hits per document.
  WriteText(set.path(0),
            "<rss><channel><item><title>president</title></item><item><description>the "
            "president</description></item><item/></channel></rss>");
  const FreqResult result = Freq(GetParam(), set, kDefaultTopic);
  EXPECT_EQ(result.failed_documents, 0) << result.first_error;
  EXPECT_EQ(result.hits, 2 * kDocuments);
}

TEST_P(FreqTest, MissingFileFailsEveryDocumentWithoutHanging) {
  constexpr int kDocuments = 30;
  const DocumentSet set = MakeSet(kDocuments, Storage::kDisk, Layout::kSharedFile, dir_.path());
  ASSERT_TRUE(std::filesystem::remove(set.path(0)));
  const FreqResult result = Freq(GetParam(), set, kDefaultTopic);
  EXPECT_EQ(result.hits, 0);
  EXPECT_EQ(result.failed_documents, kDocuments);
  EXPECT_EQ(result.first_error,
            "newsfeed-0000.xml: opening: open " + set.path(0) + ": No such file or directory");
}

TEST_P(FreqTest, MalformedDocumentIsAFailureNotACrash) {
  constexpr int kDocuments = 30;
  const DocumentSet set =
      MakeSet(kDocuments, Storage::kDisk, Layout::kFilePerDocument, dir_.path());
  // Document 7 cut short between two items; the others still count.
  const std::string good = GenerateDocument(kDefaultSeed, 7);
  WriteText(set.path(7), good.substr(0, good.find("        <item>", 5000)));
  // Document 12 not XML at all.
  WriteText(set.path(12), "president president president");
  const FreqResult result = Freq(GetParam(), set, kDefaultTopic);
  EXPECT_EQ(result.failed_documents, 2);
  EXPECT_EQ(result.hits, kTopicHitsPerDocument * (kDocuments - 2));
  EXPECT_EQ(result.first_error.rfind("newsfeed-0007.xml: decoding: line ", 0), 0u)
      << result.first_error;
  EXPECT_NE(result.first_error.find("no element found"), std::string::npos) << result.first_error;
}

TEST_P(FreqTest, WorkerCountDoesNotChangeTheResult) {
  constexpr int kDocuments = 30;
  const DocumentSet set = MakeSet(kDocuments, Storage::kMemory, Layout::kFilePerDocument, "");
  for (int workers : {1, 3, 8, 64}) {
    const FreqResult result = Freq(GetParam(), set, kDefaultTopic, workers);
    EXPECT_EQ(result.hits, kTopicHitsPerDocument * kDocuments) << workers;
  }
}

TEST(SearchDocumentTest, TracedAndPlainAgree) {
  TempDir dir;
  const DocumentSet set = MakeSet(5, Storage::kDisk, Layout::kFilePerDocument, dir.path());
  WriteText(set.path(4), "<rss><channel><item><title>x</title></channel></rss>");
  for (size_t i = 0; i < set.size(); ++i) {
    std::string plain_error, traced_error;
    const std::optional<int> plain = SearchDocument(set, i, kDefaultTopic, &plain_error);
    const std::optional<int> traced = SearchDocumentTraced(set, i, kDefaultTopic, &traced_error);
    EXPECT_EQ(plain, traced) << i;
    EXPECT_EQ(plain_error, traced_error) << i;
  }
  std::string error;
  EXPECT_EQ(SearchDocument(set, 0, kDefaultTopic, &error), kTopicHitsPerDocument);
  EXPECT_EQ(SearchDocument(set, 4, kDefaultTopic, &error), std::nullopt);
  EXPECT_EQ(error, "decoding: line 1, column 39: mismatched tag");
}

TEST(DocumentSetTest, NamesAndPaths) {
  TempDir dir;
  const DocumentSet shared = MakeSet(3, Storage::kDisk, Layout::kSharedFile, dir.path());
  EXPECT_EQ(shared.size(), 3u);
  EXPECT_EQ(shared.name(2), "newsfeed-0002.xml");
  EXPECT_EQ(shared.path(2), dir.File("newsfeed.xml"));
  EXPECT_EQ(testing::ListDirectory(dir.path()).size(), 1u);

  TempDir other;
  const DocumentSet distinct = MakeSet(3, Storage::kDisk, Layout::kFilePerDocument, other.path());
  EXPECT_EQ(distinct.path(2), other.File("newsfeed-0002.xml"));
  EXPECT_EQ(testing::ReadFile(distinct.path(2)), GenerateDocument(kDefaultSeed, 2));
  EXPECT_EQ(testing::ListDirectory(other.path()).size(), 3u);

  const DocumentSet memory = MakeSet(3, Storage::kMemory, Layout::kSharedFile, "");
  EXPECT_EQ(memory.path(1), "");
}

TEST(DocumentSetTest, ReadAllReturnsTheWholeFile) {
  TempDir dir;
  const DocumentSet set = MakeSet(2, Storage::kDisk, Layout::kFilePerDocument, dir.path());
  // Larger than any buffer step, so the growth path is exercised.
  const std::string big(100000, 'x');
  WriteText(set.path(1), big);
  std::string error, bytes;
  std::optional<OpenDocument> document = set.Open(1, &error);
  ASSERT_TRUE(document.has_value()) << error;
  ASSERT_TRUE(ReadAll(std::move(*document), &bytes, &error)) << error;
  EXPECT_EQ(bytes, big);
}

TEST(DocumentSetTest, BadOptionsAreErrors) {
  std::string error;
  DocumentSetOptions options;
  options.documents = 0;
  options.storage = Storage::kMemory;
  EXPECT_FALSE(DocumentSet::Create(options, &error).has_value());
  EXPECT_EQ(error, "documents: want 1..400000, got 0");

  options.documents = 2;
  options.storage = Storage::kDisk;
  options.directory = "/nonexistent/rss-test";
  EXPECT_FALSE(DocumentSet::Create(options, &error).has_value());
  EXPECT_EQ(error.rfind("cannot write /nonexistent/rss-test/newsfeed.xml: ", 0), 0u) << error;
}

}  // namespace
}  // namespace benchprof::rss
