// The native comparator: Cray MPT (MPICH2 CH3/Nemesis) with the uGNI netmod (Pritchard et al., EuroMPI'11) on the
// same Gemini hardware and the same physical parameters as Open MPI; only the protocol differs.
//  - inter-node: messages up to the vshort limit (MPICH_GNI_MAX_VSHORT_MSG_SIZE, by job size) go by SMSG straight
//    from the user buffer; larger ones use a rendezvous: RTS over SMSG, the receiver registers its buffer and pulls
//    the data with a BTE GET (FMA below MPICH_GNI_RDMA_THRESHOLD), which needs 4-byte alignment; a misaligned
//    transfer falls back to CTS + PUT by the sender; DONE over SMSG completes the sender;
//  - between the vshort limit and MPICH_GNI_MAX_EAGER_MSG_SIZE (only when the vshort limit is below it: jobs of 256
//    ranks or more on auto) an eager "E1" path: the paper (§II) says MPICH2's uGNI module "uses an eager protocol for
//    small and medium message transfers" and that the uGNI BTL's design "is very similar"; NERSC's Hopper page gives
//    the limit (8,192 B) and MPICH_GNI_NUM_BUFS (64 DMA buffers of 32 KiB per rank "to use in eager protocol"). As the
//    BTL's eager get (paper §III.C): the sender copies the data into a free DMA buffer (its request is then complete),
//    sends the descriptor by SMSG, the receiver pulls it with a GET (FMA or BTE by MPICH_GNI_RDMA_THRESHOLD) into its
//    own registered buffer, SMSGs the sender that the buffer is free, and the data then matches as eager data. With
//    no free buffer a send waits, in order, for one to come back. ASSUMPTIONS (Cray's netmod is not public): one
//    buffer per message, the receiver's side of the pull not bounded;
//  - on the node: Nemesis copy-in/copy-out through shared cells up to MPICH_SMP_SINGLE_COPY_SIZE, and above it an
//    XPMEM single copy by the receiver after an RTS (LMT), with a DONE back to the sender. Below the single-copy
//    size CH3 has two sends (MPID_Send, mpidpkt.h): up to MPIDI_EAGER_SHORT_SIZE (16 B) the data rides inside the
//    packet header (EAGERSHORT_SEND, no payload handling); above it the eager-contig send puts header and payload
//    in the cell and the receiver's packet handler sets up the payload's unpack. The eager-contig path's own cost is
//    one cost per message (mpt_shm_eager_cost, fitted); its cost per byte is the two copies at the node's copy
//    bandwidth, as every copy in the model.
// LIMITATIONS: Cray MPT's event-queue and progress details are not public; the single-copy size comes from
// intro_mpi(3) from memory (status M in hardware-sources.md); the eager limit, RDMA threshold and DMA buffer count
// from NERSC's Hopper tuning page (status V). The eager-short / eager-contig distinction is priced on the node only;
// between nodes MPT's per-byte SMSG rate (mpt_smsg_rate, fitted) carries what its sends cost beyond the mechanisms.
#pragma once
#include "core/statistics.hpp"
#include "models/gemini/gni.hpp"
#include "platform/contexts.hpp"
#include "platform/cpu_timeline.hpp"
#include "platform/memory_copies.hpp"
#include "mpi/stack.hpp"
#include "protocols/native/mpich_gni_mca.hpp"
#include "protocols/native/mpich_gni_msg.hpp"
#include "core/slab.hpp"
#include "protocols/base/buffer_pool.hpp"
#include "protocols/base/xpmem.hpp"
#include "mpi/library.hpp"

#include <algorithm>
#include <unordered_map>

