// pml/ob1: MPI matching and protocol selection in the host library, over the BTLs bml/r2 chooses per peer (the eager
// array's first BTL for first fragments and control messages, the send array for the rest of a rendezvous, the RDMA
// array for GETs). Message sequences:
//   eager:  MATCH(data) ------------------------------------------------> match, copy out, complete
//   RGET:   RGET(hdr, exposed buffer) -> match, register, BTL GET <-- data; FIN ----------------> sender complete
//   RNDV:   RNDV(first bytes) -> match; <- ACK(rdma offset); FRAG ... FRAG -> receiver complete when every byte arrived
//           (FRAGs go round robin over the send array, each BTL taking its bandwidth share of the bytes)
//   RNDV + RDMA PUT pipeline (contiguous buffers, the peer's RDMA array as bml/r2 and the stripe policy choose it,
//           Open MPI 1.1 to 1.8): RNDV(first bytes, CONTIG) -> match; <- ACK(rdma offset = first); the RECEIVER
//           schedules the rest: <- PUT(offset, length) per fragment over the fragment's BTL; the sender writes it
//           (btl put) and answers FIN(offset, length) -> on the same BTL; each FIN frees a slot of the receiver's
//           pipeline (recv_pipeline_depth) for its next PUT; receiver complete when every byte is in; sender when
//           every fragment is written (mca_pml_ob1_recv_request_schedule, mca_pml_ob1_send_request_put,
//           mca_pml_ob1_put_completion; v1.1.0 pml_ob1_recvreq.c / pml_ob1_sendreq.c)
//   Open MPI 1.1 over registered buffers (several RDMA BTLs, or one without GET): RNDV(no data, CONTIG|PIN) on the
//           first RDMA BTL (start_rdma) -> match; no ACK: <- PUT(offset, length, flagged ACK) ...; the sender takes a
//           flagged PUT as the ACK (nothing by copy) and completes when every PUT is written and its FIN sent
// Unexpected eager data is copied into a PML buffer on arrival and out of it at match time (two copies).
// ob1 registers one BTL tag per header type (tag_of) on every BTL and serialises its headers into the descriptors'
// header segments (hdr.hpp); the BTLs never see an ob1 type.
#pragma once
#include "core/statistics.hpp"
#include "mpi/library.hpp"
#include "protocols/bml/r2/bml_r2.hpp"
#include "platform/cpu_timeline.hpp"
#include "protocols/btl/btl.hpp"
#include "protocols/pml/ob1/frag_pipeline.hpp"
#include "protocols/pml/ob1/hdr.hpp"
#include "protocols/pml/ob1/requests.hpp"
#include "protocols/pml/ob1/stripe.hpp"

#include <array>
#include <memory>
#include <string_view>
#include <unordered_map>

