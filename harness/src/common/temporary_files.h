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

#include <string>

#include "benchprof/files.h"

namespace benchprof {

// Notes that `path` is a temporary file to remove on interruption.
void RegisterTemporary(const std::string& path);

// Forgets `path` (it was renamed into place or removed).
void UnregisterTemporary(const std::string& path);

// Removes every registered temporary file, and every registered directory
// with its contents; afterwards none is registered and none can be (the
// process is about to exit).
void RemoveAllTemporaries();

// Says that this process's interruptions are handled (a benchmark binary's
// watcher): HandleInterruptions() then does nothing.
void NoteInterruptionsHandled();

// "SIGINT", "SIGTERM" or "SIGHUP" (the signals that interrupt a run), else
// "a signal". Async-signal-safe.
const char* InterruptingSignalName(int signal_number);

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_TEMPORARY_FILES_H_
