#include "protocols/native/qsnet/elan4_qdma.hpp"

#include "core/errors.hpp"
#include "models/qsnet/nic.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <string>

namespace ompisim::native {

namespace {
// Why `bytes` does not fit one slot ("" when it does): the words of both checks.
std::string qdma_overflow(std::uint64_t bytes, std::uint64_t extra, std::uint64_t slot) {
  if (bytes + extra <= slot) return "";
  return fmt::format("native/elan4_qdma: a QDMA carries at most one {}-byte slot; {} B + elan4_qdma_extra_bytes {} B "
                     "do not fit", slot, bytes, extra);
}
}  // namespace

void check_elan4_qdma(const ComponentCheck& c) {
  if (c.message_key.empty()) return;
  const Sourced& slot = qsnet::nic(c.machine).p.qdma_slot_bytes;
  const auto extra = static_cast<std::uint64_t>(c.mca.get<Elan4QdmaMca>().elan4_qdma_extra_bytes.get());
  const std::string why = qdma_overflow(c.largest_message, extra, static_cast<std::uint64_t>(slot.get()));
  if (why.empty()) return;
  const std::string from = slot.source == "--set" ? std::string("set by --set")
                                                  : fmt::format("{}: {}", repo_relative(c.machine.file), slot.source);
  throw InputError("", c.message_key, fmt::format("{} (its largest size; the slot is nic.qdma_slot_bytes of machine {}, "
                                                  "{})", why, c.machine.name, from));
}

Elan4Qdma::Elan4Qdma(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, Fabric& fabric,
                     const Elan4QdmaMca& mca, std::string name)
    : cpus_(cpus), nic_(sim, contexts, fabric), p_(nic_.params()),
      overhead_(qsnet::nic(fabric.network()).software.elan4_qdma_overhead),
      extra_(static_cast<std::uint32_t>(mca.elan4_qdma_extra_bytes.get())), name_(std::move(name)), lib_(contexts.ranks()) {
  nic_.on_stored = [this](int rank, int q) {
    // The receiver polls the queue's host event, then reads the slot and gives it back.
    cpus_.cpu(rank, p_.host_event_poll_cost + overhead_, [this, rank, q] {
      auto m = nic_.queue(rank, q).pop();
      auto it = in_flight_.find(m.payload);
      auto [seq, msg] = it->second;
      in_flight_.erase(it);
      for (auto& x : lib_.arrive(rank, 0, seq, msg)) {
        lib_.matched(lib_.recv(x.recv.rid), x.msg.src, x.msg.tag, x.msg.bytes);
        lib_.complete_recv(x.recv.rid);
      }
    }, "elan4 QDMA poll");
  };
}

StackStats Elan4Qdma::stats() const {
  StackStats s;
  lib_.report(s);
  nic_.add_counters(s.counters);
  return s;
}

void Elan4Qdma::check_comm(const mpi::P2P& m) const {
  if (m.comm.context_id > max_contextid())
    throw std::invalid_argument("native/elan4_qdma: communicator context id " + std::to_string(m.comm.context_id) +
                                ": a raw QDMA program has no communicators");
}

void Elan4Qdma::start_send(const mpi::P2P& m, Completion done) {
  check_comm(m);
  const std::uint64_t bytes = m.bytes();
  if (const std::string why = qdma_overflow(bytes, extra_, static_cast<std::uint64_t>(p_.qdma_slot_bytes.get()));
      !why.empty())
    throw InputError("", "benchmark.sizes", why);  // the run names the scenario file
  const int rank = m.rank, dst = m.peer;
  const mpi::RequestId sid = lib_.new_send(m, std::move(done)).first;
  std::uint64_t id = next_payload_++;
  in_flight_[id] = {lib_.next_send_seq(rank, 0, dst), Msg{rank, m.tag, bytes}};
  cpus_.cpu(rank, overhead_ + p_.cmd_issue_cost, [this, rank, dst, bytes, id, sid] {
    nic_.qdma(rank, dst, 0, static_cast<std::uint32_t>(bytes) + extra_, id);
    lib_.complete_send(sid);  // the descriptor holds the data
  }, "elan4 QDMA send");
}

void Elan4Qdma::start_recv(const mpi::P2P& m, Completion done) {
  check_comm(m);
  const mpi::RequestId rid = lib_.new_recv(m, std::move(done)).first;
  if (auto msg = lib_.post(m.rank, 0, mpi::Posted{m.peer, m.tag, rid})) {
    lib_.matched(lib_.recv(rid), msg->src, msg->tag, msg->bytes);
    lib_.complete_recv(rid);
  }
}

}  // namespace ompisim::native
