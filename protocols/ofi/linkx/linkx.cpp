#include "protocols/ofi/linkx/linkx.hpp"

#include <fmt/format.h>

namespace ompisim::ofi::linkx {

Linkx::Linkx(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, double overhead, shm::ShmProvider& shm,
             cxi::CxiProvider& cxi)
    : sim_(sim), ctx_(contexts), cpus_(cpus), overhead_(overhead), shm_(shm), cxi_(cxi) {
  // Link order "shm+cxi": the shared queues are registered with each core provider (the owner callbacks).
  CqOwnerOps owner;
  owner.write = [this](const CqEntry& e) { on_cq_write(e); };
  owner.writeerr = owner.write;
  shm_index_ = srx_.add_peer(&shm_);
  cxi_index_ = srx_.add_peer(&cxi_);
  shm_.bind_peer(&srx_, shm_index_, owner);
  cxi_.bind_peer(&srx_, cxi_index_, owner);
}

void Linkx::on_cq_write(const CqEntry& e) {
  counters_.add(LinkxStat::CqWrites);
  if (keep_cq_log) {
    cq_log_.push_back(e);
    cq_times_.push_back(sim_.now());
  }
  if (!(e.flags & CqEntry::Recv)) {
    if (consumer_.write) consumer_.write(e);
    return;
  }
  // lnx_get_tag's match and lnx_peer_cq_write, read back through the util CQ (lnx_cq_progress polls every core CQ).
  const std::uint32_t i = arriving_.create(e);
  cpus_.cpu(e.rank, overhead_, [this, i] {
    const CqEntry entry = arriving_[i];
    arriving_.erase(i);
    if (consumer_.write) consumer_.write(entry);
  }, "lnx_get_tag + shared CQ (LINKx, recv)");
}

std::string Linkx::address(int rank) const {
  // shm's address is the node-local endpoint name, cxi's the NIC address and PID granule (illustrative encodings).
  return fmt::format("shm://n{}.{};cxi://nic{}.{}", ctx_.node_of(rank), rank, ctx_.node_of(rank) * 4 + cxi_.port_of(rank), rank);
}

void Linkx::tsend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) {
  const std::uint32_t i = calls_.create(rank, dst, tag, bytes, buf, context, Callback{});
  cpus_.cpu(rank, overhead_, [this, i] { on_send(i, false); }, "fi_tsend (LINKx)");
}

bool Linkx::can_inject(int /*rank*/, int /*dst*/, std::uint64_t bytes, const Buffer& buf) const {
  return cxi_.can_inject(bytes, buf);  // the link's tx_attr->inject_size is cxi's (see linkx.hpp)
}

void Linkx::tinject(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Callback injected) {
  const std::uint32_t i = calls_.create(rank, dst, tag, bytes, buf, std::uint64_t{0}, std::move(injected));
  cpus_.cpu(rank, overhead_, [this, i] { on_send(i, true); }, "fi_tinject (LINKx)");
}

// After LINKx's cost: the peer's core provider (shm on the node, else cxi) takes the send.
void Linkx::on_send(std::uint32_t i, bool inject) {
  Call c = std::move(calls_[i]);
  calls_.erase(i);
  if (ctx_.node_of(c.rank) == ctx_.node_of(c.peer)) {
    counters_.add(LinkxStat::ViaShm);
    if (inject) shm_.tinject(c.rank, c.peer, c.tag, c.bytes, c.buf, std::move(c.injected));
    else shm_.tsend(c.rank, c.peer, c.tag, c.bytes, c.buf, c.context);
  } else {
    counters_.add(LinkxStat::ViaCxi);
    if (inject) cxi_.tinject(c.rank, c.peer, c.tag, c.bytes, c.buf, std::move(c.injected));
    else cxi_.tsend(c.rank, c.peer, c.tag, c.bytes, c.buf, c.context);
  }
}

void Linkx::trecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) {
  const std::uint32_t i = calls_.create(rank, src, tag, bytes, buf, context, Callback{});
  cpus_.cpu(rank, overhead_, [this, i] { on_recv(i); }, "fi_trecv (LINKx)");
}

void Linkx::on_recv(std::uint32_t i) {
  const Call c = std::move(calls_[i]);
  calls_.erase(i);
  srx_.post_tag(c.rank, c.peer, c.tag, c.bytes, c.buf, c.context);
}

std::vector<std::string> Linkx::idle_providers() const {
  return idle_of_shm_cxi(counters_[LinkxStat::ViaShm] != 0, counters_[LinkxStat::ViaCxi] != 0);
}

void Linkx::add_counters(std::map<std::string, std::uint64_t>& c) const {
  auto own = counters_;
  own.set(LinkxStat::MatchedExpected, srx_.matched_expected);
  own.set(LinkxStat::MatchedUnexpected, srx_.matched_unexpected);
  own.report(c);
  shm_.add_counters(c);
  cxi_.add_counters(c);
}

}  // namespace ompisim::ofi::linkx
