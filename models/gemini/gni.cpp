#include "models/gemini/gni.hpp"

#include "core/enum_names.hpp"
#include "core/trace.hpp"

#include <algorithm>
#include <array>

namespace ompisim::gemini {

namespace {
constexpr std::array<const char*, 3> kEpStateNames{"INIT", "CONNECTING", "CONNECTED"};
}  // namespace

const char* to_string(EpState s) { return name_of<EpState::Connected>(s, kEpStateNames); }

void Endpoint::start_connect(std::uint16_t max_credits) {
  if (state != EpState::Init) throw ProtocolError("ugni endpoint", to_string(state), "start_connect");
  state = EpState::Connecting;
  credits = max_credits;
}
void Endpoint::connected() {
  if (state != EpState::Connecting) throw ProtocolError("ugni endpoint", to_string(state), "connected");
  state = EpState::Connected;
}
bool Endpoint::take_credit() {
  if (state != EpState::Connected) throw ProtocolError("ugni endpoint", to_string(state), "take_credit");
  if (credits == 0) return false;
  --credits;
  return true;
}
void Endpoint::return_credit(std::uint16_t max_credits) {
  if (state != EpState::Connected || credits >= max_credits)
    throw ProtocolError("ugni endpoint", to_string(state), "return_credit (credits " + std::to_string(credits) + ")");
  ++credits;
}

bool RegCache::lookup(std::uint64_t addr, std::uint64_t bytes) {
  auto it = map_.find({addr, bytes});
  if (it == map_.end()) return false;
  lru_.splice(lru_.begin(), lru_, it->second);
  return true;
}
void RegCache::insert(std::uint64_t addr, std::uint64_t bytes) {
  if (map_.count({addr, bytes})) return;
  if (lru_.size() >= limit_ && !lru_.empty()) {
    map_.erase(lru_.back());
    lru_.pop_back();
    ++evictions_;
  }
  lru_.push_front({addr, bytes});
  map_[{addr, bytes}] = lru_.begin();
}

Gni::Gni(Simulator& sim, const Contexts& contexts, CpuTimeline& cpus, Fabric& fabric)
    : sim_(sim), ctx_(contexts), cpus_(cpus), fabric_(fabric), g_(gemini::nic(fabric.network()).p) {}

std::size_t Gni::registration_limit(int rank) const {
  return static_cast<std::size_t>(std::max(1.0, g_.max_registrations / ctx_.local_ranks(rank)));
}

Cdm::Cdm(Gni& nic, std::uint16_t max_credits, const Sourced* smsg_payload_rate, const Sourced* smsg_library_cost)
    : nic_(nic), sim_(nic.sim()), ctx_(nic.contexts()), cpus_(nic.cpus()), fabric_(nic.fabric()), g_(nic.params()),
      max_credits_(max_credits) {
  const Sourced* rate = smsg_payload_rate != nullptr && smsg_payload_rate->value > 0 ? smsg_payload_rate
                                                                                     : &g_.fma_pio_bandwidth;
  smsg_rate_ = rate->value;
  smsg_lib_ = smsg_library_cost != nullptr ? smsg_library_cost->value : 0.0;
  // the first SMSG reads the rate used, the given one (which chose it) and the library's cost
  packet_bytes_ = g_.packet_payload_bytes.value;
  smsg_params_.params = {rate, smsg_payload_rate, smsg_library_cost, &g_.packet_payload_bytes};
}

Endpoint& Cdm::endpoint(int rank, int peer) {
  const auto r = static_cast<std::size_t>(rank);
  if (r >= ep_index_.size()) ep_index_.resize(r + 1);
  std::uint32_t& i = ep_index_[r][peer];
  if (i == 0) {
    eps_.emplace_back();
    i = static_cast<std::uint32_t>(eps_.size());
  }
  return eps_[i - 1];
}

bool Cdm::peer_connected(int rank, int peer) const {
  const auto r = static_cast<std::size_t>(rank);
  if (r >= ep_index_.size()) return false;
  const std::uint32_t* i = ep_index_[r].find(peer);
  return i != nullptr && *i != 0 && eps_[*i - 1].state == EpState::Connected;
}

const RegCache* Cdm::regcache(int rank) const {
  auto it = regcaches_.find(rank);
  return it == regcaches_.end() ? nullptr : &it->second;
}

void Cdm::smsg_send(int rank, int peer, std::uint64_t bytes, Callback sent, Callback deliver) {
  Endpoint& ep = endpoint(rank, peer);
  const std::uint32_t id = smsgs_.create(rank, peer, Endpoint::kNoMsg, &ep, ctx_.node_of(rank), ctx_.node_of(peer),
                                         bytes, std::move(sent), std::move(deliver));
  if (ep.state == EpState::Connected && !ep.has_pending()) {  // nothing queued before it: FIFO holds
    if (ep.take_credit()) {
      transmit(id);
      return;
    }
    ++credit_waits;  // the message waits for a credit (counted once, here)
    enqueue(ep, id);
    return;
  }
  enqueue(ep, id);
  // The peer connected to this rank already: the handshake that connected its endpoint connected this one too (btl/ugni
  // mca_btl_ugni_ep_connect_progress: the remote answers the directed datagram with its own mailbox, and both ends
  // are bound), so the first message this way pays no connect of its own.
  if (ep.state == EpState::Init && peer_connected(peer, rank)) {
    ep.start_connect(max_credits_);
    ep.connected();
    try_flush(ep);
    return;
  }
  if (ep.state == EpState::Init) {
    ++connects;
    ep.start_connect(max_credits_);
    cpus_.cpu(rank, g_.endpoint_connect_time, [this, e = &ep] {
      e->connected();
      try_flush(*e);
      // the messages the connection's credits did not cover wait for a credit now: each counted once, here
      for (std::uint32_t m = e->head; m != Endpoint::kNoMsg; m = smsgs_[m].next) ++credit_waits;
    }, "GNI_EpBind");
    return;
  }
  if (ep.state == EpState::Connected) {
    ++credit_waits;  // queued behind messages that wait for credits: it waits too (counted once, here)
    try_flush(ep);
  }
}

void Cdm::enqueue(Endpoint& ep, std::uint32_t id) {
  if (ep.has_pending()) smsgs_[ep.tail].next = id;
  else ep.head = id;
  ep.tail = id;
}

// Endpoints live in a deque: a reference stays valid for the whole run, so the callbacks carry it instead
// of looking the connection up again.
void Cdm::try_flush(Endpoint& ep) {
  while (ep.has_pending()) {
    if (!ep.take_credit()) return;  // the waiting messages were counted when they queued (smsg_send)
    const std::uint32_t id = ep.head;
    Smsg& m = smsgs_[id];
    ep.head = m.next;
    if (ep.head == Endpoint::kNoMsg) ep.tail = Endpoint::kNoMsg;
    m.next = Endpoint::kNoMsg;
    transmit(id);
  }
}

// One SMSG: the sender's CPU posts it, the mailbox write arrives one wire time later (FIFO per connection), the
// receiver polls it out, and its credit travels back. Each step is its own member function so that an event's callback
// holds only (this, index): it stays in std::function's inline buffer instead of a heap-allocated closure.
void Cdm::transmit(std::uint32_t id) {
  ++smsg_sent;
  smsg_params_.mark();
  const Smsg& m = smsgs_[id];
  double cost = smsg_lib_ + g_.smsg_cpu_overhead + static_cast<double>(m.bytes) / smsg_rate_;
  cpus_.cpu(m.rank, cost, [this, id] { smsg_posted(id); }, "GNI_SmsgSendWTag");
}

// The mailbox write: one packet is timed analytically; a larger SMSG (an eager send's payload) moves as a flow that
// shares the host interfaces and links with every other transfer, as FMA data does (Fabric::pio). The connection
// delivers in post order.
void Cdm::smsg_posted(std::uint32_t id) {
  Smsg& m = smsgs_[id];
  Endpoint& ep = *m.ep;
  if (ep.fly_head == Endpoint::kNoMsg) ep.fly_head = id;
  else smsgs_[ep.fly_tail].next = id;
  ep.fly_tail = id;
  const auto bytes = static_cast<double>(m.bytes);
  const long long na = m.na, nb = m.nb;
  const int rank = m.rank, peer = m.peer;
  if (Callback sent = std::move(m.sent)) sent();  // may create messages: m is not used after it
  if (bytes <= packet_bytes_)  // one packet: analytic, after the packets ahead of it on its links
    sim_.after(fabric_.wire_time(na, nb, bytes) + fabric_.packet_wait(na, nb, bytes, rank, peer),
               [this, id] { smsg_landed(id); });
  else
    fabric_.pio(na, nb, bytes, fabric_.wire_time(na, nb, 0), [this, id] { smsg_landed(id); }, rank, peer);
}

void Cdm::smsg_landed(std::uint32_t id) {
  smsgs_[id].landed = true;
  Endpoint& ep = *smsgs_[id].ep;
  while (ep.fly_head != Endpoint::kNoMsg && smsgs_[ep.fly_head].landed) {
    const std::uint32_t first = ep.fly_head;
    ep.fly_head = smsgs_[first].next;
    if (ep.fly_head == Endpoint::kNoMsg) ep.fly_tail = Endpoint::kNoMsg;
    smsgs_[first].next = Endpoint::kNoMsg;
    smsg_arrived(first);
  }
}

void Cdm::smsg_arrived(std::uint32_t id) {
  const Smsg& m = smsgs_[id];
  // The target NIC acknowledges the mailbox write; the ack raises one event on the sender's local CQ, which the
  // sender's progress loop reaps (GNI_CqGetEvent on smsg_local_cq, then the fragment's completion: Open MPI's
  // mca_btl_ugni_progress_local_smsg). It costs the sender's CPU one CQ poll, as RDMA and AMO completions do.
  sim_.after(fabric_.wire_time(m.nb, m.na, 0), [this, rank = m.rank] {
    ++smsg_local_events;
    cpus_.cpu(rank, g_.smsg_cpu_overhead, [] {}, "GNI_CqGetEvent (SMSG local CQ)");
  });
  cpus_.cpu(m.peer, g_.smsg_cpu_overhead + smsg_lib_, [this, id] { smsg_polled(id); }, "GNI_SmsgGetNextWTag");
}

void Cdm::smsg_polled(std::uint32_t id) {
  Smsg& m = smsgs_[id];
  // The mailbox slot is free again: the credit travels back to the sender.
  sim_.after(fabric_.wire_time(m.nb, m.na, 0), [this, id] { smsg_credit_back(id); });
  Callback deliver = std::move(m.deliver);
  deliver();
}

void Cdm::smsg_credit_back(std::uint32_t id) {
  Endpoint& ep = *smsgs_[id].ep;
  smsgs_.erase(id);
  ep.return_credit(max_credits_);
  try_flush(ep);
}

void Cdm::rdma(RdmaOp op, bool bte, int initiator, int peer, std::uint64_t bytes, Callback done) {
  (op == RdmaOp::Get ? rdma_gets : rdma_puts)++;
  nic_.rdma(op, bte, initiator, peer, bytes, std::move(done));
}

void Gni::rdma(RdmaOp op, bool bte, int initiator, int peer, std::uint64_t bytes, Callback done) {
  long long ni = ctx_.node_of(initiator), np = ctx_.node_of(peer);
  long long src = op == RdmaOp::Get ? np : ni, dst = op == RdmaOp::Get ? ni : np;
  double b = static_cast<double>(bytes);
  auto finish = [this, initiator, done = std::move(done)]() mutable {
    cpus_.cpu(initiator, g_.smsg_cpu_overhead, std::move(done), "GNI_CqGetEvent (RDMA)");
  };
  if (!bte) {
    // FMA: the CPU writes the descriptor (and, for a PUT, the data through the FMA window). The data then crosses the
    // host interfaces and links as a flow that shares them with every other transfer (no BTE: GeminiNic::pio_path);
    // a GET's request travels to the peer first. Alone on its path it takes wire_time.
    double cpu = g_.fma_issue_overhead + (op == RdmaOp::Put ? b / g_.fma_pio_bandwidth : 0.0);
    cpus_.cpu(initiator, cpu, [this, op, src, dst, ni, np, b, initiator, peer,
                               finish = std::move(finish)]() mutable {
      double lat = fabric_.wire_time(src, dst, 0) + (op == RdmaOp::Get ? fabric_.wire_time(ni, np, 0) : 0.0);
      int rank_src = op == RdmaOp::Get ? peer : initiator, rank_dst = op == RdmaOp::Get ? initiator : peer;
      Callback fin = nic_span(ni, "FMA", op == RdmaOp::Get ? "FMA GET" : "FMA PUT", std::move(finish));
      fabric_.pio(src, dst, b, lat, std::move(fin), rank_src, rank_dst);
    }, "GNI_PostFma");
    return;
  }
  cpus_.cpu(initiator, g_.fma_issue_overhead, [this, op, src, dst, ni, np, b, initiator, peer,
                                            finish = std::move(finish)]() mutable {
    double lat = g_.bte_post_latency + fabric_.wire_time(src, dst, 0) +
                 (op == RdmaOp::Get ? fabric_.wire_time(ni, np, 0) : 0.0);
    int rank_src = op == RdmaOp::Get ? peer : initiator, rank_dst = op == RdmaOp::Get ? initiator : peer;
    Callback fin = nic_span(ni, "BTE", op == RdmaOp::Get ? "BTE GET" : "BTE PUT", std::move(finish));
    fabric_.bulk(src, dst, b, lat, std::move(fin), op == RdmaOp::Get, rank_src, rank_dst);  // the initiator's BTE works
  }, "GNI_PostRdma");
}

// The initiator NIC's trace row `row` (TraceSink::nic), from now (the post) to the transfer's end, when tracing.
Callback Gni::nic_span(long long node, const char* row, const char* what, Callback fin) {
  TraceSink* tr = sim_.trace;
  if (!tr) return fin;
  return [tr, this, node, row, what, t0 = sim_.now(), fin = std::move(fin)]() mutable {
    tr->nic(node, row, t0, sim_.now(), what);
    fin();
  };
}

void Gni::amo(int initiator, int target, Callback local_done, Callback at_target) {
  long long ni = ctx_.node_of(initiator), nt = ctx_.node_of(target);
  cpus_.cpu(initiator, g_.fma_issue_overhead, [this, initiator, ni, nt, local_done = std::move(local_done),
                                            at_target = std::move(at_target)]() mutable {
    double there = fabric_.wire_time(ni, nt, 8) + g_.amo_latency;
    if (TraceSink* tr = sim_.trace)  // the target NIC executes it
      tr->nic(nt, "AMO", sim_.now() + there - g_.amo_latency, sim_.now() + there, "AMO add");
    sim_.after(there, std::move(at_target));
    sim_.after(there + fabric_.wire_time(nt, ni, 8), [this, initiator, local_done = std::move(local_done)]() mutable {
      cpus_.cpu(initiator, g_.smsg_cpu_overhead, std::move(local_done), "GNI_CqGetEvent (AMO)");
    });
  }, "GNI_PostFma (AMO)");
}

void Cdm::register_buffer(int rank, Buffer b, std::uint64_t bytes, Callback ready) {
  auto it = regcaches_.find(rank);
  if (it == regcaches_.end()) it = regcaches_.emplace(rank, RegCache(nic_.registration_limit(rank))).first;
  if (it->second.lookup(b.addr, bytes)) {
    ready();
    return;
  }
  ++registrations;
  it->second.insert(b.addr, bytes);
  cpus_.cpu(rank, g_.registration_cost, std::move(ready), "GNI_MemRegister");
}

}  // namespace ompisim::gemini
