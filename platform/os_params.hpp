// Operating-system costs of a machine's nodes that are not hardware of the node tree (platform/node/): XPMEM's attach.
#pragma once
#include "core/params.hpp"

namespace ompisim {

struct OsParams {
  Sourced xpmem_attach_cost;  // one xpmem_attach (first touch of a 2 MiB-aligned region of a peer)

  template <class V>
  void visit(V&& v) {
    v(xpmem_attach_cost, {"xpmem_attach_cost", Dim::Time, "cost of one xpmem_attach", 0, 1e-2});
  }
};

}  // namespace ompisim
