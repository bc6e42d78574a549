// What a PML may ask of any transport (mirrors mca_btl_base_module_t, opal/mca/btl/btl.h): a capability record, the
// reachability of peers (btl_add_procs), active-message tags (btl_register / mca_btl_base_active_message_trigger),
// send of a descriptor, RDMA get, and memory registration (btl_register_mem).
//
// A BTL carries no PML type: a descriptor holds the PML's header as opaque bytes (the BTL reads only its length) and a
// data segment into the user buffer. The receiving BTL calls the callback the PML registered for the descriptor's tag,
// on the receiving rank's CPU, after charging its own receive costs.
// Atomics (btl_atomic_op, MCA_BTL_FLAGS_ATOMIC_OPS): a BTL with the flag adds to a counter in a peer's memory that the
// peer's CPU does not handle (btl/vader on a shared cache line, btl/ugni by the Gemini NIC's AMO unit); Cheetah's
// BCOLs and pml/ob1's amo_add use the first BTL with the flag that bml/r2 lists for the peer.
// LIMITATIONS: one header segment and one data segment per descriptor (Open MPI allows several of each); an RDMA PUT
// only in the BTLs whose flags say so (Btl::put throws otherwise); one atomic operation (add, no fetch); no
// btl_del_procs; a BTL's reachability is a pure function of (rank, peer) and where ranks run (Contexts).
#pragma once
#include "core/errors.hpp"
#include "mpi/stack.hpp"
#include "platform/contexts.hpp"
#include "protocols/base/mca_module.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace ompisim::btl {

// MCA_BTL_FLAGS_* (opal/mca/btl/btl.h, same values in v1.3, v1.8 and v4.1).
namespace flag {
constexpr std::uint32_t Send = 0x0001;               // send/receive of descriptors
constexpr std::uint32_t Put = 0x0002;                // RDMA put
constexpr std::uint32_t Get = 0x0004;                // RDMA get
constexpr std::uint32_t Rdma = Put | Get;
constexpr std::uint32_t SendInplace = 0x0008;        // may send from the user buffer (no copy in)
constexpr std::uint32_t RdmaMatched = 0x0040;        // RDMA can be matched by the NIC (btl/portals)
constexpr std::uint32_t HeterogeneousRdma = 0x0100;  // RDMA also between peers of different architecture
constexpr std::uint32_t AtomicOps = 0x08000;         // atomic operations on a peer's memory (v2.0 on)
constexpr std::uint32_t AtomicFops = 0x10000;        // fetching atomic operations (v2.0 on)
}  // namespace flag

constexpr std::uint32_t kExclusivityHigh = 64 * 1024;  // MCA_BTL_EXCLUSIVITY_HIGH (internal loopback, shared memory)
constexpr std::uint32_t kExclusivityDefault = 1024;    // MCA_BTL_EXCLUSIVITY_DEFAULT (GM/IB/...)
constexpr std::uint32_t kExclusivityLow = 0;           // MCA_BTL_EXCLUSIVITY_LOW (TCP, last resort)

// The capability record (the size, ranking and flag fields of mca_btl_base_module_t). Sizes in bytes. `latency` is in
// microseconds and `bandwidth` in Mb/s as Open MPI's components write them ("/* Mbs */"; btl.h documents the field as
// Mbytes/sec): both are rankings, not timings — bml/r2 uses only their order (latency) and ratios (bandwidth), and no
// simulated time depends on them.
struct BtlCaps {
  std::uint64_t eager_limit = 0;                // largest first fragment of an eager send, header included
  std::uint64_t rndv_eager_limit = 0;           // largest first fragment of a rendezvous, header included
  std::uint64_t max_send_size = 0;              // largest send fragment, header included
  std::uint64_t rdma_pipeline_send_length = 0;  // bytes sent by send/receive before the RDMA pipeline
  std::uint64_t rdma_pipeline_frag_size = 0;    // largest RDMA fragment
  std::uint64_t min_rdma_pipeline_size = 0;     // smallest message for the RDMA pipeline
  // Open MPI 1.1 btl_min_send_size: below this many remaining bytes ob1's send schedule puts them all in one FRAG
  // on a BTL (0: never).
  std::uint64_t min_send_size = 0;
  // The module has a memory pool (btl_mpool != NULL): its RDMA needs the user buffer registered with it (Open MPI
  // v1.1 mca_pml_ob1_rdma_btls counts a BTL without one as usable on any buffer).
  bool mpool = false;
  std::uint32_t exclusivity = 0;
  std::uint32_t latency = 0;    // us
  std::uint32_t bandwidth = 0;  // Mb/s
  std::uint32_t flags = 0;      // btl::flag::*
  bool nic_atomics = false;     // with flag::AtomicOps: the NIC executes them, for a peer on the node too (btl/ugni)
  bool has(std::uint32_t f) const { return (flags & f) == f; }
};

