// btl/portals: its software parameters, declared beside the component as ompi/mca/btl/portals/btl_portals_component.c declares
// them: full MCA (or lower-cased Cray MPT environment) name, default with its source, dimension, range, description.
// The component registers it as its parameter block (its *_component.cpp: param_block<...>()); a run holds one block
// per component (protocols/base/mca_params.hpp) and the component reads only its own (mca.get<...>()).
#pragma once
#include "core/params.hpp"

#include <cstdint>

namespace ompisim::btl::portals {

struct BtlPortalsMca : ParamTable<BtlPortalsMca> {
  Sourced btl_portals_eager_limit, btl_portals_max_send_size, btl_portals_recv_block_size,
      btl_portals_max_pending_ops, btl_portals_eager_frag_limit, btl_portals_needs_ack,
      btl_portals_send_end_event, btl_portals_peer_window;

  BtlPortalsMca() { set_defaults(); }
  static const ParamRows<BtlPortalsMca>& rows() {
    static const ParamRows<BtlPortalsMca> r{
        {&BtlPortalsMca::btl_portals_eager_limit, 32768, "seastar-portals paper §2.1: the OB1 eager limit is 32K bytes",
         {"btl_portals_eager_limit", Dim::Bytes, "btl/portals eager limit (ob1 rendezvous above)", 64, 1 << 30}},
        {&BtlPortalsMca::btl_portals_max_send_size, 32768, "open-mpi/ompi btl/portals configure.params: max_send "
         "32768 (hardware-sources.md §4, V)",
         {"btl_portals_max_send_size", Dim::Bytes, "btl/portals largest fragment", 64, 1 << 30}},
        {&BtlPortalsMca::btl_portals_recv_block_size, 10485760, "open-mpi/ompi v1.3-era "
         "ompi/mca/btl/portals/btl_portals_component.c: recv_md_size 10 * 1024 * 1024 (recv_md_num 3)",
         {"btl_portals_recv_block_size", Dim::Bytes, "btl/portals receive block", 65536, 1LL << 34}},
        {&BtlPortalsMca::btl_portals_max_pending_ops, 8192, "open-mpi/ompi v1.3-era "
         "ompi/mca/btl/portals/btl_portals_component.c: max_pending_ops 8 * 1024 (send and RDMA fragments outstanding "
         "per process; the send event queue holds 2 events each, end and ACK); further sends wait in "
         "portals_queued_sends",
         {"btl_portals_max_pending_ops", Dim::Count, "btl/portals fragments outstanding per process (sent, not yet "
          "completed)", 1, 1 << 20}},
        {&BtlPortalsMca::btl_portals_eager_frag_limit, 32, "open-mpi/ompi v1.2 to v1.3.4 "
         "ompi/mca/btl/portals/btl_portals_component.c: eager_frag_limit 32 (\"Maximum number of pre-pinned eager "
         "fragments\", portals_free_list_eager_max_num); btl_portals_frag.h OMPI_BTL_PORTALS_FRAG_ALLOC_EAGER falls "
         "back to a max-size fragment when the eager list is empty",
         {"btl_portals_eager_frag_limit", Dim::Count, "btl/portals pre-pinned eager fragments per process (their MD "
          "is bound once)", 0, 1 << 20}},
        {&BtlPortalsMca::btl_portals_needs_ack, 1, "open-mpi/ompi v1.3-era "
         "ompi/mca/btl/portals/btl_portals_component.c: needs_ack 1 (\"Require a portals level ACK\", default true): "
         "every send fragment is PtlPut with PTL_ACK_REQ, its SEND_END disabled, and it completes (des_cbfunc) on "
         "PTL_EVENT_ACK; with 0, PTL_NOACK_REQ and completion on SEND_END",
         {"btl_portals_needs_ack", Dim::Count, "1: send fragments ask a Portals ACK and complete on it; 0: no ACK, "
          "complete on SEND_END", 0, 1}},
        {&BtlPortalsMca::btl_portals_send_end_event, 0, "open-mpi/ompi v1.3.4 "
         "ompi/mca/btl/portals/btl_portals_send.c:72-76 (optimized build): the send MD adds "
         "PTL_MD_EVENT_END_DISABLE when portals_need_ack is set, so only the ACK is read. Not an Open MPI parameter: "
         "it selects the code version (the 2007 trunk sets only PTL_MD_EVENT_START_DISABLE, btl_portals_send.c:64-65 "
         "at d109e9a6f4, and v1.3 debug builds keep the END event too)",
         {"btl_portals_send_end_event", Dim::Count, "1: a send fragment's MD posts SEND_END even when it asks an ACK, "
          "and progress reads both (2007 trunk); 0: SEND_END disabled under ACKs (v1.3 optimized build)", 0, 1}},
        {&BtlPortalsMca::btl_portals_peer_window, 0, "none in Open MPI: btl/portals of v1.2.8 and of the 2007 trunk "
         "(d109e9a6f4) keeps no per-peer state (btl_portals_endpoint.h: the endpoint is a bare ptl_process_id_t); its "
         "limits are process-wide (max_pending_ops, btl_portals_send.c:48; eager_frag_limit; the receive blocks' "
         "threshold eq_recv_size / (2 recv_md_num), btl_portals_recv.h, 08747dcaf8 and 9cab1bb54a: 'throttle incoming "
         "sends so that we don't overrun the incoming queue size'). 0 here is Open MPI's code; the seastar-portals "
         "paper §3 says 'The OB1 message rate is nearly half of the other implementations, due to both protocol "
         "overhead and rate limiting to ensure message reliability', and a value above 0 models that sentence as a "
         "window per peer, fitted on it (a calibration, runner/stacks.cpp openmpi-ob1 on seastar)",
         {"btl_portals_peer_window", Dim::Count, "btl/portals fragments outstanding (sent, completion not yet read) "
          "to one peer; further sends to it wait in the process's FIFO. 0: no per-peer window (Open MPI)", 0,
          1 << 20}},
    };
    return r;
  }
};

}  // namespace ompisim::btl::portals
