// The effective SMSG limit of a Gemini stack: the one home of the rules that resolve "auto" for a job size. A setting
// of 0 (btl_ugni_smsg_limit in Open MPI's btl/ugni, MPICH_GNI_MAX_VSHORT_MSG_SIZE unset in Cray MPT) takes its
// library's rule by job size; a positive setting is used as given. Used by btl/ugni (its module, its report and the
// mailbox what-if) with the r26242 rule and by native/mpich_gni with Table I, and recorded in a run's provenance
// ("<parameter> (effective)").
#pragma once
#include <cstdint>

namespace ompisim {

// A rule: the SMSG limit chosen from the job size.
using SmsgAutoRule = double (*)(long long nranks);

// Table I of the Gemini paper (Open MPI trunk from r26262 on; the model's rule for Cray MPT's vshort limit, "as is the
// case with the MPICH2 implementation").
inline double ugni_auto_smsg_limit(long long nranks) {
  if (nranks < 256) return 8192;
  if (nranks < 1024) return 1024;
  if (nranks < 16384) return 512;
  return 256;
}

// Open MPI trunk r26242 (bd8b4f7f1e) btl_ugni_component.c mca_btl_ugni_component_init, the btl/ugni revision the model
// follows (validation/notes.md, "Which btl/ugni the Gemini paper measured"): 1024 up to 1024 ranks, 512 up to 16384,
// 256 above.
inline double ugni_r26242_auto_smsg_limit(long long nranks) {
  if (nranks <= 1024) return 1024;
  if (nranks <= 16384) return 512;
  return 256;
}

// `setting` when positive, else rule(nranks): msg_maxsize of one SMSG message, header included.
inline std::uint64_t effective_smsg_limit(double setting, long long nranks, SmsgAutoRule rule) {
  return static_cast<std::uint64_t>(setting > 0 ? setting : rule(nranks));
}

}  // namespace ompisim
