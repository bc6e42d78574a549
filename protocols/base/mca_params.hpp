// Software (MCA and Cray MPT environment) parameters. Unlike physical parameters these have code defaults, each
// citing the Open MPI (or Cray MPT) version and file it comes from. JSON keys are the full MCA names.
#pragma once
#include "core/params.hpp"

namespace ompisim {

struct McaParams {
  Sourced btl_ugni_smsg_limit{0, "0 = auto by job size, Table I of the Gemini paper (btl_ugni_add_procs.c)"};
  Sourced btl_ugni_eager_limit{8192, "Open MPI btl_ugni_component.c (btl_eager_limit = 8 KiB)"};
  Sourced btl_ugni_eager_num{16, "Gemini paper §IV.C (eager buffer pool: 16)"};
  Sourced btl_ugni_eager_inc{16, "Gemini paper §IV.C (increments of 16)"};
  Sourced btl_ugni_eager_max{64, "Gemini paper §IV.C (maximum 64)"};
  Sourced btl_ugni_fma_limit{1024, "Open MPI btl_ugni_component.c (fma_limit = 1024)"};
  Sourced btl_ugni_get_limit{1048576, "Open MPI btl_ugni_component.c (get_limit = 1 MiB)"};
  Sourced btl_ugni_smsg_max_credits{32, "Open MPI btl_ugni_component.c (smsg_max_credits = 32)"};
  Sourced btl_vader_max_inline_send{256, "Gemini paper §III.B (lock-free per-peer queues below 256 bytes); Open MPI btl_vader_component.c max_inline_send = 256"};
  Sourced btl_vader_eager_limit{4096, "Open MPI v1.8 btl_vader_component.c (eager_limit = 4 KiB)"};
  Sourced btl_vader_xpmem_attach_granularity{2097152, "Gemini paper §III.B (attach at least 2 MB)"};
  Sourced mpich_gni_max_vshort_msg_size{0, "0 = auto by job size; Cray intro_mpi(3) (memory, status M)"};
  Sourced mpich_gni_max_eager_msg_size{8192, "Cray intro_mpi(3) MPICH_GNI_MAX_EAGER_MSG_SIZE (status M)"};
  Sourced mpich_gni_rdma_threshold{1024, "Cray intro_mpi(3) MPICH_GNI_RDMA_THRESHOLD (status M)"};
  Sourced mpich_smp_single_copy_size{8192, "Cray intro_mpi(3) MPICH_SMP_SINGLE_COPY_SIZE (status M)"};
  Sourced mpich_gni_smsg_credits{32, "assumption: Cray MPT does not document its per-connection SMSG mailbox credits; taken equal to Open MPI's btl_ugni_smsg_max_credits so that the two stacks differ only in protocol"};
  Sourced mpich_smp_xpmem_attach_granularity{2097152, "assumption: Cray MPT's XPMEM attach granularity is not documented; taken equal to vader's 2 MiB (Gemini paper §III.B)"};
  // Portals (SeaStar, Catamount)
  Sourced mtl_portals_eager_limit{32768, "seastar-portals paper §2.1: unexpected short messages are below 32K (the later mtl_portals_component.c default is 128 KiB)"};
  Sourced mtl_portals_short_block_size{15728640, "open-mpi/ompi mtl_portals_component.c: short-receive blocks of 15 MiB (hardware-sources.md §4, V)"};
  Sourced mtl_portals_short_blocks{3, "open-mpi/ompi mtl_portals_component.c: 3 short-receive blocks (hardware-sources.md §4, V)"};
  Sourced btl_portals_eager_limit{32768, "seastar-portals paper §2.1: the OB1 eager limit is 32K bytes"};
  Sourced btl_portals_max_send_size{32768, "open-mpi/ompi btl/portals configure.params: max_send 32768 (hardware-sources.md §4, V)"};
  Sourced btl_portals_recv_block_size{1048576, "open-mpi/ompi early portals configure values: receive MDs of 1 MiB (hardware-sources.md §4, V)"};
  Sourced btl_portals_send_credits{16, "estimate: fragments in flight per peer before btl/portals waits for ACKs (user-level flow control, paper §2.1); no public default found"};
  Sourced mpich_max_short_msg_size{128000, "Pritchard & Pagel, How to Use MPI on the Cray XT: MPICH_MAX_SHORT_MSG_SIZE = 128000 (hardware-sources.md §4, V)"};
  Sourced mpich_unex_buffer_size{62914560, "Cray XT intro_mpi: MPICH_UNEX_BUFFER_SIZE = 60 MB (hardware-sources.md §4, M)"};

