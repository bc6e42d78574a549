#include "runner/stacks.hpp"

#include "models/gemini/gni.hpp"
#include "protocols/btl/ugni/mailbox_memory.hpp"
#include "models/seastar/nic.hpp"
#include "protocols/btl/portals/btl_portals.hpp"
#include "protocols/btl/self/btl_self.hpp"
#include "protocols/btl/ugni/btl_ugni.hpp"
#include "protocols/btl/vader/btl_vader.hpp"
#include "protocols/loggp/loggp_stack.hpp"
#include "protocols/mtl/portals/mtl_portals.hpp"
#include "protocols/native/mpich_gni.hpp"
#include "protocols/pml/cm/pml_cm.hpp"
#include "protocols/pml/ob1/pml_ob1.hpp"

#include <fmt/format.h>

namespace ompisim {

namespace {
// Open MPI on Gemini: owns uGNI state, the BTLs and the PML.
class OpenMpiGemini final : public Stack {
public:
  OpenMpiGemini(World& w, const McaParams& mca)
      : gni_(w, static_cast<std::uint16_t>(mca.btl_ugni_smsg_max_credits.value)), self_(w), vader_(w, mca),
        ugni_(w, mca, gni_), ob1_(w, gemini::nic(w.machine()).software.ompi_sw_overhead, {&self_, &vader_, &ugni_}) {
    ob1_.amo_provider = [this, &w](int r, int t, Completion l, Completion a) {
      if (w.same_node(r, t)) {  // an atomic on a shared cache line (BASESMUMA-style on-node flag)
        double s = w.signal_latency(r, t);
        w.cpu(r, 0, [&w, s, l = std::move(l), a = std::move(a)]() mutable {
          w.sim().after(s, std::move(a));
          w.sim().after(s, std::move(l));
        });
        return;
      }
      gni_.amo(r, t, std::move(l), std::move(a));
    };
  }
  std::string name() const override { return "openmpi"; }
  void isend(int r, int d, int t, std::uint64_t b, Buffer buf, Completion c) override { ob1_.isend(r, d, t, b, buf, std::move(c)); }
  void irecv(int r, int s, int t, std::uint64_t b, Buffer buf, Completion c) override { ob1_.irecv(r, s, t, b, buf, std::move(c)); }
  void amo_add(int r, int t, Completion l, Completion a) override { ob1_.amo_add(r, t, std::move(l), std::move(a)); }
  StackStats stats() const override {
    StackStats s = ob1_.stats();
    s.counters["ugni_smsg"] = gni_.smsg_sent;
    s.counters["ugni_smsg_local_events"] = gni_.smsg_local_events;
    s.counters["ugni_short_sends"] = ugni_.short_sends;
    s.counters["ugni_eager_gets"] = ugni_.eager_gets;
    s.counters["ugni_long_gets"] = ugni_.long_gets;
    s.counters["ugni_put_fallbacks"] = ugni_.put_fallbacks;
    s.counters["ugni_eager_buffers_held"] = ugni_.eager_buffers_held();
    s.counters["ugni_credit_waits"] = gni_.credit_waits;
    s.counters["ugni_endpoints"] = gni_.endpoints();
    s.counters["ugni_registrations"] = gni_.registrations;
    s.counters["vader_fbox_sends"] = vader_.fbox_sends;
    s.counters["vader_copy_sends"] = vader_.copy_sends;
    s.counters["vader_single_copy_sends"] = vader_.single_copy_sends;
    s.counters["vader_xpmem_attaches"] = vader_.attaches();
    return s;
  }

private:
  gemini::Gni gni_;
  btl::self::BtlSelf self_;
  btl::vader::BtlVader vader_;
  btl::ugni::BtlUgni ugni_;
  pml::ob1::Ob1 ob1_;
};
// A request layer over the Portals matching engine. Open MPI's CM path is pml/cm over mtl/portals; Cray MPI is
// MPICH2's request layer (ADI3 requests play pml/cm's role) over a Portals device with Cray's protocol choices: the
// paper says the protocols are "generally similar", so the differences are data (mtl::portals::Protocol).
class PortalsMatchingStack final : public Stack {
public:
  PortalsMatchingStack(World& w, mtl::portals::Protocol p, double overhead, const std::string& name)
      : mtl_(w, std::move(p)), pml_(w, overhead, mtl_, name) {}
  std::string name() const override { return pml_.name(); }
  void isend(int r, int d, int t, std::uint64_t b, Buffer buf, Completion c) override { pml_.isend(r, d, t, b, buf, std::move(c)); }
  void irecv(int r, int s, int t, std::uint64_t b, Buffer buf, Completion c) override { pml_.irecv(r, s, t, b, buf, std::move(c)); }
  StackStats stats() const override { return pml_.stats(); }

private:
  mtl::portals::MtlPortals mtl_;
  pml::cm::PmlCm pml_;
};

mtl::portals::Protocol cray_mpi_protocol(const McaParams& mca) {
  mtl::portals::Protocol p;
  p.name = "cray-portals";
  p.eager_limit = static_cast<std::uint64_t>(mca.mpich_max_short_msg_size.value);
  p.long_rendezvous = true;          // rendezvous by default above the eager limit (paper §3)
  p.eqs_polled = 2;                  // unexpected EQ and "other" EQ polled on every progress call
  p.unexpected_start_events = true;  // two events per unexpected message (Pritchard & Pagel)
  p.blocks = 2;  // the unexpected buffer in two halves, so one serves while the other is re-posted
  p.block_size = static_cast<std::uint64_t>(mca.mpich_unex_buffer_size.value) / 2;
  return p;
}

// Open MPI's OB1 path on SeaStar: pml/ob1 over btl/portals (on-node peers also go through Portals on Catamount).
class OpenMpiOb1Portals final : public Stack {
public:
  OpenMpiOb1Portals(World& w, const McaParams& mca)
      : self_(w), portals_(w, mca), ob1_(w, seastar::nic(w.machine()).software.pml_ob1_overhead, {&self_, &portals_}, "openmpi-ob1") {}
  std::string name() const override { return "openmpi-ob1"; }
  void isend(int r, int d, int t, std::uint64_t b, Buffer buf, Completion c) override { ob1_.isend(r, d, t, b, buf, std::move(c)); }
  void irecv(int r, int s, int t, std::uint64_t b, Buffer buf, Completion c) override { ob1_.irecv(r, s, t, b, buf, std::move(c)); }
  StackStats stats() const override {
    StackStats s = ob1_.stats();
    portals_.add_counters(s.counters);
    return s;
  }

private:
  btl::self::BtlSelf self_;
  btl::portals::BtlPortals portals_;
  pml::ob1::Ob1 ob1_;
};
}  // namespace

void StackRegistry::add(StackInfo info) {
  if (info.name.empty() || !info.make) throw std::invalid_argument("stack: empty name or no factory");
  if (find(info.name, info.nic_kind))
    throw std::invalid_argument("stack '" + info.name + "' registered twice for NIC kind '" + info.nic_kind + "'");
  entries_.push_back(std::move(info));
}

const StackInfo* StackRegistry::find(const std::string& name, const std::string& nic_kind) const {
  for (auto& e : entries_)
    if (e.name == name && e.nic_kind == nic_kind) return &e;
  return nullptr;
}

// btl/ugni's derived SMSG limit, and the what-if of SMSG mailboxes vs MSGQ (protocols/btl/ugni/mailbox_memory) for this run.
static void report_ugni_mailboxes(Json& res, const StackReport& r) {
  const long long ranks = r.placement.ranks;
  auto lim = ugni_smsg_limit(r.mca, ranks);
  res["provenance"]["derived"] = {{"btl_ugni_smsg_limit (effective)", static_cast<double>(lim)}};
  auto cr = static_cast<std::uint64_t>(r.mca.btl_ugni_smsg_max_credits.value);
  std::uint64_t eps = r.stats.counters.count("ugni_endpoints") ? r.stats.counters.at("ugni_endpoints") : 0;
  auto mm = btl::ugni::mailbox_memory({ranks, r.placement.ranks_per_node, r.placement.node_count()}, lim, cr, eps, cr);
  res["mailbox_memory"] = {
      {"unit", "bytes per node (mailbox_bytes, msgq_queue_bytes: bytes each)"},
      {"ranks", ranks}, {"ranks_per_node", r.placement.ranks_per_node}, {"nodes", r.placement.node_count()},
      {"smsg_limit", mm.smsg_limit}, {"credits", mm.credits}, {"msgq_credits", mm.msgq_credits},
      {"mailbox_bytes", mm.mailbox_bytes}, {"msgq_queue_bytes", mm.msgq_queue_bytes},
      {"off_node_peers_per_rank", mm.off_node_peers}, {"ugni_endpoints", eps},
      {"smsg_all_peers", mm.smsg_all_peers}, {"smsg_connected", mm.smsg_connected},
      {"smsg_connected_max", mm.smsg_connected_max}, {"smsg_connected_allocated", mm.smsg_connected_allocated},
      {"msgq_per_node", mm.msgq_per_node}};
}

void register_stacks(StackRegistry& reg) {
  reg.add({"openmpi", "gemini", "Open MPI: pml/ob1 + bml/r2 + btl/self, btl/vader (XPMEM), btl/ugni; Cheetah uGNI BCOL",
           [](World& w, const McaParams& mca) { return std::make_unique<OpenMpiGemini>(w, mca); },
           &report_ugni_mailboxes});
  reg.add({"native", "gemini", "Cray MPT: MPICH2 CH3/Nemesis with the uGNI netmod (same hardware, different protocol)",
           [](World& w, const McaParams& mca) { return std::make_unique<native::MpichGni>(w, mca); }});
  reg.add({"openmpi-cm", "seastar", "Open MPI: pml/cm + mtl/portals (matching by Portals on the SeaStar)",
           [](World& w, const McaParams& mca) {
             return std::make_unique<PortalsMatchingStack>(w, mtl::portals::open_mpi_protocol(mca),
                                                           seastar::nic(w.machine()).software.pml_cm_overhead,
                                                           "openmpi-cm");
           }});
  reg.add({"openmpi-ob1", "seastar", "Open MPI: pml/ob1 + bml/r2 + btl/self, btl/portals (matching in the host)",
           [](World& w, const McaParams& mca) { return std::make_unique<OpenMpiOb1Portals>(w, mca); }});
  reg.add({"native", "seastar",
           "Cray MPI (XT MPT, MPICH2 over Portals): eager up to MPICH_MAX_SHORT_MSG_SIZE, rendezvous get above",
           [](World& w, const McaParams& mca) {
             return std::make_unique<PortalsMatchingStack>(w, cray_mpi_protocol(mca),
                                                           seastar::nic(w.machine()).software.mpich_overhead, "native");
           }});
  reg.add({"loggp", "loggp", "LogGOPS reference stack (closed-form checks)",
           [](World& w, const McaParams&) { return std::make_unique<loggp::LogGPStack>(w); }});
}

const StackRegistry& stack_registry() {
  static const StackRegistry reg = [] {
    StackRegistry r;
    register_stacks(r);
    return r;
  }();
  return reg;
}

std::unique_ptr<Stack> make_stack(World& w, const McaParams& mca, const std::string& name, const std::string& file) {
  const std::string kind = w.machine().nic_kind();
  if (const StackInfo* s = stack_registry().find(name, kind)) return s->make(w, mca);
  std::vector<std::string> names, kinds;
  for (auto& s : stack_registry().all()) {
    if (std::find(names.begin(), names.end(), s.name) == names.end()) names.push_back(s.name);
    if (s.name == name) kinds.push_back(s.nic_kind);
  }
  if (!kinds.empty())
    throw InputError(file, "stack",
                     fmt::format("stack '{}' runs on {} machines, but machine '{}' has a {} NIC", name,
                                 fmt::join(kinds, " or "), w.machine().name, kind));
  std::string hint = did_you_mean(name, names);
  throw InputError(file, "stack", fmt::format("unknown stack '{}'{} (known: {})", name,
                                              hint.empty() ? "" : " (did you mean '" + hint + "'?)",
                                              fmt::join(names, ", ")));
}

}  // namespace ompisim
