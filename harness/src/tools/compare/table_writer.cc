#include "tools/compare/table_writer.h"

#include "tools/compare/html_report.h"
#include "tools/compare/json_report.h"
#include "tools/compare/markdown_report.h"
#include "tools/compare/text_report.h"

namespace benchprof::compare {

std::optional<OutputFormat> ParseOutputFormat(std::string_view name) {
  if (name == "text") return OutputFormat::kText;
  if (name == "markdown" || name == "md") return OutputFormat::kMarkdown;
  if (name == "json") return OutputFormat::kJson;
  if (name == "html") return OutputFormat::kHtml;
  return std::nullopt;
}

std::string RenderComparison(const Comparison& comparison, OutputFormat format) {
  switch (format) {
    case OutputFormat::kText:
      return TextReport(comparison);
    case OutputFormat::kMarkdown:
      return MarkdownReport(comparison);
    case OutputFormat::kJson:
      return JsonReport(comparison);
    case OutputFormat::kHtml:
      return HtmlReport(comparison);
  }
  return "";
}

}  // namespace benchprof::compare
