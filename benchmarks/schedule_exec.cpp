// See schedule_exec.hpp.
#include "platform/alloc_mem.hpp"
#include "benchmarks/schedule_exec.hpp"

#include <fmt/format.h>
#include <memory>
#include <stdexcept>

namespace ompisim::bench {

coll::NodeLayout placement_layout(const Contexts& contexts) {
  const auto n = static_cast<std::size_t>(contexts.ranks());
  std::vector<long long> node_key(n);
  for (std::size_t r = 0; r < n; ++r) node_key[r] = contexts.node_of(static_cast<int>(r));
  return coll::NodeLayout(node_key);
}

ScheduleExec::Packed ScheduleExec::pack(const coll::Op& op, bool last) {
  constexpr std::int64_t kMaxPeer = (std::int64_t{1} << 27) - 2;  // peer + 1 in the head's upper 27 bits
  if (op.peer < -1 || op.peer > kMaxPeer)
    throw std::logic_error("ScheduleExec: peer " + std::to_string(op.peer) + " outside -1 .. " +
                           std::to_string(kMaxPeer));
  const auto head = static_cast<std::uint32_t>(op.peer + 1) << 5 | static_cast<std::uint32_t>(op.kind) << 2 |
                    std::uint32_t{op.blocking} << 1 | std::uint32_t{last};
  return {head, op.value};
}

coll::Op ScheduleExec::unpack(Packed p) {
  return {static_cast<coll::OpKind>(p.head >> 2 & 7u), static_cast<std::int32_t>(p.head >> 5) - 1, p.value,
          (p.head >> 1 & 1u) != 0};
}

void ScheduleExec::start(int rank, coll::Schedule sched, int tag, Group g, Completion done) {
  Run& r = runs_.at(static_cast<std::size_t>(rank));
  if (r.done) throw std::logic_error("ScheduleExec: rank " + std::to_string(rank) + " is already running a schedule");
  std::size_t n = 0;
  for (const auto& rd : sched.rounds) n += rd.ops.size();
  r.ops.clear();
  r.ops.reserve(n);
  for (const auto& rd : sched.rounds)
    for (std::size_t i = 0; i < rd.ops.size(); ++i) r.ops.push_back(pack(rd.ops[i], i + 1 == rd.ops.size()));
  sched = coll::Schedule{};  // the flat copy is all that is kept
  r.next = 0;
  r.outstanding = 0;
  r.posted = r.waited = r.received = 0;
  r.waiting = false;
  r.tag = tag;
  r.g = g;
  r.done = std::move(done);
  start_round(rank);
}

void ScheduleExec::start_round(int rank) {
  Run& r = runs_[static_cast<std::size_t>(rank)];
  while (r.next < r.ops.size()) {
    const std::size_t first = r.next;
    std::size_t last = first + 1;
    while (!(r.ops[last - 1].head & 1u)) ++last;
    r.next = last;  // a round that ends during this call starts the next one from there
    // One extra count held while issuing: an operation that completes at once cannot end the round (and start the
    // next one, or free the schedule under this loop) before the round's other operations are posted.
    r.outstanding = static_cast<int>(last - first) + 1;
    for (std::size_t i = first; i < last; ++i) issue(rank, unpack(r.ops[i]));
    if (--r.outstanding > 0) return;
  }
  if (r.posted != r.waited)
    throw std::logic_error("ScheduleExec: rank " + std::to_string(rank) + "'s schedule ended with " +
                           std::to_string(static_cast<std::uint8_t>(r.posted - r.waited)) + " PostRecv not waited for");
  Completion done = std::move(r.done);
  r.done = nullptr;
  r.ops = {};  // release memory
  if (done) done();
}

Completion ScheduleExec::op_done(int rank) {
  return [this, rank] {
    Run& r = runs_[static_cast<std::size_t>(rank)];
    if (--r.outstanding == 0) start_round(rank);
  };
}

void ScheduleExec::post_recv(int rank, const coll::Op& op) {
  Run& r = runs_[static_cast<std::size_t>(rank)];
  if (static_cast<std::uint8_t>(r.posted - r.waited) >= coll::kMaxPosted)
    throw std::logic_error("ScheduleExec: rank " + std::to_string(rank) + " has more than " +
                           std::to_string(coll::kMaxPosted) + " PostRecv not waited for");
  const auto slot = static_cast<std::uint8_t>(r.posted++ % coll::kMaxPosted);
  const Buffer b = alloc_mem(Buffer{0, true, MemSpace{buffer, -1}}, registered);
  s_.start_recv(mpi::P2P{rank, r.g.world(op.peer), r.tag, count(op), datatype, mpi::kCommWorld, b, nullptr},
                [this, rank, slot] {
                  Run& q = runs_[static_cast<std::size_t>(rank)];
                  if (q.waiting && q.waited % coll::kMaxPosted == slot) {
                    q.waiting = false;
                    ++q.waited;
                    if (--q.outstanding == 0) start_round(rank);
                  } else {
                    q.received = static_cast<std::uint8_t>(q.received | 1u << slot);
                  }
                });
  // Complete for its own round at once: the round does not wait for it.
  --r.outstanding;
}

void ScheduleExec::wait(int rank) {
  Run& r = runs_[static_cast<std::size_t>(rank)];
  if (r.posted == r.waited)
    throw std::logic_error("ScheduleExec: rank " + std::to_string(rank) + ": a Wait without a PostRecv to wait for");
  const auto bit = static_cast<std::uint8_t>(1u << (r.waited % coll::kMaxPosted));
  if (r.received & bit) {  // already received: the wait returns at once
    r.received = static_cast<std::uint8_t>(r.received & ~bit);
    ++r.waited;
    --r.outstanding;
  } else {
    r.waiting = true;
  }
}

std::uint64_t ScheduleExec::count(const coll::Op& op) const {
  if (op.value % datatype.size != 0)
    throw std::logic_error("ScheduleExec: " + std::to_string(op.value) + " B is not a whole number of " + datatype.name);
  return op.value / datatype.size;
}

void ScheduleExec::issue(int rank, const coll::Op& op) {
  Run& r = runs_[static_cast<std::size_t>(rank)];
  const Buffer b = alloc_mem(Buffer{0, true, MemSpace{buffer, -1}}, registered);
  switch (op.kind) {
    case coll::OpKind::Send: {
      int peer = r.g.world(op.peer);
      if (on_send) on_send(rank, peer, op.value);
      s_.start_send(mpi::P2P{rank, peer, r.tag, count(op), datatype, mpi::kCommWorld, b, nullptr, op.blocking},
                    op_done(rank));
      break;
    }
    case coll::OpKind::Recv:
      s_.start_recv(mpi::P2P{rank, r.g.world(op.peer), r.tag, count(op), datatype, mpi::kCommWorld, b, nullptr},
                    op_done(rank));
      break;
    case coll::OpKind::Amo: {
      if (!amo) throw std::logic_error("ScheduleExec: Amo without an amo hook");
      coll::Op o = op;
      o.peer = r.g.world(op.peer);
      amo(rank, o, op_done(rank));
      break;
    }
    case coll::OpKind::WaitCounter:
      if (!wait_counter) throw std::logic_error("ScheduleExec: WaitCounter without a hook");
      wait_counter(rank, op, op_done(rank));
      break;
    case coll::OpKind::Reduce:
      if (!reduce) throw std::logic_error("ScheduleExec: Reduce without a reduce hook");
      reduce(rank, op, op_done(rank));
      break;
    case coll::OpKind::PostRecv: post_recv(rank, op); break;
    case coll::OpKind::Wait: wait(rank); break;
  }
}

ScheduleExec::OpHook reduce_arithmetic(World& w, std::uint32_t elem_bytes, const std::string& required,
                                       const std::string& scenario) {
  if (elem_bytes == 0) throw std::logic_error("reduce_arithmetic: an element of 0 bytes");
  const int n = static_cast<int>(w.contexts().ranks());
  auto cost = std::make_shared<std::vector<const Sourced*>>(static_cast<std::size_t>(n), nullptr);
  for (int r = 0; r < n; ++r) {
    const NodeTypeDef& d = w.machine().node_type_def(w.contexts().node_of(r));
    if (d.arch && d.arch->reduce_cost_per_element.set) {
      (*cost)[static_cast<std::size_t>(r)] = &d.arch->reduce_cost_per_element;
    } else if (!required.empty()) {
      throw InputError(repo_relative(w.machine().file), "node_types." + d.name + ".arch.reduce_cost_per_element",
                       fmt::format("missing: {} charges each rank's reduction at its processor's cost per element "
                                   "(scenario {})",
                                   required, scenario));
    }
  }
  return [&w, cost, elem_bytes](int rank, const coll::Op& op, Completion done) {
    const Sourced* c = (*cost)[static_cast<std::size_t>(rank)];
    if (c == nullptr) return done();
    w.cpus().cpu(rank, static_cast<double>(op.value / elem_bytes) * c->get(), std::move(done));
  };
}

}  // namespace ompisim::bench
