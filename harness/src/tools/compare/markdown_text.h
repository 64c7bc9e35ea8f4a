// How GitHub-flavoured Markdown shows text, for every Markdown report the
// tool writes (compare's, gate's explanations): the tool's own words
// escaped, and text from input files (names, paths, messages) in code
// spans, the one place where GitHub renders no markup, link, image, HTML,
// character reference, math, @mention, #reference or emoji.
//
//   md += "- " + MarkdownEscape("2 regressions") + ": " + MarkdownCodeSpan(name, false);
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_TOOLS_COMPARE_MARKDOWN_TEXT_H_
#define BENCHPROF_TOOLS_COMPARE_MARKDOWN_TEXT_H_

#include <string>

namespace benchprof::compare {

// The tool's own words (never text from an input file) for a Markdown
// paragraph, list item or table cell: markup characters escaped.
std::string MarkdownEscape(const std::string& s);

// `s` (one line: pass text from input files through tools::OneLine first)
// as a code span that GitHub shows literally, whatever it holds; with
// `in_table`, also safe in a table cell (a '|' cannot end the cell). ""
// stays "".
std::string MarkdownCodeSpan(const std::string& s, bool in_table);

}  // namespace benchprof::compare

#endif  // BENCHPROF_TOOLS_COMPARE_MARKDOWN_TEXT_H_
