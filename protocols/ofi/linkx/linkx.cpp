#include "protocols/ofi/linkx/linkx.hpp"

#include <fmt/format.h>

namespace ompisim::ofi::linkx {

Linkx::Linkx(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, double overhead, shm::ShmProvider& shm,
             cxi::CxiProvider& cxi)
    : sim_(sim), ctx_(contexts), cpus_(cpus), overhead_(overhead), shm_(shm), cxi_(cxi) {
  // Link order "shm+cxi": the shared queues are registered with each core provider (the owner callbacks).
  CqOwnerOps owner;
  owner.write = [this](const CqEntry& e) {
    counters_.add(LinkxStat::CqWrites);
    if (keep_cq_log) {
      cq_log_.push_back(e);
      cq_times_.push_back(sim_.now());
    }
    if (consumer_.write) consumer_.write(e);
  };
  owner.writeerr = owner.write;
  shm_index_ = srx_.add_peer(&shm_);
  cxi_index_ = srx_.add_peer(&cxi_);
  shm_.bind_peer(&srx_, shm_index_, owner);
  cxi_.bind_peer(&srx_, cxi_index_, owner);
}

std::string Linkx::address(int rank) const {
  // shm's address is the node-local endpoint name, cxi's the NIC address and PID granule (illustrative encodings).
  return fmt::format("shm://n{}.{};cxi://nic{}.{}", ctx_.node_of(rank), rank, ctx_.node_of(rank) * 4 + cxi_.port_of(rank), rank);
}

void Linkx::tsend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) {
  cpus_.cpu(rank, overhead_, [this, rank, dst, tag, bytes, buf, context] {
    if (ctx_.node_of(rank) == ctx_.node_of(dst)) {
      counters_.add(LinkxStat::ViaShm);
      shm_.tsend(rank, dst, tag, bytes, buf, context);
    } else {
      counters_.add(LinkxStat::ViaCxi);
      cxi_.tsend(rank, dst, tag, bytes, buf, context);
    }
  }, "fi_tsend (LINKx)");
}

bool Linkx::can_inject(int /*rank*/, int /*dst*/, std::uint64_t bytes, const Buffer& buf) const {
  return cxi_.can_inject(bytes, buf);  // the link's tx_attr->inject_size is cxi's (see linkx.hpp)
}

void Linkx::tinject(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Callback injected) {
  cpus_.cpu(rank, overhead_, [this, rank, dst, tag, bytes, buf, injected = std::move(injected)]() mutable {
    if (ctx_.node_of(rank) == ctx_.node_of(dst)) {
      counters_.add(LinkxStat::ViaShm);
      shm_.tinject(rank, dst, tag, bytes, buf, std::move(injected));
    } else {
      counters_.add(LinkxStat::ViaCxi);
      cxi_.tinject(rank, dst, tag, bytes, buf, std::move(injected));
    }
  }, "fi_tinject (LINKx)");
}

void Linkx::trecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) {
  cpus_.cpu(rank, overhead_, [this, rank, src, tag, bytes, buf, context] {
    srx_.post_tag(rank, src, tag, bytes, buf, context);
  }, "fi_trecv (LINKx)");
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
