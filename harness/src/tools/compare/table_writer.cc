#include "tools/compare/table_writer.h"

#include "tools/compare/html_output.h"
#include "tools/compare/json_output.h"
#include "tools/compare/markdown_output.h"
#include "tools/compare/text_output.h"

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
      return ComparisonText(comparison);
    case OutputFormat::kMarkdown:
      return ComparisonMarkdown(comparison);
    case OutputFormat::kJson:
      return ComparisonJson(comparison);
    case OutputFormat::kHtml:
      return ComparisonHtml(comparison);
  }
  return "";
}

}  // namespace benchprof::compare
