// See check.hpp: zero-time schedule executor for tests (ompisim's own; follows the contract of schedule.hpp).
#include "collectives/check.hpp"

#include <deque>
#include <sstream>
#include <unordered_map>

namespace ompisim::coll {

std::uint64_t CheckResult::root_last_round_step() const {
  if (round_start_step.empty() || round_start_step[0].empty()) return kNever;
  return round_start_step[0].back();
}

CheckResult run_schedules(int nranks, Generator gen, const AlgoParams& params) {
  std::vector<Schedule> scheds;
  scheds.reserve(static_cast<std::size_t>(nranks > 0 ? nranks : 0));
  for (int r = 0; r < nranks; ++r) scheds.push_back(gen(r, nranks, params));
  return run_schedules(scheds);
}

namespace {

// A PostRecv: matched as soon as a message from its peer is there, before any receive the rank posts after it.
struct PostedRecv {
  int peer;
  std::uint32_t bytes;
  std::size_t round;
  bool matched = false;
};

struct RankState {
  std::size_t round = 0;
  bool started = false;
  bool finished = false;
  bool queued = false;
  std::size_t pending = 0;
  std::vector<char> done;  // per op of the current round
  std::vector<PostedRecv> posted;  // every PostRecv so far, in posting order
  std::size_t waited = 0;          // PostRecvs waited for (a prefix of `posted`)
  std::size_t open = 0;            // PostRecvs before this one have all matched
};

std::string describe(int rank, std::size_t round, const Op& op) {
  std::ostringstream os;
  os << "rank " << rank << " round " << round << ": " << to_string(op.kind);
  if (op.kind == OpKind::WaitCounter || op.kind == OpKind::Reduce)
    os << "(" << op.value << ")";
  else if (op.kind == OpKind::Wait)
    os << "()";
  else
    os << "(peer " << op.peer << ")";
  return os.str();
}

// Messages in flight per ordered pair of ranks, keyed src * nranks + dst.
using Channels = std::unordered_map<std::uint64_t, std::deque<std::uint32_t>>;

// Sizes the per-rank records of `res` and checks every peer of every operation; false, with res.error naming the
// operation, on a peer outside the communicator.
bool prepare(const std::vector<Schedule>& scheds, CheckResult& res) {
  const int n = static_cast<int>(scheds.size());
  res.releases.assign(scheds.size(), 0);
  res.finish_step.assign(scheds.size(), CheckResult::kNever);
  res.counters.assign(scheds.size(), 0);
  res.final_wait_value.assign(scheds.size(), 0);
  res.round_start_step.resize(scheds.size());
  for (int r = 0; r < n; ++r) {
    const auto& rounds = scheds[static_cast<std::size_t>(r)].rounds;
    res.round_start_step[static_cast<std::size_t>(r)].assign(rounds.size(), CheckResult::kNever);
    for (const auto& rd : rounds)
      for (const auto& op : rd.ops) {
        if (op.kind == OpKind::WaitCounter) {
          res.final_wait_value[static_cast<std::size_t>(r)] = op.value;
        } else if (op.kind == OpKind::Reduce || op.kind == OpKind::Wait) {
          // local arithmetic, or a wait for an earlier PostRecv: no peer
        } else if (op.peer < 0 || op.peer >= n) {
          res.error = "invalid peer: " + describe(r, static_cast<std::size_t>(&rd - rounds.data()), op) +
                      " (nranks " + std::to_string(n) + ")";
          return false;
        }
      }
  }
  return true;
}

// What is left once no rank can move: sends never received and operations still blocked, added to `errors`.
void report_leftovers(const std::vector<Schedule>& scheds, const std::vector<RankState>& st, const Channels& channels,
                      CheckResult& res, std::string& errors) {
  const int n = static_cast<int>(scheds.size());
  for (const auto& [k, q] : channels) {
    res.unmatched_sends += q.size();
    if (!q.empty() && errors.size() < 1000)
      errors += "unreceived: " + std::to_string(q.size()) + " message(s) from rank " + std::to_string(k / n) +
                " to rank " + std::to_string(k % n) + "; ";
  }
  int blocked = 0;
  for (int r = 0; r < n; ++r) {
    const auto& s = st[static_cast<std::size_t>(r)];
    for (const PostedRecv& p : s.posted)
      if (!p.matched) ++res.unmatched_recvs;
    if (s.finished) continue;
    const auto& ops = scheds[static_cast<std::size_t>(r)].rounds[s.round].ops;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      if (s.done[i]) continue;
      if (ops[i].kind == OpKind::Recv) ++res.unmatched_recvs;
      if (blocked < 8) errors += "blocked: " + describe(r, s.round, ops[i]) + "; ";
    }
    ++blocked;
  }
  if (blocked > 0) errors += std::to_string(blocked) + " rank(s) never finished; ";
}

// Takes the oldest message from src to dst for a receive of `bytes` (described by `what` in a size mismatch); false
// when there is none.
bool take(Channels& channels, std::uint64_t k, std::uint32_t bytes, const std::string& what, std::string& errors) {
  auto it = channels.find(k);
  if (it == channels.end() || it->second.empty()) return false;
  if (it->second.front() != bytes && errors.size() < 1000)
    errors += "size mismatch: " + what + " expects " + std::to_string(bytes) + " B, matched send has " +
              std::to_string(it->second.front()) + " B; ";
  it->second.pop_front();
  return true;
}

}  // namespace

