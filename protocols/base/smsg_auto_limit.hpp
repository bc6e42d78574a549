// Table I of the Gemini paper: the SMSG limit chosen from the job size when it is left on auto (btl_ugni_smsg_limit = 0
// in Open MPI's btl/ugni, MPICH_GNI_MAX_VSHORT_MSG_SIZE unset in Cray MPT). Shared by both Gemini stacks.
#pragma once

namespace ompisim {

inline double ugni_auto_smsg_limit(long long nranks) {
  if (nranks < 256) return 8192;
  if (nranks < 1024) return 1024;
  if (nranks < 16384) return 512;
  return 256;
}

}  // namespace ompisim
