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

// What a (sub)expression costs regcomp.
struct Expansion {
  double atoms = 0;  // with each repetition counted as its copies
  bool nullable = false;  // can match the empty string
  // An unbounded repetition ('*', '+', "{n,}") of something nullable, as in
  // "a?+" or "(a*)*": glibc's closure computation over such loops grows
  // about with the square of their copies ("a?" and 12 '+' took 8 s,
  // "((a?)*){1000}" 2.5 s), far below the atom bound.
  bool repeats_nullable = false;
};

// The expansion of expression[i...] up to the ')' that closes the group
// (`in_group`) or its end. An unmatched ')' outside a group is an ordinary
// character to glibc.
Expansion Expand(std::string_view expression, size_t& i, bool in_group) {
  Expansion whole;
  double last = 0;              // the previous piece's atoms, which a repetition multiplies
  bool last_nullable = true;    // whether that piece can match nothing
  bool before_nullable = true;  // whether the branch's pieces before it all can
  const auto end_branch = [&] {
    whole.nullable = whole.nullable || (before_nullable && last_nullable);
  };
  const auto start_piece = [&](double atoms, bool nullable) {
    before_nullable = before_nullable && last_nullable;
    last = atoms;
    last_nullable = nullable;
    whole.atoms += atoms;
  };
  while (i < expression.size() && !(in_group && expression[i] == ')')) {
    const char c = expression[i++];
    if (c == '(') {
      const Expansion group = Expand(expression, i, /*in_group=*/true);
      if (i < expression.size()) ++i;  // the ')'
      whole.repeats_nullable = whole.repeats_nullable || group.repeats_nullable;
      start_piece(group.atoms, group.nullable);
    } else if (c == '*' || c == '+' || c == '?' || c == '{') {
      double copies = 2;  // the atom, and the loop back to it
      bool unbounded = c != '?';
      bool skippable = c != '+';
      if (c == '{') {
        double lower = 0, bound = 0;
        bool comma = false, upper = false;
        while (i < expression.size() && expression[i] != '}') {
          const char d = expression[i++];
          if (d >= '0' && d <= '9') {
            bound = std::min(1e9, bound * 10 + (d - '0'));
            upper = upper || comma;
          }
          if (d == ',' && !comma) {
            comma = true;
            lower = bound;
            bound = 0;  // the upper bound is what is copied
          }
        }
        if (i < expression.size()) ++i;  // the '}'
        if (!comma) lower = bound;
        unbounded = comma && !upper;
        skippable = lower == 0;
        copies = std::max(unbounded ? lower : bound, 1.0) + 1;
      }
      if (unbounded && last_nullable) whole.repeats_nullable = true;
      whole.atoms += last * (copies - 1);
      last *= copies;
      last_nullable = last_nullable || skippable;
    } else if (c == '|') {
      end_branch();
      last = 0;
      last_nullable = true;
      before_nullable = true;
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
      // Anchors match no character.
      start_piece(1, c == '^' || c == '$');
    }
    if (whole.atoms > kMaxExpandedAtoms) break;
  }
  end_branch();
  return whole;
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
  const Expansion expansion = Expand(copy, scanned, /*in_group=*/false);
  if (expansion.atoms > kMaxExpandedAtoms) {
    return Status::Error("repetitions nested too deep or too large (over " +
                         std::to_string(static_cast<int>(kMaxExpandedAtoms)) +
                         " atoms once expanded)");
  }
  if (expansion.repeats_nullable) {
    return Status::Error(
        "an unbounded repetition of something that can match nothing (like a?+ or (a*)*)");
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
