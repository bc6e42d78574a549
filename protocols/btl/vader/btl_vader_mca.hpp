// btl/vader: its software parameters, declared beside the component as opal/mca/btl/vader/btl_vader_component.c mca_btl_vader_component_register declares
// them: full MCA (or lower-cased Cray MPT environment) name, default with its source, dimension, range, description.
// The component registers it as its parameter block (its *_component.cpp: param_block<...>()); a run holds one block
// per component (protocols/base/mca_params.hpp) and the component reads only its own (mca.get<...>()).
#pragma once
#include "core/params.hpp"

#include <cstdint>

namespace ompisim::btl::vader {

struct VaderMca : ParamTable<VaderMca> {
  Sourced btl_vader_max_inline_send, btl_vader_eager_limit, btl_vader_xpmem_attach_granularity;

  VaderMca() { set_defaults(); }
  static const ParamRows<VaderMca>& rows() {
    static const ParamRows<VaderMca> r{
        {&VaderMca::btl_vader_max_inline_send, 256, "Gemini paper §III.B (lock-free per-peer queues below 256 bytes); "
         "Open MPI btl_vader_component.c max_inline_send = 256",
         {"btl_vader_max_inline_send", Dim::Bytes, "header + data below this are copied in (fast box); above, single "
          "copy", 0, 1 << 20}},
        {&VaderMca::btl_vader_eager_limit, 32768, "Open MPI v1.8.8 btl_vader_component.c: with the XPMEM single-copy "
         "mechanism eager_limit = rndv_eager_limit = max_send_size = min_rdma_pipeline_size = 32 KiB (4 KiB without a "
         "single-copy mechanism; 64 KiB in the paper's 2012 trunk)",
         {"btl_vader_eager_limit", Dim::Bytes, "vader eager limit", 64, 1 << 24}},
        {&VaderMca::btl_vader_xpmem_attach_granularity, 2097152, "Gemini paper §III.B (attach at least 2 MB)",
         {"btl_vader_xpmem_attach_granularity", Dim::Bytes, "xpmem_attach region size", 4096, 1LL << 40}},
    };
    return r;
  }
};

}  // namespace ompisim::btl::vader
