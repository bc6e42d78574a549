#include "protocols/mtl/ofi/ofi_stacks.hpp"

#include "core/errors.hpp"
#include "models/slingshot/nic.hpp"
#include "protocols/mtl/ofi/mtl_ofi.hpp"
#include "protocols/ofi/cxi/cxi_provider.hpp"
#include "protocols/ofi/linkx/linkx.hpp"
#include "protocols/ofi/shm/shm_mca.hpp"
#include "protocols/ofi/shm/shm_provider.hpp"
#include "protocols/mtl/ofi/mtl_ofi_mca.hpp"
#include "protocols/pml/cm/pml_cm.hpp"
#include "protocols/register.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <stdexcept>

namespace ompisim::mtl::ofi {

namespace o = ompisim::ofi;

std::string ProviderLink::str() const {
  std::string s = fmt::format("{}", fmt::join(cores, "+"));
  return linkx ? s + ":linkx" : s;
}

std::optional<ProviderLink> parse_provider_link(const std::string& s, const std::vector<std::string>& known,
                                                std::string& why) {
  ProviderLink l;
  std::string body = s;
  if (auto c = s.find(':'); c != std::string::npos) {
    std::string linker = s.substr(c + 1);
    if (linker != "linkx") {
      why = fmt::format("unknown linking provider '{}' in '{}' (known: linkx)", linker, s);
      return std::nullopt;
    }
    l.linkx = true;
    body = s.substr(0, c);
  }
  std::size_t start = 0;
  while (true) {
    std::size_t p = body.find('+', start);
    std::string name = body.substr(start, p == std::string::npos ? std::string::npos : p - start);
    if (std::find(known.begin(), known.end(), name) == known.end() || name == "linkx") {
      why = fmt::format("unknown core provider '{}' in '{}' (known: {})", name, s, fmt::join(known, ", "));
      return std::nullopt;
    }
    if (std::find(l.cores.begin(), l.cores.end(), name) != l.cores.end()) {
      why = fmt::format("provider '{}' is linked twice in '{}'", name, s);
      return std::nullopt;
    }
    l.cores.push_back(name);
    if (p == std::string::npos) break;
    start = p + 1;
  }
  if (l.cores.size() > 1 && !l.linkx) {
    why = fmt::format("'{}' names several core providers without a linking provider (write '{}:linkx')", s, body);
    return std::nullopt;
  }
  if (l.linkx) {
    std::vector<std::string> sorted = l.cores;
    std::sort(sorted.begin(), sorted.end());
    if (sorted != std::vector<std::string>{"cxi", "shm"}) {
      why = fmt::format("LINKx joins shm and cxi in this model ('shm+cxi:linkx'), not '{}'", s);
      return std::nullopt;
    }
  } else if (l.cores[0] != "cxi") {
    why = fmt::format("provider '{}' alone cannot reach ranks on other nodes, and this model runs it only under "
                      "LINKx, a one-node job included (the stack is built before the placement is known); mtl/ofi "
                      "needs 'cxi' or 'shm+cxi:linkx'", s);
    return std::nullopt;
  }
  return l;
}

namespace {
o::shm::ShmConfig shm_config(const Machine& machine, const McaParams& mca) {
  const auto& n = slingshot::nic(machine);
  o::shm::ShmConfig c;
  c.overhead = n.software.shm_overhead;
  c.inject_size = mca.get<o::shm::ShmMca>().shm_inject_size;
  c.ipc_open_cost = n.software.gpu_ipc_open_cost;
  c.gpu_copy_latency = n.software.gpu_copy_latency;
  c.xpmem_attach_cost = machine.os.xpmem_attach_cost;
  return c;
}

// Cray MPICH's own on-node path (CH4 shm: eager copy in and out below MPICH_SMP_SINGLE_COPY_SIZE, XPMEM/CMA single
// copy from it on, GPU IPC): the shm provider's mechanisms with Cray MPICH's fitted per-path costs in place of the
// libfabric shm provider's per-message cost.
o::shm::ShmConfig mpich_shm_config(const Machine& machine, const McaParams& mca) {
  const auto& s = slingshot::nic(machine).software;
  o::shm::ShmConfig c = shm_config(machine, mca);
  c.overhead = s.mpich_shm_overhead;
  c.inject_size = s.mpich_smp_single_copy_size - 1;
  c.inject_rate = s.mpich_shm_eager_rate;
  c.inject_cost_max = s.mpich_shm_eager_cost_max;
  c.copy_cost = s.mpich_shm_copy_cost;
  return c;
}

// LINKx reports cxi's inject size as its own (lnx_generate_link_info copies the cxi fi_info, linkx.hpp), so mtl/ofi
// injects sends up to it whatever the peer's provider; on the node they go to shm's fi_tinject, which fails for a
// length beyond shm's inject size, and mtl/ofi aborts on that error (MTL_OFI_RETRY_UNTIL_DONE retries -FI_EAGAIN
// only). A shm_inject_size below cxi's is refused while mtl/ofi injects at all.
void refuse_shm_inject_below_link(const McaParams& mca, const o::cxi::CxiConfig& cxi, InjectOn inject) {
  const double shm_inject = mca.get<o::shm::ShmMca>().shm_inject_size;
  if (inject == InjectOn::Never || shm_inject >= static_cast<double>(cxi.limits.inject_size)) return;
  throw InputError("", "mca.shm_inject_size",  // the run's builder adds the file
                   fmt::format("{} B is below the LINKx endpoint's inject size, {} B (cxi's, which LINKx reports as "
                               "its own): mtl/ofi injects on-node sends up to {} B and shm's fi_tinject refuses those "
                               "above its inject size; give shm_inject_size {} B or more, or ompi_mtl_ofi_inject never",
                               shm_inject, cxi.limits.inject_size, cxi.limits.inject_size, cxi.limits.inject_size));
}

// pml/cm + mtl/ofi over one endpoint: the CXI provider alone, or LINKx over shm and cxi.
// mtl/ofi as one MTL module: the providers of the link (cxi; with LINKx also shm and the LINKx endpoint over both)
// and the MTL over the endpoint the link exposes. pml/cm is built over it by its own component.
class OfiMtlModule final : public Mtl {
public:
  OfiMtlModule(const OfiParts& parts, const McaParams& mca, const ProviderLink& link) {
    const Machine& machine = parts.contexts.machine();
    const auto& n = slingshot::nic(machine);
    const o::cxi::CxiConfig cxi = o::cxi::CxiConfig::from(n.p, n.software, mca.get<o::cxi::CxiMca>(), link.linkx);
    const auto inject = static_cast<InjectOn>(mca.get<MtlOfiMca>().ompi_mtl_ofi_inject.get());
    cxi_ = std::make_unique<o::cxi::CxiProvider>(parts.sim, parts.contexts, parts.cpus, parts.fabric, cxi);
    o::Endpoint* ep = cxi_.get();
    if (link.linkx) {
      refuse_shm_inject_below_link(mca, cxi, inject);
      shm_ = std::make_unique<o::shm::ShmProvider>(parts.sim, parts.contexts, parts.cpus, shm_config(machine, mca));
      linkx_ = std::make_unique<o::linkx::Linkx>(parts.sim, parts.contexts, parts.cpus, n.software.linkx_overhead, *shm_, *cxi_);
      ep = linkx_.get();
    }
    mtl_ = std::make_unique<MtlOfi>(*ep, inject);
  }
  std::string name() const override { return mtl_->name(); }
  void isend(const mpi::P2P& m, Completion c) override { mtl_->isend(m, std::move(c)); }
  void irecv(const mpi::P2P& m, Completion c) override { mtl_->irecv(m, std::move(c)); }
  std::uint32_t max_contextid() const override { return mtl_->max_contextid(); }
  std::uint64_t unexpected_now() const override { return mtl_->unexpected_now(); }
  std::uint64_t posted_now() const override { return mtl_->posted_now(); }
  void add_counters(std::map<std::string, std::uint64_t>& c) const override { mtl_->add_counters(c); }
  std::vector<std::string> idle_components() const override { return mtl_->idle_components(); }

private:
  std::unique_ptr<o::cxi::CxiProvider> cxi_;
  std::unique_ptr<o::shm::ShmProvider> shm_;
  std::unique_ptr<o::linkx::Linkx> linkx_;
  std::unique_ptr<MtlOfi> mtl_;
};

// Cray MPICH over CXI: an endpoint that sends on-node messages through the shared-memory path (MPICH's own matching
// queue, here a SharedRxQueue owned by MPICH) and off-node ones through the CXI provider with hardware matching.
// An ANY_SOURCE receive on a job spanning nodes is posted to both; the first match wins and the partner is withdrawn
// (MPICH CH4's any-source partner requests).
class Ch4Endpoint final : public o::Endpoint {
public:
  Ch4Endpoint(const OfiParts& parts, const McaParams& mca, double overhead)
      : ctx_(parts.contexts), cpus_(parts.cpus), overhead_(overhead) {
    const Machine& machine = parts.contexts.machine();
    const auto& n = slingshot::nic(machine);
    cxi_ = std::make_unique<o::cxi::CxiProvider>(parts.sim, parts.contexts, parts.cpus, parts.fabric,
                                                 o::cxi::CxiConfig::from(n.p, n.software, mca.get<o::cxi::CxiMca>()));
    shm_ = std::make_unique<o::shm::ShmProvider>(parts.sim, parts.contexts, parts.cpus, mpich_shm_config(machine, mca));
    o::CqOwnerOps ops;
    ops.write = [this](const o::CqEntry& e) { on_cq(e); };
    ops.writeerr = ops.write;
    shm_->bind_peer(&shmq_, shmq_.add_peer(shm_.get()), ops);
    cxi_->set_cq(ops);
  }
  std::string name() const override { return "ch4"; }
  void set_cq(o::CqOwnerOps ops) override { consumer_ = std::move(ops); }
  // Off-node sends that fit the provider's inject size from a host buffer take MPICH's lightweight path
  // (MPIDI_OFI_send in src/mpid/ch4/netmod/ofi/ofi_send.h, v3.4a2, the ANL base of Cray MPICH 8.1.x: a contiguous,
  // non-synchronous send of at most MPIDI_OFI_global.max_buffered_send = the provider's tx_attr->inject_size bytes goes
  // out with fi_tinjectdata and its request is complete when the call returns, MPI_Send and MPI_Isend alike): the
  // request completes once the command is issued, and the NIC's ack writes no completion. (The model's messages are
  // contiguous and none is synchronous.) Which sends take it is the MTL's inject policy (mpich_ofi_inject,
  // "every"); this endpoint says which can (off-node, CxiProvider::can_inject) and issues them (CxiProvider::tinject).
  bool can_inject(int rank, int dst, std::uint64_t bytes, const Buffer& buf) const override {
    return ctx_.node_of(rank) != ctx_.node_of(dst) && cxi_->can_inject(bytes, buf);
  }
  void tinject(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Callback injected) override {
    cpus_.cpu(rank, overhead_, [this, rank, dst, tag, bytes, buf, injected = std::move(injected)]() mutable {
      via_cxi_ = true;
      cxi_->tinject(rank, dst, tag, bytes, buf, std::move(injected));
    }, "MPIDI_OFI_send (fi_tsend / fi_tinjectdata)");
  }
  void tsend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) override {
    cpus_.cpu(rank, overhead_, [this, rank, dst, tag, bytes, buf, context] {
      if (ctx_.node_of(rank) == ctx_.node_of(dst)) {
        via_shm_ = true;
        shm_->tsend(rank, dst, tag, bytes, buf, context);
      } else {
        via_cxi_ = true;
        cxi_->tsend(rank, dst, tag, bytes, buf, context);
      }
    }, "MPIDI_OFI_send (fi_tsend / fi_tinjectdata)");
  }
  void trecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) override {
    cpus_.cpu(rank, overhead_, [this, rank, src, tag, bytes, buf, context] {
      bool local_only = ctx_.placement().node_count() == 1;
      if (src == o::kAnyAddr && !local_only) {
        throw std::logic_error("native/mpich_cxi: MPI_ANY_SOURCE across nodes is not modelled");
      }
      if (src == o::kAnyAddr || ctx_.node_of(rank) == ctx_.node_of(src))
        shmq_.post_tag(rank, src, tag, bytes, buf, context);
      else cxi_->trecv(rank, src, tag, bytes, buf, context);
    }, "ompi_mtl_ofi_irecv (fi_trecv)");
  }
  std::uint64_t posted_now() const override { return shmq_.posted_now() + cxi_->posted_now(); }
  std::uint64_t unexpected_now() const override { return shmq_.unexpected_now() + cxi_->unexpected_now(); }
  void add_counters(std::map<std::string, std::uint64_t>& c) const override {
    shm_->add_counters(c);
    cxi_->add_counters(c);
  }
  // MPICH's shared-memory path when no send went to a peer on its node, the CXI provider when none left one.
  std::vector<std::string> idle_providers() const override { return idle_of_shm_cxi(via_shm_, via_cxi_); }

private:
  void on_cq(const o::CqEntry& e) {
    if (consumer_.write) consumer_.write(e);
  }
  const Contexts& ctx_;
  CpuTimeline& cpus_;
  double overhead_;
  std::unique_ptr<o::cxi::CxiProvider> cxi_;
  std::unique_ptr<o::shm::ShmProvider> shm_;
  o::SharedRxQueue shmq_;
  o::CqOwnerOps consumer_;
  bool via_shm_ = false, via_cxi_ = false;  // a send went through each path
};

