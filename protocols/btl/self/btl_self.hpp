// btl/self: messages a rank sends to itself: one copy through a fragment, delivered on the same CPU.
#pragma once
#include "protocols/btl/btl.hpp"

namespace ompisim::btl::self {

class BtlSelf final : public Btl {
public:
  explicit BtlSelf(World& w) : w_(w) {
    caps_.eager_limit = caps_.rndv_eager_limit = caps_.max_send_size = 1 << 20;
    caps_.has_get = true;
    caps_.exclusivity = 1u << 20;
  }
  std::string name() const override { return "self"; }
  const BtlCaps& caps() const override { return caps_; }
  void send(const Frag& f, Completion local_done) override {
    FragSink* sink = sink_;
    w_.cpu_copy(f.src, static_cast<double>(f.payload), [sink, f, local_done = std::move(local_done)] {
      if (local_done) local_done();
      sink->on_frag(f);
    });
  }
  void get(int initiator, int, std::uint64_t bytes, Buffer, Buffer, Completion done) override {
    w_.cpu_copy(initiator, static_cast<double>(bytes), std::move(done));
  }

private:
  World& w_;
  BtlCaps caps_;
};

}  // namespace ompisim::btl::self
