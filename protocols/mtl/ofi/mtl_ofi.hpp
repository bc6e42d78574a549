// mtl/ofi (Open MPI v5.0, ompi/mca/mtl/ofi): MPI matching by a libfabric provider. pml/cm hands each send and receive
// to one endpoint of the provider selected by opal_common_ofi_provider_include ("cxi" alone, or "shm+cxi:linkx");
// isend -> fi_tsend, irecv -> fi_trecv with the request as the operation context; progress reads the provider's CQ
// and completes the request named by each entry's context. One MTL is active, as in Open MPI.
// fi_tinject: a send that the endpoint can inject (host memory, at most its tx_attr->inject_size =
// ompi_mtl_ofi.max_inject_size, Endpoint::can_inject) goes out with fi_tinject and its request completes when the
// command is issued (no CQ entry) when the inject policy says so: InjectOn::Blocking, MPI_Send only (mpi::P2P::blocking;
// ompi_mtl_ofi_send_generic in ompi/mca/mtl/ofi/mtl_ofi.h of v5.0.0rc11, whose ompi_mtl_ofi_isend_generic always
// uses fi_tsend until 703d45a0cc, v5.0.0rc12), or InjectOn::Every (MPICH v3.4a2's MPIDI_OFI_send, MPI_Send and
// MPI_Isend alike). The policy is mtl/ofi's ompi_mtl_ofi_inject / native/mpich_cxi's mpich_ofi_inject (mtl_ofi_mca.hpp).
// LIMITATIONS: no FI_CLAIM / probe;
// one communicator (the tag is the MPI tag; a context id other than 0 is refused: Open MPI's mtl/ofi puts the
// context id in the 64-bit OFI tag, which the model's endpoints do not carry yet).
#pragma once
#include "core/statistics.hpp"
#include "protocols/mtl/mtl.hpp"
#include "protocols/ofi/endpoint.hpp"

#include "mpi/request.hpp"

namespace ompisim::mtl::ofi {

enum class InjectOn : std::uint8_t { Never, Blocking, Every };  // the choices' order in the machine files

// mtl/ofi's statistics, declared once (the registry entry and `ompisim describe mtl/ofi` list them), both set at report
// time and added to the provider link's counters (ofi/cxi, ofi/shm, ofi/linkx declare theirs): mpi_truncate_errors is
// the providers' sum, present even when none counted one.
enum class MtlOfiStat : std::uint8_t { TruncateErrors, LiveOps };
inline constexpr std::array<StatisticInfo, 2> kMtlOfiStatistics{{
    {"mpi_truncate_errors", "receives", "receives smaller than the message matched (MPI_ERR_TRUNCATE), all providers"},
    {"mtl_ofi_live_ops", "requests", "MTL requests (sends and receives) not completed at the end of the run", false, true},
}};

class MtlOfi final : public Mtl {
public:
  explicit MtlOfi(ompisim::ofi::Endpoint& ep, InjectOn inject = InjectOn::Never);
  std::string name() const override { return "ofi"; }
  void isend(const ompisim::mpi::P2P& m, Completion done) override;
  void irecv(const ompisim::mpi::P2P& m, Completion done) override;
  std::uint32_t max_contextid() const override { return 0; }  // see LIMITATIONS
  std::uint64_t unexpected_now() const override { return ep_.unexpected_now(); }
  std::uint64_t posted_now() const override { return ep_.posted_now(); }
  void add_counters(std::map<std::string, std::uint64_t>& c) const override;
  std::vector<std::string> idle_components() const override { return ep_.idle_providers(); }

private:
  void on_cq(const ompisim::ofi::CqEntry& e);
  ompisim::ofi::Endpoint& ep_;
  InjectOn inject_;
  struct Op {  // an MTL request: the operation context of fi_tsend / fi_trecv
    int rank = 0;
    std::uint64_t bytes = 0;
    ompisim::mpi::Status* status = nullptr;
    Completion done;
  };
  ompisim::mpi::RequestTable<Op> ops_;
};

}  // namespace ompisim::mtl::ofi
