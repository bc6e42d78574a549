#include "protocols/native/qsnet/elan4_qdma.hpp"

#include "core/errors.hpp"

namespace ompisim::native {

Elan4Qdma::Elan4Qdma(World& w, const Elan4QdmaMca& mca, std::string name)
    : w_(w), nic_(w), p_(nic_.params()), overhead_(qsnet::nic(w.machine()).software.elan4_qdma_overhead),
      extra_(static_cast<std::uint32_t>(mca.elan4_qdma_extra_bytes.value)), name_(std::move(name)) {
  nic_.on_stored = [this](int rank, int q) {
    // The receiver polls the queue's host event, then reads the slot and gives it back.
    w_.cpu(rank, p_.host_event_poll_cost + overhead_, [this, rank, q] {
      auto m = nic_.queue(rank, q).pop();
      auto it = in_flight_.find(m.payload);
      auto [seq, msg] = it->second;
      in_flight_.erase(it);
      for (auto& x : ranks_[rank].mq.arrive(seq, msg)) complete_request(recvs_, x.recv.rid, st_.recvs_completed);
    });
  };
}

StackStats Elan4Qdma::stats() const {
  StackStats s = st_;
  s.live_requests = sends_.size() + recvs_.size();
  for (auto& [r, x] : ranks_) s.unexpected_now += x.mq.unexpected_size(), s.posted_now += x.mq.posted_size();
  nic_.add_counters(s.counters);
  return s;
}

void Elan4Qdma::isend(int rank, int dst, int tag, std::uint64_t bytes, Buffer, Completion done) {
  if (bytes + extra_ > static_cast<std::uint64_t>(p_.qdma_slot_bytes.value))
    throw InputError("native/elan4_qdma", "benchmark.sizes",
                     "a QDMA carries at most one " + std::to_string(static_cast<long long>(p_.qdma_slot_bytes.value)) +
                         "-byte slot; " + std::to_string(bytes) + " B + elan4_qdma_extra_bytes " +
                         std::to_string(extra_) + " B do not fit");
  ++st_.sends_posted;
  std::uint64_t sid = next_++;
  sends_[sid] = std::move(done);
  std::uint64_t id = next_++;
  in_flight_[id] = {ranks_[rank].seq[dst]++, Msg{rank, tag}};
  w_.cpu(rank, overhead_ + p_.cmd_issue_cost, [this, rank, dst, bytes, id, sid] {
    nic_.qdma(rank, dst, 0, static_cast<std::uint32_t>(bytes) + extra_, id);
    complete_request(sends_, sid, st_.sends_completed);  // the descriptor holds the data
  });
}

void Elan4Qdma::irecv(int rank, int src, int tag, std::uint64_t, Buffer, Completion done) {
  ++st_.recvs_posted;
  std::uint64_t rid = next_++;
  recvs_[rid] = std::move(done);
  if (ranks_[rank].mq.post(Posted{src, tag, rid})) complete_request(recvs_, rid, st_.recvs_completed);
}

}  // namespace ompisim::native
