// native/mpich_qsnet: MPICH-QsNetII, the comparator of the qsnet-elan4 paper (§6.5, Fig. 10): MPICH's ADI over
// Quadrics Tport. Tport matches in the NIC: the Elan4 thread processor (a serial engine per NIC) walks the posted
// receives for every arriving 32-byte envelope and places the data in the user's buffer itself; the host only polls
// one completion word. Small messages (up to mpich_qsnet_eager_limit) travel inline with their envelope; larger ones
// are a rendezvous that the receiver's thread processor serves without the host: on a match it pulls the data with
// RDMA reads (Tport pipelines them: the NIC issues the next chunk while the previous one streams, so the message
// moves as one stream with no host step between chunks) and then tells the sender's NIC.
// An envelope that finds no posted receive waits in a host buffer (eager data copied out when the receive is posted;
// a large message's rendezvous is served then). Send requests complete when the target NIC has the data.
// The library is the shared MPI skeleton (mpi/library.hpp): its request tables, and its matching engine as the data
// structure of Tport's lists (the NIC's posted list, the host's unexpected list, per communicator, with per-peer
// sequence numbers); an arriving envelope's matching is timed on the thread processor, not on the host CPU. The
// envelope carries MPICH's context id with the tag.
// LIMITATIONS: no per-chunk cost (the pipelining is taken as perfect); Tport's thresholds are assumptions (MCA);
// posted receives are walked in the NIC in posting order, without per-peer hashing (the walk's cost counts the
// receives posted on every communicator of the rank: one list in the NIC).
#pragma once
#include "core/slab.hpp"
#include "core/statistics.hpp"
#include "models/qsnet/elan4.hpp"
#include "platform/contexts.hpp"
#include "platform/cpu_timeline.hpp"
#include "platform/fabric.hpp"
#include "mpi/library.hpp"
#include "mpi/stack.hpp"
#include "protocols/native/qsnet/mpich_qsnet_mca.hpp"
#include "protocols/native/qsnet/mpich_qsnet_msg.hpp"

#include <array>

namespace ompisim::native {

// MPICH-QsNetII's statistics, declared once (the registry entry and `ompisim describe native/mpich_qsnet` list them;
// every run reports all three).
enum class QsnetStat : std::uint8_t { Eager, Big, Unexpected };
inline constexpr std::array<StatisticInfo, 3> kQsnetStatistics{{
    {"tport_eager", "messages", "sent inline with their 32-byte envelope (up to mpich_qsnet_eager_limit)"},
    {"tport_big", "messages", "sent by the NIC-served rendezvous (above mpich_qsnet_eager_limit)"},
    {"tport_unexpected", "envelopes", "arrived before their receive was posted: held in a host buffer"},
}};

class MpichQsnet final : public Stack {
public:
  // The parts of the platform it uses: the engine, where ranks run, their CPU timelines (host costs, copies) and the
  // fabric of the Elan4 network (its own Elan4 NIC object's; path latencies of its completions).
  MpichQsnet(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, Fabric& fabric, const MpichQsnetMca& mca,
             std::string name);
  // Refuses an eager limit whose message and envelope exceed one QDMA packet (nic.qdma_slot_bytes), before anything
  // is simulated (ComponentInfo::check) and when the stack is built: InputError with an empty file (the run names it).
  static void check_mca(const MpichQsnetMca& mca, const Machine& m);
  std::string name() const override { return name_; }
  void start_send(const mpi::P2P& m, Completion done) override;
  void start_recv(const mpi::P2P& m, Completion done) override;
  StackStats stats() const override;
  // assumption: MPICH 1.2's ADI keeps context ids in an int; the envelope's field is taken as 32 bits (the
  // 32-byte envelope's layout is not in the sources).
  std::uint32_t max_contextid() const override { return 0x7FFFFFFFu; }
  std::size_t messages_in_flight() const { return msgs_.size(); }

private:
  // What Tport's lists hold: the envelope and the index of the message's record.
  struct Msg {
    int src, tag;
    std::uint32_t id;
  };
  // The steps of a message (mpich_qsnet_msg.hpp): each applies its event to msgs_[id] and starts what the new state
  // needs.
  void on_posted(std::uint32_t id);                                     // the send's CPU cost paid: SEND_*
  void on_arrived(std::uint32_t id);                                    // ARRIVED at the receiver's NIC
  void on_thread_done(std::uint32_t id);                                // THREAD_DONE (matching walk, rendezvous)
  void on_recv_posted(std::uint64_t rid);                               // the receive's CPU cost paid: post or match
  void on_matched(std::uint32_t id, std::uint64_t rid, bool host_copy);  // MATCHED_* with receive request rid
  void on_copied(std::uint32_t id);                                     // COPIED (inline data in the user buffer)
  void on_read_done(std::uint32_t id);                                  // READ_DONE (the rendezvous's RDMA reads)
  void on_done(std::uint32_t id);                                       // DONE_ARRIVED at the sender's NIC
  void host_recv_done(int rank, mpi::RequestId rid);  // the host polls the receive's completion
  void host_send_done(mpi::RequestId sid);            // the host polls the send's completion

  Simulator& sim_;
  const Contexts& ctx_;
  CpuTimeline& cpus_;
  Fabric& fabric_;
  qsnet::Elan4 nic_;
  const qsnet::Elan4Params& p_;
  double overhead_;
  double eager_rate_;  // software.mpich_qsnet_eager_rate
  std::uint64_t eager_limit_;
  std::string name_;
  // Requests, and Tport's lists: the NIC's posted list and the host's unexpected list.
  mpi::Library<mpi::Request, mpi::Request, Msg> lib_;
  Slab<QsnetMsg> msgs_;  // messages in flight, from post to the completion of both requests
  Statistics<QsnetStat, kQsnetStatistics.size()> counters_{kQsnetStatistics};
};

}  // namespace ompisim::native
