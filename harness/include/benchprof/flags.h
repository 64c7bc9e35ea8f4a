// The command-line convention of every benchprof program (`bench`, the
// `benchprof` tool, the workload commands), after Go's flag package, for
// programs of your own too:
//
//   --name=value   or   --name value   (one dash works too: -name=value)
//   --switch       or   --switch=true|false (also yes/no, on/off, 1/0, t/f, y/n)
//   --             ends the flags; every later argument is an operand
//
// Operands may come before, between and after flags. A value taken from the
// next argument is used as it is, even when it starts with a dash. Every
// mistake is one line that names the argument and the problem:
//
//   unknown flag --colour=red (see raytrace --help)
//   --threads: needs a value, as --threads=N
//   --threads=0: expected a whole number from 1 to 1024
//
// A FlagSet binds each flag to a variable of the caller; a variable changes
// only when its flag is given with a valid value.
//
//   int threads = 0;
//   std::string out;
//   bool faithful = false;
//   benchprof::FlagSet flags("raytrace");
//   flags.Int("threads", "N", 1, 1024, &threads, "workers of the pool schedules");
//   flags.File("out", &out, "write the image to FILE");
//   flags.Bool("faithful", &faithful, "reproduce the Go original's quirks");
//   benchprof::CommandLine cl;
//   std::string error;
//   if (!flags.Parse(args, &cl, &error)) { std::cerr << "raytrace: " << error << "\n"; return 2; }
//   if (cl.help) { std::cout << intro << flags.Usage() << ...; return 0; }
//
// Thread-safety: thread-compatible. The bound variables must outlive the
// FlagSet's Parse() calls.
#ifndef BENCHPROF_FLAGS_H_
#define BENCHPROF_FLAGS_H_

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace benchprof {

// What Parse() found besides flags.
struct CommandLine {
  // --help, -h, --h or --help=anything was given (before any `--`). Parse()
  // then succeeds whatever else the arguments hold, so help always works.
  bool help = false;
  // Arguments that are not flags, in order, before a lone `--`.
  std::vector<std::string> operands;
  // Whether a lone `--` was given, and the arguments after it.
  bool has_separator = false;
  std::vector<std::string> after_separator;
};

// One documented exit code of a program.
struct ExitCodeInfo {
  int code;
  std::string_view meaning;  // one line
};

// The exit codes as a help section: "Exit codes:" and one aligned line each.
std::string FormatExitCodes(std::span<const ExitCodeInfo> codes);

// True for --help, -help, -h, --h and --help=anything: the spellings of
// help that FlagSet::Parse() honours.
bool IsHelpFlag(std::string_view arg);

class FlagSet {
 public:
  // `program` is the command as users type it ("bench", "benchprof
  // compare"); error messages name its help ("see bench --help").
  explicit FlagSet(std::string program);

  FlagSet(const FlagSet&) = delete;
  FlagSet& operator=(const FlagSet&) = delete;

  // A switch: `--name` sets *target to true, `--name=false` to false.
  void Bool(std::string_view name, bool* target, std::string_view help);

  // Any text, the empty string included.
  void String(std::string_view name, std::string_view value_name, std::string* target,
              std::string_view help);

  // A file name (value name FILE): any text but the empty string.
  void File(std::string_view name, std::string* target, std::string_view help);

  // A whole number in [min, max], decimal or 0x hexadecimal, optionally
  // signed. The error names the range, or `expected` when it is not empty.
  void Int(std::string_view name, std::string_view value_name, int64_t min, int64_t max,
           int64_t* target, std::string_view help, std::string_view expected = {});
  void Int(std::string_view name, std::string_view value_name, int min, int max, int* target,
           std::string_view help, std::string_view expected = {});

  // A whole number from 0 to 2^64 - 1, decimal or 0x hexadecimal.
  void Uint64(std::string_view name, std::string_view value_name, uint64_t* target,
              std::string_view help);

  // A finite decimal number strictly between `above` and `below`.
  void Number(std::string_view name, std::string_view value_name, double above, double below,
              double* target, std::string_view help);

  // One of `choices` (value name: the choices joined with '|').
  void Choice(std::string_view name, std::initializer_list<std::string_view> choices,
              std::string* target, std::string_view help);

  // Any other value: `apply` checks and stores it, returning "" on success
  // or what was expected ("expected text, markdown or json"), which the
  // error prints after "--name=value: ". Called once per occurrence, so a
  // repeatable flag can collect its values.
  void Custom(std::string_view name, std::string_view value_name,
              std::function<std::string(std::string_view value)> apply, std::string_view help);

  // Parses `args` (without the program name). On success fills `*result`
  // and returns true; on the first bad argument returns false with `*error`
  // set to one line (no program name, no newline), having applied the
  // flags before it.
  bool Parse(std::span<const std::string> args, CommandLine* result, std::string* error) const;
  bool Parse(std::span<const char* const> args, CommandLine* result, std::string* error) const;

  // Parse() for a program that takes flags only: an operand or a `--` is
  // an error too ("unexpected argument 'x' (flags are spelled
  // --name=value; see PROGRAM --help)"). Sets `*help` when help was asked
  // for.
  bool ParseFlagsOnly(std::span<const std::string> args, bool* help, std::string* error) const;
  bool ParseFlagsOnly(std::span<const char* const> args, bool* help, std::string* error) const;

  // Whether `name` (without dashes) is a flag of this set.
  bool Has(std::string_view name) const;

  // Whether `name` is declared and takes a value (so `--name` consumes the
  // next argument). False for switches and for names not declared.
  bool TakesValue(std::string_view name) const;

  // The flags as a help section: one entry per flag in declaration order,
  // "  --name=VALUE  help", the help wrapped to 79 columns and aligned, and
  // last "--help".
  std::string Usage() const;

  // The program name given to the constructor.
  const std::string& program() const { return program_; }

 private:
  struct Flag {
    std::string name;
    std::string value_name;  // empty for a switch
    std::string help;
    std::function<std::string(std::string_view)> apply;
  };

  void Add(std::string_view name, std::string_view value_name, std::string_view help,
           std::function<std::string(std::string_view)> apply);
  const Flag* Find(std::string_view name) const;

  std::string program_;
  std::vector<Flag> flags_;
};

}  // namespace benchprof

#endif  // BENCHPROF_FLAGS_H_
