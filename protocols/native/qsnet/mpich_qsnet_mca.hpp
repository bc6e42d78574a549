// native/mpich_qsnet (MPICH-QsNetII over Tport) and native/elan4_qdma (the raw libelan4 QDMA test program): their
// run-time settings, declared beside the components.
#pragma once
#include "core/params.hpp"

namespace ompisim::native {

struct MpichQsnetMca : ParamTable<MpichQsnetMca> {
  Sourced mpich_qsnet_eager_limit;

  MpichQsnetMca() { set_defaults(); }
  static const ParamRows<MpichQsnetMca>& rows() {
    static const ParamRows<MpichQsnetMca> r{
        {&MpichQsnetMca::mpich_qsnet_eager_limit, 2016, "assumption: Tport carries a message inline with its 32-byte "
         "envelope (qsnet-elan4 paper §6.5) up to one 2 KB packet; Tport's real threshold is not in the sources",
         {"mpich_qsnet_eager_limit", Dim::Bytes, "largest message Tport sends inline with its envelope (above: "
          "NIC-driven rendezvous)", 0, 1 << 20}},
    };
    return r;
  }
};

struct Elan4QdmaMca : ParamTable<Elan4QdmaMca> {
  Sourced elan4_qdma_extra_bytes;

  Elan4QdmaMca() { set_defaults(); }
  static const ParamRows<Elan4QdmaMca>& rows() {
    static const ParamRows<Elan4QdmaMca> r{
        {&Elan4QdmaMca::elan4_qdma_extra_bytes, 0, "paper §6.3: Fig. 9 compares PTL/Elan4 with N bytes to a QDMA of "
         "64 + N bytes (set 64)",
         {"elan4_qdma_extra_bytes", Dim::Bytes, "bytes added to every message (the Open MPI header, for Fig. 9's "
          "comparison)", 0, 2048}},
    };
    return r;
  }
};

}  // namespace ompisim::native
