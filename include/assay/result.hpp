// assay/result.hpp — basic_result<T, E>: a value or an error, the return type of every fallible
// operation (assay::result<T> and assay::results<T> in assay/error.hpp fix E).
//
//   result<int> r = parse(...);
//   if (!r) return r.error();      // an E, by value (E{} when there is a value)
//   use(*r);                        // unchecked; r.value() throws on an error, r->member
//
// The interface is that of Boost.System's result (has_value, has_error, operator bool, value,
// operator*, operator->, error, emplace, ==), so code reads the same, without the cost of
// compiling Boost.System and Variant2 in every translation unit. value() on an error calls
// throw_exception_from_error(e), found by argument-dependent lookup in the namespace of E.
// basic_result<void, E> holds only the error or nothing.
#pragma once

#include <memory>
#include <type_traits>
#include <utility>

namespace assay {

template <class T, class E>
class basic_result {
  static_assert(!std::is_reference_v<T> && !std::is_void_v<E>);

 public:
  using value_type = T;
  using error_type = E;

  basic_result() noexcept(std::is_nothrow_default_constructible_v<T>) requires std::is_default_constructible_v<T>
      : value_(), ok_(true) {}

  // Implicit from what converts to exactly one of T and E; explicit from arguments of either.
  template <class A = T>
  requires(std::is_convertible_v<A, T> && !std::is_constructible_v<E, A>) basic_result(A&& a)
      : value_(std::forward<A>(a)), ok_(true) {}  // NOLINT: implicit on purpose
  template <class A = E>
  requires(std::is_convertible_v<A, E> && !std::is_constructible_v<T, A>) basic_result(A&& a)
      : error_(std::forward<A>(a)), ok_(false) {}  // NOLINT: implicit on purpose
  template <class... A>
  requires(sizeof...(A) >= 1 && std::is_constructible_v<T, A...> &&
           !std::is_constructible_v<E, A...>) explicit basic_result(A&&... a)
      : value_(std::forward<A>(a)...), ok_(true) {}
  template <class... A>
  requires(sizeof...(A) >= 1 && !std::is_constructible_v<T, A...> &&
           std::is_constructible_v<E, A...>) explicit basic_result(A&&... a)
      : error_(std::forward<A>(a)...), ok_(false) {}

  basic_result(const basic_result& o) requires(std::is_copy_constructible_v<T>&& std::is_copy_constructible_v<E>)
      : ok_(o.ok_) {
    if (ok_)
      std::construct_at(&value_, o.value_);
    else
      std::construct_at(&error_, o.error_);
  }
  basic_result(basic_result&& o) noexcept(
      std::is_nothrow_move_constructible_v<T>&& std::is_nothrow_move_constructible_v<
          E>) requires(std::is_move_constructible_v<T>&& std::is_move_constructible_v<E>)
      : ok_(o.ok_) {
    if (ok_)
      std::construct_at(&value_, std::move(o.value_));
    else
      std::construct_at(&error_, std::move(o.error_));
  }
  basic_result& operator=(const basic_result& o) requires(
      std::is_copy_constructible_v<T>&& std::is_copy_constructible_v<E>) {
    if (this != &o)
      assign(o);
    return *this;
  }
  basic_result& operator=(basic_result&& o) noexcept(
      std::is_nothrow_move_constructible_v<T>&& std::is_nothrow_move_constructible_v<
          E>) requires(std::is_move_constructible_v<T>&& std::is_move_constructible_v<E>) {
    if (this != &o)
      assign(std::move(o));
    return *this;
  }
  ~basic_result() { destroy(); }

  bool has_value() const noexcept { return ok_; }
  bool has_error() const noexcept { return !ok_; }
  explicit operator bool() const noexcept { return ok_; }

  T& value() & {
    if (!ok_)
      throw_exception_from_error(error_);
    return value_;
  }
  const T& value() const& {
    if (!ok_)
      throw_exception_from_error(error_);
    return value_;
  }
  T value() && { return std::move(value()); }

