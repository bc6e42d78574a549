// mtl/ofi and Cray MPICH's OFI netmod: which sends go out with fi_tinject when they fit (host memory, at most the
// endpoint's inject size), declared beside the component that reads each (mtl_ofi_component.cpp,
// native/mpich_cxi_component.cpp).
#pragma once
#include "core/params.hpp"

namespace ompisim::mtl::ofi {

struct MtlOfiMca : ParamTable<MtlOfiMca> {
  Sourced ompi_mtl_ofi_inject;

  MtlOfiMca() { set_defaults(); }
  static const ParamRows<MtlOfiMca>& rows() {
    static const ParamRows<MtlOfiMca> r{
        {&MtlOfiMca::ompi_mtl_ofi_inject, 1, "Open MPI v5.0.0rc11 (the paper's base, slingshot-ex §IV), "
         "ompi/mca/mtl/ofi/mtl_ofi.h: ompi_mtl_ofi_send_generic (MPI_Send) sends a non-accelerator buffer of at most "
         "ompi_mtl_ofi.max_inject_size (= the provider's tx_attr->inject_size, mtl_ofi_component.c) with fi_tinject / "
         "fi_tinjectdata and returns; ompi_mtl_ofi_isend_generic always uses fi_tsend (fi_tinject in isend came with "
         "703d45a0cc, first in v5.0.0rc12)",
         {"ompi_mtl_ofi_inject", Dim::Count, "Open MPI mtl/ofi sends that use fi_tinject", 0, 2, {"never", "blocking",
          "every"}}},
    };
    return r;
  }
};

// Cray MPICH's collective tunables that the model reads (intro_mpi(3) names them; the values are the defaults that
// MPICH_ENV_DISPLAY=1 prints for Cray MPICH 8.1.17 on Crusher, the paper's machine, one release before the paper's
// 8.1.23). Declared to the decision table by the native stack (Stack::coll_tunables, collectives/decision.hpp).
inline constexpr const char* kCrayMpichEnvDisplay =
    "Cray MPICH 8.1.17 on OLCF Crusher, MPICH_ENV_DISPLAY=1 output, 'MPICH/COLLECTIVE environment settings' "
    "(merthidayetoglu/Bisection_Bandwidth_Tester results/crusher_output.md, January 2023)";

struct MpichOfiMca : ParamTable<MpichOfiMca> {
  Sourced mpich_ofi_inject;
  Sourced mpich_bcast_only_tree, mpich_bcast_internode_radix, mpich_bcast_intranode_radix;

  MpichOfiMca() { set_defaults(); }
  static const ParamRows<MpichOfiMca>& rows() {
    static const ParamRows<MpichOfiMca> r{
        {&MpichOfiMca::mpich_ofi_inject, 2, "MPICH v3.4a2 (the ANL base of Cray MPICH 8.1.x), "
         "src/mpid/ch4/netmod/ofi/ofi_send.h: MPIDI_OFI_send sends a contiguous, non-synchronous message of at most "
         "MPIDI_OFI_global.max_buffered_send (= tx_attr->inject_size) with fi_tinjectdata and completes it when the "
         "call returns (MPIDI_OFI_send_lightweight[_request]), MPI_Send and MPI_Isend alike",
         {"mpich_ofi_inject", Dim::Count, "Cray MPICH OFI netmod sends that use fi_tinject", 0, 2, {"never",
          "blocking", "every"}}},
        {&MpichOfiMca::mpich_bcast_only_tree, 1,
         std::string("MPICH_BCAST_ONLY_TREE = 1: ") + kCrayMpichEnvDisplay +
             "; intro_mpi(3), recalled (its text not readable here, status M): 1 makes MPI_Bcast use the SMP-aware "
             "tree at every message size, 0 the size-dependent algorithms (tree, scatter + allgather)",
         {"mpich_bcast_only_tree", Dim::Count,
          "Cray MPICH MPICH_BCAST_ONLY_TREE: MPI_Bcast by the SMP-aware tree at every size (1) or MPICH's "
          "size-dependent choice (0)", 0, 1}},
        {&MpichOfiMca::mpich_bcast_internode_radix, 4,
         std::string("MPICH_BCAST_INTERNODE_RADIX = 4: ") + kCrayMpichEnvDisplay +
             "; intro_mpi(3), recalled (status M): the radix of the SMP-aware bcast tree between nodes",
         {"mpich_bcast_internode_radix", Dim::Count, "Cray MPICH MPICH_BCAST_INTERNODE_RADIX: bcast tree radix between "
          "nodes (the node leaders)", 2, 64}},
        {&MpichOfiMca::mpich_bcast_intranode_radix, 4,
         std::string("MPICH_BCAST_INTRANODE_RADIX = 4: ") + kCrayMpichEnvDisplay +
             "; intro_mpi(3), recalled (status M): the radix of the SMP-aware bcast tree within a node",
         {"mpich_bcast_intranode_radix", Dim::Count,
          "Cray MPICH MPICH_BCAST_INTRANODE_RADIX: bcast tree radix within a node", 2, 64}},
    };
    return r;
  }
};

}  // namespace ompisim::mtl::ofi
