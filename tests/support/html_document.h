// A strict checker of the HTML pages the tools write (flame graphs, run
// reports, comparisons), for tests: a browser renders almost anything, so
// "Chromium loads it" says little about whether the page means what we
// wrote. This checks the subset of HTML we promise to emit — the page starts
// with <!DOCTYPE html>; exactly one <html> holding one <head> then one
// <body>; every element but the void ones closed, in order; attribute values
// quoted or simple; <script> and <style> run to their own closing tag; no
// bare '<' in text; every '&' a character reference. It knows no optional
// end tags, no foreign (SVG, MathML) content and no named-reference table.
//
//   const std::string problem = CheckHtml(ReadFile(out));
//   EXPECT_EQ(problem, "") << out;
#ifndef BENCHPROF_TESTS_SUPPORT_HTML_DOCUMENT_H_
#define BENCHPROF_TESTS_SUPPORT_HTML_DOCUMENT_H_

#include <string>
#include <string_view>

namespace benchprof::testing {

// Checks that `page` is a well-formed HTML document in the sense above.
// Returns "" when it is; otherwise the first problem, led by its 1-based
// line ("line 12: </div> closes <span> from line 9"). Thread-safe.
std::string CheckHtml(std::string_view page);

}  // namespace benchprof::testing

#endif  // BENCHPROF_TESTS_SUPPORT_HTML_DOCUMENT_H_
