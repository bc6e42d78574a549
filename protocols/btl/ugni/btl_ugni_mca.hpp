// btl/ugni: its software parameters, declared beside the component as opal/mca/btl/ugni/btl_ugni_component.c btl_ugni_component_register declares
// them: full MCA (or lower-cased Cray MPT environment) name, default with its source, dimension, range, description.
// The component registers it as its parameter block (its *_component.cpp: param_block<...>()); a run holds one block
// per component (protocols/base/mca_params.hpp) and the component reads only its own (mca.get<...>()).
#pragma once
#include "core/params.hpp"
#include "protocols/base/smsg_auto_limit.hpp"

#include <algorithm>
#include <cstdint>

namespace ompisim::btl::ugni {

struct UgniMca : ParamTable<UgniMca> {
  Sourced btl_ugni_smsg_limit, btl_ugni_eager_limit, btl_ugni_eager_num, btl_ugni_eager_inc, btl_ugni_eager_max,
      btl_ugni_fma_limit, btl_ugni_get_limit, btl_ugni_smsg_max_credits;

  UgniMca() { set_defaults(); }
  static const ParamRows<UgniMca>& rows() {
    static const ParamRows<UgniMca> r{
        {&UgniMca::btl_ugni_smsg_limit, 0,
         "0 = auto by job size (Open MPI trunk r26242 btl_ugni_component.c, mca_btl_ugni_component_init: 1024 up to "
         "1024 ranks, 512 up to 16384, 256 above)",
         {"btl_ugni_smsg_limit", Dim::Bytes, "largest SMSG message, ob1's header (32 B on a MATCH) included; 0 = auto by job size", 0, 65536}},
        {&UgniMca::btl_ugni_eager_limit, 8192, "Open MPI btl_ugni_component.c (btl_eager_limit = 8 KiB)",
         {"btl_ugni_eager_limit", Dim::Bytes, "ugni eager (SMSG or eager-get) limit, ob1's header (32 B on a MATCH) included", 64, 1 << 24}},
        {&UgniMca::btl_ugni_eager_num, 16, "Gemini paper §IV.C (eager buffer pool: 16)",
         {"btl_ugni_eager_num", Dim::Count, "initial eager-get buffers", 1, 1 << 20}},
        {&UgniMca::btl_ugni_eager_inc, 16, "Gemini paper §IV.C (increments of 16)",
         {"btl_ugni_eager_inc", Dim::Count, "eager-get buffer pool increment", 1, 1 << 20}},
        {&UgniMca::btl_ugni_eager_max, 64, "Gemini paper §IV.C (maximum 64)",
         {"btl_ugni_eager_max", Dim::Count, "eager-get buffer pool maximum", 1, 1 << 20}},
        {&UgniMca::btl_ugni_fma_limit, 4095, "Open MPI trunk r26242 btl_ugni_component.c (fma_limit = 4 * 1024 - 1)",
         {"btl_ugni_fma_limit", Dim::Bytes, "RDMA up to this size uses FMA, above BTE (the eager get's FMA GET at any size). FMA "
          "data share the host interfaces and links with other transfers, as BTE data do, but take no BTE "
          "(models/gemini/README.md)", 0, 1 << 30}},
        {&UgniMca::btl_ugni_get_limit, 524288, "Open MPI trunk r26242 btl_ugni_component.c (get_limit = 512 * 1024)",
         {"btl_ugni_get_limit", Dim::Bytes, "largest GET; above it, or for a length not a multiple of 4 B, the PUT fallback", 0, 1LL << 40}},
        {&UgniMca::btl_ugni_smsg_max_credits, 32, "Open MPI btl_ugni_component.c (smsg_max_credits = 32)",
         {"btl_ugni_smsg_max_credits", Dim::Count, "SMSG credits per peer", 1, 4096}},
    };
    return r;
  }
};

// The SMSG limit btl/ugni uses for a job of `nranks`: btl_ugni_smsg_limit when positive, else the automatic rule of the
// revision the model follows (ugni_r26242_auto_smsg_limit, protocols/base/smsg_auto_limit.hpp; the paper's Table I is
// the next revision's rule).
inline std::uint64_t effective_smsg_limit(const UgniMca& mca, long long nranks) {
  return ompisim::effective_smsg_limit(mca.btl_ugni_smsg_limit.get(), nranks, ugni_r26242_auto_smsg_limit);
}

// The largest message SMSG carries in a job of `nranks`: the SMSG limit, capped by btl_ugni_eager_limit (btl/ugni's
// max_send_size: no fragment larger than the eager limit reaches SMSG). The value `describe` and a run's provenance
// show as "btl_ugni_smsg_limit (effective)"; the mailboxes are still sized by effective_smsg_limit (msg_maxsize).
inline std::uint64_t smsg_payload_limit(const UgniMca& mca, long long nranks) {
  return std::min(effective_smsg_limit(mca, nranks), static_cast<std::uint64_t>(mca.btl_ugni_eager_limit.get()));
}

}  // namespace ompisim::btl::ugni
