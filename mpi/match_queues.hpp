// MPI matching with ordering on one communicator (pml/ob1's posted and unexpected queues, mca_pml_ob1_comm_proc_t):
// per-source sequence numbers make matching follow the send order even when fragments arrive out of order; a receive
// takes the first unexpected message that matches (source or ANY_SOURCE, tag or ANY_TAG: ANY_TAG matches tags >= 0
// only, as ob1's wild receives do); an arriving message takes the first posted receive that matches. Per-source state
// is created on first contact. MatchEngine (match_engine.hpp) keeps one of these per communicator of a rank.
// As ob1 does (its comm_proc's specific_receives and unexpected_frags, and the communicator's wild_receives), posted
// receives are kept per source with the wild ones apart, and unexpected messages per source; each entry carries its
// post or arrival order, so "first" is the one a single queue in that order would give: an arrival compares the first
// match among its source's receives with the first wild one, and a wild receive the first match of every source's
// messages. A linear alltoall's arrival then looks at one receive, not at every receive the rank has posted. A
// source's list exists while it holds an entry.
#pragma once
#include "mpi/p2p.hpp"
#include "mpi/peer_seq.hpp"

#include <boost/container/small_vector.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

namespace ompisim::mpi {

template <class Recv, class Msg>  // Recv: .src .tag (may be wildcards); Msg: .src .tag
class MatchQueues {
public:
  struct Matched {
    Recv recv;
    Msg msg;
  };
  // What an arrival matched: almost always one pair (the arriving message), which stays inline (no allocation per
  // message); held successors it releases spill to the heap.
  using MatchedList = boost::container::small_vector<Matched, 1>;
  // A receive is posted: returns the unexpected message it matches, if any (the receive is then not queued).
  std::optional<Msg> post(const Recv& r) {
    // the earliest-arrived message that matches: in the source's list, or (wild) the earliest of every source's
    using UIt = typename List<Msg>::iterator;
    typename std::unordered_map<int, List<Msg>>::iterator best_list = unexpected_.end();
    UIt best{};
    auto first_in = [&](typename std::unordered_map<int, List<Msg>>::iterator l) {
      for (auto it = l->second.begin(); it != l->second.end(); ++it)
        if (matches(r.src, r.tag, it->item.src, it->item.tag)) {
          if (best_list == unexpected_.end() || it->order < best->order) best_list = l, best = it;
          return;
        }
    };
    if (r.src == kAnySource) {
      for (auto l = unexpected_.begin(); l != unexpected_.end(); ++l) first_in(l);
    } else if (auto l = unexpected_.find(r.src); l != unexpected_.end()) {
      first_in(l);
    }
    if (best_list != unexpected_.end()) {
      Msg m = best->item;
      best_list->second.erase(best);
      if (best_list->second.empty()) unexpected_.erase(best_list);
      --unexpected_count_;
      return m;
    }
    (r.src == kAnySource ? wild_ : specific_[r.src]).push_back({r, next_order_++});
    ++posted_count_;
    return std::nullopt;
  }
  // A message with per-source sequence `seq` arrives. Returns the (receive, message) pairs matched now, in order;
  // messages that match nothing go to the unexpected queue (and, when `went_unexpected` is given, are listed there:
  // the arriving one or held successors it released); early ones wait for their predecessors.
  MatchedList arrive(std::uint32_t seq, const Msg& m, std::vector<Msg>* went_unexpected = nullptr) {
    MatchedList out;
    std::uint32_t& expected = expected_seq_[m.src];
    if (seq != expected) {
      held_[m.src].emplace(seq, m);
      return out;
    }
    match_one(m, out, went_unexpected);
    ++expected;
    auto h = held_.find(m.src);
    while (h != held_.end() && !h->second.empty() && h->second.begin()->first == expected) {
      Msg next = h->second.begin()->second;
      h->second.erase(h->second.begin());
      match_one(next, out, went_unexpected);
      ++expected;
    }
    if (h != held_.end() && h->second.empty()) held_.erase(h);
    return out;
  }
  // Whether a message from `src` with sequence `seq` would arrive ahead of an earlier one (arrive would hold it).
  bool early(int src, std::uint32_t seq) { return seq != expected_seq_[src]; }
  std::size_t posted_size() const { return posted_count_; }
  std::size_t unexpected_size() const { return unexpected_count_; }
  std::size_t held_size() const {
    std::size_t n = 0;
    for (auto& [s, m] : held_) n += m.size();
    return n;
  }
  std::size_t peers_known() const { return expected_seq_.size(); }

private:
  // An entry of a queue and its place in the order of posts (receives) or arrivals (messages).
  template <class T>
  struct Entry {
    T item;
    std::uint64_t order;
  };
  // A queue in order; short in practice (one source's, or the wild receives), but a rank may post thousands of
  // receives from one source before the first arrives (a trace's irecvs, then waitall): taking the first entry, the
  // usual match, moves a head instead of the rest of the queue, so N matches cost N, not N^2 / 2 moves. The slots
  // before the head are given back once they are half the vector.
  template <class T>
  class List {
  public:
    using iterator = typename std::vector<Entry<T>>::iterator;
    iterator begin() { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
    iterator end() { return items_.end(); }
    bool empty() const { return head_ == items_.size(); }
    void push_back(Entry<T> e) { items_.push_back(std::move(e)); }
    void erase(iterator it) {
      if (it != begin()) {
        items_.erase(it);
        return;
      }
      if (++head_ == items_.size()) {
        items_.clear();
        head_ = 0;
      } else if (head_ >= 16 && 2 * head_ >= items_.size()) {
        items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
        head_ = 0;
      }
    }

  private:
    std::vector<Entry<T>> items_;
    std::size_t head_ = 0;
  };
  // The first entry of `l` that `ok` accepts, or l.end().
  template <class T, class F>
  static typename List<T>::iterator first(List<T>& l, F ok) {
    for (auto it = l.begin(); it != l.end(); ++it)
      if (ok(it->item)) return it;
    return l.end();
  }
  void match_one(const Msg& m, MatchedList& out, std::vector<Msg>* went_unexpected) {
    auto ok = [&m](const Recv& r) { return matches(r.src, r.tag, m.src, m.tag); };
    auto spec = specific_.find(m.src);
    auto s = spec != specific_.end() ? first(spec->second, ok) : typename List<Recv>::iterator{};
    const bool have_s = spec != specific_.end() && s != spec->second.end();
    auto w = first(wild_, ok);
    const bool have_w = w != wild_.end();
    if (have_s && (!have_w || s->order < w->order)) {
      out.push_back({s->item, m});
      spec->second.erase(s);
      if (spec->second.empty()) specific_.erase(spec);
      --posted_count_;
      return;
    }
    if (have_w) {
      out.push_back({w->item, m});
      wild_.erase(w);
      --posted_count_;
      return;
    }
    unexpected_[m.src].push_back({m, next_order_++});
    ++unexpected_count_;
    if (went_unexpected) went_unexpected->push_back(m);
  }
  std::unordered_map<int, List<Recv>> specific_;  // posted receives naming their source, by source
  List<Recv> wild_;                                // posted MPI_ANY_SOURCE receives
  std::unordered_map<int, List<Msg>> unexpected_;  // unexpected messages, by source
  std::uint64_t next_order_ = 0;                   // post and arrival stamps (one counter: only compared within a kind)
  std::size_t posted_count_ = 0, unexpected_count_ = 0;
  PeerSeq expected_seq_;
  std::unordered_map<int, std::map<std::uint32_t, Msg>> held_;
};

}  // namespace ompisim::mpi
