// A binary min-heap of item ids whose positions live in the items themselves, so that an item whose key changed
// moves, and an item leaves, in O(log n): the lmm engine's completion heap (KeyedHeap below is the fluid engine's).
// `Order` gives `bool before(std::uint32_t a, std::uint32_t b) const` (a strict order: a comes out first) and
// `std::uint32_t& pos(std::uint32_t id) const` (the item's index in the heap, IndexedHeap::kNoPos when not in it).
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace ompisim::engine {

template <class Order>
class IndexedHeap;

// What IndexedHeap and KeyedHeap share: erase() from their own remove(), sift_up(), sift_down(), size(), the order's
// pos() and the id at an index (id_at()).
template <class Heap>
class HeapErase {
public:
  // Removes `id` (nothing when it is not in the heap).
  void erase(std::uint32_t id) {
    Heap& h = static_cast<Heap&>(*this);
    const std::uint32_t p = h.order_.pos(id);
    if (p == Heap::kNoPos) return;
    h.remove(id);
    if (p == h.size()) return;  // it was the last item
    const std::uint32_t moved = h.id_at(p);
    h.sift_up(p);
    h.sift_down(h.order_.pos(moved));
  }
};

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

// The key of ByDate's order, for KeyedHeap: (date, order) compared as ByDate compares two items.
struct DateOrder {
  double date;
  std::uint64_t order;
  bool operator<(const DateOrder& o) const { return date < o.date || (date == o.date && order < o.order); }
};
template <class Items>
struct ByDateKey {
  Items* items;
  DateOrder key(std::uint32_t id) const {
    const auto& x = (*items)[id];
    return {x.date, x.order};
  }
  std::uint32_t& pos(std::uint32_t id) const { return (*items)[id].heap_pos; }
};

template <class Order>
class IndexedHeap : public HeapErase<IndexedHeap<Order>> {
  friend class HeapErase<IndexedHeap>;

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
  std::uint32_t id_at(std::size_t i) const { return items_[i]; }
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

// The same heap with each item's key stored beside its id in the heap's array, so that a comparison reads the array
// and not the items: `Order` gives `Key key(std::uint32_t id) const` (Key has a strict `operator<`) and `pos` as above.
// A key is copied in by set() and append() (after the item's key changed: append() of an item already in the heap
// takes its new key too) and read back by front_key(). The items come out in the order IndexedHeap gives for the
// same keys.
template <class Order>
class KeyedHeap : public HeapErase<KeyedHeap<Order>> {
  friend class HeapErase<KeyedHeap>;

public:
  using Key = decltype(std::declval<const Order&>().key(0u));
  static constexpr std::uint32_t kNoPos = std::numeric_limits<std::uint32_t>::max();
  explicit KeyedHeap(Order order) : order_(order) {}
  bool empty() const { return items_.empty(); }
  std::uint32_t front() const { return items_.front().id; }
  const Key& front_key() const { return items_.front().key; }
  // Inserts `id`, or moves it after its key changed.
  void set(std::uint32_t id) {
    const std::uint32_t p = order_.pos(id);
    const Key k = order_.key(id);
    if (p == kNoPos) {
      items_.push_back({k, id});
      sift_up(items_.size() - 1);
      return;
    }
    items_[p].key = k;
    sift_up(p);
    sift_down(order_.pos(id));
  }
  // Batch use (as IndexedHeap's): append and remove without ordering, then rebuild().
  void append(std::uint32_t id) {
    const std::uint32_t p = order_.pos(id);
    if (p != kNoPos) {
      items_[p].key = order_.key(id);
      return;
    }
    items_.push_back({order_.key(id), id});
    order_.pos(id) = static_cast<std::uint32_t>(items_.size() - 1);
  }
  void remove(std::uint32_t id) {
    const std::uint32_t p = order_.pos(id);
    if (p == kNoPos) return;
    order_.pos(id) = kNoPos;
    const Entry last = items_.back();
    items_.pop_back();
    if (last.id != id) place(p, last);
  }
  void rebuild() {
    for (std::size_t i = items_.size() / 2; i-- > 0;) sift_down(i);
  }
  std::size_t size() const { return items_.size(); }
  // The id at position i of the heap's array (0 <= i < size(): every item once, in no useful order).
  std::uint32_t id_at(std::size_t i) const { return items_[i].id; }

private:
  struct Entry {
    Key key;
    std::uint32_t id;
  };
  void place(std::size_t i, const Entry& e) {
    items_[i] = e;
    order_.pos(e.id) = static_cast<std::uint32_t>(i);
  }
  void sift_up(std::size_t i) {
    const Entry e = items_[i];
    while (i > 0) {
      const std::size_t p = (i - 1) / 2;
      if (!(e.key < items_[p].key)) break;
      place(i, items_[p]);
      i = p;
    }
    place(i, e);
  }
  void sift_down(std::size_t i) {
    const Entry e = items_[i];
    const std::size_t n = items_.size();
    for (;;) {
      std::size_t c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && items_[c + 1].key < items_[c].key) ++c;
      if (!(items_[c].key < e.key)) break;
      place(i, items_[c]);
      i = c;
    }
    place(i, e);
  }
  Order order_;
  std::vector<Entry> items_;
};

}  // namespace ompisim::engine
