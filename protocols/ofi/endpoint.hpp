// What mtl/ofi drives: one libfabric endpoint of the provider Open MPI selected (opal_common_ofi_provider_include):
// a core provider alone ("cxi") or a linking provider over core providers ("shm+cxi:linkx"). Tagged operations only
// (fi_tsend / fi_trecv); completions are written into the consumer's CQ through the owner callbacks the consumer
// gives with set_cq (for a core provider alone that is its own CQ, read by the MTL).
#pragma once
#include "protocols/ofi/peer_api.hpp"

#include "core/sim.hpp"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ompisim::ofi {

class Endpoint {
public:
  virtual ~Endpoint() = default;
  virtual std::string name() const = 0;
  virtual void set_cq(CqOwnerOps ops) = 0;
  // Called on the rank's CPU (after the MPI layer's own cost). `context` comes back in the CQ entry.
  virtual void tsend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) = 0;
  virtual void trecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, std::uint64_t context) = 0;
  // fi_tinject (fi_tagged(3)). can_inject: whether a send of `bytes` from `buf` to `dst` goes out with fi_tinject
  // under the consumers' rule (at most the endpoint's tx_attr->inject_size, from host memory: Open MPI's
  // ompi_mtl_ofi_send_generic and MPICH's MPIDI_OFI_send alike) on this endpoint's path to dst. tinject: the buffer is
  // reusable when the call returns and no completion is written for the send; `injected` runs when the command has
  // been issued (on the rank's CPU, after the endpoint's costs). Only for a send can_inject accepts.
  virtual bool can_inject(int /*rank*/, int /*dst*/, std::uint64_t /*bytes*/, const Buffer& /*buf*/) const {
    return false;
  }
  virtual void tinject(int /*rank*/, int /*dst*/, int /*tag*/, std::uint64_t /*bytes*/, Buffer /*buf*/,
                       Callback /*injected*/) {
    throw std::logic_error("ofi: fi_tinject on an endpoint without it (" + name() + ")");
  }
  virtual std::uint64_t posted_now() const = 0;
  virtual std::uint64_t unexpected_now() const = 0;
  virtual void add_counters(std::map<std::string, std::uint64_t>& c) const = 0;
  // The core providers under this endpoint ("ofi/shm", "ofi/cxi") that carried no send of the run so far: a
  // parameter of one changed nothing. None by default (an endpoint of one provider).
  virtual std::vector<std::string> idle_providers() const { return {}; }

protected:
  // idle_providers of an endpoint that sends on the node by shm and off it by cxi (LINKx, Cray MPICH's CH4): the
  // provider of each path no send took.
  static std::vector<std::string> idle_of_shm_cxi(bool sent_shm, bool sent_cxi) {
    std::vector<std::string> idle;
    if (!sent_shm) idle.push_back("ofi/shm");
    if (!sent_cxi) idle.push_back("ofi/cxi");
    return idle;
  }
};

}  // namespace ompisim::ofi
