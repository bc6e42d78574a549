// The members of SharingEngine (sharing_engine.hpp) that need its Impl whole. Included only by the .cpp that defines
// the Impl, which then instantiates SharingEngine<Impl> explicitly.
#pragma once
#include "engine/sharing_engine.hpp"

#include <utility>

namespace ompisim::engine {

template <class ImplT>
SharingEngine<ImplT>::~SharingEngine() = default;

template <class ImplT>
void SharingEngine<ImplT>::declare(ResourceId id, const std::string& name, double capacity) {
  impl_->declare(id, name, capacity);
}

template <class ImplT>
void SharingEngine<ImplT>::start(const std::vector<ResourceId>& path, double bytes, Callback done) {
  impl_->start(path, bytes, std::move(done));
}

}  // namespace ompisim::engine
