// Names of the schedule operation kinds (see schedule.hpp). Not an Open MPI mirror: the alphabet is ompisim's own
// (Send/Recv ↔ MCA_PML_CALL(isend/irecv), Amo ↔ GNI_PostFMA with an AMO descriptor, WaitCounter ↔ polling a counter).
#include "collectives/schedule.hpp"

#include <stdexcept>

namespace ompisim::coll {

namespace detail {
void check_rank_args(const std::string& coll_algo, int me, int nranks) {
  if (nranks < 1) throw std::invalid_argument(coll_algo + ": nranks = " + std::to_string(nranks) + " (must be >= 1)");
  if (me < 0 || me >= nranks)
    throw std::invalid_argument(coll_algo + ": me = " + std::to_string(me) + " outside [0, " + std::to_string(nranks) + ")");
}

int floor_pow2(int n) {
  int p = 1;
  while (p <= n / 2) p <<= 1;
  return p;
}
}  // namespace detail

const char* to_string(OpKind k) {
  switch (k) {
    case OpKind::Send: return "Send";
    case OpKind::Recv: return "Recv";
    case OpKind::Amo: return "Amo";
    case OpKind::WaitCounter: return "WaitCounter";
    case OpKind::Reduce: return "Reduce";
  }
  return "?";
}

}  // namespace ompisim::coll
