// native/mpich_portals (Cray MPI over Portals, XT MPT): its environment variables (lower-cased), declared beside the
// component as Open MPI's component register functions declare theirs: name, default with its source, dimension,
// range, description.
// The component registers it as its parameter block (its *_component.cpp: param_block<...>()); a run holds one block
// per component (protocols/base/mca_params.hpp) and the component reads only its own (mca.get<...>()).
#pragma once
#include "core/params.hpp"

#include <cstdint>

namespace ompisim::native {

struct MpichPortalsMca : ParamTable<MpichPortalsMca> {
  Sourced mpich_max_short_msg_size, mpich_unex_buffer_size;

  MpichPortalsMca() { set_defaults(); }
  static const ParamRows<MpichPortalsMca>& rows() {
    static const ParamRows<MpichPortalsMca> r{
        {&MpichPortalsMca::mpich_max_short_msg_size, 128000, "Pritchard & Pagel, How to Use MPI on the Cray XT: "
         "MPICH_MAX_SHORT_MSG_SIZE = 128000 (hardware-sources.md §4, V)",
         {"mpich_max_short_msg_size", Dim::Bytes, "Cray MPI (Portals) eager limit; rendezvous above", 0, 1LL << 34}},
        {&MpichPortalsMca::mpich_unex_buffer_size, 62914560, "Cray XT intro_mpi: MPICH_UNEX_BUFFER_SIZE = 60 MB "
         "(hardware-sources.md §4, M)",
         {"mpich_unex_buffer_size", Dim::Bytes, "Cray MPI unexpected-message buffer", 65536, 1LL << 36}},
    };
    return r;
  }
};

}  // namespace ompisim::native
