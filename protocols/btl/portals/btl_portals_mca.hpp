// btl/portals: its software parameters, declared beside the component as ompi/mca/btl/portals/btl_portals_component.c declares
// them: full MCA (or lower-cased Cray MPT environment) name, default with its source, dimension, range, description.
// The component registers it as its parameter block (its *_component.cpp: param_block<...>()); a run holds one block
// per component (protocols/base/mca_params.hpp) and the component reads only its own (mca.get<...>()).
#pragma once
#include "core/params.hpp"

#include <cstdint>

namespace ompisim::btl::portals {

struct BtlPortalsMca {
  Sourced btl_portals_eager_limit{32768, "seastar-portals paper §2.1: the OB1 eager limit is 32K bytes"};
  Sourced btl_portals_max_send_size{32768, "open-mpi/ompi btl/portals configure.params: max_send 32768 (hardware-sources.md §4, V)"};
  Sourced btl_portals_recv_block_size{1048576, "open-mpi/ompi early portals configure values: receive MDs of 1 MiB (hardware-sources.md §4, V)"};
  Sourced btl_portals_send_credits{16, "estimate: fragments in flight per peer before btl/portals waits for ACKs (user-level flow control, paper §2.1); no public default found"};

  template <class V>
  void visit(V&& v) {
    v(btl_portals_eager_limit, {"btl_portals_eager_limit", Dim::Bytes, "btl/portals eager limit (ob1 rendezvous above)", 64, 1 << 30});
    v(btl_portals_max_send_size, {"btl_portals_max_send_size", Dim::Bytes, "btl/portals largest fragment", 64, 1 << 30});
    v(btl_portals_recv_block_size, {"btl_portals_recv_block_size", Dim::Bytes, "btl/portals receive block", 65536, 1LL << 34});
    v(btl_portals_send_credits, {"btl_portals_send_credits", Dim::Count, "btl/portals fragments in flight per peer", 1, 1 << 20});
  }
};

}  // namespace ompisim::btl::portals
