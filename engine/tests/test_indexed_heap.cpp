#include "engine/indexed_heap.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <limits>
#include <random>
#include <utility>
#include <vector>

using namespace ompisim::engine;

namespace {
struct Item {
  double key = 0;
  std::uint32_t pos = std::numeric_limits<std::uint32_t>::max();  // IndexedHeap::kNoPos
};
struct ByKey {
  std::vector<Item>* items;
  bool before(std::uint32_t a, std::uint32_t b) const {
    const double x = (*items)[a].key, y = (*items)[b].key;
    return x < y || (x == y && a < b);
  }
  std::uint32_t& pos(std::uint32_t id) const { return (*items)[id].pos; }
};
// Pops every item: (key, id) in the order they come out.
std::vector<std::pair<double, std::uint32_t>> drain(IndexedHeap<ByKey>& h, std::vector<Item>& items) {
  std::vector<std::pair<double, std::uint32_t>> out;
  while (!h.empty()) {
    const std::uint32_t id = h.front();
    out.emplace_back(items[id].key, id);
    h.erase(id);
  }
  return out;
}
}  // namespace

// Configuration: 2,000 items with random keys drawn from 50 values (many ties), inserted with set(); then a batch
// gives 1,500 random items new keys (append: in the heap or not), removes 300 others (remove), and rebuild() orders
// the heap. Expected: the items come out by (key, id), exactly the order of a heap that got one set() or erase() per
// change, and every item's position is cleared when it leaves. How validated: the popped sequences compared exactly;
// it fails when rebuild() is left out (the appended items come out unordered).
TEST_CASE("indexed heap: a batch of appends and removes, then rebuild, pops in key order", "[unit][engine]") {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> key(0, 49), pick(0, 1999);
  std::vector<Item> a(2000), b(2000);
  IndexedHeap<ByKey> batched{ByKey{&a}}, one_by_one{ByKey{&b}};
  for (std::uint32_t i = 0; i < 2000; i += 2) {
    a[i].key = b[i].key = key(rng);
    batched.set(i);
    one_by_one.set(i);
  }
  for (int k = 0; k < 1500; ++k) {
    const auto id = static_cast<std::uint32_t>(pick(rng));
    a[id].key = b[id].key = key(rng);
    batched.append(id);
    one_by_one.set(id);
  }
  for (int k = 0; k < 300; ++k) {
    const auto id = static_cast<std::uint32_t>(pick(rng));
    batched.remove(id);
    one_by_one.erase(id);
  }
  batched.rebuild();
  REQUIRE(batched.size() == one_by_one.size());
  auto got = drain(batched, a), want = drain(one_by_one, b);
  CHECK(std::is_sorted(got.begin(), got.end()));
  CHECK(got == want);
  CHECK(std::all_of(a.begin(), a.end(), [](const Item& x) { return x.pos == IndexedHeap<ByKey>::kNoPos; }));
}

namespace {
struct ByKeyPair {
  std::vector<Item>* items;
  std::pair<double, std::uint32_t> key(std::uint32_t id) const { return {(*items)[id].key, id}; }
  std::uint32_t& pos(std::uint32_t id) const { return (*items)[id].pos; }
};
}  // namespace

// Configuration: the fluid engine's completion heap (KeyedHeap: each key copied into the heap's array) against
// IndexedHeap on the same 3,000 random steps over 1,000 items (keys from 40 values: many ties, broken by id): set()
// of an item in the heap or not, erase(), a pop of the front, and every 200 steps a batch of 100 appends (new keys,
// the item in the heap or not) and 30 removes closed by rebuild(); the fronts compared after every step, then both
// drained. Expected: the same front after every step and the same drained order. How validated: fails when append()
// leaves the stored key of an item already in the heap unchanged (the batches' new keys are then not seen), or when
// set() of an item in the heap does not copy its new key.
TEST_CASE("keyed heap: the same fronts and order as the indexed heap under sets, erases, pops and batches",
          "[unit][engine]") {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> key(0, 39), pick(0, 999), op(0, 9);
  std::vector<Item> a(1000), b(1000);
  KeyedHeap<ByKeyPair> keyed{ByKeyPair{&a}};
  IndexedHeap<ByKey> indexed{ByKey{&b}};
  std::size_t checked = 0;
  for (int step = 0; step < 3000; ++step) {
    if (step % 200 == 199) {
      for (int k = 0; k < 100; ++k) {
        const auto id = static_cast<std::uint32_t>(pick(rng));
        a[id].key = b[id].key = key(rng);
        keyed.append(id);
        indexed.append(id);
      }
      for (int k = 0; k < 30; ++k) {
        const auto id = static_cast<std::uint32_t>(pick(rng));
        keyed.remove(id);
        indexed.remove(id);
      }
      keyed.rebuild();
      indexed.rebuild();
    } else {
      const int o = op(rng);
      const auto id = static_cast<std::uint32_t>(pick(rng));
      if (o < 6) {
        a[id].key = b[id].key = key(rng);
        keyed.set(id);
        indexed.set(id);
      } else if (o < 8) {
        keyed.erase(id);
        indexed.erase(id);
      } else if (!indexed.empty()) {
        REQUIRE(!keyed.empty());
        keyed.erase(keyed.front());
        indexed.erase(indexed.front());
      }
    }
    REQUIRE(keyed.size() == indexed.size());
    if (!indexed.empty()) {
      REQUIRE(keyed.front() == indexed.front());
      REQUIRE(keyed.front_key().first == b[indexed.front()].key);
      ++checked;
    }
  }
  CHECK(checked > 2000);
  std::vector<std::uint32_t> got, want;
  while (!keyed.empty()) {
    got.push_back(keyed.front());
    keyed.erase(keyed.front());
  }
  while (!indexed.empty()) {
    want.push_back(indexed.front());
    indexed.erase(indexed.front());
  }
  CHECK(got == want);
  CHECK(std::all_of(a.begin(), a.end(), [](const Item& x) { return x.pos == KeyedHeap<ByKeyPair>::kNoPos; }));
}
