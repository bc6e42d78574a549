// What every core provider (ofi/shm, ofi/cxi) does with its message records at the peer API (peer_api.hpp): find the
// record an unexpected entry names, free a record once both its sides are COMPLETE, and write a message's send and
// receive completions (fi_cq_tagged_entry) into the owner's CQ.
// A record is the provider's own message type in its request table, built on PeerMsg: src, dst, tag, bytes, context,
// entry (the matched receive) and done() (both sides COMPLETE).
#pragma once
#include "core/errors.hpp"
#include "core/sim.hpp"
#include "mpi/request.hpp"
#include "protocols/ofi/peer_api.hpp"

#include <algorithm>
#include <cstdint>

namespace ompisim::ofi {

// What a core provider's message record holds whatever its protocol: the send side's and the receive side's states
// (each moved by the provider's own machine), the envelope, the send buffer, the matched receive and fi_tinject's call.
template <class TxState, class RxState>
struct PeerMsg {
  TxState tx = TxState::Idle;
  RxState rx = RxState::Idle;
  int src = 0, dst = 0, tag = 0;
  std::uint64_t bytes = 0, context = 0;
  Buffer sbuf{};
  RxEntry* entry = nullptr;  // the matched receive (or the unexpected entry once started)
  Callback injected;         // fi_tinject: its call, in place of a send completion (cxi: once issued; shm: copied in)
  bool done() const { return tx == TxState::Complete && rx == RxState::Complete; }
};

// The record an unexpected entry names (its peer_context); ProtocolError naming `provider` and the owner's `call`
// (start_tag, discard_tag) when there is none.
template <class Msg>
std::uint64_t unexpected_record(mpi::RequestTable<Msg>& msgs, const RxEntry& e, const char* provider,
                                const char* call) {
  if (!msgs.find(e.peer_context)) throw ProtocolError(provider, "no unexpected message for the entry", call);
  return e.peer_context;
}

// Record `id`'s message has arrived at core provider `provider`: the owner's shared receive queue looks for a posted
// receive that matches it (get_tag) and returns it; when none does, the entry the owner made for it names the record
// (peer_context), `on_queued` runs (the provider's own statistic and state step) and the entry is queued (queue_tag),
// and null is returned.
template <class Msg, class Queued>
RxEntry* get_tag_or_queue(SrxOwner& owner, int provider, Msg& m, std::uint64_t id, Queued&& on_queued) {
  RxEntry* e = nullptr;
  if (owner.get_tag(m.dst, provider, m.src, m.tag, m.bytes, &e) == 0) return e;
  e->peer_context = id;
  on_queued();
  owner.queue_tag(e);
  return nullptr;
}

// Frees record `id` once both its sides are COMPLETE.
template <class Msg>
void free_if_done(mpi::RequestTable<Msg>& msgs, std::uint64_t id) {
  if (msgs.at(id).done()) msgs.take(id);
}

// A message's send completion as core provider `provider` writes it.
template <class Msg>
CqEntry send_completion(const Msg& m, int provider) {
  return CqEntry{m.src, m.context, CqEntry::Send | CqEntry::Tagged, m.bytes, m.tag, m.dst, provider};
}

// The send side of record `id` is COMPLETE: the record is freed if the receive side is too, then core provider
// `provider` writes the send completion into `cq`.
template <class Msg>
void complete_send(mpi::RequestTable<Msg>& msgs, std::uint64_t id, const CqOwnerOps& cq, int provider) {
  const CqEntry ce = send_completion(msgs.at(id), provider);
  free_if_done(msgs, id);
  if (cq.write) cq.write(ce);
}

// The receive side of record `id` is COMPLETE: its matched entry goes back to `owner`, the record is freed if the
// send side is too, then core provider `provider` writes the receive completion (the bytes that fitted, the sender's
// envelope) into `cq`.
template <class Msg>
void complete_recv(mpi::RequestTable<Msg>& msgs, std::uint64_t id, SrxOwner& owner, const CqOwnerOps& cq,
                   int provider) {
  Msg& m = msgs.at(id);
  RxEntry* e = m.entry;
  const CqEntry ce{m.dst, e->context, CqEntry::Recv | CqEntry::Tagged, std::min(m.bytes, e->size), m.tag, m.src,
                   provider};
  m.entry = nullptr;
  owner.free_entry(e);
  free_if_done(msgs, id);
  if (cq.write) cq.write(ce);
}

}  // namespace ompisim::ofi
