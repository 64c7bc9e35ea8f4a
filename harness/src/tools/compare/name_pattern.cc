#include "tools/compare/name_pattern.h"

#include <regex.h>

#include <algorithm>
#include <string>

namespace benchprof::compare {
namespace {

// glibc's regcomp copies a repeated expression once per repetition, and a
// repetition of a repetition again ("e++++..." doubles with every '+',
// "(a{999}){999}" makes a million copies): a short expression can take
// gigabytes and minutes. Patterns whose expansion would pass this many
// atoms are refused before regcomp sees them.
constexpr double kMaxExpandedAtoms = 100'000;

// The expansion of expression[i...] up to the ')' that closes the group
// (`in_group`) or its end, with each repetition counted as its copies. An
// unmatched ')' outside a group is an ordinary character to glibc.
double ExpandedAtoms(std::string_view expression, size_t& i, bool in_group) {
  double total = 0;
  double last = 0;  // the previous atom's size, which a repetition multiplies
  while (i < expression.size() && !(in_group && expression[i] == ')')) {
    const char c = expression[i++];
    if (c == '(') {
      last = ExpandedAtoms(expression, i, /*in_group=*/true);
      if (i < expression.size()) ++i;  // the ')'
      total += last;
    } else if (c == '*' || c == '+' || c == '?' || c == '{') {
      double copies = 2;  // the atom, and the loop back to it
      if (c == '{') {
        double bound = 0;
        while (i < expression.size() && expression[i] != '}') {
          const char d = expression[i++];
          if (d >= '0' && d <= '9') bound = std::min(1e9, bound * 10 + (d - '0'));
          if (d == ',') bound = 0;  // the upper bound is what is copied
        }
        if (i < expression.size()) ++i;  // the '}'
        copies = std::max(bound, 1.0) + 1;
      }
      total += last * (copies - 1);
      last *= copies;
    } else {
      if (c == '\\' && i < expression.size()) {
        ++i;
      } else if (c == '[') {
        // A bracket expression is one atom; ']' first is a member.
        if (i < expression.size() && expression[i] == '^') ++i;
        if (i < expression.size() && expression[i] == ']') ++i;
        while (i < expression.size() && expression[i] != ']') {
          if (expression[i] == '[' && i + 1 < expression.size() &&
              (expression[i + 1] == ':' || expression[i + 1] == '.' || expression[i + 1] == '=')) {
            const size_t end = expression.find(']', i + 2);
            i = end == std::string_view::npos ? expression.size() : end + 1;
          } else {
            ++i;
          }
        }
        if (i < expression.size()) ++i;
      }
      last = c == '|' ? 0 : 1;
      total += last;
    }
    if (total > kMaxExpandedAtoms) return total;
  }
  return total;
}

}  // namespace

struct NamePattern::Compiled {
  regex_t regex;
  bool compiled = false;  // regfree only what regcomp built
  ~Compiled() {
    if (compiled) regfree(&regex);
  }
};

StatusOr<NamePattern> NamePattern::Compile(std::string_view expression) {
  std::string copy(expression);
  if (copy.find('\0') != std::string::npos) return Status::Error("NUL byte in the expression");
  size_t scanned = 0;
  if (ExpandedAtoms(copy, scanned, /*in_group=*/false) > kMaxExpandedAtoms) {
    return Status::Error("repetitions nested too deep or too large (over " +
                         std::to_string(static_cast<int>(kMaxExpandedAtoms)) +
                         " atoms once expanded)");
  }
  auto compiled = std::make_shared<Compiled>();
  const int error = regcomp(&compiled->regex, copy.c_str(), REG_EXTENDED | REG_NOSUB);
  if (error != 0) {
    char message[256];
    regerror(error, &compiled->regex, message, sizeof message);
    return Status::Error(message);
  }
  compiled->compiled = true;
  return NamePattern(std::move(copy), std::move(compiled));
}

bool NamePattern::Search(std::string_view name) const {
  const std::string copy(name);  // regexec needs a terminated string
  return regexec(&compiled_->regex, copy.c_str(), 0, nullptr, 0) == 0;
}

}  // namespace benchprof::compare
