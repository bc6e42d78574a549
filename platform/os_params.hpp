// Operating-system costs of a machine's nodes that are not hardware of the node tree (platform/node/): XPMEM's attach,
// and the switch of a core from one execution context (thread) to another (World: contexts that share a core).
#pragma once
#include "core/params.hpp"

namespace ompisim {

struct OsParams {
  Sourced xpmem_attach_cost;  // one xpmem_attach (first touch of a 2 MiB-aligned region of a peer)
  Sourced context_switch_cost;  // a core turns from one thread to another: kernel switch + the incoming thread's cache refill

  template <class V>
  void visit(V&& v) {
    v(xpmem_attach_cost, {"xpmem_attach_cost", Dim::Time, "cost of one xpmem_attach", 0, 1e-2});
    v(context_switch_cost, {"context_switch_cost", Dim::Time,
                            "a core switches from one execution context to another (threads sharing a core)", 0, 1e-3});
  }
};

}  // namespace ompisim
