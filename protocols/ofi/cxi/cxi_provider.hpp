// libfabric's CXI provider on the Cassini NIC (fi_cxi(7); slingshot-ex §II.C, §III.A): tagged messages between any
// two ranks through the NIC, including two ranks of one node (no on-node path: the message leaves through the NIC and
// comes back, slingshot-ex §III.A).
// Two matching modes:
//   hardware  (the provider alone with FI_CXI_RX_MATCH_MODE=hardware, the default: Cray MPICH, openmpi-cxi): the NIC matches headers against its priority list of
//             posted receives (an expected payload lands in place by DMA, a rendezvous is pulled by the target NIC's
//             offloaded Get) and keeps unexpected ones in the overflow buffers; exhaustion -> flow-control recovery.
//   software  (a peer of LINKx, or the provider alone with FI_CXI_RX_MATCH_MODE=software): hardware matching is off;
//             messages land in the provider's request buffers in host memory, the host reads the event, matches it
//             (against the owner's shared receive queue under LINKx, its own lists alone) and copies the payload into
//             the receive (or issues the Get of a rendezvous); completions go to the owner's CQ through its callbacks.
//             As a peer of an owner's queue (LINKx) the provider sets up its own receive request when the owner
//             matches a message (cxip_recv_req_init at get_tag or start_tag: one more host_overhead, owner_matched).
// Per message: the sending host issues the command (software.cxi_overhead); the header and eager payload cross the
// fabric (analytic for inline payloads, a shared flow over both NICs' host interfaces and the dragonfly links
// otherwise); transmit-complete semantics: the send completes when the target NIC's ack is back (a rendezvous send
// when the Get has finished). MPI order per (source, target) pair is kept with sequence numbers (headers processed
// in order; a dropped header holds its successors). Each message is a record with its send and target states
// (cxi_msg.hpp); engine continuations carry only its id.
// LIMITATIONS: request buffers (software mode) are not bounded; the overflow buffers are one byte pool; no
// FI_CXI_RX_MATCH_MODE=hybrid; no delivery-complete mode; a rendezvous Get is one flow (no per-packet pipelining).
#pragma once
#include "models/slingshot/cassini_params.hpp"
#include "protocols/ofi/base/peer_messages.hpp"
#include "protocols/ofi/base/shared_rx_queue.hpp"
#include "protocols/ofi/cxi/cxi_mca.hpp"
#include "protocols/ofi/cxi/cxi_statistics.hpp"
#include "protocols/ofi/cxi/cxi_msg.hpp"
#include "protocols/ofi/cxi/cxi_protocol.hpp"
#include "protocols/ofi/endpoint.hpp"
#include "mpi/peer_seq.hpp"
#include "mpi/request.hpp"
#include "platform/cpu_timeline.hpp"
#include "platform/fabric.hpp"

#include <map>
#include <unordered_map>

namespace ompisim::ofi::cxi {

struct CxiConfig {
  ProtocolLimits limits;
  std::uint64_t oflow_bytes = 0;        // fi_cxi_oflow_buf_count x fi_cxi_oflow_buf_size (CxiMca)
  double fc_recovery_time = 0;
  bool software_matching = false;      // fi_cxi_rx_match_mode == software (the provider alone)
  double host_overhead = 0;             // software.cxi_overhead
  double dma_read_latency = 0, device_access_latency = 0;
  // The machine parameters above are taken without reading them (Sourced::value): the provider reads inject_size,
  // cxi_overhead and dma_read_latency at its first send or receive, fc_recovery_time at its first drop and
  // device_access_latency at its first device buffer, so a --set of one on a job that never took that path (one node
  // under LINKx or Cray MPICH) is reported as changing nothing. Null in a configuration built by hand (tests).
  ReadOnUse per_message, fc_recovery, device_access;
  // `linkx_peer`: the provider will be a peer of LINKx's shared queues, which match in software whatever
  // fi_cxi_rx_match_mode says: the parameter is not read (a --set of it is reported as changing nothing).
  static CxiConfig from(const slingshot::CassiniParams& nic, const slingshot::SoftwareParams& sw, const CxiMca& mca,
                        bool linkx_peer = false);
};

class CxiProvider final : public Endpoint, public SrxPeer {
public:
  // The parts of the platform it uses: the engine, where ranks run, their CPU timelines (command issue, completions,
  // software matching) and the fabric of the Slingshot network (wire times, flows).
  CxiProvider(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, Fabric& fabric, CxiConfig c);
  // The NIC port (Cassini) a rank uses: part of its fi_getname address.
  int port_of(int rank) const { return fabric_.port_of(rank); }
  std::string name() const override { return "cxi"; }
  // Standalone: hardware matching in the NIC, completions to `ops` (the consumer's CQ).
  void set_cq(CqOwnerOps ops) override { cq_ = std::move(ops); }
  // Peer of a linking provider: software matching through `owner`; this provider is its peer number `index`.
  void bind_peer(SrxOwner* owner, int index, CqOwnerOps ops);

