#include "tools/flamegraph/flamegraph_command.h"

#include <new>
#include <optional>
#include <utility>

#include "benchprof/flags.h"
#include "common/atomic_file.h"
#include "common/file_identity.h"
#include "tools/flamegraph/flame_html.h"
#include "tools/flamegraph/flame_svg.h"
#include "tools/flamegraph/flame_tree.h"
#include "tools/flamegraph/profile_input.h"
#include "tools/text_format.h"
#include "tools/tool_command.h"

namespace benchprof::flamegraph {

using tools::kExitBadInput;
using tools::kExitOk;

namespace {

constexpr std::string_view kProgram = "benchprof flamegraph";

constexpr std::string_view kIntro = R"(Usage: benchprof flamegraph [flags] PROFILE -o FILE

Draws a pprof profile (from bench or any other tool; gzip or not) as a flame
graph in one self-contained file that needs no network, external script or
font. The format follows -o: a FILE ending in .svg (in any case) gets a
standalone SVG document, any other name an HTML page. The root is on top,
callees below; frames are merged by function name along each stack, inline
frames expanded, as pprof's flame graph does. Click a frame to zoom to it,
click an ancestor (or Reset) to zoom out; search takes a regex (the HTML
page's box; Ctrl-F or Search in the SVG) and sums what it matches; hovering
a frame shows its function, file:line, value and share. The SVG leaves out
frames narrower than 0.1 pixel of its 1180-pixel width and, beyond 12,000
frames, the narrowest, each with its callees (their callers keep the
width); the HTML page keeps up to 200,000 frames alike, saying how many it
left out, and draws those at least half a pixel wide and at most 1,000
levels below the current zoom.

With --diff_base, the graph is differential: widths are the head PROFILE's
values, and each frame is coloured by its change head - base x (head total /
base total), i.e. against BASE scaled to the head's total: red grew, blue
shrank, grey did not change. That is proportional to what go tool pprof
-diff_base -normalize shows (it scales the head to the base's total instead);
plain -diff_base scales nothing.

A file that is not a profile, a truncated or corrupt one, one over a limit
of the reader (256 MiB unpacked, 2,000,000 samples, ...: docs/profiles.md),
an unknown sample type, a --tagfocus that no sample matches, an unwritable
output, running out of memory: one line on the error stream, exit code 3,
and no file written.

)";

constexpr ExitCodeInfo kExitCodes[] = {
    {kExitOk, "the flame graph was written"},
    {kExitBadInput,
     "bad input: an unreadable profile or output, a profile over a limit, a bad flag, no matching "
     "sample; or out of memory"},
};

struct Settings {
  std::string out;
  std::string sample_index;
  std::string tagfocus;
  std::string diff_base;
};

void DeclareFlags(FlagSet& flags, Settings* settings) {
  flags.File("o", &settings->out,
             "write the flame graph to FILE (atomically; required): SVG if FILE ends in .svg, "
             "else HTML");
  flags.String("sample_index", "TYPE|N", &settings->sample_index,
               "the sample type to draw, by name (alloc_space) or 0-based index (default: the "
               "profile's default type, else its last)");
  flags.String("tagfocus", "[KEY=]REGEX[,REGEX...]", &settings->tagfocus,
               "only samples with a matching string label, as pprof -tagfocus: "
               "benchmark=BM_AlgorithmOne");
  flags.File("diff_base", &settings->diff_base,
             "draw the change from the base profile FILE (same sample type)");
}

int Fail(std::string& err, const std::string& message) {
  return tools::Fail(err, kProgram, message);
}

}  // namespace

std::string FlamegraphHelp() {
  return tools::SubcommandHelp(kProgram, DeclareFlags, kIntro, kExitCodes);
}

int RunFlamegraphCommand(const std::vector<std::string>& args, std::string& out, std::string& err) {
  Settings settings;
  CommandLine cl;
  if (auto done = tools::ParseSubcommandInto(kProgram, DeclareFlags, args, kIntro, kExitCodes,
                                              &settings, &cl, out, err)) {
    return *done;
  }
  const StatusOr<std::string> file = tools::OneOperand(cl, "flamegraph", "profile");
  if (!file.ok()) return Fail(err, file.status().message());
  std::optional<TagFocus> focus;
  if (!settings.tagfocus.empty()) {
    StatusOr<TagFocus> parsed = TagFocus::Parse(settings.tagfocus);
    if (!parsed.ok()) return Fail(err, "--tagfocus: " + parsed.status().message());
    focus = std::move(*parsed);
  }
  // A profile against itself is allowed.
  const NamedPath inputs[] = {{"input", *file}, {"--diff_base", settings.diff_base}};
  StatusOr<AtomicFile> output = tools::CreateHtmlOutput(settings.out, inputs);
  if (!output.ok()) return Fail(err, output.status().message());

  try {
    // A profile within the reader's limits can still need more memory than
    // the process may have (ulimit -v): one line, and `output`'s temporary
    // goes with the unwinding.
    StatusOr<encode::ProfileData> head = ReadProfileFile(*file);
    if (!head.ok()) return Fail(err, head.status().message());
    StatusOr<size_t> index = ChooseSampleIndex(*head, settings.sample_index);
    if (!index.ok()) return Fail(err, *file + ": --sample_index: " + index.status().message());
    const encode::ValueTypeName& type = head->sample_types[*index];
    FlameTreeBuilder builder(type);
    builder.Add(*head, *index, focus ? &*focus : nullptr, false);
    if (!settings.diff_base.empty()) {
      StatusOr<encode::ProfileData> base = ReadProfileFile(settings.diff_base);
      if (!base.ok()) return Fail(err, base.status().message());
      StatusOr<size_t> base_index = ChooseSampleIndex(*base, type.type);
      if (!base_index.ok()) {
        return Fail(err, settings.diff_base + ": --diff_base: " + base_index.status().message());
      }
      if (base->sample_types[*base_index].unit != type.unit) {
        return Fail(err, settings.diff_base + ": --diff_base: " + type.type + " is in " +
                             base->sample_types[*base_index].unit + ", not " + type.unit);
      }
      builder.Add(*base, *base_index, focus ? &*focus : nullptr, true);
    }
    FlameTree tree = std::move(builder).Finish();
    if (focus && tree.samples == 0) {
      return Fail(err, *file + ": --tagfocus=" + focus->spec() + " matches no sample");
    }
    if (tree.differential && tree.nodes[0].base == 0) {
      // Still a graph: everything in the head is growth.
      err += std::string(kProgram) + ": warning: " +
             tools::OneLine(settings.diff_base + ": no " + type.type + " samples" +
                            (focus ? " match --tagfocus=" + focus->spec() : std::string()) +
                            " in the base") +
             "\n";
    }

    const std::string heading = *file + (tree.differential ? " against " + settings.diff_base : "");
    const std::string meta = DescribeTotal(tree) + (focus ? ", samples with " + focus->spec() : "");
    std::string document;
    if (IsSvgPath(settings.out)) {
      document = FlameGraphSvg(tree, heading, meta);
    } else {
      FlamePage page(*file + " — " + type.type);
      std::string& html = page.html();
      html += "<h1>";
      AppendHtmlEscaped(html, heading);
      html += "</h1>\n<p class=\"meta\">";
      AppendHtmlEscaped(html, meta);
      html += "</p>\n";
      page.AppendGraph(tree);
      document = std::move(page).Finish();
    }
    if (Status written = output->WriteAndCommit(std::move(document)); !written.ok()) {
      return Fail(err, "-o: " + written.message());
    }
  } catch (const std::bad_alloc&) {
    return Fail(err, "out of memory while drawing " + *file);
  }
  return kExitOk;
}

}  // namespace benchprof::flamegraph
