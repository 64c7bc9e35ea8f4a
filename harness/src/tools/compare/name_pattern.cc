#include "tools/compare/name_pattern.h"

#include <regex.h>

namespace benchprof::compare {

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
