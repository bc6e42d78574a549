// The model's callback type (Callback in core/sim.hpp, mpi::Completion): a copyable `void()` function like
// std::function, with a larger inline buffer. libstdc++'s std::function keeps a callable inline only up to 16 bytes
// (two pointers), so a closure of (this, a request, a count) or one that holds another callback went to the heap: one
// allocation when it is made, a free when it is dropped, and a cache miss at the call on the heap block. Here a
// closure of up to 40 bytes (8-byte aligned) that moves without throwing lives in the object itself (48 bytes: the
// buffer and a pointer to the type's call, move, copy and destroy); a larger one is held on the heap as std::function
// does. In the event queue's slots, a closure
// stored inline is on the line the queue prefetches for the next event.
// Semantics are std::function<void()>'s for what the project uses: empty by default and from nullptr, from an empty
// std::function or a null function pointer; operator bool; calling an empty one throws std::bad_function_call; a
// callable invoked through a const object may change its own state (mutable lambdas).
#pragma once
#include <cstddef>
#include <functional>
#include <new>
#include <type_traits>
#include <utility>

namespace ompisim {

class Callback {
public:
  static constexpr std::size_t kInline = 40;  // bytes of closure kept inside the object

  Callback() noexcept = default;
  Callback(std::nullptr_t) noexcept {}
  template <class F, class D = std::decay_t<F>,
            class = std::enable_if_t<!std::is_same_v<D, Callback> && std::is_invocable_r_v<void, D&>>>
  Callback(F&& f) {  // NOLINT: implicit, as std::function's
    if (is_null(f)) return;
    if constexpr (fits_inline<D>()) {
      ::new (static_cast<void*>(buf_)) D(std::forward<F>(f));
      ops_ = &kInlineOps<D>;
    } else {
      ::new (static_cast<void*>(buf_)) D*(new D(std::forward<F>(f)));
      ops_ = &kHeapOps<D>;
    }
  }
  Callback(const Callback& o) : ops_(o.ops_) {
    if (ops_) ops_->copy(buf_, o.buf_);
  }
  Callback(Callback&& o) noexcept : ops_(o.ops_) {
    if (ops_) {
      ops_->move(buf_, o.buf_);
      o.ops_ = nullptr;
    }
  }
  Callback& operator=(const Callback& o) {
    if (this != &o) *this = Callback(o);
    return *this;
  }
  Callback& operator=(Callback&& o) noexcept {
    if (this != &o) {
      reset();
      if (o.ops_) {
        o.ops_->move(buf_, o.buf_);
        ops_ = std::exchange(o.ops_, nullptr);
      }
    }
    return *this;
  }
  Callback& operator=(std::nullptr_t) noexcept {
    reset();
    return *this;
  }
  template <class F, class D = std::decay_t<F>,
            class = std::enable_if_t<!std::is_same_v<D, Callback> && std::is_invocable_r_v<void, D&>>>
  Callback& operator=(F&& f) {
    return *this = Callback(std::forward<F>(f));
  }
  ~Callback() { reset(); }

  explicit operator bool() const noexcept { return ops_ != nullptr; }
  friend bool operator==(const Callback& c, std::nullptr_t) noexcept { return !c; }
  void operator()() const {
    if (!ops_) throw std::bad_function_call();
    ops_->call(const_cast<unsigned char*>(buf_));
  }
  // Whether a callable of type F is kept inline (for tests).
  template <class F>
  static constexpr bool stored_inline() {
    return fits_inline<std::decay_t<F>>();
  }

private:
  struct Ops {
    void (*call)(void* p);
    void (*move)(void* dst, void* src) noexcept;  // move-constructs dst from src and destroys src
    void (*copy)(void* dst, const void* src);
    void (*destroy)(void* p) noexcept;
  };
  template <class D>
  static constexpr bool fits_inline() {
    return sizeof(D) <= kInline && alignof(D) <= alignof(void*) && std::is_nothrow_move_constructible_v<D>;
  }
  template <class F>
  static bool is_null(const F& f) {
    if constexpr (std::is_pointer_v<F> || std::is_member_pointer_v<F>) return f == nullptr;
    else if constexpr (std::is_same_v<F, std::function<void()>>) return !f;
    else return false;
  }
  template <class D>
  static void call_inline(void* p) {
    (*static_cast<D*>(p))();
  }
  template <class D>
  static void call_heap(void* p) {
    (**static_cast<D**>(p))();
  }
  template <class D>
  static constexpr Ops kInlineOps{
      &call_inline<D>,
      [](void* dst, void* src) noexcept {
        D* s = static_cast<D*>(src);
        ::new (dst) D(std::move(*s));
        s->~D();
      },
      [](void* dst, const void* src) { ::new (dst) D(*static_cast<const D*>(src)); },
      [](void* p) noexcept { static_cast<D*>(p)->~D(); }};
  template <class D>
  static constexpr Ops kHeapOps{
      &call_heap<D>,
      [](void* dst, void* src) noexcept { ::new (dst) D*(*static_cast<D**>(src)); },
      [](void* dst, const void* src) { ::new (dst) D*(new D(**static_cast<D* const*>(src))); },
      [](void* p) noexcept { delete *static_cast<D**>(p); }};
  void reset() noexcept {
    if (ops_) ops_->destroy(buf_);
    ops_ = nullptr;
  }

  alignas(void*) unsigned char buf_[kInline];
  const Ops* ops_ = nullptr;
};

}  // namespace ompisim
