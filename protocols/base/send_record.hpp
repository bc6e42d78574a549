// MPI_Isend's bookkeeping for a library that keeps one record per message (Cray MPT's uGNI netmod, MPICH-QsNetII):
// the send request, the message's sequence number to its peer, and a new record in `msgs` holding the envelope (src,
// dst, tag, ctx, seq, bytes, sid), moved out of IDLE by `post` (transition_table.hpp). Returns the record's index.
#pragma once
#include "core/slab.hpp"
#include "mpi/p2p.hpp"
#include "mpi/request.hpp"

#include <cstdint>
#include <utility>

namespace ompisim::base {

template <class Record, class Library, class Event>
std::uint32_t open_send_record(Library& lib, Slab<Record>& msgs, const mpi::P2P& p, Completion done, Event post) {
  const auto sid = lib.new_send(p, std::move(done)).first;
  const std::uint32_t seq = lib.next_send_seq(p.rank, p.comm.context_id, p.peer);
  const std::uint32_t id = msgs.create();
  Record& m = msgs[id];
  m.src = p.rank, m.dst = p.peer, m.tag = p.tag, m.ctx = p.comm.context_id, m.seq = seq;
  m.bytes = p.bytes(), m.sid = sid;
  m.state = step(m.state, post);
  return id;
}

}  // namespace ompisim::base
