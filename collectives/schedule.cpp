// Names of the schedule operation kinds (see schedule.hpp). Not an Open MPI mirror: the alphabet is ompisim's own
// (Send/Recv ↔ MCA_PML_CALL(isend/irecv), Amo ↔ GNI_PostFMA with an AMO descriptor, WaitCounter ↔ polling a counter).
#include "collectives/schedule.hpp"

namespace ompisim::coll {

const char* to_string(OpKind k) {
  switch (k) {
    case OpKind::Send: return "Send";
    case OpKind::Recv: return "Recv";
    case OpKind::Amo: return "Amo";
    case OpKind::WaitCounter: return "WaitCounter";
  }
  return "?";
}

}  // namespace ompisim::coll
