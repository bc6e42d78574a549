#include "protocols/ofi/base/shared_rx_queue.hpp"

#include "core/errors.hpp"

namespace ompisim::ofi {

int SharedRxQueue::add_peer(SrxPeer* p) {
  peers_.push_back(p);
  return static_cast<int>(peers_.size()) - 1;
}

void SharedRxQueue::Fifo::push_back(Node* x) {
  x->prev = tail;
  x->next = nullptr;
  (tail ? tail->next : head) = x;
  tail = x;
  ++n;
}

void SharedRxQueue::Fifo::unlink(Node* x) {
  (x->prev ? x->prev->next : head) = x->next;
  (x->next ? x->next->prev : tail) = x->prev;
  x->prev = x->next = nullptr;
  --n;
}

RxEntry* SharedRxQueue::alloc(int rank, int addr, int tag, bool tagged, std::uint64_t size) {
  Node* x = free_;
  if (x) {
    free_ = x->next_free;
  } else {
    if (top_ % kChunk == 0) chunks_.push_back(std::make_unique<Node[]>(kChunk));
    x = &chunks_[top_ / kChunk][top_ % kChunk];
    ++top_;
  }
  *x = Node{};
  x->live = true;
  ++live_;
  RxEntry* e = &x->e;
  e->id = next_++;
  e->owner_rank = rank;
  e->addr = addr;
  e->tag = tagged ? tag : kAnyTag;
  e->tagged = tagged;
  e->size = size;
  return e;
}

bool SharedRxQueue::post(int rank, int src, int tag, bool tagged, std::uint64_t size, Buffer buf, std::uint64_t ctx) {
  Queues& q = queues(rank);
  Fifo& unexp = tagged ? q.unexpected_tag : q.unexpected_msg;
  for (Node* x = unexp.head; x; x = x->next) {
    RxEntry* e = &x->e;
    if (!rx_matches(src, tagged ? tag : kAnyTag, e->addr, e->tag)) continue;
    unexp.unlink(x);
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
  (tagged ? q.posted_tag : q.posted_msg).push_back(node(e));
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
  Fifo& posted = tagged ? q.posted_tag : q.posted_msg;
  for (Node* x = posted.head; x; x = x->next) {
    RxEntry* e = &x->e;
    if (!rx_matches(e->addr, e->tag, addr, tagged ? tag : kAnyTag)) continue;
    posted.unlink(x);  // taken: no other provider can get it (the ANY_SOURCE race is decided here)
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
  if (!node(e)->live || e->peer < 0) throw ProtocolError("linkx srx", "not a new unexpected entry", "queue_tag");
  queues(e->owner_rank).unexpected_tag.push_back(node(e));
  return 0;
}
int SharedRxQueue::queue_msg(RxEntry* e) {
  if (!node(e)->live || e->peer < 0) throw ProtocolError("linkx srx", "not a new unexpected entry", "queue_msg");
  queues(e->owner_rank).unexpected_msg.push_back(node(e));
  return 0;
}

void SharedRxQueue::free_entry(RxEntry* e) {
  Node* x = node(e);
  if (!x->live) throw ProtocolError("linkx srx", "entry already freed", "free_entry");
  x->live = false;
  x->next_free = free_;
  free_ = x;
  --live_;
}

std::size_t SharedRxQueue::posted_now() const {
  std::size_t n = 0;
  for (const Queues& q : q_) n += q.posted_tag.n + q.posted_msg.n;
  return n;
}
std::size_t SharedRxQueue::unexpected_now() const {
  std::size_t n = 0;
  for (const Queues& q : q_) n += q.unexpected_tag.n + q.unexpected_msg.n;
  return n;
}

}  // namespace ompisim::ofi
