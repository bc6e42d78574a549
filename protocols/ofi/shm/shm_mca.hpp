// ofi/shm: the libfabric shm provider's compile-time limit, declared beside the provider as an MCA-style parameter.
#pragma once
#include "core/params.hpp"

namespace ompisim::ofi::shm {

struct ShmMca : ParamTable<ShmMca> {
  Sourced shm_inject_size;

  ShmMca() { set_defaults(); }
  static const ParamRows<ShmMca>& rows() {
    static const ParamRows<ShmMca> r{
        {&ShmMca::shm_inject_size, 4096, "libfabric shm provider SMR_INJECT_SIZE = 4096 (prov/shm/src/smr_util.h, "
         "status M)",
         {"shm_inject_size", Dim::Bytes, "shm provider inject (copy in/out) limit", 0, 1e9}},
    };
    return r;
  }
};

}  // namespace ompisim::ofi::shm
