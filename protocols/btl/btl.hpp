// What the PML may ask of any transport (mirrors mca_btl_base_module_t): a capability record and send/get/put.
// A BTL delivers fragments to the receiving rank's PML through FragSink::on_frag, on the receiving rank's CPU, after
// charging its own receive costs.
#pragma once
#include "protocols/pml/ob1/hdr.hpp"
#include "mpi/stack.hpp"
#include "platform/world.hpp"

#include <cstdint>
#include <string>

namespace ompisim::btl {

struct BtlCaps {
  std::uint64_t eager_limit = 0, rndv_eager_limit = 0, max_send_size = 0;
  bool has_get = false, has_put = false;
  std::uint32_t exclusivity = 0;
};

// A PML fragment as it crosses a BTL. `payload` bytes of user data travel with the header.
struct Frag {
  pml::Hdr hdr = pml::Hdr::Match;
  int src = 0, dst = 0, tag = 0;
  std::uint32_t seq = 0;
  std::uint64_t msg_bytes = 0, payload = 0;
  std::uint64_t send_req = 0, recv_req = 0;
  Buffer sbuf;
  // Set by the receiving BTL when the payload sits in one of its buffers that must be returned once the PML has
  // copied it out (mca_btl_base_descriptor_t of a receive); 0 when there is none. Handed back in payload_consumed.
  std::uint64_t rx_buffer = 0;
};
constexpr std::uint64_t kHdrBytes = 32;  // ob1 match header (mca_pml_ob1_match_hdr_t is 14-24 B; rounded)

class FragSink {
public:
  virtual ~FragSink() = default;
  virtual void on_frag(const Frag& f) = 0;
};

class Btl {
public:
  virtual ~Btl() = default;
  virtual std::string name() const = 0;
  virtual const BtlCaps& caps() const = 0;
  // Sends header + f.payload bytes; `local_done` when the user buffer may be reused.
  virtual void send(const Frag& f, Completion local_done) = 0;
  // The receiver (initiator) pulls `bytes` from peer's buffer `remote` into `local`; `done` on the initiator's CPU.
  virtual void get(int initiator, int peer, std::uint64_t bytes, Buffer local, Buffer remote, Completion done) = 0;
  // Makes a buffer usable for RDMA (registration); immediate when the BTL needs none.
  virtual void prepare_rdma(int rank, Buffer b, std::uint64_t bytes, Completion ready) { (void)rank, (void)b, (void)bytes, ready(); }
  // The receiving PML has taken the fragment's payload (copied it out): the BTL may return its buffer, or tell the
  // sender that its user buffer is free again (vader's single-copy sends). Called once per delivered fragment.
  virtual void payload_consumed(const Frag& f) { (void)f; }
  void set_sink(FragSink* s) { sink_ = s; }

protected:
  FragSink* sink_ = nullptr;
};

}  // namespace ompisim::btl
