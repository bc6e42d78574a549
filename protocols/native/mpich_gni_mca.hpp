// native/mpich_gni (Cray MPT: MPICH2 uGNI netmod + Nemesis shared memory): its environment variables (MPICH_GNI_*,
// MPICH_SMP_*, lower-cased), declared beside the component as Open MPI's component register functions declare theirs:
// name, default with its source (Cray intro_mpi(3)), dimension, range, description.
// The component registers it as its parameter block (its *_component.cpp: param_block<...>()); a run holds one block
// per component (protocols/base/mca_params.hpp) and the component reads only its own (mca.get<...>()).
#pragma once
#include "core/params.hpp"
#include "protocols/base/smsg_auto_limit.hpp"

#include <cstdint>

namespace ompisim::native {

struct MpichGniMca : ParamTable<MpichGniMca> {
  Sourced mpich_gni_max_vshort_msg_size, mpich_gni_max_eager_msg_size, mpich_gni_rdma_threshold, mpich_gni_num_bufs,
      mpich_smp_single_copy_size, mpich_gni_smsg_credits, mpich_smp_xpmem_attach_granularity,
      mpich_eager_short_size;

  MpichGniMca() { set_defaults(); }
  static const ParamRows<MpichGniMca>& rows() {
    static const ParamRows<MpichGniMca> r{
        {&MpichGniMca::mpich_gni_max_vshort_msg_size, 0, "0 = auto by job size; Cray intro_mpi(3) (memory, status M)",
         {"mpich_gni_max_vshort_msg_size", Dim::Bytes, "Cray MPT SMSG limit; 0 = auto by job size", 0, 65536}},
        {&MpichGniMca::mpich_gni_max_eager_msg_size, 8192, "NERSC, Hopper (Cray XE6) Runtime Tuning Options, Cray MPI "
         "environment variables: MPICH_GNI_MAX_EAGER_MSG_SIZE 'threshold for switching from eager to rendezvous "
         "protocols for inter-node messaging', default 8,192 bytes, range < 131,072 (status V; validation/notes.md, "
         "section Gemini: Cray MPT's large-message and on-node paths, searched)",
         {"mpich_gni_max_eager_msg_size", Dim::Bytes, "Cray MPT inter-node eager limit (SMSG up to the vshort limit, "
          "then E1 through the DMA buffers); rendezvous above", 0, 131071}},
        {&MpichGniMca::mpich_gni_rdma_threshold, 1024, "NERSC, Hopper (Cray XE6) Runtime Tuning Options: "
         "MPICH_GNI_RDMA_THRESHOLD 'threshold where RDMA read/write operations switch from using FMA to BTE', default "
         "1,024 bytes, max 65,536 (status V)",
         {"mpich_gni_rdma_threshold", Dim::Bytes, "Cray MPT FMA->BTE threshold. FMA data share the host interfaces and links "
          "with other transfers, as BTE data do, but take no BTE (models/gemini/README.md)", 0, 65536}},
        {&MpichGniMca::mpich_gni_num_bufs, 64, "NERSC, Hopper (Cray XE6) Runtime Tuning Options: MPICH_GNI_NUM_BUFS "
         "'number of 32K DMA buffers available for each rank to use in eager protocol', default 64 (2M total) (status "
         "V)",
         {"mpich_gni_num_bufs", Dim::Count, "Cray MPT 32 KiB DMA buffers per rank for the E1 eager protocol", 1,
          1 << 16}},
        {&MpichGniMca::mpich_smp_single_copy_size, 8192, "Cray intro_mpi(3) MPICH_SMP_SINGLE_COPY_SIZE (status M)",
         {"mpich_smp_single_copy_size", Dim::Bytes, "Cray MPT on-node XPMEM single-copy threshold", 0, 1 << 30}},
        {&MpichGniMca::mpich_gni_smsg_credits, 32, "assumption: Cray MPT does not document its per-connection SMSG "
         "mailbox credits; taken equal to Open MPI's btl_ugni_smsg_max_credits so that the two stacks differ only in "
         "protocol",
         {"mpich_gni_smsg_credits", Dim::Count, "Cray MPT SMSG credits per connection", 1, 4096}},
        {&MpichGniMca::mpich_smp_xpmem_attach_granularity, 2097152, "assumption: Cray MPT's XPMEM attach granularity "
         "is not documented; taken equal to vader's 2 MiB (Gemini paper §III.B)",
         {"mpich_smp_xpmem_attach_granularity", Dim::Bytes, "Cray MPT xpmem_attach region size", 4096, 1LL << 40}},
        {&MpichGniMca::mpich_eager_short_size, 16, "MPICH2 CH3 src/mpid/ch3/include/mpidpkt.h (the base of Cray "
         "MPT's CH3/Nemesis device): USE_EAGER_SHORT, MPIDI_EAGER_SHORT_SIZE 16, a compile-time constant; MPID_Send "
         "sends a contiguous message of at most this many bytes by MPIDI_CH3_EagerContigShortSend, its data inside "
         "the packet header (status V)",
         {"mpich_eager_short_size", Dim::Bytes, "Cray MPT eager-short limit: data carried in the CH3 packet header, "
          "no eager-contig payload handling", 0, 4096}},
    };
    return r;
  }
};

// The vshort (SMSG) limit Cray MPT uses for a job of `nranks`: mpich_gni_max_vshort_msg_size when positive, else
// Table I of the Gemini paper by job size (ugni_auto_smsg_limit, protocols/base/smsg_auto_limit.hpp). The one
// computation: the stack, `describe` and the run's provenance read it from here.
inline std::uint64_t effective_vshort_limit(const MpichGniMca& mca, long long nranks) {
  return effective_smsg_limit(mca.mpich_gni_max_vshort_msg_size.get(), nranks, ugni_auto_smsg_limit);
}

}  // namespace ompisim::native