CheckResult run_schedules(const std::vector<Schedule>& scheds) {
  const int n = static_cast<int>(scheds.size());
  CheckResult res;
  if (!prepare(scheds, res)) return res;

  std::vector<RankState> st(scheds.size());
  Channels channels;
  auto key = [n](int src, int dst) { return static_cast<std::uint64_t>(src) * static_cast<std::uint64_t>(n) +
                                            static_cast<std::uint64_t>(dst); };
  std::deque<int> work;
  auto wake = [&](int r) {
    auto& s = st[static_cast<std::size_t>(r)];
    if (!s.queued && !s.finished) {
      s.queued = true;
      work.push_back(r);
    }
  };
  std::uint64_t step = 0;
  std::string errors;

  for (int r = 0; r < n; ++r) wake(r);
  while (!work.empty()) {
    const int r = work.front();
    work.pop_front();
    const auto ur = static_cast<std::size_t>(r);
    auto& s = st[ur];
    s.queued = false;
    const auto& rounds = scheds[ur].rounds;
    while (!s.finished) {
      if (s.round == rounds.size()) {
        if (s.waited != s.posted.size() && errors.size() < 1000)
          errors += "rank " + std::to_string(r) + " ended with " + std::to_string(s.posted.size() - s.waited) +
                    " PostRecv not waited for; ";
        s.finished = true;
        res.finish_step[ur] = step++;
        ++res.releases[ur];
        break;
      }
      const auto& ops = rounds[s.round].ops;
      if (!s.started) {
        s.started = true;
        res.round_start_step[ur][s.round] = step++;
        s.done.assign(ops.size(), 0);
        s.pending = ops.size();
        for (std::size_t i = 0; i < ops.size(); ++i) {
          const Op& op = ops[i];
          switch (op.kind) {
            case OpKind::Send:
              ++res.sends;
              channels[key(r, op.peer)].push_back(op.value);
              s.done[i] = 1;
              --s.pending;
              wake(op.peer);
              break;
            case OpKind::Amo:
              ++res.amos;
              ++res.counters[static_cast<std::size_t>(op.peer)];
              s.done[i] = 1;
              --s.pending;
              wake(op.peer);
              break;
            case OpKind::Recv: ++res.recvs; break;
            case OpKind::PostRecv:  // posted now, complete for its round; a later Wait waits for it
              ++res.recvs;
              s.posted.push_back({op.peer, op.value, s.round});
              s.done[i] = 1;
              --s.pending;
              break;
            case OpKind::Wait: break;
            case OpKind::WaitCounter: ++res.waits; break;
            case OpKind::Reduce:  // local arithmetic: completes at once (zero time here)
              ++res.reduces;
              s.done[i] = 1;
              --s.pending;
              break;
          }
        }
      }
      for (std::size_t k = s.open; k < s.posted.size(); ++k) {  // posted before this round's receives: they match first
        PostedRecv& p = s.posted[k];
        if (!p.matched)
          p.matched = take(channels, key(p.peer, r), p.bytes,
                           describe(r, p.round, Op{OpKind::PostRecv, p.peer, p.bytes}), errors);
      }
      while (s.open < s.posted.size() && s.posted[s.open].matched) ++s.open;
      for (std::size_t i = 0; i < ops.size() && s.pending > 0; ++i) {
        if (s.done[i]) continue;
        const Op& op = ops[i];
        if (op.kind == OpKind::Recv) {
          if (!take(channels, key(op.peer, r), op.value, describe(r, s.round, op), errors)) continue;
        } else if (op.kind == OpKind::Wait) {
          if (s.waited == s.posted.size()) {
            if (errors.size() < 1000) errors += "a Wait without a PostRecv: " + describe(r, s.round, op) + "; ";
          } else if (!s.posted[s.waited].matched) {
            continue;
          } else {
            ++s.waited;
          }
        } else if (op.kind == OpKind::WaitCounter) {
          if (res.counters[ur] < op.value) continue;
        }
        s.done[i] = 1;
        --s.pending;
      }
      if (s.pending > 0) break;  // blocked until woken by a Send or an Amo aimed at this rank
      ++s.round;
      s.started = false;
    }
  }

  report_leftovers(scheds, st, channels, res, errors);
  res.error = errors;
  res.completed = errors.empty();
  return res;
}

}  // namespace ompisim::coll
