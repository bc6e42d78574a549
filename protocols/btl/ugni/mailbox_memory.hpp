// Mailbox memory per node: per-peer SMSG mailboxes (what btl/ugni does) vs the MSGQ design the Gemini paper plans
// (one shared set of queues per node, one queue per remote node). A what-if: memory only, nothing here is timed.
//
// Sources:
//  - Gemini paper §II.A: SMSG mailboxes are dedicated per peer and per connection; MSGQ shares the mailbox
//    information with every instance on the node, so it scales with the number of nodes, not of peers.
//  - SMSG limit by job size (256 B above 16,384 ranks; the paper's Table I: from 16,384 on) = effective_smsg_limit()
//    (protocols/base/smsg_auto_limit.hpp, the one home of the rule; btl_ugni_mca.hpp names btl/ugni's parameter);
//    §IV.B (endpoints and mailboxes on demand; mailboxes allocated in 2 MB blocks); §VIII (MSGQ planned).
//  - Open MPI 1.7 btl/ugni, btl_ugni_component.c mca_btl_ugni_smsg_setup(): msg_maxsize = ugni_smsg_limit (the
//    limit includes the BTL fragment header: smsg_max_data = limit - sizeof(send_frag_hdr)), mbox_maxcredit =
//    smsg_max_credits, mailbox = OPAL_ALIGN(GNI_SmsgBufferSizeNeeded(attr), 64).
//  - Open MPI 1.7 btl_ugni_add_procs.c mca_btl_ugni_setup_mpools(): the mailbox free list starts empty, grows by
//    mbox_increment = nprocs mailboxes, or floor(2 MiB / mailbox) when nprocs mailboxes exceed 2 MiB, up to nprocs.
//  - A connection has a mailbox at each end (GNI_SmsgInit takes the local and the remote mailbox attributes, exchanged
//    by datagram in mca_btl_ugni_ep_connect_progress), so a rank holds one mailbox per connected remote peer.
//
// The mailbox formula: GNI_SmsgBufferSizeNeeded() lives in Cray's closed libugni and no public source found documents
// its arithmetic (Cray S-2446 and gni_pub.h only say it returns the size one mailbox needs for the given msg_maxsize
// and mbox_maxcredit; every open user, Open MPI, GASNet, libfabric gni, Charm++, NNTI, just calls it). This model
// assumes
//     mailbox(L, C) = align64( C x align64(L + kGniSmsgMsgHeaderBytes) + kGniSmsgMboxControlBytes )
// i.e. C message slots of the largest message plus a GNI header, each on its own cache line, plus one cache line of
// control state, then Open MPI's 64-byte alignment. The header and control sizes are labelled assumptions below.
//
// LIMITATIONS: the GNI layout above is an assumption (see the constants); MSGQ is not simulated (no timing), its
// memory is sized with the same per-message formula, one queue per remote node, without the MSGQ receive pool or
// per-local-instance state (no public sizes); memory registrations (MDD entries) are not counted; "connected" is a
// mean over nodes (the stack reports one job-wide endpoint count, not one per node).
#pragma once
#include "protocols/btl/ugni/btl_ugni_mca.hpp"

#include <cstdint>

