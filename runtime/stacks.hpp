// Stack factory: assembles a named MPI stack over a World (registration is explicit, no static constructors).
//   openmpi : pml/ob1 + bml/r2 + btl/{self, vader, ugni}; Cheetah's uGNI BCOL atomics through uGNI  (gemini)
//   native  : Cray MPT (MPICH2 uGNI netmod + Nemesis shared memory)                                   (gemini)
//   loggp   : LogGOPS reference                                                                        (loggp)
#pragma once
#include "runtime/world.hpp"

#include <memory>
#include <string>
#include <vector>

namespace ompisim {

struct StackInfo {
  std::string name, family, description;
};
const std::vector<StackInfo>& stack_registry();
// Throws InputError (file, "stack") when the stack is unknown or does not run on the machine's family.
std::unique_ptr<Stack> make_stack(World& w, const std::string& name, const std::string& file);

}  // namespace ompisim
