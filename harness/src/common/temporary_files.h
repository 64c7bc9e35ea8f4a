// The temporary files of this process that an interruption must remove:
// every AtomicFile's, from creation to commit or destruction, and the files
// and directories a benchmark or command registers through
// <benchprof/files.h> (implemented here). A thread that handles SIGINT
// (session/interruption.h in a benchmark binary, HandleInterruptions()
// otherwise) removes them all before the process exits, so an interrupted
// run leaves nothing behind.
//
// Thread-safety: thread-safe (one mutex); not for signal handlers.
#ifndef BENCHPROF_COMMON_TEMPORARY_FILES_H_
#define BENCHPROF_COMMON_TEMPORARY_FILES_H_

#include <sys/types.h>

#include <cstdio>
#include <string>

#include "benchprof/files.h"

namespace benchprof {

// Notes that `path` is a temporary file to remove on interruption.
void RegisterTemporary(const std::string& path);

// Creates a new file from `pattern` (mkstemp's: it ends in "XXXXXX", which
// becomes the name's unique part) and registers it, as one step under the
// registry's lock: an exit that removes the temporaries either removes this
// one or happens before it exists, never between. Returns the open file
// descriptor, or -1 with errno set (ECANCELED once RemoveAllTemporaries()
// has run).
int CreateTemporary(std::string& pattern);

// Renames the registered temporary `temp` onto `target` and forgets it, as
// one step under the registry's lock. Returns 0, or an errno value (the
// temporary is then removed; ECANCELED once RemoveAllTemporaries() has run).
int CommitTemporary(const std::string& temp, const std::string& target);

// fopen(`path`, `mode`) for writing an output. If `path` is a registered
// temporary, the open happens under the registry's lock and fails with
// ECANCELED once RemoveAllTemporaries() has run: a writer on another thread
// cannot re-create a temporary the exiting process has just removed. Any
// other path (a device, a FIFO: such an open may block) opens unlocked.
std::FILE* OpenForWriting(const std::string& path, const char* mode);

// Forgets `path` (it was renamed into place or removed).
void UnregisterTemporary(const std::string& path);

// Removes every registered temporary file, and every registered directory
// with its contents; afterwards none is registered and none can be (the
// process is about to exit).
void RemoveAllTemporaries();

// Says that this process's interruptions are handled (a benchmark binary's
// watcher): HandleInterruptions() then does nothing.
void NoteInterruptionsHandled();

// Registers a child process that an interruption must stop first:
// HandleInterruptions' watcher passes its signal on to each registered
// child and waits for it to end (up to 10 s, then kills it) before it
// removes the temporaries. Returns false, registering nothing, if the
// process is exiting on a signal already. (common/child_process.h uses it.)
bool RegisterChild(pid_t child);

// Forgets `child` (it ended and was waited for).
void UnregisterChild(pid_t child);

// True once HandleInterruptions' watcher has taken a signal and the process
// is about to exit.
bool ExitingOnSignal();

// "SIGINT", "SIGTERM" or "SIGHUP" (the signals that interrupt a run), else
// "a signal". Async-signal-safe.
const char* InterruptingSignalName(int signal_number);

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_TEMPORARY_FILES_H_
