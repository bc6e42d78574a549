// btl/ugni eager-get buffer pool (mca_btl_ugni eager free lists): starts with btl_ugni_eager_num registered buffers,
// grows by btl_ugni_eager_inc up to btl_ugni_eager_max; beyond that a request waits until a buffer is returned. The
// shared pool of protocols/base.
#pragma once
#include "protocols/base/buffer_pool.hpp"

namespace ompisim::btl::ugni {

using EagerPool = base::BufferPool;

}  // namespace ompisim::btl::ugni
