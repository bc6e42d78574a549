// MPI requests and the table that holds them (ompi_request_t and the PML's request free lists).
//
// `Request` is what every stack's send and receive request starts with: owner rank, peer, tag, communicator,
// datatype, size, buffer, the caller's status and completion. A stack derives its own request from it (pml/ob1 adds
// its protocol state, the native comparators their rendezvous fields).
//
// `RequestTable<Req>` holds the live requests of every rank of one stack, the way each MPI process's request free
// list holds its own: a request belongs to the rank in `Req::rank`, ids are handles that travel in protocol headers
// (ob1's hdr_src_req / hdr_dst_req), and nothing is kept per peer. Storage is a slab in fixed chunks with a free list:
// a freed slot is reused by the next request, a reference stays valid until its request is freed, and memory follows
// the peak number of live requests (no per-rank or per-peer preallocation). An id is (generation << 32 | slot), so
// a stale id (a freed request) is never found again.
#pragma once
#include "core/errors.hpp"
#include "mpi/p2p.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ompisim {

using Completion = std::function<void()>;

namespace mpi {

// Kept small (96 bytes on LP64: a whole-machine run holds hundreds of thousands): the datatype is folded into
// `bytes` and `buf.contiguous`; a stack that converts data adds the type to its own request.
struct Request {
  static constexpr std::uint64_t kUnmatched = ~std::uint64_t{0};
  int rank = 0, peer = 0, tag = 0;        // a receive's peer and tag may be wildcards until it is matched
  std::uint32_t ctx = 0;                  // the communicator's context id
  std::uint64_t bytes = 0;                // count * type.size
  std::uint64_t msg_bytes = kUnmatched;   // a receive: the matched message's length (its envelope is peer, tag)
  Buffer buf;
  Status* status = nullptr;
  Completion done;
  bool matched() const { return msg_bytes != kUnmatched; }
  // Fills the request from the call (peer/tag as given; wildcards stay wildcards).
  void set(const P2P& m, Completion d) {
    rank = m.rank, peer = m.peer, tag = m.tag, ctx = m.comm.context_id, bytes = m.bytes();
    buf = m.buffer(), status = m.status, done = std::move(d);
  }
};

static_assert(sizeof(void*) != 8 || sizeof(Request) <= 96, "mpi::Request grew: every live request pays for it");

using RequestId = std::uint64_t;

template <class Req>
class RequestTable {
public:
  // A new default request and its id (never 0). The reference stays valid until the request is erased.
  std::pair<RequestId, Req&> create() {
    std::uint32_t i;
    if (free_ != kNone) {
      i = free_;
      free_ = slot(i).next_free;
    } else {
      i = static_cast<std::uint32_t>(top_++);
      if (i / kChunk >= chunks_.size()) chunks_.push_back(std::make_unique<Slot[]>(kChunk));
    }
    Slot& s = slot(i);
    s.next_free = kUsed;
    ++live_;
    return {(static_cast<RequestId>(s.gen) << 32) | i, s.req};
  }
  Req* find(RequestId id) {
    const auto i = static_cast<std::uint32_t>(id);
    if (i >= top_) return nullptr;
    Slot& s = slot(i);
    return s.next_free == kUsed && s.gen == static_cast<std::uint32_t>(id >> 32) ? &s.req : nullptr;
  }
  const Req* find(RequestId id) const { return const_cast<RequestTable*>(this)->find(id); }
  Req& at(RequestId id) {
    Req* r = find(id);
    if (!r) throw ProtocolError("request table", "id " + std::to_string(id), "lookup of a request that is not live");
    return *r;
  }
  const Req& at(RequestId id) const { return const_cast<RequestTable*>(this)->at(id); }
  // Frees request `id`, returning it (moved out): its slot is reused by a later create().
  Req take(RequestId id) {
    Req& r = at(id);
    Req out = std::move(r);
    r = Req{};
    const auto i = static_cast<std::uint32_t>(id);
    Slot& s = slot(i);
    ++s.gen;
    if (s.gen == 0) s.gen = 1;
    s.next_free = free_;
    free_ = i;
    --live_;
    return out;
  }
  std::size_t size() const { return live_; }
  // Live requests owned by `rank` (a scan: for checks and reports, not for the message path).
  std::size_t live(int rank) const {
    std::size_t n = 0;
    for (std::size_t i = 0; i < top_; ++i) {
      const Slot& s = chunks_[i / kChunk][i % kChunk];
      n += s.next_free == kUsed && s.req.rank == rank;
    }
    return n;
  }
  std::size_t capacity() const { return chunks_.size() * kChunk; }

private:
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu, kUsed = 0xFFFFFFFEu;
  static constexpr std::size_t kChunk = 256;
  struct Slot {
    Req req{};
    std::uint32_t gen = 1;  // ids start at 1 << 32: never 0, never a small reserved value of a transport
    std::uint32_t next_free = kNone;
  };
  Slot& slot(std::uint32_t i) { return chunks_[i / kChunk][i % kChunk]; }
  std::vector<std::unique_ptr<Slot[]>> chunks_;
  std::size_t top_ = 0, live_ = 0;
  std::uint32_t free_ = kNone;
};

}  // namespace mpi
}  // namespace ompisim
