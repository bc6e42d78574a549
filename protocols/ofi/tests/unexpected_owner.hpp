// A linking provider's queue as a core provider sees it (fi_peer owner), for tests: no receive is ever posted, so
// every message is queued as unexpected; the test starts (start_tag) or discards (discard_tag) them itself.
// check_unexpected_started_or_discarded drives a core provider (cxi, shm) through it.
#pragma once
#include "core/errors.hpp"
#include "protocols/ofi/peer_api.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
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

// `provider` (a core provider on `sim`, ranks 0 and 1, nothing sent yet) bound as peer 0 of an UnexpectedOwner: a
// 1 KiB and a 64 KiB message from rank 0 to rank 1 are both queued as unexpected, and only the small one's send is
// complete; the owner then discards both (`discard`) or starts both on receives. Checks: both sends complete, the
// receives complete only when started, `discards_counter` counts the discarded ones, no message record or owner entry
// is left, and starting a freed message is a ProtocolError.
template <class Provider, class Sim>
void check_unexpected_started_or_discarded(Provider& provider, Sim& sim, bool discard,
                                           const std::string& discards_counter) {
  using ofi::CqEntry;
  UnexpectedOwner owner;
  std::size_t sends = 0, recvs = 0;
  ofi::CqOwnerOps ops;
  ops.write = [&](const CqEntry& e) { ++((e.flags & CqEntry::Recv) ? recvs : sends); };
  provider.bind_peer(&owner, 0, ops);
  provider.tsend(0, 1, 7, 1024, Buffer{}, 1);
  provider.tsend(0, 1, 8, 65536, Buffer{}, 2);
  sim.run();
  REQUIRE(owner.queued.size() == 2);
  CHECK(sends == 1);
  CHECK(provider.messages_in_flight() == 2);
  const std::vector<ofi::RxEntry*> q = owner.queued;
  const std::uint64_t first = q[0]->peer_context;
  for (ofi::RxEntry* e : q) {
    if (discard) {
      provider.discard_tag(e);
    } else {
      e->context = 100;
      provider.start_tag(e);
    }
  }
  sim.run();
  std::map<std::string, std::uint64_t> c;
  provider.add_counters(c);
  CHECK(sends == 2);
  CHECK(recvs == (discard ? 0u : 2u));
  CHECK(c[discards_counter] == (discard ? 2u : 0u));
  CHECK(provider.messages_in_flight() == 0);
  CHECK(owner.live.empty());
  ofi::RxEntry stale;
  stale.peer_context = first;
  CHECK_THROWS_AS(provider.start_tag(&stale), ProtocolError);
}

}  // namespace ompisim::test
