#include "core/callback.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <memory>
#include <vector>

using namespace ompisim;

namespace {
// Counts live copies of a capture, so a test can see every construction and destruction.
struct Tracked {
  std::shared_ptr<int> live;
  explicit Tracked(std::shared_ptr<int> l) : live(std::move(l)) { ++*live; }
  Tracked(const Tracked& o) : live(o.live) { ++*live; }
  Tracked(Tracked&& o) noexcept : live(o.live) { ++*live; }
  ~Tracked() { --*live; }
};
}  // namespace

// Configuration: closures below and above the inline buffer (40 bytes), moved, copied, reset, called through a
// const object. Expected: each call runs the closure's own state (a mutable lambda's count keeps going in the object
// that ran it, a copy has its own), every capture constructed is destroyed once (no leak, no double free, inline or on
// the heap), empty callbacks from nullptr and an empty std::function throw std::bad_function_call when called.
// How validated: counts of calls and of live captures.
TEST_CASE("callback: inline and heap closures keep std::function's semantics", "[unit][callback]") {
  static_assert(sizeof(Callback) == 48);
  auto live = std::make_shared<int>(0);
  {
    int calls = 0;
    Tracked t(live);
    auto small = [&calls, t] { ++calls; };
    std::array<char, 64> pad{};
    auto big = [&calls, t, pad] { calls += 1 + pad[0]; };
    STATIC_REQUIRE(Callback::stored_inline<decltype(small)>());
    STATIC_REQUIRE(!Callback::stored_inline<decltype(big)>());
    for (int variant = 0; variant < 2; ++variant) {
      calls = 0;
      Callback a = variant == 0 ? Callback(small) : Callback(big);
      CHECK(*live == 2);  // t and a's capture
      const Callback& ca = a;
      ca();
      Callback b = a;  // a copy has its own capture
      CHECK(*live == 3);
      Callback c = std::move(a);
      CHECK_FALSE(a);
      CHECK(*live == 3);
      b();
      c();
      CHECK(calls == 3);
      std::vector<Callback> v;
      for (int i = 0; i < 50; ++i) v.push_back(c);  // reallocation moves them
      CHECK(*live == 53);
      for (auto& x : v) x();
      CHECK(calls == 53);
      v.clear();
      b = nullptr;
      CHECK_FALSE(b);
      CHECK(*live == 2);
      c = std::move(c);  // self-move keeps it
      c();
      CHECK(calls == 54);
    }
    CHECK(*live == 1);
  }
  CHECK(*live == 0);

  int n = 0, out = 0;
  const Callback m = [n, &out]() mutable { out = ++n; };  // a mutable closure keeps its count in the callback
  for (int i = 0; i < 3; ++i) m();
  CHECK(out == 3);
  Callback m2 = m;
  m2();
  CHECK(out == 4);
  m();  // the original's count is its own
  CHECK(out == 4);
  m2();
  CHECK(out == 5);

  CHECK_THROWS_AS(Callback()(), std::bad_function_call);
  CHECK_THROWS_AS(Callback(nullptr)(), std::bad_function_call);
  CHECK_FALSE(Callback(std::function<void()>{}));
  void (*fp)() = nullptr;
  CHECK_FALSE(Callback(fp));
  CHECK(Callback() == nullptr);
  int via = 0;
  std::function<void()> f = Callback([&via] { ++via; });  // back into std::function
  f();
  Callback g = std::function<void()>([&via] { via += 10; });
  g();
  CHECK(via == 11);
}
