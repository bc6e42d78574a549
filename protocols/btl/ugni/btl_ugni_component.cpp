// btl/ugni's registration (↔ opal/mca/btl/ugni/btl_ugni_component.c, btl_ugni_component_register): its parameters
// are btl_ugni_mca.hpp; its report adds the derived SMSG limit and the what-if of SMSG mailboxes vs MSGQ
// (mailbox_memory.hpp) to a run's result.
#include "protocols/btl/ugni/btl_ugni.hpp"
#include "protocols/btl/ugni/eager_pool.hpp"
#include "protocols/btl/ugni/mailbox_memory.hpp"
#include "core/errors.hpp"
#include "protocols/register.hpp"

#include <fmt/format.h>

#include <string>

namespace ompisim::btl::ugni {

namespace {
// The eager-get pools' first allocation: btl_ugni_eager_num, capped by btl_ugni_eager_max as Open MPI's free lists cap
// it (the pool's own rule, protocols/base/buffer_pool.hpp).
double effective_eager_num(const McaParams& m, long long) {
  const UgniMca& u = m.get<UgniMca>();
  return EagerPool::first_allocation(static_cast<std::uint32_t>(u.btl_ugni_eager_num.get()),
                                     static_cast<std::uint32_t>(u.btl_ugni_eager_max.get()));
}
void report_mailboxes(Json& res, const ComponentReport& r) {
  const UgniMca& mca = r.mca.get<UgniMca>();
  const long long ranks = r.placement.ranks;
  auto lim = effective_smsg_limit(mca, ranks);
  auto cr = static_cast<std::uint64_t>(mca.btl_ugni_smsg_max_credits.get());
  // The run's endpoint count, under its declared name (kStatistics).
  const char* endpoints = kStatistics[static_cast<std::size_t>(UgniStat::Endpoints)].name;
  std::uint64_t eps = r.stats.counters.count(endpoints) ? r.stats.counters.at(endpoints) : 0;
  auto mm = mailbox_memory({ranks, r.placement.ranks_per_node, r.placement.node_count()}, lim, cr, eps, cr);
  res["mailbox_memory"] = {
      {"unit", "bytes per node (mailbox_bytes, msgq_queue_bytes: bytes each)"},
      {"ranks", ranks}, {"ranks_per_node", r.placement.ranks_per_node}, {"nodes", r.placement.node_count()},
      {"smsg_limit", mm.smsg_limit}, {"credits", mm.credits}, {"msgq_credits", mm.msgq_credits},
      {"mailbox_bytes", mm.mailbox_bytes}, {"msgq_queue_bytes", mm.msgq_queue_bytes},
      {"off_node_peers_per_rank", mm.off_node_peers}, {endpoints, eps},
      {"smsg_all_peers", mm.smsg_all_peers}, {"smsg_connected", mm.smsg_connected},
      {"smsg_connected_max", mm.smsg_connected_max}, {"smsg_connected_allocated", mm.smsg_connected_allocated},
      {"msgq_per_node", mm.msgq_per_node}};
  if (effective_eager_num(r.mca, ranks) < mca.btl_ugni_eager_num.get())
    res["provenance"]["derived"]["btl_ugni_eager_num (capped by)"] =
        fmt::format("btl_ugni_eager_max ({:.0f}): Open MPI's free lists cap their first allocation at their maximum",
                    mca.btl_ugni_eager_max.get());
  // A fragment btl/ugni is given is at most its eager limit (max_send_size, btl_ugni.cpp), so SMSG carries at most
  // min(SMSG limit, eager limit); the mailboxes above are still sized by the SMSG limit (msg_maxsize).
  const auto eager = static_cast<std::uint64_t>(mca.btl_ugni_eager_limit.get());
  if (smsg_payload_limit(mca, ranks) < lim) {
    res["provenance"]["derived"]["btl_ugni_smsg_limit (capped by)"] =
        "btl_ugni_eager_limit (" + std::to_string(eager) + " B): no fragment larger than the eager limit reaches SMSG";
  }
}
// Refuses an SMSG limit the control messages do not fit: PUT_INIT and RDMA_COMPLETE are SMSGs of kCtrlBytes and
// INIT_GET carries the PML's header beside them (btl_ugni.cpp: kCtrlBytes + the header, up to btl::kHdrSegmentMax),
// and a mailbox slot is msg_maxsize = the SMSG limit (mailbox_memory.hpp), so a smaller limit leaves the eager-get
// and RDMA protocols no way to signal.
void check_mca(const ComponentCheck& c) {
  const auto lim = c.mca.get<UgniMca>().btl_ugni_smsg_limit.get();
  constexpr std::uint64_t floor = kCtrlBytes + kHdrSegmentMax;
  if (lim > 0 && static_cast<std::uint64_t>(lim) < floor)
    throw InputError("", "mca.btl_ugni_smsg_limit",
                     fmt::format("{} B is below the {} B of btl/ugni's largest control message (INIT_GET: {} B of "
                                 "descriptor and the PML's header, up to {} B; PUT_INIT and RDMA_COMPLETE are {} B), "
                                 "which is an SMSG in the same mailboxes; set at least {} B, or 0 for the automatic "
                                 "limit by job size",
                                 static_cast<long long>(lim), floor, kCtrlBytes, kHdrSegmentMax, kCtrlBytes, floor));
}

}  // namespace

void register_component(ComponentRegistry& reg) {
  reg.add({.framework = "btl",
           .name = "ugni",
           .description = "Cray uGNI (Gemini): SMSG, eager-get, FMA/BTE RDMA, Gemini AMOs",
           .nic_kinds = {"gemini"},
           .source = "Open MPI trunk r26242 (bd8b4f7f1e) ompi/mca/btl/ugni, the revision of the Gemini paper's §IV.C",
           .params = param_block<UgniMca>(),
           .make_btl = [](const PlatformParts& parts, const McaParams& m) {
             auto& nic = gemini::Gni::of(parts.nic_services, parts.sim, parts.contexts, parts.cpus, parts.fabric());
             return std::make_unique<BtlUgni>(parts.contexts, parts.cpus, nic, m.get<UgniMca>());
           },
           .btl_flags = kFlags,
           .reach = Reach::Network,
           .statistics = statistic_list(kStatistics),
           .effective = {{"btl_ugni_smsg_limit",
                          "0: by job size (Open MPI trunk r26242 mca_btl_ugni_component_init), else as set; at most "
                          "btl_ugni_eager_limit (no larger fragment reaches SMSG)",
                          [](const McaParams& m, long long ranks) {
                            return static_cast<double>(smsg_payload_limit(m.get<UgniMca>(), ranks));
                          }},
                         {"btl_ugni_eager_num",
                          "the eager-get pools' first allocation: at most btl_ugni_eager_max (Open MPI's free lists cap "
                          "every growth at their maximum, the first one too)",
                          effective_eager_num}},
           .check = check_mca,
           .report = report_mailboxes});
}

}  // namespace ompisim::btl::ugni
