// The effective SMSG limit of a Gemini stack: the one home of the rule that resolves "auto" for a job size. A setting
// of 0 (btl_ugni_smsg_limit in Open MPI's btl/ugni, MPICH_GNI_MAX_VSHORT_MSG_SIZE unset in Cray MPT) takes Table I
// of the Gemini paper by job size; a positive setting is used as given. Used by btl/ugni (its module, its report and
// the mailbox what-if) and native/mpich_gni, and recorded in a run's provenance ("<parameter> (effective)").
#pragma once
#include <cstdint>

namespace ompisim {

// Table I of the Gemini paper: the SMSG limit chosen from the job size.
inline double ugni_auto_smsg_limit(long long nranks) {
  if (nranks < 256) return 8192;
  if (nranks < 1024) return 1024;
  if (nranks < 16384) return 512;
  return 256;
}

// `setting` when positive, else ugni_auto_smsg_limit(nranks): msg_maxsize of one SMSG message, header included.
inline std::uint64_t effective_smsg_limit(double setting, long long nranks) {
  return static_cast<std::uint64_t>(setting > 0 ? setting : ugni_auto_smsg_limit(nranks));
}

}  // namespace ompisim
