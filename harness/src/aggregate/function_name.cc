#include "aggregate/function_name.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <vector>

namespace benchprof::aggregate {
namespace {

// Characters of C++ identifiers as the demangler prints them ('$' included:
// GCC accepts it in identifiers).
bool IsIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '$';
}

bool StartsWithWord(std::string_view text, size_t pos, std::string_view word) {
  return text.substr(pos, word.size()) == word &&
         (pos + word.size() == text.size() || !IsIdentifierChar(text[pos + word.size()]));
}

// Operator spellings after the keyword `operator`, longest first so that
// "operator<<=" is not read as "operator<" followed by a bracket.
constexpr std::string_view kOperatorSymbols[] = {
    "->*", "<=>", "<<=", ">>=", "()", "[]", "->", "<<", ">>", "<=", ">=", "==", "!=",
    "&&",  "||",  "++",  "--",  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "+",
    "-",   "*",   "/",   "%",   "^",  "&",  "|",  "~",  "!",  "=",  "<",  ">",  ","};

// Length of the operator symbol at text[pos], 0 if none.
size_t OperatorSymbolLength(std::string_view text, size_t pos) {
  for (std::string_view symbol : kOperatorSymbols) {
    if (text.substr(pos, symbol.size()) == symbol) return symbol.size();
  }
  return 0;
}

// Demangler spellings that wrap a function's name rather than being part of it.
constexpr std::string_view kSpecialPrefixes[] = {"non-virtual thunk to ", "virtual thunk to ",
                                                 "covariant return thunk to ",
                                                 "transaction clone for "};

// Removes the thunk and clone wrappers the demangler puts around a
// function's name from the front of `text` and returns them, so that they
// can be put back in front of the name.
std::string_view TakeSpecialPrefixes(std::string_view& text) {
  const std::string_view original = text;
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (std::string_view special : kSpecialPrefixes) {
      if (text.substr(0, special.size()) == special) {
        text.remove_prefix(special.size());
        stripped = true;
      }
    }
  }
  return original.substr(0, original.size() - text.size());
}

// `text` without GCC's clone suffixes: "f(int) [clone .constprop.0] [clone .cold]".
std::string_view WithoutCloneAnnotations(std::string_view text) {
  while (!text.empty() && text.back() == ']') {
    const size_t clone = text.rfind(" [clone ");
    if (clone == std::string_view::npos) break;
    text = text.substr(0, clone);
  }
  return text;
}

// True if the keyword `operator` starts at text[pos].
bool OperatorKeywordAt(std::string_view text, size_t pos) {
  return text[pos] == 'o' && (pos == 0 || !IsIdentifierChar(text[pos - 1])) &&
         StartsWithWord(text, pos, "operator");
}

// Skips an operator's name, from just after the keyword `operator` at
// text[pos], and returns the position after it. Sets `*conversion_type` for
// a conversion operator ("operator unsigned long") at `top_level`: the
// spaces of its type are part of the name.
size_t SkipOperatorName(std::string_view text, size_t pos, bool top_level, bool* conversion_type) {
  size_t i = pos;
  if (i < text.size() && text[i] == ' ') {
    for (std::string_view word : {"new", "delete", "co_await"}) {
      if (StartsWithWord(text, i + 1, word)) {
        i += 1 + word.size();
        if (text.substr(i, 2) == "[]") i += 2;
        return i;
      }
    }
    if (top_level) *conversion_type = true;
    return i + 1;
  }
  if (text.substr(i, 2) == "\"\"") {  // user-defined literal: operator"" _suffix
    i += 2;
    if (i < text.size() && text[i] == ' ') ++i;
    while (i < text.size() && IsIdentifierChar(text[i])) ++i;
    return i;
  }
  i += OperatorSymbolLength(text, i);
  // "operator< <int>": the demangler separates template arguments.
  if (i + 1 < text.size() && text[i] == ' ' && text[i + 1] == '<') ++i;
  return i;
}

// Updates the stack of open brackets for character `c`. '<' and '>' are
// comparisons inside parentheses (template arguments like "(3)>(2)"); a
// closing bracket also drops the unclosed '<' (a comparison after all)
// above its opener.
void TrackBrackets(char c, std::vector<char>& open) {
  const bool in_parens = !open.empty() && open.back() == '(';
  switch (c) {
    case '(':
    case '[':
    case '{':
      open.push_back(c);
      break;
    case '<':
      if (!in_parens) open.push_back(c);
      break;
    case ')':
    case ']':
    case '}': {
      const char opener = c == ')' ? '(' : c == ']' ? '[' : '{';
      auto match = std::find(open.rbegin(), open.rend(), opener);
      if (match != open.rend()) open.erase(std::prev(match.base()), open.end());
      break;
    }
    case '>':
      if (!in_parens && !open.empty() && open.back() == '<') open.pop_back();
      break;
    default:
      break;
  }
}

// Where the function's name lies in a signature: text[start, params).
struct NameBounds {
  size_t start = 0;
  size_t params = std::string_view::npos;  // npos: no parameter list
};

// One pass, tracking brackets. A space outside all brackets ends a return
// type; the last top-level "(" opens the parameter list. Operator names
// are skipped whole so their brackets are not counted.
NameBounds FindFunctionName(std::string_view text) {
  std::vector<char> open;
  size_t name_start = 0;
  NameBounds bounds;
  bool in_conversion_type = false;  // "operator unsigned long": spaces are part of the name
  for (size_t i = 0; i < text.size();) {
    if (OperatorKeywordAt(text, i)) {
      i = SkipOperatorName(text, i + 8, open.empty(), &in_conversion_type);
      continue;
    }
    const char c = text[i];
    if (c == '(' && open.empty()) {
      bounds = {name_start, i};
      in_conversion_type = false;
    } else if (c == ' ' && open.empty() && !in_conversion_type) {
      name_start = i + 1;
    }
    TrackBrackets(c, open);
    ++i;
  }
  return bounds;
}

}  // namespace

std::string FunctionNameFromDemangled(std::string_view text) {
  const std::string_view prefix = TakeSpecialPrefixes(text);
  text = WithoutCloneAnnotations(text);
  const NameBounds name = FindFunctionName(text);
  std::string result(prefix);
  if (name.params == std::string_view::npos || name.params <= name.start) {
    result.append(text);
  } else {
    result.append(text.substr(name.start, name.params - name.start));
  }
  return result;
}

std::string ShortFunctionName(const std::string& symbol) {
  if (symbol.size() < 2 || symbol[0] != '_' || symbol[1] != 'Z') return symbol;
  int status = 0;
  char* demangled = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  if (status != 0 || demangled == nullptr) {
    std::free(demangled);
    return symbol;
  }
  std::string name = FunctionNameFromDemangled(demangled);
  std::free(demangled);
  return name;
}

std::string WithoutCloneSuffix(const char* symbol) {
  std::string_view name(symbol);
  if (name.substr(0, 2) == "_Z") name = name.substr(0, name.find('.'));
  return std::string(name);
}

}  // namespace benchprof::aggregate
