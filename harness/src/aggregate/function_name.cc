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

}  // namespace

std::string FunctionNameFromDemangled(std::string_view text) {
  std::string prefix;
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (std::string_view special : kSpecialPrefixes) {
      if (text.substr(0, special.size()) == special) {
        prefix.append(special);
        text.remove_prefix(special.size());
        stripped = true;
      }
    }
  }
  // GCC clones: "f(int) [clone .constprop.0] [clone .cold]".
  while (!text.empty() && text.back() == ']') {
    const size_t clone = text.rfind(" [clone ");
    if (clone == std::string_view::npos) break;
    text = text.substr(0, clone);
  }

  // One pass, tracking brackets. A space outside all brackets ends a return
  // type; the last top-level "(" opens the parameter list. '<' and '>' are
  // comparisons inside parentheses (template arguments like "(3)>(2)"), and
  // operator names are skipped whole so their brackets are not counted.
  std::vector<char> open;
  size_t name_start = 0;
  size_t params = std::string_view::npos;
  size_t params_name_start = 0;
  bool in_conversion_type = false;  // "operator unsigned long": spaces are part of the name
  for (size_t i = 0; i < text.size();) {
    if (text[i] == 'o' && (i == 0 || !IsIdentifierChar(text[i - 1])) &&
        StartsWithWord(text, i, "operator")) {
      i += 8;
      if (i < text.size() && text[i] == ' ') {
        bool keyword = false;
        for (std::string_view word : {"new", "delete", "co_await"}) {
          if (StartsWithWord(text, i + 1, word)) {
            i += 1 + word.size();
            if (text.substr(i, 2) == "[]") i += 2;
            keyword = true;
            break;
          }
        }
        if (!keyword) {
          if (open.empty()) in_conversion_type = true;
          ++i;
        }
        continue;
      }
      if (text.substr(i, 2) == "\"\"") {  // user-defined literal: operator"" _suffix
        i += 2;
        if (i < text.size() && text[i] == ' ') ++i;
        while (i < text.size() && IsIdentifierChar(text[i])) ++i;
        continue;
      }
      i += OperatorSymbolLength(text, i);
      // "operator< <int>": the demangler separates template arguments.
      if (i + 1 < text.size() && text[i] == ' ' && text[i + 1] == '<') ++i;
      continue;
    }
    const char c = text[i];
    const bool in_parens = !open.empty() && open.back() == '(';
    switch (c) {
      case '(':
        if (open.empty()) {
          params = i;
          params_name_start = name_start;
          in_conversion_type = false;
        }
        open.push_back(c);
        break;
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
        // Drop unclosed '<' (a comparison after all) down to the opener.
        auto match = std::find(open.rbegin(), open.rend(), opener);
        if (match != open.rend()) open.erase(std::prev(match.base()), open.end());
        break;
      }
      case '>':
        if (!in_parens && !open.empty() && open.back() == '<') open.pop_back();
        break;
      case ' ':
        if (open.empty() && !in_conversion_type) name_start = i + 1;
        break;
      default:
        break;
    }
    ++i;
  }
  if (params == std::string_view::npos || params <= params_name_start) {
    return prefix + std::string(text);
  }
  return prefix + std::string(text.substr(params_name_start, params - params_name_start));
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