  T* operator->() noexcept { return ok_ ? &value_ : nullptr; }
  const T* operator->() const noexcept { return ok_ ? &value_ : nullptr; }
  T& operator*() & noexcept { return value_; }
  const T& operator*() const& noexcept { return value_; }
  T operator*() && { return std::move(value_); }

  E error() const& { return ok_ ? E() : error_; }
  E error() && { return ok_ ? E() : std::move(error_); }

  template <class... A>
  T& emplace(A&&... a) {
    if constexpr (std::is_nothrow_constructible_v<T, A...>) {
      destroy();
      std::construct_at(&value_, std::forward<A>(a)...);
    } else {  // build first: a throwing constructor leaves *this as it was
      T v(std::forward<A>(a)...);
      destroy();
      std::construct_at(&value_, std::move(v));
    }
    ok_ = true;
    return value_;
  }

  friend bool operator==(const basic_result& x, const basic_result& y) {
    if (x.ok_ != y.ok_)
      return false;
    return x.ok_ ? bool(x.value_ == y.value_) : bool(x.error_ == y.error_);
  }

 private:
  void destroy() noexcept {
    if (ok_)
      std::destroy_at(&value_);
    else
      std::destroy_at(&error_);
  }
  template <class R>
  void assign(R&& o) {
    if (ok_ && o.ok_) {
      value_ = std::forward<R>(o).value_;
    } else if (!ok_ && !o.ok_) {
      error_ = std::forward<R>(o).error_;
    } else if (o.ok_) {
      destroy();
      std::construct_at(&value_, std::forward<R>(o).value_);
      ok_ = true;
    } else {
      destroy();
      std::construct_at(&error_, std::forward<R>(o).error_);
      ok_ = false;
    }
  }

  union {
    T value_;
    E error_;
  };
  bool ok_;
};

template <class E>
class basic_result<void, E> {
 public:
  using value_type = void;
  using error_type = E;

  basic_result() noexcept : ok_(true) {}
  template <class A = E>
  requires std::is_convertible_v<A, E> basic_result(A&& a)
      : error_(std::forward<A>(a)), ok_(false) {}  // NOLINT: implicit on purpose
  template <class... A>
  requires(sizeof...(A) >= 1 && std::is_constructible_v<E, A...>) explicit basic_result(A&&... a)
      : error_(std::forward<A>(a)...), ok_(false) {}

  basic_result(const basic_result& o) : ok_(o.ok_) {
    if (!ok_)
      std::construct_at(&error_, o.error_);
  }
  basic_result(basic_result&& o) noexcept(std::is_nothrow_move_constructible_v<E>) : ok_(o.ok_) {
    if (!ok_)
      std::construct_at(&error_, std::move(o.error_));
  }
  basic_result& operator=(const basic_result& o) {
    if (this != &o)
      assign(o);
    return *this;
  }
  basic_result& operator=(basic_result&& o) noexcept(std::is_nothrow_move_constructible_v<E>) {
    if (this != &o)
      assign(std::move(o));
    return *this;
  }
  ~basic_result() {
    if (!ok_)
      std::destroy_at(&error_);
  }

  bool has_value() const noexcept { return ok_; }
  bool has_error() const noexcept { return !ok_; }
  explicit operator bool() const noexcept { return ok_; }
  void value() const {
    if (!ok_)
      throw_exception_from_error(error_);
  }
  void operator*() const noexcept {}

  E error() const& { return ok_ ? E() : error_; }
  E error() && { return ok_ ? E() : std::move(error_); }

  void emplace() noexcept {
    if (!ok_)
      std::destroy_at(&error_);
    ok_ = true;
  }

  friend bool operator==(const basic_result& x, const basic_result& y) {
    return x.ok_ == y.ok_ && (x.ok_ || bool(x.error_ == y.error_));
  }

 private:
  template <class R>
  void assign(R&& o) {
    if (!ok_ && !o.ok_) {
      error_ = std::forward<R>(o).error_;
      return;
    }
    if (!ok_)
      std::destroy_at(&error_);
    else if (!o.ok_)
      std::construct_at(&error_, std::forward<R>(o).error_);
    ok_ = o.ok_;
  }

  union {
    E error_;
  };
  bool ok_;
};

}  // namespace assay