namespace ompisim::pml::ob1 {

// How ob1 spreads a message over several BTLs to one peer (stripe.hpp; its MCA parameters), and how many fragments
// of the rest of one rendezvous it keeps in flight (pml_ob1_send_pipeline_depth for send FRAGs,
// pml_ob1_recv_pipeline_depth for RDMA PUT fragments, which Open MPI's receiver schedules: the next fragment of a
// request goes out when one of its fragments completes).
struct StripeConfig {
  StripePolicy policy = StripePolicy::WeightedRoundRobin;
  std::uint64_t min_size = 0;  // stripe_above: smallest rest (bytes) that is split over several BTLs
  int send_pipeline_depth = 3, recv_pipeline_depth = 4;  // Open MPI's defaults (pml_ob1_component.c)
  // pml_ob1_frag_schedule (frag_pipeline.hpp): Open MPI 1.3 on by default; the 1.1/1.2 presets choose Remaining.
  FragPipeline::Schedule schedule = FragPipeline::Schedule::WeightedLength;
  int max_send_per_range = 4, max_rdma_per_request = 4;  // v1.3 on (pml_ob1_component.c)
  // mpi_leave_pinned (Open MPI 1.1 default 0): read by the 1.1 schedule's registration lookups (v11_rdma_usable).
  bool leave_pinned = false;
};

// pml/ob1's statistics, declared once (stats() reports them; the registry entry and `ompisim describe pml/ob1` list
// them). The first kHdrTypes follow Hdr's order: one count of headers sent per type, ob1_<to_string(Hdr)>.
enum class Ob1Stat : std::uint8_t {
  // clang-format off
  HdrMatch, HdrRndv, HdrRget, HdrAck, HdrNack, HdrFrag, HdrPut, HdrFin,
  UnexpectedShort, UnexpectedLong, UnexpectedCopy, OutOfOrderCopy, RgetFallbacks, PutFins, ConvertedBytes,
  EarlyCompletions, TruncateErrors
  // clang-format on
};
inline constexpr std::array<StatisticInfo, 17> kOb1Statistics{{
    {"ob1_MATCH", "headers", "MATCH headers sent: eager messages, data inline", true},
    {"ob1_RNDV", "headers", "RNDV headers sent: rendezvous first fragments", true},
    {"ob1_RGET", "headers", "RGET headers sent: the sender exposes its buffer for the receiver's GET", true},
    {"ob1_ACK", "headers", "ACK headers sent by receivers (a RNDV matched, or an RGET falling back)", true},
    {"ob1_NACK", "headers", "NACK headers sent", true},
    {"ob1_FRAG", "headers", "FRAG headers sent: the rest of a rendezvous by copy in/out", true},
    {"ob1_PUT", "headers", "PUT headers sent by receivers scheduling the RDMA PUT pipeline", true},
    {"ob1_FIN", "headers", "FIN headers sent: after an RGET's GET or an RDMA PUT fragment's write", true},
    {"ob1_unexpected_short", "messages", "MATCH (eager) first fragments that arrived before their receive"},
    {"ob1_unexpected_long", "messages", "RNDV or RGET first fragments that arrived before their receive"},
    {"ob1_unexpected_copy", "fragments", "unexpected eager data copied into a PML buffer on arrival", true},
    {"ob1_out_of_order_copy", "fragments",
     "first fragments with data that arrived ahead of an earlier one from their sender (frags_cant_match): their "
     "data copied into a PML buffer on arrival",
     true},
    {"ob1_rget_fallbacks", "messages", "RGETs the receiver could not GET: ACKed as a RNDV, the rest by FRAGs", true},
    {"ob1_put_fins", "fragments", "FINs of RDMA PUT fragments received (ob1_FIN counts them with RGET's)", true},
    {"ob1_converted_bytes", "bytes", "typed data converted by receivers from a rank of another architecture", true},
    {"ob1_early_completions", "sends", "eager sends MPI-complete when the BTL's send returned", true},
    {"mpi_truncate_errors", "receives", "receives whose message was longer than their buffer"},
}};
// The header counters are named ob1_<to_string(Hdr)> and indexed by Hdr.
constexpr bool hdr_statistics_follow_hdr() {
  for (int h = 0; h < kHdrTypes; ++h)
    if (std::string_view(kOb1Statistics[h].name).substr(4) != to_string(static_cast<Hdr>(h))) return false;
  return true;
}
static_assert(hdr_statistics_follow_hdr(), "kOb1Statistics begins with ob1_<HDR> for every Hdr, in Hdr's order");
constexpr Ob1Stat hdr_stat(Hdr h) { return static_cast<Ob1Stat>(h); }

class Ob1 final : public Stack {
public:
  // The parts of the platform it uses: where ranks run (the job size, node types' architectures) and their CPU
  // timelines (software costs, copies out). `sw_overhead`: software cost per message per side (machine's software
  // section). `btls`: every BTL of the stack, in any order (bml/r2 ranks them per peer).
  Ob1(const Contexts& contexts, CpuTimeline& cpus, double sw_overhead, std::vector<btl::Btl*> btls,
      std::string name = "openmpi", StripeConfig stripe = {});
  std::string name() const override { return name_; }
  void start_send(const mpi::P2P& m, Completion done) override;
  void start_recv(const mpi::P2P& m, Completion done) override;
  void amo_add(int rank, int target, Completion local_done, Completion at_target, AmoVia via) override;
  StackStats stats() const override;
  // The BTLs bml/r2 put in no peer's arrays (btl/vader when every rank has a node of its own).
  std::vector<std::string> idle_components() const override;
  // Open MPI 1.1's RDMA protocols without mpi_leave_pinned: a malloc'ed buffer takes the copy path.
  bool reads_buffer_allocation() const override { return registered_path() && !stripe_.leave_pinned; }
  std::uint32_t max_contextid() const override { return 0xFFFF; }  // hdr_ctx is 16 bits (mca_pml_ob1: 65535)
  // Remote atomics (Cheetah's BCOLs) go to the first BTL with MCA_BTL_FLAGS_ATOMIC_OPS in bml/r2's send array for
  // the peer (btl/vader on the node, btl/ugni off it); AmoVia::Nic to the first BTL whose NIC executes its atomics
  // (BtlCaps::nic_atomics: btl/ugni, the Gemini AMO unit, for on-node peers too); with none, Stack::amo_add's error.
  bml::r2::BmlR2& bml() { return bml_; }
  // pml_ob1_use_early_completion (requests.hpp): an eager send by start_copy is MPI-complete when the BTL's send call
  // returns (Btl::send_packed), and released when its fragment completes.
  void set_early_completion(bool on) { early_completion_ = on; }
  // Bytes of FRAG data given to `b` so far: the rendezvous schedule's split.
  std::uint64_t frag_bytes(const btl::Btl* b) const;

private:
  struct InFrag {  // a received descriptor, its decoded header, and the BTL that delivered it
    btl::Descriptor d;
    HdrFields h;
    btl::Btl* btl = nullptr;
    bool copied = false;  // its data was copied into a PML buffer on arrival and the BTL's buffer given back
  };
  struct Unexpected {  // a first fragment (MATCH, RNDV, RGET) in the matching engine
    int src, tag;
    InFrag frag;
  };
  btl::Btl& eager_btl(int rank, int peer) { return *bml_.endpoint(rank, peer).eager.front().btl; }
  // The next BTL of the peer's eager array (mca_bml_base_btl_array_get_next(&endpoint->btl_eager)): under
  // weighted_rr with several eager BTLs it takes the rank's round-robin counter for the peer and advances it; with one
  // (or under stripe_above) it is eager[0] and nothing advances. Both the send start (the first fragment) and the
  // receiver's ACK path of a matched RNDV draw from the same counter, as in Open MPI.
  btl::Btl* next_eager_btl(int rank, int peer);
  void send_desc(btl::Btl& b, const HdrFields& h, int from, int to, btl::DataSegment data, std::uint8_t flags,
                 std::uint64_t cookie, Completion local_done, Completion packed = nullptr);
  void on_desc(btl::Btl* b, const btl::Descriptor& d);
  void handle(const InFrag& f);
  // The FRAGs of [first, end) of send `sid` after the ACK (end: the ACK's rdma offset).
  void schedule_frags(std::uint64_t sid, std::uint64_t first, std::uint64_t end, std::uint64_t recv_req);
  // Whether the rest of a message of `bytes` to/from the peer of `ep` goes by RDMA PUT (no single RDMA BTL with GET:
  // several RDMA BTLs, or one with PUT only; stripe_above below its size: the fastest BTL's own choice); `rget`: the
  // sender's RGET choice on the same record.
  struct RdmaChoice {
    bool rget = false, put = false;
  };
  RdmaChoice rdma_choice(const bml::r2::Endpoint& ep, std::uint64_t bytes) const;
  // The receiver's RDMA PUT pipeline of one receive (mca_pml_ob1_recv_request_schedule), kept only while it has PUTs
  // to post or FINs to wait for: each posted fragment (offset, length, BTL) until its FIN names it.
  struct PutSchedule {
    FragPipeline pipe;
    std::uint64_t send_req = 0;
    int me = 0, peer = 0;
    struct Pending {
      std::uint64_t offset = 0, len = 0;
      std::size_t share = 0;
    };
    std::vector<Pending> pending;  // at most recv_pipeline_depth
    bool ack_in_put = false;  // no ACK was sent (Open MPI 1.1's registered path): the PUTs are flagged ACK
    std::size_t shares = 0;   // BTLs of the schedule (the registered array)
    bool endpoint_rr = false;  // the round robin is the peer's (1.1's branch that registers each fragment)
  };
  std::unordered_map<std::uint64_t, PutSchedule> put_sched_;
  // The PUTs of [first, length) of receive `rid`. `registered` (1.1 schedule only): the branch over the receive
  // buffer's registrations (uncapped, the last BTL takes the rest); otherwise each PUT within the BTL's
  // btl_max_rdma_size, registered as it goes, round robin over the peer's RDMA array (rdma_rr_).
  void schedule_puts(std::uint64_t rid, int me, int peer, std::uint64_t first, std::uint64_t send_req,
                     bool ack_in_put, bool registered);
  // Open MPI 1.1's registration lookups (requests.hpp v11_rdma_usable): the BTLs of `ep`'s RDMA array that can use
  // `b` (mca_pml_ob1_rdma_btls' count), and bml/r2's btl_rdma_offset for the peer (the largest btl_min_rdma_size of
  // that array, bml_r2.c add_procs).
  std::size_t v11_rdma_cnt(const bml::r2::Endpoint& ep, const Buffer& b) const;
  static std::uint64_t btl_rdma_offset(const bml::r2::Endpoint& ep);
  // The peer's position in a BTL array's round robin (Open MPI 1.1's arr_index, kept per peer): btl_send for FRAGs,
  // btl_rdma for PUTs registered fragment by fragment. Sized on first use.
  std::uint32_t& array_rr(std::vector<mpi::PeerSeq>& rr, int rank, int peer);
  std::vector<mpi::PeerSeq> send_rr_, rdma_rr_;
  // Whether a contiguous buffer counts as registered with every RDMA BTL for the receiver's PUTs in 1.1's branch over
  // an existing registration (uncapped PUTs, the last BTL takes the rest; no ACK after a PIN-flagged RNDV): the v1.1
  // fragment schedule (pml_ob1_frag_schedule remaining) selects Open MPI 1.1's code.
  bool registered_path() const { return stripe_.schedule == FragPipeline::Schedule::Remaining; }
  void post_puts(std::uint64_t rid);
  void on_put(const InFrag& f);      // sender: a receiver's PUT control message
  void on_put_fin(const InFrag& f);  // receiver: the FIN of one of its PUT fragments
  // Receiver: the RGET's GET is done; the FIN to the sender and the receive's completion after the PML's CPU time.
  void on_rget_done(std::uint64_t rid, int me, int peer, std::uint64_t sreq);
  void check_send_done(std::uint64_t sid);
  // The rest of one rendezvous being scheduled (frag_pipeline.hpp), kept only while it has fragments to send.
  struct FragSchedule {
    FragPipeline pipe;
    std::uint64_t recv_req = 0;
    bool endpoint_rr = false;  // the round robin is the peer's (Open MPI 1.1's btl_send array)
  };
  std::unordered_map<std::uint64_t, FragSchedule> frag_sched_;
  void post_frags(std::uint64_t sid);  // posts fragments of `sid` until its depth is reached or none is left
  void matched(std::uint64_t rid, const InFrag& f, bool was_unexpected);
  void complete_send(std::uint64_t sid);
  // MCA_PML_OB1_SEND_REQUEST_MPI_COMPLETE ahead of the request's end: runs its completion; the request stays until
  // complete_send releases it (with nothing left to run).
  void mpi_complete_send(std::uint64_t sid);
  // Releases the request once it is COMPLETE and no unpack of its data is still running (else nothing yet).
  void complete_recv(std::uint64_t rid);
  // A control message from `from` to `to` on `on` (nullptr: the peer's eager[0]).
  void send_ctrl(Hdr h, int from, int to, std::uint64_t sreq, std::uint64_t rreq, std::uint64_t offset = 0,
                 btl::Btl* on = nullptr);

  const Contexts& ctx_;
  CpuTimeline& cpus_;
  double sw_;
  StripeConfig stripe_;
  bml::r2::BmlR2 bml_;
  std::string name_;
  // Requests, per-communicator matching queues and per-peer sequence numbers (mca_pml_ob1_comm_t).
  mpi::Library<SendRequest, RecvRequest, Unexpected> lib_;
  // Per rank, per peer with several eager BTLs: the round-robin position (bml eager array get_next); sized on first
  // use (a stack with one eager BTL per peer never allocates it).
  std::vector<mpi::PeerSeq> eager_rr_;
  std::uint64_t amos_ = 0;
  bool early_completion_ = false;
  Statistics<Ob1Stat, kOb1Statistics.size()> counters_{kOb1Statistics};
  std::vector<std::uint64_t> frag_bytes_;  // parallel to bml_.btls()
  // Copies `bytes` of the receive `rid` out of the BTL's (or the PML's) buffer on `me`, then, when the receive is typed
  // and `peer` has another architecture, converts them at the receiver's per-element cost; then `next`.
  void copy_out(std::uint64_t rid, int me, int peer, std::uint64_t bytes, Completion next, MemSpace src = MemSpace{});
};

}  // namespace ompisim::pml::ob1
