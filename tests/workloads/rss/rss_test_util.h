// Helpers shared by the RSS workload's tests.
#ifndef BENCHPROF_TESTS_RSS_RSS_TEST_UTIL_H_
#define BENCHPROF_TESTS_RSS_RSS_TEST_UTIL_H_

namespace benchprof::rss {

// True in optimised builds without ASan or TSan: the tests that walk the
// whole 4000-document corpus do so only there (a few seconds); Debug and
// sanitizer builds, 10-50x slower, use a tenth of it.
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
inline constexpr bool kFullCorpus = true;
#else
inline constexpr bool kFullCorpus = false;
#endif

// The number of documents the corpus-wide tests use.
inline constexpr int kCorpusTestDocuments = kFullCorpus ? 4000 : 400;

}  // namespace benchprof::rss

#endif  // BENCHPROF_TESTS_RSS_RSS_TEST_UTIL_H_
