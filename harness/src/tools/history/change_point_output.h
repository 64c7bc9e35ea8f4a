// The change points of `benchprof history detect` as people and programs
// read them: plain text for a terminal or CI log, Markdown for a
// pull-request comment, JSON for other tools. Each change point shows its
// series (benchmark, metric, testbed, branch), the last good and first bad
// commit (short hash, subject, date), the before and after medians with
// their unit, the change in percent, the p-value ("exact" for the exact
// rule) and whether it is a regression or an improvement.
//
// Series come out ordered by their key, change points by index, whatever
// the order given, so the same history prints the same bytes. Names,
// units, hashes and subjects are data: text and Markdown pass them through
// tools::OneLine (and Markdown puts them in code spans), JSON escapes them
// with json::AppendQuoted, so no name can break a line, a table, a comment
// or a CI log.
//
//   std::vector<AnalysedSeries> analysed = ...;     // FindChangePoints on each
//   std::map<std::string, CommitInfo> commits = ...;  // hash -> subject, time
//   std::fputs(ChangePointsText(analysed, commits).c_str(), stdout);
//
// Thread-safety: thread-safe (pure functions).
#ifndef BENCHPROF_TOOLS_HISTORY_CHANGE_POINT_OUTPUT_H_
#define BENCHPROF_TOOLS_HISTORY_CHANGE_POINT_OUTPUT_H_

#include <map>
#include <string>
#include <vector>

#include "tools/history/series.h"

namespace benchprof::history {

// A summary line, then for each series with change points a heading and
// one block per change point; the newest run's regression is called out
// (NewestIsRegression). "no change points in N series" when none.
std::string ChangePointsText(const std::vector<AnalysedSeries>& series,
                             const std::map<std::string, CommitInfo>& commits);

// A summary in bold, then one GitHub table row per change point; text from
// the history in code spans. "No change points in N series." when none.
std::string ChangePointsMarkdown(const std::vector<AnalysedSeries>& series,
                                 const std::map<std::string, CommitInfo>& commits);

// One JSON object: counts, and every series (with or without change
// points) with its key, unit, number of points, newest_is_regression and
// its change points. A change from a median of 0 is infinite: "change" is
// then null and "change_text" says "+∞%". "p" is null for an exact change.
// A commit's time is ISO 8601 in UTC ("2026-11-28T04:12:30Z"); a commit
// the map does not know has a null subject and time.
std::string ChangePointsJson(const std::vector<AnalysedSeries>& series,
                             const std::map<std::string, CommitInfo>& commits);

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_CHANGE_POINT_OUTPUT_H_
