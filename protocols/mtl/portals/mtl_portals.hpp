// mtl/portals (Open MPI 1.3 era, seastar-portals paper §2.1): MPI matching by Portals on the SeaStar.
//   send <= eager limit:  PtlMDBind + PtlPut (no ACK) straight from the user buffer; complete at SEND_END.
//   send  > eager limit:  PtlMEMDPost on the read table (match bits = request; MD threshold 2: send, {ack, get})
//                         + PtlPut with ACK; complete at the ACK (delivered into a posted receive) or at GET_END (it
//                         was unexpected, truncated, and pulled after the match).
//   receive:              first the MTL's list of unexpected messages (host matching); else PtlMEMDPost before the
//                         catch-all entries (one call; refused while an unexpected event is pending); data lands in
//                         place, PUT_END completes it. Without Protocol::me_md_post (Cray MPI): PtlMEAttach +
//                         PtlMDAttach + PtlPut, and PtlMEInsert + PtlMDAttach + PtlMDUpdate (three calls each).
//   unexpected short:     lands in one of the short blocks (manage-local, max_size = eager limit), copied out at
//                         match; a full block is unlinked and re-posted.
// With Protocol::long_rendezvous (Cray MPI above MPICH_MAX_SHORT_MSG_SIZE) a long send puts a header only and
// the receiver always pulls the data with a get, expected or not.
//   unexpected long:      matched by a zero-length truncating catch-all (no ACK): only the header is kept; after the
//                         match, PtlMDBind + PtlGet pulls the data from the sender's read-table entry.
// The target firmware matches at header arrival; an unexpected message the host has not yet seen is "in flight" in
// the MTL's list, and a receive that matches it waits for its event (what PtlMDUpdate's NO_UPDATE retry achieves).
// Match bits: protocol type, communicator context id, source, tag (mpi_bits.hpp, Open MPI 1.3's layout).
// LIMITATIONS: at most 65,536 ranks and 4,096 communicators (the match-bit fields); no synchronous or ready sends; no MPI_Probe; the block's space is not reclaimed
// until the block is unlinked (as in Portals).
#pragma once
#include "core/statistics.hpp"
#include "models/seastar/seastar.hpp"
#include "platform/contexts.hpp"
#include "platform/cpu_timeline.hpp"
#include "platform/memory_copies.hpp"
#include "protocols/mtl/portals/mtl_portals_mca.hpp"
#include "protocols/mtl/mtl.hpp"
#include "protocols/mtl/portals/mpi_bits.hpp"
#include "protocols/mtl/portals/mtl_portals_op.hpp"
#include "mpi/request.hpp"

#include <deque>
#include <functional>
#include <unordered_map>

