// ofi/shm: the libfabric shm provider's compile-time limit, declared beside the provider as an MCA-style parameter.
#pragma once
#include "core/params.hpp"

namespace ompisim::ofi::shm {

struct ShmMca {
  Sourced shm_inject_size{4096, "libfabric shm provider SMR_INJECT_SIZE = 4096 (prov/shm/src/smr_util.h, status M)"};

  template <class V>
  void visit(V&& v) {
    v(shm_inject_size, {"shm_inject_size", Dim::Bytes, "shm provider inject (copy in/out) limit", 0, 1e9});
  }
};

}  // namespace ompisim::ofi::shm
