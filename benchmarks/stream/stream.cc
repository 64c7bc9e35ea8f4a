#include "stream/stream.h"

#include <array>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "stream/byte_reader.h"

namespace benchprof::stream {
namespace {

// A concrete, non-virtual reader that stays on the stack (Go's bytes.Reader
// in algTwo): the compiler sees through it, so reading a byte is a load and a
// compare.
class ByteReader {
 public:
  explicit ByteReader(std::string_view data)
      : next_(data.data()), end_(data.data() + data.size()) {}

  // Stores the next byte in `b` and returns true, or returns false at the end.
  bool ReadByte(char& b) {
    if (next_ == end_) return false;
    b = *next_++;
    return true;
  }

 private:
  const char* next_;
  const char* end_;
};

// Copies `n` bytes. The pieces algTwo writes are short (a prefix of `find` or
// `repl`), so sizes up to 16 use fixed-size, possibly overlapping moves that
// compile to a few instructions instead of a call to memcpy.
void CopyShort(char* dst, const char* src, size_t n) {
  if (n == 0) return;
  if (n < 4) {
    dst[0] = src[0];
    dst[n / 2] = src[n / 2];
    dst[n - 1] = src[n - 1];
  } else if (n < 8) {
    std::memcpy(dst, src, 4);
    std::memcpy(dst + n - 4, src + n - 4, 4);
  } else if (n <= 16) {
    std::memcpy(dst, src, 8);
    std::memcpy(dst + n - 8, src + n - 8, 8);
  } else {
    std::memcpy(dst, src, n);
  }
}

// Appends `n` bytes to `output`. Kept out of line so that ChunkWriter's methods
// stay small enough to be inlined into algTwo's loop. If one were not, the
// writer would escape and its cursor would live in memory, turning every Put
// into a store-to-load round trip (measured: about 1.5x slower).
[[gnu::noinline]] void AppendOutOfLine(std::string& output, const char* data, size_t n) {
  output.append(data, n);
}

// Collects output bytes in a caller-provided stack buffer and appends them to
// the string in chunks, so the per-byte cost is a store rather than a
// std::string::push_back (capacity check plus terminator). Memory stays
// bounded, so the algorithm is still streaming. The buffer is a separate
// object so that the cursor, which never escapes, can live in a register.
class ChunkWriter {
 public:
  ChunkWriter(std::string& output, std::span<char> buffer)
      : output_(output),
        begin_(buffer.data()),
        cur_(buffer.data()),
        end_(buffer.data() + buffer.size()) {}
  ChunkWriter(const ChunkWriter&) = delete;
  ChunkWriter& operator=(const ChunkWriter&) = delete;

  void Put(char b) {
    if (cur_ == end_) Flush();
    *cur_++ = b;
  }

  void Write(std::string_view s) {
    if (s.size() > static_cast<size_t>(end_ - cur_)) {
      Flush();
      if (s.size() > static_cast<size_t>(end_ - begin_)) {
        AppendOutOfLine(output_, s.data(), s.size());
        return;
      }
    }
    CopyShort(cur_, s.data(), s.size());
    cur_ += s.size();
  }

  // Writes out what is buffered. Must be called at the end of the stream.
  void Flush() {
    AppendOutOfLine(output_, begin_, static_cast<size_t>(cur_ - begin_));
    cur_ = begin_;
  }

 private:
  std::string& output_;
  char* const begin_;
  char* cur_;
  char* const end_;
};

// Mismatch handling for algTwo. The pending (unwritten) bytes are
// find[0..idx) followed by `b`, and b != find[idx]. Finds the longest s <= idx
// such that the pending bytes end with find[0..s), emits the pending bytes
// before that suffix and returns s, the new matched-prefix length. Without a
// failure table this is O(idx^2) per mismatch, which is fine for short
// patterns and needs no memory.
size_t FallBack(std::string_view find, size_t idx, char b, ChunkWriter& out) {
  for (size_t s = idx; s >= 1; --s) {
    // Suffix of length s = find[idx+1-s..idx) + b must equal find[0..s).
    if (b == find[s - 1] && find.substr(idx + 1 - s, s - 1) == find.substr(0, s - 1)) {
      out.Write(find.substr(0, idx + 1 - s));
      return s;
    }
  }
  out.Write(find.substr(0, idx));
  out.Put(b);
  return 0;
}

constexpr StreamCase kDataTable[] = {
    {"abc", "abc"},
    {"elvis", "Elvis"},
    {"aElvis", "aElvis"},
    {"abcelvis", "abcElvis"},
    {"eelvis", "eElvis"},
    {"aelvis", "aElvis"},
    {"aabeeeelvis", "aabeeeElvis"},
    {"e l v i s", "e l v i s"},
    {"aa bb e l v i saa", "aa bb e l v i saa"},
    {" elvi s", " elvi s"},
    {"elvielvis", "elviElvis"},
    {"elvielvielviselvi1", "elvielviElviselvi1"},
    {"elvielviselvis", "elviElvisElvis"},
};

}  // namespace

void algOne(std::string_view data, std::string_view find, std::string_view repl,
            std::string& output) {
  const size_t size = find.size();
  if (size == 0) {
    output.append(data);
    return;
  }

  // Both allocations are the point of this algorithm: the reader is used
  // through its interface and the window's size is only known at run time.
  std::unique_ptr<Reader> input = NewBufferReader(data);
  std::unique_ptr<char[]> window(new char[size]);
  char* buf = window.get();
  const size_t end = size - 1;

  // Prime the window with all but its last byte.
  size_t n = ReadFull(*input, buf, end);
  if (n < end) {
    output.append(buf, n);
    return;
  }

  for (;;) {
    if (ReadFull(*input, buf + end, 1) == 0) {
      output.append(buf, end);
      return;
    }

    if (std::memcmp(buf, find.data(), size) == 0) {
      output.append(repl);
      n = ReadFull(*input, buf, end);
      if (n < end) {
        output.append(buf, n);
        return;
      }
      continue;
    }

    // Only one byte leaves the window, so a match starting inside it is
    // still found: overlapping prefixes need no special care.
    output.push_back(buf[0]);
    std::memmove(buf, buf + 1, end);
  }
}

void algTwo(std::string_view data, std::string_view find, std::string_view repl,
            std::string& output) {
  const size_t size = find.size();
  if (size == 0) {
    output.append(data);
    return;
  }

  ByteReader input(data);
  std::array<char, 256> chunk;
  ChunkWriter out(output, chunk);
  const char first = find[0];
  char b;
  for (;;) {
    // Nothing matched: copy plain bytes until one could start a match.
    for (;;) {
      if (!input.ReadByte(b)) {
        out.Flush();
        return;
      }
      if (b == first) break;
      out.Put(b);
    }
    // find[0..idx) has matched and is not yet written.
    size_t idx = 1;
    while (idx != 0 && idx != size) {
      if (!input.ReadByte(b)) {
        out.Write(find.substr(0, idx));
        out.Flush();
        return;
      }
      if (b == find[idx]) {
        ++idx;
      } else {
        idx = FallBack(find, idx, b, out);
      }
    }
    if (idx == size) out.Write(repl);
  }
}

std::span<const StreamCase> DataTable() { return kDataTable; }

std::string AssembleInputStream() {
  std::string s;
  for (const StreamCase& c : kDataTable) s.append(c.input);
  return s;
}

std::string AssembleOutputStream() {
  std::string s;
  for (const StreamCase& c : kDataTable) s.append(c.output);
  return s;
}

}  // namespace benchprof::stream