// Cray MPICH: its per-message cost, then the CH4 endpoint; requests complete from the endpoint's completions.
class MpichCxiStack final : public Stack {
public:
  MpichCxiStack(const OfiParts& parts, const McaParams& mca, std::string name) : name_(std::move(name)) {
    const auto& n = slingshot::nic(parts.contexts.machine());
    ep_ = std::make_unique<Ch4Endpoint>(parts, mca, n.software.mpich_overhead);
    // request table, CQ dispatch and the lightweight-send choice (MPICH's own, same behaviour)
    mtl_ = std::make_unique<MtlOfi>(*ep_, static_cast<InjectOn>(mca.get<MpichOfiMca>().mpich_ofi_inject.get()));
    pml_ = std::make_unique<pml::cm::PmlCm>(parts.cpus, 0.0, *mtl_, name_);
    const auto& m = mca.get<MpichOfiMca>();
    tunables_ = {{"mpich_bcast_only_tree", m.mpich_bcast_only_tree.get()},
                 {"mpich_bcast_internode_radix", m.mpich_bcast_internode_radix.get()},
                 {"mpich_bcast_intranode_radix", m.mpich_bcast_intranode_radix.get()}};
  }
  std::string name() const override { return name_; }
  void start_send(const mpi::P2P& m, Completion c) override { pml_->start_send(m, std::move(c)); }
  std::uint32_t max_contextid() const override { return pml_->max_contextid(); }
  // Cray MPICH's collective tunables (MpichOfiMca), which collectives/decision/mpich_default.json names.
  std::map<std::string, double> coll_tunables() const override { return tunables_; }
  void start_recv(const mpi::P2P& m, Completion c) override { pml_->start_recv(m, std::move(c)); }
  StackStats stats() const override {
    StackStats st = pml_->stats();
    rename_counters(st.counters, kMtlOfiStatistics, kMpichRequestStatistics);
    rename_counters(st.counters, o::shm::kShmStatistics, kMpichShmStatistics);
    return st;
  }
  std::vector<std::string> idle_components() const override { return ep_->idle_providers(); }

private:
  std::string name_;
  std::unique_ptr<Ch4Endpoint> ep_;
  std::unique_ptr<MtlOfi> mtl_;
  std::unique_ptr<pml::cm::PmlCm> pml_;
  std::map<std::string, double> tunables_;
};
}  // namespace

void check_ofi_input(const ComponentCheck& c) {
  const auto& ids = c.stack_components;
  if (std::find(ids.begin(), ids.end(), "ofi/linkx") == ids.end()) return;
  const auto& n = slingshot::nic(c.machine);
  const o::cxi::CxiConfig cxi = o::cxi::CxiConfig::from(n.p, n.software, c.mca.get<o::cxi::CxiMca>(), true);
  refuse_shm_inject_below_link(c.mca, cxi, static_cast<InjectOn>(c.mca.get<MtlOfiMca>().ompi_mtl_ofi_inject.get()));
}

std::unique_ptr<Mtl> make_ofi_mtl(const OfiParts& parts, const McaParams& mca, const std::string& provider) {
  std::string why;
  auto link = parse_provider_link(provider, {"cxi", "shm", "linkx"}, why);
  if (!link) throw std::logic_error("mtl/ofi: " + why);
  return std::make_unique<OfiMtlModule>(parts, mca, *link);
}

std::unique_ptr<Stack> make_mpich_cxi_stack(const OfiParts& parts, const McaParams& mca, const std::string& name) {
  return std::make_unique<MpichCxiStack>(parts, mca, name);
}

}  // namespace ompisim::mtl::ofi
