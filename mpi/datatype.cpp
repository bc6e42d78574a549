#include "mpi/datatype.hpp"

namespace ompisim::mpi {

const Datatype* find_datatype(std::string_view name) {
  static constexpr const Datatype* all[] = {&kByte, &kPacked, &kChar,       &kInt,    &kLong,
                                            &kFloat, &kDouble, &kLongDouble, &kCxxBool};
  for (const Datatype* d : all)
    if (name == d->name) return d;
  return nullptr;
}

}  // namespace ompisim::mpi
