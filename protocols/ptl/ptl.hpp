// Open MPI's PTL framework of 2004 (ompi/mca/ptl/ptl.h, with the PML "teg" above it): the point-to-point transport
// layer as the qsnet-elan4 paper describes it (§2.2, Fig. 2). A PTL module sends the first fragment of a message
// that the PML scheduled (`ptl_send`), hands every arriving first fragment to the PML for matching (`ptl_match`
// upcall), is called back once the PML has matched it (`ptl_matched`) to move the rest of the message by its own
// means, and reports progress (`ptl_send_progress`, `ptl_recv_progress`) until the PML completes the requests.
// This is not a BTL: the PTL owns the protocol after the first fragment (RDMA read or write, its control messages),
// and it owns progress (polling, interrupts, its own threads), so completions reach the PML on whatever execution
// context the PTL ran them on.
#pragma once
#include <cstdint>
#include <functional>

namespace ompisim::ptl {

// The first fragment's match header (mca_ptl_base_match_header_t with its fragment header): 64 bytes on the wire in
// Open MPI of 2004 (paper §6.3).
struct MatchHeader {
  std::uint32_t contextid = 0;     // the communicator (hdr_contextid: 32 bits in the 2004 header)
  int src = -1, dst = -1, tag = 0;
  std::uint32_t seq = 0;           // per-peer sequence number (matching order)
  std::uint64_t msg_bytes = 0;     // the whole message
  std::uint64_t inline_bytes = 0;  // data carried in this fragment
  std::uint64_t send_req = 0;      // the sender's request (returned in ACK / FIN_ACK)
  bool rendezvous = false;         // the rest follows after the receiver matched
  std::uint64_t ptl_frag = 0;      // the receiving PTL's own handle of this fragment, returned to it in ptl_matched
                                   // (Open MPI's PML hands ptl_matched the PTL's receive fragment); not on the wire
};

// What the PML offers the PTL (the PML's callbacks in mca_ptl_base_module_t). `ctx`: the execution context running
// the call (the rank's main thread or one of the PTL's progress threads).
class PmlUpcalls {
public:
  virtual ~PmlUpcalls() = default;
  virtual void match(int ctx, int rank, const MatchHeader& h) = 0;
  virtual void send_progress(int ctx, int rank, std::uint64_t send_req, std::uint64_t bytes) = 0;
  virtual void recv_progress(int ctx, int rank, std::uint64_t recv_req, std::uint64_t bytes) = 0;
};

class Ptl {
public:
  virtual ~Ptl() = default;
  virtual std::uint64_t first_frag_size() const = 0;  // data in a first fragment (ptl_first_frag_size)
  virtual bool inline_rendezvous() const = 0;         // a rendezvous fragment carries first_frag_size bytes of data
  virtual double request_overhead() const = 0;        // per-request cost the PTL adds to the PML's (datatype engine)
  virtual void send(int ctx, const MatchHeader& h) = 0;                           // ptl_send
  virtual void matched(int ctx, const MatchHeader& h, std::uint64_t recv_req) = 0;  // ptl_matched
  // A request completed on `ctx`: run the user's completion on the rank's main thread (a progress thread hands it
  // over; on the main thread it runs now).
  virtual void complete_user(int ctx, int rank, std::function<void()> done) = 0;
  PmlUpcalls* pml = nullptr;
};

}  // namespace ompisim::ptl
