#include "mpi/stack.hpp"

#include <stdexcept>

namespace ompisim {

void Stack::amo_add(int, int, Completion, Completion, AmoVia) {
  throw std::logic_error("stack '" + name() + "' has no remote atomics");
}

}  // namespace ompisim
