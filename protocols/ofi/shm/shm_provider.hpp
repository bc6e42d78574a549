// libfabric's shm provider (prov/shm) as a peer of LINKx: ranks of one node, software matching through the owner's
// shared receive queue, completions into the owner's CQ (slingshot-ex §III; fi_lnx(7)).
//   inject   host buffers up to shm_inject_size: the sender copies the payload into the shared inject buffer and is
//            done; the receiver copies it out when a receive matches (two copies, no handshake).
//   single   larger host buffers: the sender posts a command with its iov; the receiver copies straight from the
//   copy     sender's memory (CMA process_vm_readv / XPMEM attach, the first touch of a peer paying os.xpmem_attach_cost)
//            and signals the sender, whose send then completes.
//   GPU IPC  a device send buffer (a host send into a device receive is copied to the GPU by the receiver's DMA): the receiver opens the sender's IPC handle (software.gpu_ipc_open_cost on
//            first use of that peer buffer; the handle cache keeps it, slingshot-ex §IV.A) and a GPU copy engine moves
//            the data over the node's GPU links (software.gpu_copy_latency, then a flow over the GPU memories and
//            peer links or the CPU-GPU bus).
// A command reaches the peer after the cache-line hand-off latency of the two cores; each side pays
// software.shm_overhead per message (a library's own path: ShmConfig's per-path costs on top). Command queues are FIFO per peer, so MPI order holds without sequence numbers.
// Each message is a record with its send and receive states (shm_msg.hpp); engine continuations carry only its id.
// LIMITATIONS: no shared-memory ring capacity (a full command queue never stalls a sender); CMA and XPMEM are priced
// alike (one copy by the receiving core); IPC handles are cached forever.
#pragma once
#include "protocols/ofi/base/peer_messages.hpp"
#include "protocols/ofi/endpoint.hpp"
#include "platform/cpu_timeline.hpp"
#include "protocols/ofi/shm/shm_msg.hpp"
#include "protocols/ofi/shm/shm_statistics.hpp"
#include "mpi/request.hpp"

#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace ompisim::ofi::shm {

struct ShmConfig {
  double overhead = 0, inject_size = 4096, ipc_open_cost = 0, gpu_copy_latency = 0, xpmem_attach_cost = 0;
  // A closed library's own on-node path priced as a black box (Cray MPICH's; none for libfabric's shm provider): a
  // cost per message and per byte (as a rate, 0 = none) on the inject path (the sender's CPU at post; the per-byte
  // part at most inject_cost_max per message, 0 = no ceiling) and on the single-copy path (the receiver's CPU when it
  // matches, before the copy).
  double inject_rate = 0, inject_cost_max = 0, copy_cost = 0, copy_rate = 0;
};

class ShmProvider final : public SrxPeer {
public:
  // The parts of the platform it uses: the engine (cache-line hand-offs), where ranks run (core distances, memory,
  // GPUs) and their CPU timelines (copies, per-message costs).
  ShmProvider(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, ShmConfig c)
      : sim_(sim), ctx_(contexts), cpus_(cpus), c_(c) {}
  void bind_peer(SrxOwner* owner, int index, CqOwnerOps ops) {
    owner_ = owner;
    peer_index_ = index;
    cq_ = std::move(ops);
  }
  // On the rank's CPU; dst must be on the same node (std::logic_error otherwise).
  void tsend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context);
  // fi_tinject (smr_tinject): a host payload of at most shm_inject_size through the inject path; `injected` runs when
  // the copy into the shared inject buffer is done, and no send completion is written (std::logic_error otherwise).
  void tinject(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Callback injected);
  int start_tag(RxEntry* e) override;
  int start_msg(RxEntry* e) override { return start_tag(e); }
  int discard_tag(RxEntry* e) override;
  int discard_msg(RxEntry* e) override { return discard_tag(e); }
  void add_counters(std::map<std::string, std::uint64_t>& c) const;
  std::size_t ipc_handles_cached() const { return ipc_cache_.size(); }

  // Messages whose record is live (both sides not yet COMPLETE).
  std::size_t messages_in_flight() const { return msgs_.size(); }

private:
  // Steps of a message (shm_msg.hpp); engine continuations call the on_* ones with the record's id.
  void send(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context, Callback injected);
  void on_posted(std::uint64_t id);      // the sender's CPU has posted the command
  void on_copied_in(std::uint64_t id);   // inject: the payload is in the shared inject buffer
  void on_arrived(std::uint64_t id);     // the command is in the receiver's queue
  void on_progress(std::uint64_t id);    // the receiver's progress has read it
  void deliver(std::uint64_t id, RxEntry* e);
  void on_attached(std::uint64_t id);    // attach / IPC open / the library's cost paid: the copy starts
  void on_copied(std::uint64_t id);      // the data is in the receive buffer
  void peer_done(std::uint64_t id);      // the receiver signals the sender (single copy, IPC)
  void on_signal(std::uint64_t id);
  void on_send_cq_read(std::uint64_t id);

  Simulator& sim_;
  const Contexts& ctx_;
  CpuTimeline& cpus_;
  ShmConfig c_;
  SrxOwner* owner_ = nullptr;
  int peer_index_ = 0;
  CqOwnerOps cq_;
  mpi::RequestTable<ShmMsg> msgs_;  // by id (the unexpected entry's peer_context): slots reused, generation-checked
  std::set<std::tuple<int, int, std::uint64_t>> ipc_cache_;  // (receiver, sender, buffer address)
  std::unordered_set<std::uint64_t> attached_;                // (receiver, sender) pairs with an XPMEM attachment
  Statistics<ShmStat, kShmStatistics.size()> n_{kShmStatistics};
};

}  // namespace ompisim::ofi::shm
