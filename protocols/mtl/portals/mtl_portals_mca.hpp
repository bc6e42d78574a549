// mtl/portals: its software parameters, declared beside the component as ompi/mca/mtl/portals/mtl_portals_component.c declares
// them: full MCA (or lower-cased Cray MPT environment) name, default with its source, dimension, range, description.
// The component registers it as its parameter block (its *_component.cpp: param_block<...>()); a run holds one block
// per component (protocols/base/mca_params.hpp) and the component reads only its own (mca.get<...>()).
#pragma once
#include "core/params.hpp"

#include <cstdint>

namespace ompisim::mtl::portals {

struct MtlPortalsMca : ParamTable<MtlPortalsMca> {
  Sourced mtl_portals_eager_limit, mtl_portals_short_block_size, mtl_portals_short_blocks,
      mtl_portals_num_copy_blocks, mtl_portals_copy_block_len;

  MtlPortalsMca() { set_defaults(); }
  static const ParamRows<MtlPortalsMca>& rows() {
    static const ParamRows<MtlPortalsMca> r{
        {&MtlPortalsMca::mtl_portals_eager_limit, 32768, "seastar-portals paper §2.1: unexpected short messages are "
         "below 32K (the later mtl_portals_component.c default is 128 KiB)",
         {"mtl_portals_eager_limit", Dim::Bytes, "mtl/portals short/long cut-off", 0, 1 << 30}},
        {&MtlPortalsMca::mtl_portals_short_block_size, 15728640, "open-mpi/ompi mtl_portals_component.c: "
         "short-receive blocks of 15 MiB (hardware-sources.md §4, V)",
         {"mtl_portals_short_block_size", Dim::Bytes, "mtl/portals unexpected short block", 65536, 1LL << 34}},
        {&MtlPortalsMca::mtl_portals_short_blocks, 3, "open-mpi/ompi mtl_portals_component.c: 3 short-receive blocks "
         "(hardware-sources.md §4, V)",
         {"mtl_portals_short_blocks", Dim::Count, "mtl/portals unexpected short blocks", 1, 1024}},
        {&MtlPortalsMca::mtl_portals_num_copy_blocks, 256, "open-mpi/ompi mtl_portals_component.c: num_copy_blocks "
         "256 (hardware-sources.md §4, V); mtl_portals_send_short.c",
         {"mtl_portals_num_copy_blocks", Dim::Count, "mtl/portals send copy blocks per process (0: no copies, every "
          "short send from the user buffer)", 0, 1 << 20}},
        {&MtlPortalsMca::mtl_portals_copy_block_len, 8192, "open-mpi/ompi mtl_portals_component.c: copy_block_len "
         "8192 (hardware-sources.md §4, V): a send of up to this many bytes is copied into a copy block and complete "
         "at once",
         {"mtl_portals_copy_block_len", Dim::Bytes, "mtl/portals largest send copied into a copy block", 0, 1 << 30}},
    };
    return r;
  }
};

}  // namespace ompisim::mtl::portals
