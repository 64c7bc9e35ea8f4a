// Where the JSON tokenizer's bytes come from: a function that fills a buffer,
// so that one tokenizer reads a file in chunks (constant memory whatever its
// size), text in memory, or the rest of an input whose first bytes a caller
// has already looked at to decide what the input is.
//
//   StatusOr<json::ByteSource> file = json::OpenFileSource(path);
//   if (!file.ok()) return file.status().WithContext(path);
//   StatusOr<json::PeekedSource> peeked = json::Peek(std::move(*file), 512);
//   if (!peeked.ok()) return peeked.status().WithContext(path);
//   if (LooksBinary(peeked->head)) return ...;
//   json::Tokenizer tokens(std::move(peeked->source));  // sees the whole file
//
// Thread-safety: a ByteSource is thread-compatible (one reader at a time);
// the functions are thread-safe.
#ifndef BENCHPROF_COMMON_JSON_BYTE_SOURCE_H_
#define BENCHPROF_COMMON_JSON_BYTE_SOURCE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>

#include "common/status.h"

namespace benchprof::json {

// Writes up to `capacity` (at least 1) bytes to `dst` and returns how many;
// 0 means the end of the input. Fewer than `capacity` is not the end (a pipe
// returns what it has). An error ends the input with that error.
using ByteSource = std::function<StatusOr<size_t>(char* dst, size_t capacity)>;

// A source reading the file at `path` with read(2), so a pipe or a file that
// is still growing works too. Fails with "cannot open: <reason>" or "is a
// directory"; a read error later comes back as "cannot read: <reason>". The
// messages do not name the file: callers add it (Status::WithContext).
StatusOr<ByteSource> OpenFileSource(const std::string& path);

// A source over `text`, which must outlive it, handing out at most
// `max_read` bytes per call (at least 1; tests use small values to put chunk
// boundaries at every offset).
ByteSource TextSource(std::string_view text, size_t max_read = std::numeric_limits<size_t>::max());

// `source`, failing with `problem` as soon as more than `max_bytes` have come
// from it: for inputs that may never end (a pipe, a character device), so
// that reading them stops with a message instead of filling memory.
ByteSource LimitSource(ByteSource source, uint64_t max_bytes, std::string problem);

// The first bytes of an input, read ahead so a reader can tell a JSON file
// from a compressed, binary or text one before parsing it.
struct PeekedSource {
  std::string head;    // the first bytes; fewer than asked only if the input ended
  bool ended = false;  // the input ends within `head`
  ByteSource source;   // `head` again, then the rest of the input
};

// Reads up to `bytes` bytes of `source` into `head` (retrying short reads).
// Fails with the source's error.
StatusOr<PeekedSource> Peek(ByteSource source, size_t bytes);

}  // namespace benchprof::json

#endif  // BENCHPROF_COMMON_JSON_BYTE_SOURCE_H_