// Active-message tags (MCA_BTL_TAG_*): a PML registers its callbacks from kTagPml up.
using Tag = std::uint8_t;
constexpr Tag kTagBtl = 0x20;  // MCA_BTL_TAG_BTL
constexpr Tag kTagPml = 0x40;  // MCA_BTL_TAG_PML

// The largest header segment a BTL must accept; a BTL sizes its receive buffers with it.
constexpr std::size_t kHdrSegmentMax = 32;

// The PML's header as opaque bytes. A BTL reads `len` (the header's bytes on the wire) and never `bytes`.
struct HdrSegment {
  std::array<std::uint8_t, kHdrSegmentMax> bytes{};
  std::uint8_t len = 0;
};

// User data that travels with the header: `length` bytes at `offset` in `buf`. For a descriptor with
// desc_flag::ExposeData and no data (`length` 0), `buf` is the region the peer will access by RDMA. On delivery
// (Btl::deliver_landed) `buf.space` of a descriptor with data is where its bytes are for the receiver's copy out: a
// receive buffer of the receiver's own (a network BTL), or the sender's memory (vader's copy-in fragments and fast
// boxes, in the sender's segment; its single-copy sends, the sender's user buffer).
struct DataSegment {
  std::uint64_t offset = 0, length = 0;
  Buffer buf;
};

namespace desc_flag {
constexpr std::uint8_t InPlace = 0x1;     // the BTL may send straight from the user buffer (vader's single copy)
constexpr std::uint8_t Put = 0x4;         // a data fragment written into the peer's registered buffer: no copy into a BTL
                                          // buffer on the sender (ob1 itself writes its RDMA PUT fragments with Btl::put)
constexpr std::uint8_t ExposeData = 0x2;  // the data segment's buffer is exposed for the peer's RDMA get (the BTL
                                          // prepares it with the send: btl/portals' PtlMEAttach + PtlMDAttach)
constexpr std::uint8_t Priority = 0x8;    // MCA_BTL_DES_FLAGS_PRIORITY: the PML's control and first fragments (ob1 sets
                                          // it on MATCH, RNDV, RGET, ACK, FIN, PUT); a BTL with a high-priority channel
                                          // sends such a descriptor there when it fits an eager fragment
}  // namespace desc_flag

// ↔ mca_btl_base_descriptor_t (+ des_cbdata): what crosses a BTL.
struct Descriptor {
  Tag tag = 0;
  std::uint8_t flags = 0;  // desc_flag::*
  int src = 0, dst = 0;
  HdrSegment hdr;
  DataSegment data;
  std::uint64_t cookie = 0;  // the PML's, untouched by the BTL (it finds its request with it)
  // Set by the receiving BTL when the payload sits in one of its buffers that must be returned once the PML has
  // copied it out (a receive descriptor owned by the BTL); 0 when there is none. Handed back in payload_consumed.
  std::uint64_t rx_buffer = 0;
  std::uint64_t wire_bytes() const { return hdr.len + data.length; }
};

using TagCallback = std::function<void(const Descriptor&)>;

