// Elan4 events (the paper's §4.3, Fig. 5): an event has a count; each completion it is attached to decrements it, and
// when the count reaches exactly zero the event fires: it starts the operations chained to it (a QDMA, a DMA: "chained
// events", no host involved), sets its host event word, and may interrupt a process blocked on it. A fired event
// does nothing more until the host re-arms it by writing a new count -- a plain store, not an atomic operation against
// the NIC's decrements: that is the race of Fig. 5(c, d) (a completion that lands between the fire and the re-arm
// drives the count below zero, and the re-arm then erases it: that completion is never seen).
// Plain C++, no time: models/qsnet/elan4.cpp runs the chained operations at NIC time.
#pragma once
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace ompisim::qsnet {

class ElanEvent {
public:
  explicit ElanEvent(int count = 1) : count_(count) {}
  // A completion reaches the event. Returns true when this one fired it (count reached exactly zero): the caller
  // (the NIC) then runs take_chain() and sets the host word.
  bool complete() {
    --count_;
    if (count_ != 0) return false;
    ++fired_;
    host_word_ = true;
    return true;
  }
  // Operations started when the event fires, in order (each at most once per fire).
  void chain(std::function<void()> op) { chain_.push_back(std::move(op)); }
  std::vector<std::function<void()>> take_chain() { return std::exchange(chain_, {}); }
  std::vector<std::function<void()>>& chained() { return chain_; }
  // The host re-arms: a plain store of the count and a clear of the host word (not atomic with complete()).
  void rearm(int count) {
    count_ = count;
    host_word_ = false;
  }
  int count() const { return count_; }
  bool host_word() const { return host_word_; }  // what a polling host reads
  std::uint64_t fired() const { return fired_; }

private:
  int count_;
  bool host_word_ = false;
  std::uint64_t fired_ = 0;
  std::vector<std::function<void()>> chain_;
};

}  // namespace ompisim::qsnet
