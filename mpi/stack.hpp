// The MPI interface every stack implements (pml/ob1 over BTLs, pml/cm over an MTL, the native comparators, loggp):
// nonblocking point-to-point with completion callbacks, remote atomics for the collective components that use them,
// and the statistics every stack reports. Benchmark drivers and collectives use only `Stack`.
#pragma once
#include "core/sim.hpp"
#include "platform/buffer.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <type_traits>

namespace ompisim {

constexpr int kAnySource = -1;
constexpr int kAnyTag = -1;



struct StackStats {
  std::uint64_t sends_posted = 0, sends_completed = 0, recvs_posted = 0, recvs_completed = 0;
  std::uint64_t live_requests = 0, unexpected_now = 0, posted_now = 0;
  std::uint64_t amos = 0;
  std::map<std::string, std::uint64_t> counters;  // protocol counters: "smsg", "eager_get", "rget", "put_fallback"...
};

using Completion = std::function<void()>;

// Removes request `id` from a stack's table, counts it, then runs its completion (after the erase, so the
// completion may post new requests). Shared by every stack's send and receive paths.
template <class Table>
void complete_request(Table& table, std::uint64_t id, std::uint64_t& completed) {
  auto it = table.find(id);
  Completion done;
  if constexpr (std::is_same_v<typename Table::mapped_type, Completion>) done = std::move(it->second);
  else done = std::move(it->second.done);
  table.erase(it);
  ++completed;
  if (done) done();
}

class Stack {
public:
  virtual ~Stack() = default;
  virtual std::string name() const = 0;
  virtual void isend(int rank, int dst, int tag, std::uint64_t bytes, Buffer buf, Completion done) = 0;
  virtual void irecv(int rank, int src, int tag, std::uint64_t bytes, Buffer buf, Completion done) = 0;
  // Remote atomic add on `target`'s collective counter; `local_done` when the initiator sees completion,
  // `at_target` when the counter is updated (the target CPU is not involved).
  virtual void amo_add(int rank, int target, Completion local_done, Completion at_target);
  virtual StackStats stats() const = 0;
};

}  // namespace ompisim