namespace ompisim::mtl::portals {

namespace ptl = ompisim::portals;

// mtl/portals' statistics, declared once (core/statistics.hpp); its registry entry lists them, then the SeaStar's it
// reports with them. Counted ones are absent from a run's counters while zero; mpi_truncate_errors and mtl_live_ops
// are always reported.
enum class MtlPortalsStat : std::uint8_t {
  ShortSends, LongSends, CopyBlockSends, ZeroSends, CopyBlockWaits, ShortBlocksPosted, UnexpectedShort, UnexpectedLong,
  PostedReceives, MdUpdateRetry, LongGets, TruncateErrors, LiveOps
};
inline constexpr std::array<StatisticInfo, 13> kMtlPortalsStatistics{{
    {"mtl_short_sends", "messages", "sends within the eager limit (one put of header and data)", true},
    {"mtl_long_sends", "messages", "sends above the eager limit (read-table entry, put with ACK, or a get)", true},
    {"mtl_copy_block_sends", "messages", "short sends copied into a send copy block (complete at once)", true},
    {"mtl_zero_sends", "messages", "zero-byte sends put from the retained zero-length MD", true},
    {"mtl_copy_block_waits", "messages", "sends that waited for a free copy block (or behind one that did)", true},
    {"mtl_short_blocks_posted", "blocks", "short blocks attached for unexpected messages (first and re-posted)", true},
    {"mtl_unexpected_short", "messages", "short messages that landed in a short block (no posted receive)", true},
    {"mtl_unexpected_long", "messages", "long messages caught by the truncating catch-all (header only kept)", true},
    {"mtl_posted_receives", "receives", "receives put on the NIC's match list (no unexpected message matched)", true},
    {"mtl_mdupdate_retry", "receives", "receives whose PtlMDUpdate found a new unexpected message and searched again",
     true},
    {"mtl_long_gets", "transfers", "gets pulling an unexpected long message after its receive matched", true},
    {"mpi_truncate_errors", "receives", "receives smaller than the message matched (MPI_ERR_TRUNCATE)"},
    {"mtl_live_ops", "requests", "MTL requests (sends and receives) not completed at the end of the run", false, true},
}};

// The protocol choices that distinguish Open MPI's MTL from Cray MPI's Portals device (the paper, §2.2: "similar to
// the Portals MTL ... significant differences regarding the handling of event queue polling").
struct Protocol {
  std::string name = "portals";
  std::uint64_t eager_limit = 32768;  // short/long cut-off
  bool long_rendezvous = false;       // long sends put a header only and the receiver always pulls (Cray MPI)
  // Open MPI 1.3 (and the 2008 trunk of the paper, from the commit that added the copy blocks): a posted receive and a
  // long send's read-table entry are made by PtlMEMDPost, Catamount's one call that inserts a match entry, attaches
  // its MD and refuses (PTL_MD_NO_UPDATE) while a given event queue holds an event (mtl_portals_recv.c
  // ompi_mtl_portals_irecv, mtl_portals_send.c ompi_mtl_portals_long_isend). So a receive costs 1 call and a long send
  // 2 (PtlMEMDPost + PtlPut). false: PtlMEInsert/PtlMEAttach + PtlMDAttach (+ PtlMDUpdate for a receive) as separate
  // calls, 3 and 3 (Open MPI 1.2's mtl/portals; Cray MPI's calls are not published).
  bool me_md_post = false;
  int eqs_polled = 1;                 // event queues polled per event handled
  bool unexpected_start_events = false;  // unexpected messages post PUT_START as well as PUT_END
  std::uint64_t block_size = 15728640;
  int blocks = 3;
  // The parameters that set eager_limit and block_size, as an error names them; block_share: the block is the
  // parameter's value divided by it (Cray MPI halves its unexpected buffer).
  std::string eager_key = "mca.mtl_portals_eager_limit", block_key = "mca.mtl_portals_short_block_size";
  int block_share = 1;
  // Open MPI 1.3's send copy blocks (mtl_portals_send_short.c): a send of 1 .. copy_block_len bytes is memcpy'd into a
  // free block of one retained MD and put from there (PtlPutRegion: 1 call), and is complete at once; the block comes
  // back at SEND_END. A zero-byte send is put from a retained zero-length MD (1 call) and is complete at once. With no
  // free block the sender progresses until one comes back (later sends wait behind it). 0 blocks: no copies.
  int copy_blocks = 0;
  std::uint64_t copy_block_len = 0;
  // A closed comparator's own cost on its unexpected short path (Cray MPI: software.craympi_unex_*): CPU time per
  // message and per byte (as a rate) at the receiver when a receive matches a short message that arrived before it,
  // before the copy out of the unexpected buffer. Open MPI's protocol has none (0 and 0: no cost).
  double unexpected_cost = 0;
  double unexpected_rate = 0;  // bytes/s; 0: no per-byte cost
  // A closed comparator's own cost on its pre-posted receive path (Cray MPI: software.craympi_post_cost): CPU time at
  // the receiver per receive that is posted as a match entry (no unexpected message matched it), after its Portals
  // calls, once the entry is linked. Open MPI's protocol has none (0).
  double posted_cost = 0;
  // The parameters the three costs above are taken from (a closed comparator's fitted machine costs, each copy),
  // read when the path first takes them (the first unexpected short message, the first pre-posted receive); empty
  // for Open MPI's protocol.
  ReadOnUse unexpected_params = {}, posted_params = {};
};
Protocol open_mpi_protocol(const MtlPortalsMca& mca);
// Refuses a protocol it cannot run at `ranks` (more ranks than the match bits carry, a short message larger than an
// unexpected block), before anything is simulated (ComponentInfo::check) and again when the MTL is built: InputError
// with an empty file (the run names it).
void check_protocol(const Protocol& p, long long ranks);

class MtlPortals final : public Mtl {
public:
  // The parts of the platform it uses: where ranks run (the job size), their CPU timelines (Portals calls, copy
  // blocks), the node's memory copies (a copy block's time) and the job's SeaStar.
  MtlPortals(const Contexts& contexts, CpuTimeline& cpus, const MemoryCopies& copies, seastar::SeaStar& nic, Protocol p);
  std::string name() const override { return proto_.name; }
  void isend(const ompisim::mpi::P2P& m, Completion done) override;
  void irecv(const ompisim::mpi::P2P& m, Completion done) override;
  std::uint32_t max_contextid() const override { return ptl::mpi::kMaxContexts - 1; }  // 12 match bits
  std::uint64_t unexpected_now() const override;
  std::uint64_t posted_now() const override { return posted_; }
  void add_counters(std::map<std::string, std::uint64_t>& c) const override;
  seastar::SeaStar& seastar() { return ss_; }

private:
  enum class OpKind : std::uint8_t { ShortSend, LongSend, Recv };
  struct Op {  // mca_mtl_portals_request_t (mtl_portals_op.hpp: its states)
    OpState state = OpState::Idle;
    OpKind kind = OpKind::Recv;
    bool copied = false;  // a send through a copy block (or the zero-length MD)
    int rank = 0, peer = 0;
    std::uint64_t bytes = 0;
    Buffer buf;
    Completion done;
    ompisim::mpi::Status* status = nullptr;  // a receive: the caller's, filled from the matched bits at completion
    ompisim::mpi::Status matched;
    ptl::MatchBits bits = 0;  // a send's match bits; a receive's once matched to a message it pulls
    std::uint64_t hdr_data = 0, data_len = 0;  // a receive's matched message: its sender's id, the bytes to copy/pull
  };
  struct Unexpected {
    ptl::MatchBits bits;
    int src;
    std::uint64_t rlength, mlength, hdr_data;
    bool is_long;
    bool seen = false;             // its event has reached the host
    std::uint64_t waiting = 0;     // a receive matched it before its event arrived
  };
  struct RankState {
    bool ready = false;
    ptl::MeId long_catch = ptl::kMeNone;
    std::deque<Unexpected> unexpected;
    int copy_free = 0;  // copy blocks not in use
    // Sends behind one that waits for a copy block (in order: the real sender spins in progress inside MPI_Isend).
    std::deque<std::pair<bool, std::uint64_t>> send_waiting;  // (needs a copy block, send id)
  };
  // The steps of an operation (mtl_portals_op.hpp): each applies its event to ops_[id] and starts what the new state
  // needs.
  void start_send(std::uint64_t id);       // START_COPY or START_PUT: the send's calls queued
  void on_copy_put(std::uint64_t id);      // COPY_PUT: the put from the copy block; the send is complete
  void on_send_calls(std::uint64_t id);    // SHORT_PUT or LONG_PUT: the MD over the user buffer, the put
  void on_recv_calls(std::uint64_t id);    // ATTACHED (or matched by PtlMDUpdate's search)
  void on_get_calls(std::uint64_t id);     // GET_ISSUED: the pull of a matched long message
  void copy_out(std::uint64_t id);         // an unexpected short message copied out of its block: COPIED
  void on_header_polled(std::uint64_t id);  // the rendezvous header's PUT_END read: MATCHED_LONG
  void on_polled(std::uint64_t id);        // POLLED: the completing event read
  void on_op_event(int rank, const ptl::Event& e);  // an event of an operation's MD
  void release_copy_block(int rank);
  double medium_send_cost(int rank) const;  // an uncopied short send's cost beyond its two calls
  void ensure(int rank);
  void post_block(int rank);
  void on_event(int rank, const ptl::Event& e);
  // An unexpected message's PUT_END read: the receive already waiting for it (if any) completes.
  void on_unexpected_put_end_read(int rank, ptl::MatchBits bits, std::uint64_t hdr_data);
  std::string block_note() const;  // how a block's size derives from its parameter, for errors
  void on_match(int target, const ptl::IncomingResult& in, const ptl::PutMessage& m);
  bool take_unexpected(int rank, std::uint64_t rid);  // matched an unexpected message (or will when it is seen)
  void finish_unexpected(int rank, std::uint64_t rid, const Unexpected& u);
  void complete(std::uint64_t id);
  void set_status(std::uint64_t rid, ptl::MatchBits bits, std::uint64_t length);
  std::uint64_t message_length(std::uint64_t hdr_data, std::uint64_t rlength) const;
  double poll_cost() const;

  CpuTimeline& cpus_;
  const MemoryCopies& copies_;
  Protocol proto_;
  seastar::SeaStar& ss_;  // the node's NIC, shared with every other component on it
  int client_ = -1;       // this MTL's client id on the SeaStar (its event queues)
  std::uint64_t eager_;
  std::unordered_map<int, RankState> ranks_;
  ompisim::mpi::RequestTable<Op> ops_;  // ids (>= 2^32) are user_ptr and hdr_data; 1 and 2 mark the catch-alls
  struct RecvKey {
    std::uint32_t ctx;
    int src, tag;
  };
  std::unordered_map<std::uint64_t, RecvKey> recv_keys_;
  std::uint64_t posted_ = 0;
  Statistics<MtlPortalsStat, kMtlPortalsStatistics.size()> c_{kMtlPortalsStatistics};  // LiveOps: at report
};

}  // namespace ompisim::mtl::portals
