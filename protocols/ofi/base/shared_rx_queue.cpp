#include "protocols/ofi/base/shared_rx_queue.hpp"

#include "core/errors.hpp"

namespace ompisim::ofi {

int SharedRxQueue::add_peer(SrxPeer* p) {
  peers_.push_back(p);
  return static_cast<int>(peers_.size()) - 1;
}

RxEntry* SharedRxQueue::alloc(int rank, int addr, int tag, bool tagged, std::uint64_t size) {
  auto e = std::make_unique<RxEntry>();
  e->id = next_++;
  e->owner_rank = rank;
  e->addr = addr;
  e->tag = tagged ? tag : kAnyTag;
  e->tagged = tagged;
  e->size = size;
  RxEntry* raw = e.get();
  entries_.emplace(raw->id, std::move(e));
  return raw;
}

bool SharedRxQueue::post(int rank, int src, int tag, bool tagged, std::uint64_t size, Buffer buf, std::uint64_t ctx) {
  Queues& q = queues(rank);
  auto& unexp = tagged ? q.unexpected_tag : q.unexpected_msg;
  for (auto it = unexp.begin(); it != unexp.end(); ++it) {
    RxEntry* e = *it;
    if (!rx_matches(src, tagged ? tag : kAnyTag, e->addr, e->tag)) continue;
    unexp.erase(it);
    // The entry now describes the receive too; the provider that queued it moves the data.
    e->buf = buf;
    e->context = ctx;
    e->size = size;  // the receive's length; msg_size keeps the message's
    ++matched_unexpected;
    if (e->peer < 0 || e->peer >= static_cast<int>(peers_.size()))
      throw ProtocolError("linkx srx", "unexpected entry without a provider", "post");
    SrxPeer* p = peers_[static_cast<std::size_t>(e->peer)];
    if (tagged) p->start_tag(e);
    else p->start_msg(e);
    return true;
  }
  RxEntry* e = alloc(rank, src, tag, tagged, size);
  e->buf = buf;
  e->context = ctx;
  (tagged ? q.posted_tag : q.posted_msg).push_back(e);
  return false;
}

bool SharedRxQueue::post_tag(int rank, int src, int tag, std::uint64_t size, Buffer buf, std::uint64_t context) {
  return post(rank, src, tag, true, size, buf, context);
}
bool SharedRxQueue::post_msg(int rank, int src, std::uint64_t size, Buffer buf, std::uint64_t context) {
  return post(rank, src, kAnyTag, false, size, buf, context);
}

int SharedRxQueue::get(int rank, int peer, int addr, int tag, bool tagged, std::uint64_t size, RxEntry** entry) {
  Queues& q = queues(rank);
  auto& posted = tagged ? q.posted_tag : q.posted_msg;
  for (auto it = posted.begin(); it != posted.end(); ++it) {
    RxEntry* e = *it;
    if (!rx_matches(e->addr, e->tag, addr, tagged ? tag : kAnyTag)) continue;
    posted.erase(it);  // taken: no other provider can get it (the ANY_SOURCE race is decided here)
    ++matched_expected;
    *entry = e;
    return 0;
  }
  RxEntry* e = alloc(rank, addr, tag, tagged, size);
  e->msg_size = size;
  e->peer = peer;
  *entry = e;
  return kNoEntry;
}

int SharedRxQueue::get_tag(int rank, int peer, int addr, int tag, std::uint64_t size, RxEntry** entry) {
  return get(rank, peer, addr, tag, true, size, entry);
}
int SharedRxQueue::get_msg(int rank, int peer, int addr, std::uint64_t size, RxEntry** entry) {
  return get(rank, peer, addr, kAnyTag, false, size, entry);
}

int SharedRxQueue::queue_tag(RxEntry* e) {
  if (!entries_.count(e->id) || e->peer < 0) throw ProtocolError("linkx srx", "not a new unexpected entry", "queue_tag");
  queues(e->owner_rank).unexpected_tag.push_back(e);
  return 0;
}
int SharedRxQueue::queue_msg(RxEntry* e) {
  if (!entries_.count(e->id) || e->peer < 0) throw ProtocolError("linkx srx", "not a new unexpected entry", "queue_msg");
  queues(e->owner_rank).unexpected_msg.push_back(e);
  return 0;
}

void SharedRxQueue::free_entry(RxEntry* e) {
  if (entries_.erase(e->id) == 0) throw ProtocolError("linkx srx", "entry already freed", "free_entry");
}

std::size_t SharedRxQueue::posted_now() const {
  std::size_t n = 0;
  for (auto& q : q_)
    if (q) n += q->posted_tag.size() + q->posted_msg.size();
  return n;
}
std::size_t SharedRxQueue::unexpected_now() const {
  std::size_t n = 0;
  for (auto& q : q_)
    if (q) n += q->unexpected_tag.size() + q->unexpected_msg.size();
  return n;
}

}  // namespace ompisim::ofi
