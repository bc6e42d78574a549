// A binary min-heap of item ids whose positions live in the items themselves, so that an item whose key changed
// moves, and an item leaves, in O(log n): the completion heaps of the fluid and lmm engines.
// `Order` gives `bool before(std::uint32_t a, std::uint32_t b) const` (a strict order: a comes out first) and
// `std::uint32_t& pos(std::uint32_t id) const` (the item's index in the heap, IndexedHeap::kNoPos when not in it).
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace ompisim::engine {

template <class Order>
class IndexedHeap;

// Completion order over a vector of items that have `date`, `order` (when the date was set) and `heap_pos`: by date,
// then by when the date was set (the engines' completion heaps).
template <class Items>
struct ByDate {
  Items* items;
  bool before(std::uint32_t a, std::uint32_t b) const {
    const auto &x = (*items)[a], &y = (*items)[b];
    return x.date < y.date || (x.date == y.date && x.order < y.order);
  }
  std::uint32_t& pos(std::uint32_t id) const { return (*items)[id].heap_pos; }
};

template <class Order>
class IndexedHeap {
public:
  static constexpr std::uint32_t kNoPos = std::numeric_limits<std::uint32_t>::max();
  explicit IndexedHeap(Order order) : order_(order) {}
  bool empty() const { return items_.empty(); }
  std::uint32_t front() const { return items_.front(); }
  // Inserts `id`, or moves it after its key changed.
  void set(std::uint32_t id) {
    const std::uint32_t p = order_.pos(id);
    if (p == kNoPos) {
      items_.push_back(id);
      sift_up(items_.size() - 1);
      return;
    }
    sift_up(p);
    sift_down(order_.pos(id));
  }
  // Removes `id` (nothing when it is not in the heap).
  void erase(std::uint32_t id) {
    const std::uint32_t p = order_.pos(id);
    if (p == kNoPos) return;
    remove(id);
    if (p == items_.size()) return;  // it was the last item
    const std::uint32_t moved = items_[p];
    sift_up(p);
    sift_down(order_.pos(moved));
  }

  // Batch use, when most items get a new key at once: add (`append`) and remove (`remove`) items without ordering
  // them, change keys freely, then `rebuild()` orders the heap in O(n) (Floyd), which one set() per item would do in
  // O(n log n). Keys are a strict order, so the items come out in the same order either way. Between the first
  // append or remove and rebuild(), only append, remove and rebuild may be called.
  void append(std::uint32_t id) {
    if (order_.pos(id) != kNoPos) return;
    items_.push_back(id);
    order_.pos(id) = static_cast<std::uint32_t>(items_.size() - 1);
  }
  void remove(std::uint32_t id) {
    const std::uint32_t p = order_.pos(id);
    if (p == kNoPos) return;
    order_.pos(id) = kNoPos;
    const std::uint32_t last = items_.back();
    items_.pop_back();
    if (last != id) place(p, last);
  }
  void rebuild() {
    for (std::size_t i = items_.size() / 2; i-- > 0;) sift_down(i);
  }
  std::size_t size() const { return items_.size(); }

private:
  void place(std::size_t i, std::uint32_t id) {
    items_[i] = id;
    order_.pos(id) = static_cast<std::uint32_t>(i);
  }
  void sift_up(std::size_t i) {
    const std::uint32_t id = items_[i];
    while (i > 0) {
      const std::size_t p = (i - 1) / 2;
      if (!order_.before(id, items_[p])) break;
      place(i, items_[p]);
      i = p;
    }
    place(i, id);
  }
  void sift_down(std::size_t i) {
    const std::uint32_t id = items_[i];
    const std::size_t n = items_.size();
    for (;;) {
      std::size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && order_.before(items_[c + 1], items_[c])) ++c;
      if (!order_.before(items_[c], id)) break;
      place(i, items_[c]);
      i = c;
    }
    place(i, id);
  }
  Order order_;
  std::vector<std::uint32_t> items_;
};

}  // namespace ompisim::engine
