// ofi/cxi: the CXI provider's environment settings (fi_cxi(7) FI_CXI_*), declared beside the provider as MCA-style
// parameters with the defaults of the libfabric the model follows (1.15.2, Cray MPICH's; the Apr 2023 ornl-branch of
// Open MPI is as old). A machine whose libfabric differs sets them in its "mca_defaults" (crusher-libfabric2); a
// what-if sets them there too (crusher-oflow1, crusher-swmatch).
#pragma once
#include "core/params.hpp"

namespace ompisim::ofi::cxi {

struct CxiMca : ParamTable<CxiMca> {
  Sourced fi_cxi_rdzv_threshold, fi_cxi_rdzv_get_min, fi_cxi_rdzv_eager_size, fi_cxi_oflow_buf_size,
      fi_cxi_oflow_buf_count, fi_cxi_rx_match_mode;

  CxiMca() { set_defaults(); }
  static const ParamRows<CxiMca>& rows() {
    static const ParamRows<CxiMca> r{
        {&CxiMca::fi_cxi_rdzv_threshold, 2048, "CXIP_RDZV_THRESHOLD in older CXI headers (hardware-sources.md §2c, "
         "V); libfabric 1.15.2 (Cray MPICH) and the Apr 2023 ornl-branch (Open MPI) predate libfabric 2.x's 16 KiB",
         {"fi_cxi_rdzv_threshold", Dim::Bytes, "CXI rendezvous threshold: a send of at most this plus fi_cxi_rdzv_get_min "
          "goes eager (fi_cxi(7), FI_CXI_RDZV_GET_MIN)", 0, 1e9}},
        {&CxiMca::fi_cxi_rdzv_get_min, 2049, "prov/cxi/src/cxip_info.c default (hardware-sources.md §2c, V)",
         {"fi_cxi_rdzv_get_min", Dim::Bytes, "CXI smallest rendezvous Get; added to fi_cxi_rdzv_threshold for the eager "
          "cut-off", 0, 1e9}},
        {&CxiMca::fi_cxi_rdzv_eager_size, 2048, "fi_cxi(7): FI_CXI_RDZV_EAGER_SIZE defaults to the rendezvous "
         "threshold (status M), 2048 B here; a value of its own, so a --set of fi_cxi_rdzv_threshold leaves it at "
         "2048 B (set both to move the eager part with the threshold)",
         {"fi_cxi_rdzv_eager_size", Dim::Bytes, "CXI bytes sent eagerly with a rendezvous; at most "
          "fi_cxi_rdzv_threshold", 0, 1e9}},
        {&CxiMca::fi_cxi_oflow_buf_size, 2097152, "fi_cxi(7) man page (hardware-sources.md §2c, V; the libfabric 2.x "
         "header says 12 MiB)",
         {"fi_cxi_oflow_buf_size", Dim::Bytes, "CXI overflow buffer size", 4096, 1e10}},
        {&CxiMca::fi_cxi_oflow_buf_count, 3, "fi_cxi(7): FI_CXI_OFLOW_BUF_MIN_POSTED = 3 (hardware-sources.md §2c, V)",
         {"fi_cxi_oflow_buf_count", Dim::Count, "CXI overflow buffers per endpoint", 1, 1e6}},
        {&CxiMca::fi_cxi_rx_match_mode, 0, "fi_cxi(7): FI_CXI_RX_MATCH_MODE defaults to hardware (hardware / software "
         "/ hybrid; hardware-sources.md §2c, V); the what-if machine crusher-swmatch sets software. Under LINKx the "
         "cxi provider matches in software whatever this says (the shared receive queue, fi_lnx(7))",
         {"fi_cxi_rx_match_mode", Dim::Count, "CXI tag matching of the provider alone: in the NIC (hardware) or on "
          "the host (software)", 0, 1, {"hardware", "software"}}},
    };
    return r;
  }
};

// The eager bytes of a rendezvous the provider uses: FI_CXI_RDZV_EAGER_SIZE, lowered to FI_CXI_RDZV_THRESHOLD when
// above it (prov/cxi/src/cxip_info.c cxip_env_init: "Invalid rdzv_eager_size", a warning), so a rendezvous, longer
// than the threshold plus FI_CXI_RDZV_GET_MIN, always leaves at least that minimum to its Get.
inline std::uint64_t effective_rdzv_eager_size(const CxiMca& m) {
  const double eager = m.fi_cxi_rdzv_eager_size.get(), threshold = m.fi_cxi_rdzv_threshold.get();
  return static_cast<std::uint64_t>(eager > threshold ? threshold : eager);
}

}  // namespace ompisim::ofi::cxi