class Btl : public McaModule {
public:
  virtual const BtlCaps& caps() const = 0;
  // Whether this BTL can reach `peer` from `rank` (the reachability bitmap of btl_add_procs).
  virtual bool reaches(const Contexts& contexts, int rank, int peer) const = 0;
  // The path's latency (s) and bandwidth (bytes/s) as the BTL knows them from its NIC (what a scheduling policy may
  // weight by); by default the capability record's exported rankings converted to those units.
  virtual double path_latency() const { return caps().latency * 1e-6; }
  virtual double path_bandwidth() const { return caps().bandwidth * 1e6 / 8; }
  // Sends the descriptor's header and data segments; `local_done` when the user buffer may be reused.
  virtual void send(const Descriptor& d, Completion local_done) = 0;
  // The same for a descriptor whose data the PML packed into the BTL's fragment before btl_send (ob1's start_copy
  // with early completion, Open MPI v1.1 to the trunk of May 2008): `packed` runs when the send call has returned on
  // the sender's CPU (the fragment is the BTL's, the user buffer free), `local_done` when the fragment completes, as
  // in send(). By default the two run together, just when the fragment completes: a BTL whose fragment the model
  // completes when its data is copied (the fabric BTLs) has nothing between them. btl/portals overrides it (its
  // fragments complete on their ACK).
  virtual void send_packed(const Descriptor& d, Completion local_done, Completion packed) {
    send(d, [local_done = std::move(local_done), packed = std::move(packed)] {
      if (packed) packed();
      if (local_done) local_done();
    });
  }
  // The receiver (initiator) pulls `bytes` from peer's buffer `remote` into `local`; `done` on the initiator's CPU.
  virtual void get(int initiator, int peer, std::uint64_t bytes, Buffer local, Buffer remote, Completion done) = 0;
  // ↔ btl_put: the initiator writes `bytes` of its buffer `local` into the peer's registered buffer `remote` (ob1's RDMA
  // PUT pipeline, Open MPI 1.1 to 1.8: the sender writes each segment the receiver's PUT control message names);
  // `done` on the initiator's CPU when the NIC reports the write complete. Nothing runs at the peer. Only BTLs with
  // flag::Put implement it.
  virtual void put(int initiator, int peer, std::uint64_t bytes, Buffer local, Buffer remote, Completion done) {
    (void)initiator, (void)peer, (void)bytes, (void)local, (void)remote, (void)done;
    throw std::logic_error("btl/" + name() + " has no RDMA put in the model");
  }
  // Makes a buffer usable for RDMA (registration); immediate when the BTL needs none.
  virtual void prepare_rdma(int rank, Buffer b, std::uint64_t bytes, Completion ready) {
    (void)rank, (void)b, (void)bytes, ready();
  }
  // The receiving PML has taken the descriptor's payload (copied it out): the BTL may return its buffer, or tell the
  // sender that its user buffer is free again (vader's single-copy sends). Called once per delivered descriptor.
  virtual void payload_consumed(const Descriptor& d) { (void)d; }
  // ↔ btl_atomic_op (MCA_BTL_ATOMIC_ADD) on `target`'s counter, for a BTL with flag::AtomicOps that reaches target:
  // `local_done` when the initiator sees completion, `at_target` when the counter is updated.
  virtual void atomic_add(int rank, int target, Completion local_done, Completion at_target) {
    (void)rank, (void)target, (void)local_done, (void)at_target;
    throw std::logic_error("btl/" + name() + " has no atomic operations (no MCA_BTL_FLAGS_ATOMIC_OPS)");
  }
  // ↔ btl_register: `cb` runs for every descriptor with tag `t` this BTL delivers. Registering a tag twice is an error.
  void register_tag(Tag t, TagCallback cb) {
    if (callbacks_[t]) throw ProtocolError("btl/" + name() + " tags", "registered", "register_tag twice");
    callbacks_[t] = std::move(cb);
  }
  bool has_tag(Tag t) const { return static_cast<bool>(callbacks_[t]); }

protected:
  // Runs the callback registered for d.tag (the BTL calls it on the receiving rank's CPU, after its own costs).
  void deliver(const Descriptor& d) const {
    const TagCallback& cb = callbacks_[d.tag];
    if (!cb) throw ProtocolError("btl/" + name() + " receive", "no callback for tag", std::to_string(d.tag));
    cb(d);
  }
  // deliver() for a descriptor whose data now lie in `where` (as seen from the receiver: MemSpace{} is its own memory).
  void deliver_landed(Descriptor d, MemSpace where) const {
    if (d.data.length > 0) d.data.buf.space = where;
    deliver(d);
  }

private:
  std::array<TagCallback, 256> callbacks_{};  // ↔ mca_btl_base_active_message_trigger
};

}  // namespace ompisim::btl
