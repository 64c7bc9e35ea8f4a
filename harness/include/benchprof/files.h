// Files that an interrupted or failed program does not leave behind: the
// temporary files and directories a benchmark or a command makes, removed
// when the process is interrupted (SIGINT, SIGTERM, SIGHUP), and output
// files that appear whole or not at all.
//
//   // A benchmark's scratch directory (bench handles the signals):
//   std::string directory = "/tmp/my-bench-XXXXXX";
//   if (!benchprof::CreateTemporaryDirectory(directory)) ...;
//   ... use it ...
//   std::filesystem::remove_all(directory);
//   benchprof::KeepOnInterruption(directory);
//
//   // A program with its own main():
//   int main(int argc, char** argv) {
//     benchprof::HandleInterruptions("mytool");   // first, before any thread starts
//     ...
//     std::string error;
//     if (!benchprof::WriteFileAtomically("out.png", [&](std::FILE* out, std::string* why) {
//           return WritePng(image, out, why);
//         }, &error)) std::fprintf(stderr, "mytool: %s\n", error.c_str());
//   }
//
// Link `benchprof::common` (benchprof::main brings it).
//
// Thread-safety: every function is thread-safe; HandleInterruptions must be
// called before the program starts threads (the signal mask it sets is
// inherited by the threads created after).
#ifndef BENCHPROF_FILES_H_
#define BENCHPROF_FILES_H_

#include <cstdio>
#include <functional>
#include <string>

namespace benchprof {

// Registers `path`, a file or a directory (removed with everything in it),
// to be removed if the process is interrupted before KeepOnInterruption
// (path). In a benchmark binary (benchprof::main), `bench` removes it with
// its own temporary files on SIGINT, SIGTERM and SIGHUP, and when it ends
// the run because the library or a benchmark called exit(); a program with
// its own main() calls HandleInterruptions() for that.
void RemoveOnInterruption(const std::string& path);

// Creates a new directory from `pattern` (mkdtemp's: it ends in "XXXXXX",
// which becomes the name's unique part) and registers it as
// RemoveOnInterruption does, in one step: an interruption either removes
// it or comes before it exists, never between. Returns false with errno
// set (ECANCELED when the process is already exiting on a signal).
bool CreateTemporaryDirectory(std::string& pattern);

// Forgets `path`: it was removed, or is kept on purpose.
void KeepOnInterruption(const std::string& path);

// For a program with its own main(): blocks SIGINT, SIGTERM, SIGHUP and
// SIGQUIT in the calling thread (and the threads it starts later) and
// starts a thread that, on the first of them, removes every path
// registered with RemoveOnInterruption, prints "PROGRAM: interrupted by
// SIGINT; temporary files removed" and exits with 128 + the signal's
// number (130, 143, 129); on SIGQUIT the process then dies of SIGQUIT, as
// it would have without the handler (exit status 131, a core dump where
// the limits allow).
// A signal the process inherited as ignored stays ignored. SIGXFSZ is
// ignored, so that a write past `ulimit -f` fails (EFBIG) like one on a
// full disk instead of killing the process mid-write. Does nothing in
// a process whose interruptions benchprof handles already (a benchmark
// binary). Returns false, with errno set, if the thread cannot start.
bool HandleInterruptions(const char* program);

// Writes `path` whole or not at all: `write` fills a temporary file beside
// it (the FILE* is open for writing; on failure `write` returns false and
// sets its error), which then replaces `path` if every write and the close
// succeeded; a file of yours that it replaces keeps its permission bits. A
// symbolic link stays a link (the file it points to is replaced); a device,
// a FIFO or anything under /dev is written directly. The temporary file is
// removed on failure and if the process is interrupted meanwhile. Returns
// false with `*error` set to one line ("out.png: No space left on
// device"); the previous file is then kept.
bool WriteFileAtomically(const std::string& path,
                         const std::function<bool(std::FILE* out, std::string* error)>& write,
                         std::string* error);

}  // namespace benchprof

#endif  // BENCHPROF_FILES_H_