  void tsend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) override;
  // fi_tinject (fi_tagged(3)): the buffer is reusable when the call returns and no completion is written for it;
  // `injected` runs when the command is issued (after the host's cost). Only for a message that takes the Inject
  // protocol (host buffer, at most the inject size: can_inject); the NIC's handling is tsend's.
  bool can_inject(std::uint64_t bytes, const Buffer& buf) const;
  bool can_inject(int /*rank*/, int /*dst*/, std::uint64_t bytes, const Buffer& buf) const override {
    return can_inject(bytes, buf);
  }
  void tinject(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Callback injected) override;
  // The provider alone: append to the NIC's priority list or match an overflow entry (hardware matching), or the same
  // on the host's lists (software matching).
  void trecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) override;
  std::uint64_t posted_now() const override { return nic_lists_.posted_now(); }
  std::uint64_t unexpected_now() const override { return nic_lists_.unexpected_now(); }
  void add_counters(std::map<std::string, std::uint64_t>& c) const override;

  int start_tag(RxEntry* e) override;
  int start_msg(RxEntry* e) override { return start_tag(e); }
  int discard_tag(RxEntry* e) override;
  int discard_msg(RxEntry* e) override { return discard_tag(e); }

  bool standalone() const { return owner_ == &nic_lists_; }
  bool hardware_matching() const { return standalone() && !c_.software_matching; }
  const CxiConfig& config() const { return c_; }

  // Messages whose record is live (both sides not yet COMPLETE).
  std::size_t messages_in_flight() const { return msgs_.size(); }

private:
  struct PostedRecv {  // fi_trecv while the host issues it
    int rank, src, tag;
    std::uint64_t bytes;
    Buffer buf;
    std::uint64_t context;
  };
  // Steps of a message (cxi_msg.hpp); engine continuations call the on_* ones with the record's id.
  void on_issued(std::uint64_t id);       // the host has issued the command: the header leaves
  void launch(std::uint64_t id);
  void on_transferred(std::uint64_t id);  // a DMA'd header (with its payload) is at the target NIC
  void on_header(std::uint64_t id);       // the header at the target: held, or processed with its held successors
  void process(std::uint64_t id);         // header in order at the target
  void on_host_matched(std::uint64_t id); // software matching: the host has read the event
  void matched(std::uint64_t id, RxEntry* e, bool in_nic);
  // The queue's owner matched message `id` to entry `e`: matched() at once when standalone; a peer of an owner's
  // queue first sets up its receive request.
  void owner_matched(std::uint64_t id, RxEntry* e);
  void on_copied(std::uint64_t id);       // the payload (a rendezvous' eager part) copied out of host memory
  void on_landed(std::uint64_t id);       // the payload written into the receive buffer
  void on_pull_issued(std::uint64_t id);
  void pull(std::uint64_t id);            // rendezvous Get of the rest
  void on_pulled(std::uint64_t id);
  void on_recv_cq_read(std::uint64_t id);
  void target_ack(std::uint64_t id);      // transmit complete: the target acks the send
  void on_ack(std::uint64_t id);          // the ack reaches the sender
  void on_send_cq_read(std::uint64_t id);
  void drop(std::uint64_t id);
  void on_recovered(int dst);             // flow-control recovery of `dst`'s NIC done: the dropped are sent again
  void on_recv_posted(std::uint64_t pid);
  const PathCost& to_dst(CxiMsg& m);  // the path from m's source node to its target's (CxiMsg::to_dst)
  const PathCost& to_src(CxiMsg& m);  // and back
  double dev_latency(const Buffer& b) {
    if (b.space.kind != MemKind::Device) return 0.0;
    c_.device_access.mark();
    return c_.device_access_latency;
  }
  cxi::OverflowBuffers& oflow(int rank);

  Simulator& sim_;
  const Contexts& ctx_;
  CpuTimeline& cpus_;
  Fabric& fabric_;
  CxiConfig c_;
  SharedRxQueue nic_lists_;            // hardware mode: the NIC's priority and overflow lists
  SrxOwner* owner_ = nullptr;          // where headers are matched (nic_lists_ or a linking provider's queue)
  int peer_index_ = 0;
  CqOwnerOps cq_;
  mpi::RequestTable<CxiMsg> msgs_;     // by id: slots reused, generation-checked (no hashing per lookup)
  mpi::RequestTable<PostedRecv> posts_;
  // Sequence numbers per (src, dst) pair, created on first contact: send_seq_[src][dst], recv_seq_[dst][src] (a rank's
  // open-addressing table, no node allocation and no hashing of the whole pair per message).
  std::vector<mpi::PeerSeq> send_seq_, recv_seq_;
  static std::uint32_t& seq(std::vector<mpi::PeerSeq>& t, int rank, int peer) {
    if (static_cast<std::size_t>(rank) >= t.size()) t.resize(static_cast<std::size_t>(rank) + 1);
    return t[static_cast<std::size_t>(rank)][peer];
  }
  std::unordered_map<std::uint64_t, std::map<std::uint32_t, std::uint64_t>> held_;
  std::unordered_map<int, cxi::OverflowBuffers> oflow_;
  std::unordered_map<int, std::vector<std::uint64_t>> dropped_;  // per target rank, awaiting recovery
  Statistics<CxiStat, kCxiStatistics.size()> n_{kCxiStatistics};
};

}  // namespace ompisim::ofi::cxi
