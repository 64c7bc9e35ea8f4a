#include "tools/compare/markdown_text.h"

#include <algorithm>

namespace benchprof::compare {

// Escapes this tool's own words for a Markdown paragraph or list item.
// Text from input files never comes here: it goes in code spans, the one
// place where GitHub renders no markup, link, image, HTML, character
// reference, math, @mention, #reference or emoji.
std::string MarkdownEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == '*' || c == '_' || c == '`' || c == '|' || c == '<' || c == '>' ||
        c == '[' || c == ']' || c == '#') {
      out += '\\';
    }
    out += c;
  }
  return out;
}

// `s` (one line, as output_content gives it) as a code span, which GitHub
// shows literally: fenced by one backtick more than its longest run of
// backticks, and padded with a space where it starts or ends with a
// backtick or a space (CommonMark strips one space from each end of a span
// that has both). "" stays "".
std::string MarkdownCodeSpan(const std::string& s, bool in_table) {
  if (s.empty()) return s;
  std::string body;
  size_t run = 0, longest = 0, backslashes = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    if (c == '|' && in_table) {
      // GitHub's table parser (github/cmark) ends a cell at a '|' that no
      // backslash escapes, even in code, and takes a backslash with any
      // ASCII punctuation after it, another backslash included, as one
      // escape: a '|' needs an odd number of backslashes before it. The
      // parser then drops one backslash before each '|', so an even run of
      // the name's own backslashes before a '|' shows as it is, an odd run
      // with one more.
      body += backslashes % 2 == 0 ? "\\" : "\\\\";
    }
    backslashes = c == '\\' ? backslashes + 1 : 0;
    body += c;
  }
  const std::string fence(longest + 1, '`');
  const bool all_spaces = s.find_first_not_of(' ') == std::string::npos;
  const bool pad =
      !all_spaces && (s.front() == '`' || s.back() == '`' || s.front() == ' ' || s.back() == ' ');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

}  // namespace benchprof::compare