  template <class V>
  void visit(V&& v) {
    v(btl_ugni_smsg_limit, {"btl_ugni_smsg_limit", Dim::Bytes, "largest SMSG message; 0 = auto (Table I)", 0, 65536});
    v(btl_ugni_eager_limit, {"btl_ugni_eager_limit", Dim::Bytes, "ugni eager (SMSG or eager-get) limit", 64, 1 << 24});
    v(btl_ugni_eager_num, {"btl_ugni_eager_num", Dim::Count, "initial eager-get buffers", 1, 1 << 20});
    v(btl_ugni_eager_inc, {"btl_ugni_eager_inc", Dim::Count, "eager-get buffer pool increment", 1, 1 << 20});
    v(btl_ugni_eager_max, {"btl_ugni_eager_max", Dim::Count, "eager-get buffer pool maximum", 1, 1 << 20});
    v(btl_ugni_fma_limit, {"btl_ugni_fma_limit", Dim::Bytes, "RDMA up to this size uses FMA, above BTE", 0, 1 << 30});
    v(btl_ugni_get_limit, {"btl_ugni_get_limit", Dim::Bytes, "largest GET; above, PUT fallback", 0, 1LL << 40});
    v(btl_ugni_smsg_max_credits, {"btl_ugni_smsg_max_credits", Dim::Count, "SMSG credits per peer", 1, 4096});
    v(btl_vader_max_inline_send, {"btl_vader_max_inline_send", Dim::Bytes, "header + data below this are copied in (fast box); above, single copy", 0, 1 << 20});
    v(btl_vader_eager_limit, {"btl_vader_eager_limit", Dim::Bytes, "vader eager limit", 64, 1 << 24});
    v(btl_vader_xpmem_attach_granularity,
      {"btl_vader_xpmem_attach_granularity", Dim::Bytes, "xpmem_attach region size", 4096, 1LL << 40});
    v(mpich_gni_max_vshort_msg_size,
      {"mpich_gni_max_vshort_msg_size", Dim::Bytes, "Cray MPT SMSG limit; 0 = auto by job size", 0, 65536});
    v(mpich_gni_max_eager_msg_size, {"mpich_gni_max_eager_msg_size", Dim::Bytes, "Cray MPT eager limit", 0, 1 << 24});
    v(mpich_gni_rdma_threshold, {"mpich_gni_rdma_threshold", Dim::Bytes, "Cray MPT FMA->BTE threshold", 0, 1 << 24});
    v(mpich_smp_single_copy_size,
      {"mpich_smp_single_copy_size", Dim::Bytes, "Cray MPT on-node XPMEM single-copy threshold", 0, 1 << 30});
    v(mpich_gni_smsg_credits, {"mpich_gni_smsg_credits", Dim::Count, "Cray MPT SMSG credits per connection", 1, 4096});
    v(mpich_smp_xpmem_attach_granularity,
      {"mpich_smp_xpmem_attach_granularity", Dim::Bytes, "Cray MPT xpmem_attach region size", 4096, 1LL << 40});
    v(mtl_portals_eager_limit, {"mtl_portals_eager_limit", Dim::Bytes, "mtl/portals short/long cut-off", 0, 1 << 30});
    v(mtl_portals_short_block_size, {"mtl_portals_short_block_size", Dim::Bytes, "mtl/portals unexpected short block", 65536, 1LL << 34});
    v(mtl_portals_short_blocks, {"mtl_portals_short_blocks", Dim::Count, "mtl/portals unexpected short blocks", 1, 1024});
    v(btl_portals_eager_limit, {"btl_portals_eager_limit", Dim::Bytes, "btl/portals eager limit (ob1 rendezvous above)", 64, 1 << 30});
    v(btl_portals_max_send_size, {"btl_portals_max_send_size", Dim::Bytes, "btl/portals largest fragment", 64, 1 << 30});
    v(btl_portals_recv_block_size, {"btl_portals_recv_block_size", Dim::Bytes, "btl/portals receive block", 65536, 1LL << 34});
    v(btl_portals_send_credits, {"btl_portals_send_credits", Dim::Count, "btl/portals fragments in flight per peer", 1, 1 << 20});
    v(mpich_max_short_msg_size, {"mpich_max_short_msg_size", Dim::Bytes, "Cray MPI (Portals) eager limit; rendezvous above", 0, 1LL << 34});
    v(mpich_unex_buffer_size, {"mpich_unex_buffer_size", Dim::Bytes, "Cray MPI unexpected-message buffer", 65536, 1LL << 36});
  }
};

// Table I of the Gemini paper: the ugni SMSG limit chosen from the job size when btl_ugni_smsg_limit is 0.
inline double ugni_auto_smsg_limit(long long nranks) {
  if (nranks < 256) return 8192;
  if (nranks < 1024) return 1024;
  if (nranks < 16384) return 512;
  return 256;
}

// The SMSG limit btl/ugni uses: btl_ugni_smsg_limit when set, else Table I by job size.
inline std::uint64_t ugni_smsg_limit(const McaParams& mca, long long nranks) {
  double v = mca.btl_ugni_smsg_limit.value;
  return static_cast<std::uint64_t>(v > 0 ? v : ugni_auto_smsg_limit(nranks));
}

}  // namespace ompisim