namespace ompisim::native {

// Cray MPT's statistics, declared once (the registry entry and `ompisim describe native/mpich_gni` list them): its
// protocols' counters (reported once counted), then its uGNI communication domain's (always reported).
enum class GniStat : std::uint8_t { ShmEager, ShmLmt, SmsgEager, RndvGet, RndvPutFallback, E1Eager, E1BufferWaits };
inline constexpr std::array<StatisticInfo, 7> kGniProtocolStatistics{{
    {"shm_eager", "messages", "on the node, copy-in/copy-out up to MPICH_SMP_SINGLE_COPY_SIZE", true},
    {"shm_lmt", "messages", "on the node, the large-message transfer (XPMEM single copy)", true},
    {"smsg_eager", "messages", "between nodes, header + data within the SMSG (vshort) limit", true},
    {"rndv_get", "messages", "between nodes, rendezvous: RTS, the receiver's GET", true},
    {"rndv_put_fallback", "messages", "rendezvous GETs that could not be done: the sender PUTs", true},
    {"e1_eager", "messages", "between nodes, E1 eager: a DMA buffer, the receiver's GET", true},
    {"e1_buffer_waits", "sends", "E1 sends that waited for one of MPICH_GNI_NUM_BUFS DMA buffers", true},
}};
enum class GniCdmStat : std::uint8_t { Smsg, SmsgLocalEvents, RdmaGet, RdmaPut, Endpoints };  // read at report time
inline constexpr std::array<StatisticInfo, 5> kGniCdmStatistics{{
    {"smsg", "messages", "SMSG messages sent"},
    {"smsg_local_events", "events", "SMSG acknowledgements reaped from the sender's local CQ"},
    {"rdma_get", "transfers", "RDMA GETs (FMA or BTE)"},
    {"rdma_put", "transfers", "RDMA PUTs (FMA or BTE)"},
    {"endpoints", "endpoints", "uGNI endpoints connected (on demand: one per rank and peer it sends to; a peer that connected to the rank already binds it without a connect of its own)"},
}};

class MpichGni final : public Stack {
public:
  // The parts of the platform it uses: the engine, where ranks run (nodes, cores, memory), their CPU timelines, the
  // node's memory copies (the shared-memory path's copy time) and the job's Gemini NIC (its own Cdm over it).
  MpichGni(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, const MemoryCopies& copies, gemini::Gni& nic,
           const MpichGniMca& mca);
  std::string name() const override { return "native"; }
  void start_send(const mpi::P2P& m, Completion done) override;
  void start_recv(const mpi::P2P& m, Completion done) override;
  void amo_add(int rank, int target, Completion local_done, Completion at_target, AmoVia via) override;
  StackStats stats() const override;
  std::uint32_t max_contextid() const override { return 0xFFFF; }  // MPICH's 16-bit context ids
  std::uint64_t vshort_limit() const { return vshort_; }
  std::size_t messages_in_flight() const { return msgs_.size(); }

private:
  // What MPICH's matching queues hold: the envelope and the index of the message's record.
  struct Msg {
    int src, tag;
    std::uint32_t id;
  };
  // The steps of a message (mpich_gni_msg.hpp): each applies its event to msgs_[id] and starts what the new state needs.
  void on_recv_posted(std::uint64_t rid);                // the receive's CPU cost paid: post or match
  void on_posted(std::uint32_t id);                      // the send's CPU cost paid: the path's START_* event
  void on_registered(std::uint32_t id);                  // REGISTERED (the sender's buffer, rendezvous)
  void on_copied(std::uint32_t id);                      // COPIED (cell, DMA buffer, copy out, XPMEM copy)
  void on_arrived(std::uint32_t id);                     // ARRIVED at the receiver
  void on_cpu_done(std::uint32_t id);                    // CPU_DONE (poll, XPMEM attach, rendezvous receive cost)
  void on_matched(std::uint32_t id, std::uint64_t rid);  // MATCHED_* with receive request rid
  void on_dma_buffer(std::uint32_t id);                  // BUFFER_READY (E1)
  void on_e1_desc(std::uint32_t id);                     // DESC_ARRIVED (E1)
  void on_get_done(std::uint32_t id);                    // GET_DONE (E1 pull or rendezvous GET)
  void on_recv_registered(std::uint32_t id);             // the receive buffer registered: START_GET or the fallback
  void on_cts(std::uint32_t id);                         // CTS_ARRIVED
  void on_put_done(std::uint32_t id);                    // PUT_DONE
  void on_done(std::uint32_t id);                        // DONE_ARRIVED
  void match(std::uint32_t id);                          // hands a polled message to the matching queues
  void finish_send(std::uint64_t sid);
  void finish_recv(std::uint64_t rid);
  // E1: a free DMA buffer, or wait in order behind earlier E1 sends of this rank.
  void e1_send(std::uint32_t id);
  void e1_buffer_back(int rank);

  bool same_node(int a, int b) const { return ctx_.node_of(a) == ctx_.node_of(b); }
  MemSpace eager_data(const GniMsg& m) const;  // where a received eager message's data are (the copy out's source)
  Simulator& sim_;
  const Contexts& ctx_;
  CpuTimeline& cpus_;
  const MemoryCopies& copies_;
  const MpichGniMca& mca_;
  const gemini::SoftwareParams& sp_;  // mpich_sw_overhead and the fitted per-path costs (machine file)
  gemini::Cdm gni_;  // the library's own uGNI communication domain over the job's Gemini NIC
  double sw_;
  std::uint64_t vshort_;
  // MPICH's request objects, its posted and unexpected queues (per communicator) and per-peer sequence numbers.
  mpi::Library<mpi::Request, mpi::Request, Msg> lib_;
  Slab<GniMsg> msgs_;  // messages in flight, from post to the completion of both requests
  host::XpmemAttachCache xpmem_;
  std::uint64_t amos_ = 0;
  Statistics<GniStat, kGniProtocolStatistics.size()> counters_{kGniProtocolStatistics};
  // Per sending rank, created at its first E1 send and dropped when idle: its MPICH_GNI_NUM_BUFS DMA buffers (a
  // fixed pool) and the E1 sends waiting for one, in order.
  std::unordered_map<int, base::BufferPool> e1_;
  bool shm_eager(std::uint64_t bytes) const {  // on the node: copy-in/copy-out up to MPICH_SMP_SINGLE_COPY_SIZE
    return bytes <= static_cast<std::uint64_t>(mca_.mpich_smp_single_copy_size.get());
  }
  bool eager_short(std::uint64_t bytes) const {  // CH3's data-in-header send, up to MPIDI_EAGER_SHORT_SIZE
    return bytes <= static_cast<std::uint64_t>(mca_.mpich_eager_short_size.get());
  }
  bool rendezvous(std::uint64_t bytes) const {  // between nodes, above MPICH_GNI_MAX_EAGER_MSG_SIZE
    return bytes > static_cast<std::uint64_t>(mca_.mpich_gni_max_eager_msg_size.get());
  }
  double send_path_cost(int rank, int dst, std::uint64_t bytes) const;
  void set_switch_costs();
  // The rendezvous' per-message cost (s, the receiver's CPU at match), set where it meets E1 (set_switch_costs) at
  // the first rendezvous (rndv_meet_cost()).
  double rndv_meet_cost();
  double rndv_meet_cost_ = 0;
  bool switch_costs_set_ = false;
  bool use_bte(std::uint64_t bytes) const {  // FMA up to MPICH_GNI_RDMA_THRESHOLD, BTE above
    return bytes > static_cast<std::uint64_t>(mca_.mpich_gni_rdma_threshold.get());
  }
};

}  // namespace ompisim::native
