// MPI matching with ordering on one communicator (pml/ob1's posted and unexpected queues, mca_pml_ob1_comm_proc_t):
// per-source sequence numbers make matching follow the send order even when fragments arrive out of order; a receive
// takes the first unexpected message that matches (source or ANY_SOURCE, tag or ANY_TAG: ANY_TAG matches tags >= 0
// only, as ob1's wild receives do); an arriving message takes the first posted receive that matches. Per-source state
// is created on first contact. MatchEngine (match_engine.hpp) keeps one of these per communicator of a rank.
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
    for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it)
      if (matches(r.src, r.tag, it->src, it->tag)) {
        Msg m = *it;
        unexpected_.erase(it);
        return m;
      }
    posted_.push_back(r);
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
  std::size_t posted_size() const { return posted_.size(); }
  std::size_t unexpected_size() const { return unexpected_.size(); }
  std::size_t held_size() const {
    std::size_t n = 0;
    for (auto& [s, m] : held_) n += m.size();
    return n;
  }
  std::size_t peers_known() const { return expected_seq_.size(); }

private:
  void match_one(const Msg& m, MatchedList& out, std::vector<Msg>* went_unexpected) {
    for (auto it = posted_.begin(); it != posted_.end(); ++it)
      if (matches(it->src, it->tag, m.src, m.tag)) {
        out.push_back({*it, m});
        posted_.erase(it);
        return;
      }
    unexpected_.push_back(m);
    if (went_unexpected) went_unexpected->push_back(m);
  }
  std::vector<Recv> posted_;
  std::vector<Msg> unexpected_;
  PeerSeq expected_seq_;
  std::unordered_map<int, std::map<std::uint32_t, Msg>> held_;
};

}  // namespace ompisim::mpi
