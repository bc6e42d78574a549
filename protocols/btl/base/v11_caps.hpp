// The parameter set an Open MPI v1.1 BTL registers (eager limit, max send size, min/max RDMA size, exclusivity,
// latency, bandwidth, min send size, flags), as btl/openib, btl/gm and btl/tcp of v1.1 do, and its capability record:
// declared once here (V11BtlMca), each component giving its identity (V11Component: name, NIC kind, source,
// connection) and its defaults. v11_component.hpp makes the registry entry from the same declaration.
#pragma once
#include "core/params.hpp"
#include "protocols/btl/btl.hpp"

#include <cstdint>
#include <string>

namespace ompisim::btl {

// How many ordered channels a connection of a commodity-NIC BTL has (FabricBtl): one FIFO (btl/tcp: one socket per
// endpoint), or a low-priority FIFO plus a high-priority one for PRIORITY descriptors that fit an eager fragment
// (btl/mvapi and btl/openib: two QPs per endpoint; btl/gm: GM_HIGH_PRIORITY / GM_LOW_PRIORITY). Each component's
// kComponent.connection, from its source.
enum class Connection : std::uint8_t { SingleFifo = 1, PriorityChannel = 2 };

inline BtlCaps v11_caps(const Sourced& eager_limit, const Sourced& max_send_size, const Sourced& min_rdma_size,
                        const Sourced& max_rdma_size, const Sourced& exclusivity, const Sourced& latency,
                        const Sourced& bandwidth, const Sourced& flags, const Sourced& min_send_size) {
  BtlCaps c;
  c.min_send_size = static_cast<std::uint64_t>(min_send_size.get());
  c.eager_limit = static_cast<std::uint64_t>(eager_limit.get());
  c.rndv_eager_limit = c.eager_limit;
  c.max_send_size = static_cast<std::uint64_t>(max_send_size.get());
  c.min_rdma_pipeline_size = static_cast<std::uint64_t>(min_rdma_size.get());
  c.rdma_pipeline_frag_size = static_cast<std::uint64_t>(max_rdma_size.get());
  c.rdma_pipeline_send_length = c.eager_limit;
  c.exclusivity = static_cast<std::uint32_t>(exclusivity.get());
  c.latency = static_cast<std::uint32_t>(latency.get());
  c.bandwidth = static_cast<std::uint32_t>(bandwidth.get());
  c.flags = static_cast<std::uint32_t>(flags.get()) | flag::Send;
  return c;
}

// A v1.1 component's identity: what its parameter names, its registry entry and its module are built from.
struct V11Component {
  const char* name;       // btl_<name>_* parameters; the registry entry's and the module's name
  const char* nic_kind;   // the network its module (FabricBtl) drives
  const char* source;     // the v1.1 file that registers its parameters: every default's source
  const char* module;     // the v1.1 module it follows (btl/openib follows btl_mvapi)
  Connection connection;  // channels per connection (the component says from which source)
  bool mpool;             // its modules create a memory pool (BtlCaps::mpool; the component says from which source)
};

// A v1.1 component's defaults, in registration order (latency: none of the three registers one, so 0). Each is
// a whole number of KiB where it is a size (min_send_size's source quotes it so: "min_send_size 32*1024").
struct V11Defaults {
  double eager_limit, max_send_size, min_rdma_size, max_rdma_size, exclusivity, bandwidth, min_send_size, flags;
};

// The v1.1 parameter block, named btl_<name>_<parameter> as mca_btl_<name>_component_open registers it. A component
// derives from it (V11BtlMca<GmMca>, so that each component's block is its own type), declares `kComponent`, gives
// its defaults, and adds to a source where one parameter has more to say.
template <class Component>
struct V11BtlMca {
  Sourced eager_limit, max_send_size, min_rdma_size, max_rdma_size, exclusivity, latency, bandwidth, min_send_size,
      flags;

  explicit V11BtlMca(const V11Defaults& d)
      : V11BtlMca(Component::kComponent.source, d, std::string("Open MPI v1.1 btl_") + Component::kComponent.module) {}

private:
  V11BtlMca(const std::string& src, const V11Defaults& d, const std::string& module)
      : eager_limit{d.eager_limit, src}, max_send_size{d.max_send_size, src}, min_rdma_size{d.min_rdma_size, src},
        max_rdma_size{d.max_rdma_size, src}, exclusivity{d.exclusivity, src},
        latency{0, module + " registers no latency (module default 0)"}, bandwidth{d.bandwidth, src},
        min_send_size{d.min_send_size,
                      src + " (min_send_size " + std::to_string(static_cast<long long>(d.min_send_size) / 1024) +
                          "*1024)"},
        flags{d.flags, src} {}

public:
  // The capability record of this component's modules.
  BtlCaps caps() const {
    BtlCaps c = v11_caps(eager_limit, max_send_size, min_rdma_size, max_rdma_size, exclusivity, latency, bandwidth,
                         flags, min_send_size);
    c.mpool = Component::kComponent.mpool;
    return c;
  }

  template <class V>
  void visit(V&& v) {
    const std::string p = std::string("btl_") + Component::kComponent.name + "_";
    v(eager_limit, {p + "eager_limit", Dim::Bytes, "eager send limit (first fragment)", 64, 1 << 24});
    v(max_send_size, {p + "max_send_size", Dim::Bytes, "largest send fragment", 64, 1 << 26});
    v(min_rdma_size, {p + "min_rdma_size", Dim::Bytes, "smallest message for RDMA", 0, 1LL << 40});
    v(max_rdma_size, {p + "max_rdma_size", Dim::Bytes, "largest RDMA fragment", 1024, 1LL << 40});
    v(exclusivity, {p + "exclusivity", Dim::Count, "BTL exclusivity", 0, 1 << 20});
    v(latency, {p + "latency", Dim::Count, "exported latency ranking (us)", 0, 1e6});
    v(bandwidth, {p + "bandwidth", Dim::Count, "exported bandwidth (Mb/s): bml/r2 weights", 0, 1e7});
    v(min_send_size, {p + "min_send_size", Dim::Bytes, "below this many remaining bytes ob1 sends them in one FRAG", 0,
                      1LL << 40});
    v(flags, {p + "flags", Dim::Count, "MCA_BTL_FLAGS_* (SEND=1, PUT=2, GET=4)", 0, 65535});
  }
};

}  // namespace ompisim::btl