namespace ompisim::btl::ugni {

// Assumption (GNI_SmsgBufferSizeNeeded is closed source): GNI's own header per SMSG message (tag, length, and the
// sequence number GNI_SMSG_TYPE_MBOX_AUTO_RETRANSMIT needs). For any msg_maxsize that is a multiple of 64 (every
// Table I value) every header size from 1 to 64 bytes gives the same slot, so this value does not matter there.
constexpr std::uint64_t kGniSmsgMsgHeaderBytes = 16;
// Assumption: each message slot is a whole number of 64-byte cache lines (the AMD Opteron line size; Open MPI and
// GASNet's gemini-conduit both align whole mailboxes to 64 bytes, which suggests, but does not prove, this layout).
constexpr std::uint64_t kGniSmsgSlotAlignBytes = 64;
// Assumption: one cache line of per-mailbox control state (credit return / retransmit bookkeeping).
constexpr std::uint64_t kGniSmsgMboxControlBytes = 64;
// Open MPI 1.7 btl_ugni_component.c mca_btl_ugni_smsg_setup(): smsg_mbox_size = OPAL_ALIGN(mbox_size, 64, ...).
constexpr std::uint64_t kOmpiMboxAlignBytes = 64;
// Open MPI 1.7 btl_ugni_add_procs.c mca_btl_ugni_setup_mpools() ("limit mailbox allocations to at most 2MiB at a
// time"); Gemini paper §IV.B ("Mailboxes are allocated in 2 MB blocks", the papers' reference constants'
// ugni_mailbox_allocation_bytes).
constexpr std::uint64_t kOmpiMboxBlockBytes = 2097152;

// Bytes of one SMSG mailbox for messages up to `msg_maxsize` bytes and `credits` outstanding messages.
std::uint64_t smsg_mailbox_bytes(std::uint64_t msg_maxsize, std::uint64_t credits);

// Mailboxes per free-list block (mbox_increment of Open MPI 1.7): nprocs when they fit in 2 MiB, else as many as fit
// (at least one).
std::uint64_t mailboxes_per_block(std::uint64_t nprocs, std::uint64_t mailbox_bytes);

// Bytes one rank allocates to hold `mailboxes` mailboxes: whole blocks, never more than nprocs mailboxes.
std::uint64_t smsg_allocated_bytes(std::uint64_t mailboxes, std::uint64_t nprocs, std::uint64_t mailbox_bytes);

struct MailboxJob {
  long long ranks = 0;
  int ranks_per_node = 1;
  long long nodes = 0;  // nodes the job occupies (block placement: ceil(ranks / ranks_per_node))
};

struct MailboxMemory {
  std::uint64_t smsg_limit = 0;        // msg_maxsize of one SMSG message (BTL header included)
  std::uint64_t credits = 0;           // SMSG credits per peer (mbox_maxcredit)
  std::uint64_t msgq_credits = 0;      // messages one MSGQ queue (per remote node) holds
  std::uint64_t mailbox_bytes = 0;     // one per-peer SMSG mailbox
  std::uint64_t msgq_queue_bytes = 0;  // one MSGQ queue
  long long off_node_peers = 0;        // remote ranks of a rank on the fullest node
  // Bytes per node.
  std::uint64_t smsg_all_peers = 0;  // fullest node: each of its ranks holds a mailbox for every off-node rank
  double smsg_connected = 0;         // mean: one mailbox per simulated endpoint (exact when connections are two-way)
  double smsg_connected_max = 0;     // mean: two mailboxes per simulated endpoint (every connection one-way),
                                     // at most one per ordered pair of ranks on different nodes
  double smsg_connected_allocated = 0;  // mean: smsg_connected rounded up to Open MPI's blocks, per rank
  std::uint64_t msgq_per_node = 0;   // one queue per remote node, shared by the node's ranks
};

// `endpoints`: sender-side (rank, peer) uGNI endpoints the run created (Gni::endpoints(), counter "ugni_endpoints").
// Open MPI puts a mailbox at both ends of a connection, so the job holds between `endpoints` mailboxes (every
// connection carries traffic both ways, as in tree and recursive-doubling barriers) and 2 x `endpoints` (all one-way).
// `msgq_credits`: queue depth of one MSGQ queue; a what-if knob (the paper gives none), pass `credits` for "the same
// depth as one SMSG mailbox". Throws std::invalid_argument on an impossible job.
MailboxMemory mailbox_memory(const MailboxJob& job, std::uint64_t smsg_limit, std::uint64_t credits,
                             std::uint64_t endpoints, std::uint64_t msgq_credits);

}  // namespace ompisim::btl::ugni
