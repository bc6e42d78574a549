// native/elan4_qdma: the raw libelan4 QDMA layer as a ping-pong program uses it (the paper's "QDMA Latency" of Fig. 9;
// Open MPI's early ptl/elan kept such test programs, src/mca/ptl/elan/tests/qsnet_qdma.c, hardware-sources.md §3):
// the sender writes a QDMA descriptor, the message lands in a slot of the receiver's queue, the receiver polls the
// queue's host event and reads the slot. No matching (messages are taken in arrival order per queue, then given to
// the receive that asks for them by the MPI rules only so that benchmark drivers can run it), no copies, no
// protocol: messages are at most one slot (elan4_qdma_extra_bytes + size <= 2 KB). The requests and the arrival-order
// queues are the shared MPI skeleton's (mpi/library.hpp); there are no communicators (max_contextid 0: another
// context id is refused when called).
#pragma once
#include "models/qsnet/elan4.hpp"
#include "platform/contexts.hpp"
#include "platform/cpu_timeline.hpp"
#include "platform/fabric.hpp"
#include "mpi/library.hpp"
#include "mpi/stack.hpp"
#include "protocols/native/qsnet/mpich_qsnet_mca.hpp"
#include "protocols/register.hpp"

#include <unordered_map>

namespace ompisim::native {

// ComponentInfo::check: the largest message of the benchmark's input with elan4_qdma_extra_bytes must fit one QDMA
// slot (the NIC's qdma_slot_bytes); InputError naming the scenario's key, the size, the slot and where the slot's value
// comes from, before anything is simulated. start_send checks every message as well (a benchmark that does not say
// its largest message).
void check_elan4_qdma(const ComponentCheck& c);

class Elan4Qdma final : public Stack {
public:
  // The parts of the platform it uses: the engine, where ranks run, their CPU timelines (host costs) and the fabric
  // of the Elan4 network (its own Elan4 NIC object's).
  Elan4Qdma(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, Fabric& fabric, const Elan4QdmaMca& mca,
            std::string name);
  std::string name() const override { return name_; }
  void start_send(const mpi::P2P& m, Completion done) override;
  void start_recv(const mpi::P2P& m, Completion done) override;
  StackStats stats() const override;
  std::uint32_t max_contextid() const override { return 0; }  // a QDMA queue is not a communicator

private:
  struct Msg {
    int src, tag;
    std::uint64_t bytes;
  };
  void check_comm(const mpi::P2P& m) const;

  CpuTimeline& cpus_;
  qsnet::Elan4 nic_;
  const qsnet::Elan4Params& p_;
  double overhead_;
  std::uint32_t extra_;
  std::string name_;
  mpi::Library<mpi::Request, mpi::Request, Msg> lib_;
  std::unordered_map<std::uint64_t, std::pair<std::uint32_t, Msg>> in_flight_;  // payload id -> (seq, message)
  std::uint64_t next_payload_ = 1;
};

}  // namespace ompisim::native
