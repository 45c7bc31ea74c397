// Errors as values: a function that can fail for a reason the user should see
// returns Expected<T>; the caller decides whether and how to print it.
#ifndef STARK_CORE_EXPECTED_H
#define STARK_CORE_EXPECTED_H

#include <string>
#include <utility>
#include <variant>

namespace stark {

/// A failure a user can act on: one line, no "error:" prefix (the printer adds it).
struct Error {
  std::string message;
};

/// Either a T or an Error.
template <typename T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}
  Expected(Error error) : v_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& operator*() & { return std::get<0>(v_); }
  const T& operator*() const& { return std::get<0>(v_); }
  T&& operator*() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &std::get<0>(v_); }
  const T* operator->() const { return &std::get<0>(v_); }

  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

/// Success with no value, or an Error.
template <>
class [[nodiscard]] Expected<void> {
 public:
  Expected() = default;
  Expected(Error error) : error_(std::move(error)), ok_(false) {}

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { return error_; }

 private:
  Error error_;
  bool ok_ = true;
};

}  // namespace stark

#endif  // STARK_CORE_EXPECTED_H
