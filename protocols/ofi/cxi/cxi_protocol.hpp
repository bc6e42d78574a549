// The CXI provider's protocol decisions and overflow-buffer accounting as plain data (libfabric prov/cxi, fi_cxi(7);
// hardware-sources.md §2c). Engine-free: unit-tested directly.
//   Inject      len <= inject_size (192 B): the payload rides in the command (IDC), no DMA read
//   Eager       len <= rdzv_threshold + rdzv_get_min: header and payload in one put
//   Rendezvous  above: the first rdzv_eager_size bytes go with the header; the target NIC pulls the rest with a
//               hardware Get when the header matches (offloaded rendezvous, no software progress), or software issues
//               the Get when an unexpected header is matched later
// Overflow buffers: unexpected eager payloads (and a rendezvous' eager part) land in the endpoint's overflow buffers
// (fi_cxi_oflow_buf_count x fi_cxi_oflow_buf_size) until a receive matches them. When they run out the NIC drops
// incoming messages (flow control); the provider's recovery moves the unexpected list to host memory ("onload"),
// re-posts empty buffers and has the dropped messages sent again. No message is lost.
#pragma once
#include "protocols/base/transition_table.hpp"

#include <cstdint>
#include <string>

namespace ompisim::ofi::cxi {

enum class SendProtocol : std::uint8_t { Inject, Eager, Rendezvous };
inline constexpr std::array<const char*, 3> kSendProtocolNames{"inject", "eager", "rendezvous"};
inline const char* to_string(SendProtocol p) { return name_of<SendProtocol::Rendezvous>(p, kSendProtocolNames); }

struct ProtocolLimits {
  std::uint64_t inject_size = 192, rdzv_threshold = 2048, rdzv_get_min = 2049, rdzv_eager_size = 2048;
};

// `inline_ok`: the payload can be read by the CPU into the command (host memory; a GPU buffer cannot be inlined).
inline SendProtocol choose(std::uint64_t len, const ProtocolLimits& l, bool inline_ok = true) {
  if (inline_ok && len <= l.inject_size) return SendProtocol::Inject;
  if (len <= l.rdzv_threshold + l.rdzv_get_min) return SendProtocol::Eager;
  return SendProtocol::Rendezvous;
}
// Bytes that travel with the header (the rest of a rendezvous is pulled).
inline std::uint64_t eager_bytes(SendProtocol p, std::uint64_t len, const ProtocolLimits& l) {
  return p == SendProtocol::Rendezvous ? (l.rdzv_eager_size < len ? l.rdzv_eager_size : len) : len;
}

// One endpoint's overflow buffers, as a byte pool (the model does not pack messages into individual buffers).
// `epoch` counts recoveries: space taken before an onload lives in host memory afterwards and is not given back twice.
class OverflowBuffers {
public:
  explicit OverflowBuffers(std::uint64_t capacity = 0) : capacity_(capacity) {}
  // Takes room for an unexpected payload; false when the buffers are exhausted (the NIC drops the message).
  bool take(std::uint64_t bytes) {
    if (used_ + bytes > capacity_) return false;
    used_ += bytes;
    return true;
  }
  // A matched unexpected message's payload has been copied out (only for space taken in the current epoch).
  void release(std::uint64_t bytes, std::uint32_t taken_in_epoch) {
    if (taken_in_epoch != epoch_) return;
    used_ = bytes > used_ ? 0 : used_ - bytes;
  }
  // Flow-control recovery: the unexpected payloads move to host memory; the buffers are empty and re-posted.
  void onload() {
    used_ = 0;
    ++epoch_;
  }
  std::uint64_t used() const { return used_; }
  std::uint64_t capacity() const { return capacity_; }
  std::uint32_t epoch() const { return epoch_; }

private:
  std::uint64_t capacity_ = 0, used_ = 0;
  std::uint32_t epoch_ = 0;
};

}  // namespace ompisim::ofi::cxi
