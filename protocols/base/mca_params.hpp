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
  Sourced btl_vader_fbox_max{256, "Gemini paper §III.B (fast boxes below 256 bytes)"};
  Sourced btl_vader_eager_limit{4096, "Open MPI v1.8 btl_vader_component.c (eager_limit = 4 KiB)"};
  Sourced btl_vader_xpmem_attach_granularity{2097152, "Gemini paper §III.B (attach at least 2 MB)"};
  Sourced mpich_gni_max_vshort_msg_size{0, "0 = auto by job size; Cray intro_mpi(3) (memory, status M)"};
  Sourced mpich_gni_max_eager_msg_size{8192, "Cray intro_mpi(3) MPICH_GNI_MAX_EAGER_MSG_SIZE (status M)"};
  Sourced mpich_gni_rdma_threshold{1024, "Cray intro_mpi(3) MPICH_GNI_RDMA_THRESHOLD (status M)"};
  Sourced mpich_smp_single_copy_size{8192, "Cray intro_mpi(3) MPICH_SMP_SINGLE_COPY_SIZE (status M)"};

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
    v(btl_vader_fbox_max, {"btl_vader_fbox_max", Dim::Bytes, "messages below this use fast boxes", 0, 1 << 20});
    v(btl_vader_eager_limit, {"btl_vader_eager_limit", Dim::Bytes, "vader eager limit", 64, 1 << 24});
    v(btl_vader_xpmem_attach_granularity,
      {"btl_vader_xpmem_attach_granularity", Dim::Bytes, "xpmem_attach region size", 4096, 1LL << 40});
    v(mpich_gni_max_vshort_msg_size,
      {"mpich_gni_max_vshort_msg_size", Dim::Bytes, "Cray MPT SMSG limit; 0 = auto by job size", 0, 65536});
    v(mpich_gni_max_eager_msg_size, {"mpich_gni_max_eager_msg_size", Dim::Bytes, "Cray MPT eager limit", 0, 1 << 24});
    v(mpich_gni_rdma_threshold, {"mpich_gni_rdma_threshold", Dim::Bytes, "Cray MPT FMA->BTE threshold", 0, 1 << 24});
    v(mpich_smp_single_copy_size,
      {"mpich_smp_single_copy_size", Dim::Bytes, "Cray MPT on-node XPMEM single-copy threshold", 0, 1 << 30});
  }
};

// Table I of the Gemini paper: the ugni SMSG limit chosen from the job size when btl_ugni_smsg_limit is 0.
inline double ugni_auto_smsg_limit(long long nranks) {
  if (nranks < 256) return 8192;
  if (nranks < 1024) return 1024;
  if (nranks < 16384) return 512;
  return 256;
}

}  // namespace ompisim
