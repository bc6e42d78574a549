// Stacks over libfabric on a Slingshot (cxi NIC kind) machine, built from the machine's one parameter set:
//   mtl/ofi (the MTL module pml/cm drives) over the provider link named by opal_common_ofi_provider_include ("cxi", or "shm+cxi:linkx"),
//   native/mpich_cxi: Cray MPICH (CH4): on-node messages through its shared-memory path (software matching in
//   MPICH, XPMEM/CMA single copy, GPU IPC), off-node ones through the CXI provider with hardware matching.
#pragma once
#include "mpi/stack.hpp"
#include "core/statistics.hpp"
#include "protocols/base/mca_params.hpp"
#include "protocols/mtl/mtl.hpp"
#include "protocols/register.hpp"
#include "platform/cpu_timeline.hpp"
#include "platform/fabric.hpp"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ompisim::mtl::ofi {

// A provider selection string: one core provider ("cxi"), or core providers joined by '+' and linked (":linkx").
struct ProviderLink {
  std::vector<std::string> cores;
  bool linkx = false;
  std::string str() const;
};
// nullopt and `why` set when the string names an unknown provider or an impossible link.
std::optional<ProviderLink> parse_provider_link(const std::string& s, const std::vector<std::string>& known,
                                                std::string& why);

// The parts of the platform the libfabric providers use: the engine, where ranks run (the machine's Slingshot
// parameters), their CPU timelines and the fabric of the Slingshot network.
struct OfiParts {
  Simulator& sim;
  const Contexts& contexts;
  CpuTimeline& cpus;
  Fabric& fabric;
};

// mtl/ofi over the provider link `provider` ("cxi", "shm+cxi:linkx"): the MTL module pml/cm drives.
// `mca`: the run's parameter blocks (ofi/cxi's, ofi/shm's, mtl/ofi's or native/mpich_cxi's are read).
std::unique_ptr<Mtl> make_ofi_mtl(const OfiParts& parts, const McaParams& mca, const std::string& provider);
// Refuses MCA values mtl/ofi cannot run over the stack's link before anything is simulated (ComponentInfo::check):
// under LINKx (ofi/linkx among c.stack_components), a shm_inject_size below the cxi inject size LINKx reports while
// mtl/ofi injects. The MTL's builder refuses them too.
void check_ofi_input(const ComponentCheck& c);
std::unique_ptr<Stack> make_mpich_cxi_stack(const OfiParts& parts, const McaParams& mca, const std::string& name);
// Cray MPICH's counters where it reuses a model of another component: its request table (mtl/ofi's, entry by entry in
// kMtlOfiStatistics' order) and its own shared-memory path (the libfabric shm provider's model, in kShmStatistics'
// order), each under Cray MPICH's names; the CXI provider's are libfabric's own and keep theirs.
inline constexpr std::array<StatisticInfo, 2> kMpichRequestStatistics{{
    {"mpi_truncate_errors", "receives", "receives smaller than the message matched (MPI_ERR_TRUNCATE), all paths"},
    {"mpich_live_requests", "requests", "requests (sends and receives) not completed at the end of the run", false,
     true},
}};
inline constexpr std::array<StatisticInfo, 8> kMpichShmStatistics{{
    {"mpich_shm_eager", "messages",
     "on-node sends copied through MPICH's shared-memory cells (host buffers below MPICH_SMP_SINGLE_COPY_SIZE, "
     "software.mpich_smp_single_copy_size)", true},
    {"mpich_shm_single_copy", "messages",
     "on-node sends the receiver copies straight from the sender's memory (XPMEM/CMA; from MPICH_SMP_SINGLE_COPY_SIZE)",
     true},
    {"mpich_shm_ipc", "messages", "on-node sends from a device buffer, moved by a GPU copy engine through an IPC handle",
     true},
    {"mpich_shm_unexpected", "messages", "on-node messages that found no posted receive", true},
    {"mpi_truncate_errors", "receives", "receives smaller than the message matched (MPI_ERR_TRUNCATE)", true},
    {"mpich_shm_ipc_open", "handles", "IPC handles opened (missing the handle cache)", true},
    {"mpich_shm_ipc_cache_hit", "messages", "IPC transfers whose handle was in the cache", true},
    {"mpich_shm_discards", "messages", "unexpected on-node messages discarded (a probe's discard)", true},
}};

}  // namespace ompisim::mtl::ofi
