// A compiled regular expression for selecting benchmarks by name
// (--filter, and the REGEX= part of --threshold), in POSIX extended syntax
// and searched anywhere in the name, as Google Benchmark's
// --benchmark_filter matches.
//
// POSIX regcomp rather than std::regex: it compiles faster, and g++ 12
// reports false -Wmaybe-uninitialized errors inside <regex> at -O2 with
// sanitizers, which would break the warning-clean sanitizer builds.
//
//   StatusOr<NamePattern> p = NamePattern::Compile("BM_Alg.*/8");
//   if (!p.ok()) ... p.status().message() ...  // "unmatched ( or \("
//   if (p->Search("BM_AlgorithmOne/8")) ...
//
// Thread-safety: thread-safe; copies share one compiled expression, which
// regexec only reads.
#ifndef BENCHPROF_TOOLS_COMPARE_NAME_PATTERN_H_
#define BENCHPROF_TOOLS_COMPARE_NAME_PATTERN_H_

#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"

namespace benchprof::compare {

class NamePattern {
 public:
  // Compiles `expression`; the error is regerror's text.
  static StatusOr<NamePattern> Compile(std::string_view expression);

  // True if the expression matches some part of `name`.
  bool Search(std::string_view name) const;

  // The expression as given.
  const std::string& expression() const { return expression_; }

 private:
  struct Compiled;
  NamePattern(std::string expression, std::shared_ptr<const Compiled> compiled)
      : expression_(std::move(expression)), compiled_(std::move(compiled)) {}

  std::string expression_;
  std::shared_ptr<const Compiled> compiled_;
};

}  // namespace benchprof::compare

#endif  // BENCHPROF_TOOLS_COMPARE_NAME_PATTERN_H_
