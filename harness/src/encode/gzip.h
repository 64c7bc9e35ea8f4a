// Gzip compression for profile files (RFC 1952 containers, via zlib).
//
// pprof profiles are gzip-compressed on disk. Compression uses zlib's fastest
// level, as Go's runtime/pprof does: profiles are written once, at the end of
// a run, and the speed matters more than the last few percent of size.
// Decompression treats its input as untrusted (profiles users hand to our
// tools): every byte sequence yields data or a one-line error, and the output
// is capped so a small "gzip bomb" cannot exhaust memory.
//
//   StatusOr<std::string> packed = GzipCompress(bytes);
//   if (!packed.ok()) return packed.status();
//   StatusOr<std::string> unpacked = GzipDecompress(*packed);
//
// Thread-safety: thread-safe (no shared state).
#ifndef BENCHPROF_ENCODE_GZIP_H_
#define BENCHPROF_ENCODE_GZIP_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "common/status.h"

namespace benchprof::encode {

// The default cap on GzipDecompress's output. Profiles are read with a
// lower one, pprof_reader.h's kMaxProfileBytes.
inline constexpr size_t kMaxGzipOutput = size_t{1} << 30;

// `bytes` as messages give sizes: "256 MiB" for a whole number of MiB,
// else "1000 bytes".
std::string FormatByteCount(size_t bytes);

// Returns `data` as a single gzip member, compressed with Z_BEST_SPEED. Fails
// only if zlib cannot allocate its state.
StatusOr<std::string> GzipCompress(std::string_view data);

// Returns the concatenated contents of the gzip members in `data` (several
// members are read back to back, like gzip(1) and Go's gzip.Reader do).
// Fails with one line if `data` is empty, is not gzip, is corrupt or
// truncated (CRC and length trailers are checked), has bytes after the last
// member that are not another member, or would decompress to more than
// `max_output` bytes ("gzip: data decompresses to more than 256 MiB, over
// the limit"). Memory is the output so far, a 64 KiB buffer and zlib's
// state. Throws std::bad_alloc when zlib cannot allocate, as the output
// string does when it cannot grow.
StatusOr<std::string> GzipDecompress(std::string_view data, size_t max_output = kMaxGzipOutput);

}  // namespace benchprof::encode

#endif  // BENCHPROF_ENCODE_GZIP_H_
