// A linking provider's queue as a core provider sees it (fi_peer owner), for tests: no receive is ever posted, so
// every message is queued as unexpected; the test starts (start_tag) or discards (discard_tag) them itself.
#pragma once
#include "protocols/ofi/peer_api.hpp"

#include <memory>
#include <vector>

namespace ompisim::test {

struct UnexpectedOwner final : ofi::SrxOwner {
  using RxEntry = ofi::RxEntry;
  std::vector<std::unique_ptr<RxEntry>> live;  // entries handed out and not freed
  std::vector<RxEntry*> queued;                // in queue_tag order
  int get_tag(int rank, int peer, int addr, int tag, std::uint64_t size, RxEntry** entry) override {
    live.push_back(std::make_unique<RxEntry>());
    RxEntry* e = live.back().get();
    e->owner_rank = rank, e->peer = peer, e->addr = addr, e->tag = tag, e->size = e->msg_size = size;
    *entry = e;
    return ofi::kNoEntry;
  }
  int get_msg(int rank, int peer, int addr, std::uint64_t size, RxEntry** entry) override {
    return get_tag(rank, peer, addr, ofi::kAnyTag, size, entry);
  }
  int queue_tag(RxEntry* e) override {
    queued.push_back(e);
    return 0;
  }
  int queue_msg(RxEntry* e) override { return queue_tag(e); }
  void free_entry(RxEntry* e) override {
    std::erase_if(live, [e](const auto& p) { return p.get() == e; });
  }
};

}  // namespace ompisim::test
