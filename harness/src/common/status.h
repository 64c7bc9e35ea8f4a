// Status and StatusOr: how benchprof code reports a failure with a message.
//
// A failed Status carries one line of text that names the input and the
// problem ("--benchmark_repetitions=abc: expected an integer"); callers add
// context by prefixing, and tools print it as is. Thread-compatible.
#ifndef BENCHPROF_COMMON_STATUS_H_
#define BENCHPROF_COMMON_STATUS_H_

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace benchprof {

class [[nodiscard]] Status {
 public:
  // Success.
  Status() = default;

  // A failure with the given one-line message.
  static Status Error(std::string message) { return Status(std::move(message), false); }

  bool ok() const { return ok_; }

  // The failure's message; empty on success.
  const std::string& message() const { return message_; }

  // The same failure with `context + ": "` in front of its message.
  Status WithContext(const std::string& context) const {
    return ok_ ? *this : Error(context + ": " + message_);
  }

 private:
  Status(std::string message, bool ok) : message_(std::move(message)), ok_(ok) {}

  std::string message_;
  bool ok_ = true;
};

// A value or the Status explaining why there is none.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : storage_(std::move(value)) {}        // NOLINT: implicit by design
  StatusOr(Status status) : storage_(std::move(status)) {  // NOLINT
    assert(!std::get<Status>(storage_).ok() && "StatusOr needs a value or an error");
  }

  bool ok() const { return std::holds_alternative<T>(storage_); }

  // The error; a success Status when there is a value.
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(storage_);
  }

  // REQUIRES: ok().
  T& value() & { return std::get<T>(storage_); }
  const T& value() const& { return std::get<T>(storage_); }
  T&& value() && { return std::get<T>(std::move(storage_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> storage_;
};

}  // namespace benchprof

#endif  // BENCHPROF_COMMON_STATUS_H_
