// The NIC models of one World: each NIC kind's model object (models/gemini's Gni, models/seastar's SeaStar, ...)
// exists once per World, created by the first protocol component that asks for it and shared by every other
// component on the same ports, as one NIC in a node serves every library and component that opens it. Per-library
// state (a uGNI communication domain, a Portals event queue) stays with the component; what the hardware does once
// per node (a NIC processor's timeline, its match lists) lives in the shared object.
//
// Keyed by C++ type, like ns-3's Node::GetObject<T>(): `parts.nic_services.get<gemini::Gni>(sim, contexts, cpus,
// fabric)` builds the Gni from the platform parts it takes on first use and returns the same object afterwards (each
// model wraps this in its `of`: gemini::Gni::of, seastar::SeaStar::of). Services are destroyed with the World, in the
// reverse order of their creation and before the parts they were built from (World's last member).
// LIMITATIONS: one object per type per World (not per port): a model keeps per-port state itself when it needs it.
#pragma once
#include <memory>
#include <typeindex>
#include <utility>
#include <vector>

namespace ompisim {

class NicServices {
public:
  NicServices() = default;
  NicServices(const NicServices&) = delete;
  NicServices& operator=(const NicServices&) = delete;
  ~NicServices() {
    while (!services_.empty()) services_.pop_back();  // reverse order of creation
  }

  // The service of type T, created with `args` on first use (later calls ignore `args`).
  template <class T, class... Args>
  T& get(Args&&... args) {
    if (T* t = find<T>()) return *t;
    auto holder = std::make_unique<Holder<T>>(std::forward<Args>(args)...);
    T& ref = holder->value;
    services_.push_back({std::type_index(typeid(T)), std::move(holder)});
    return ref;
  }
  template <class T>
  T* find() const {
    for (auto& s : services_)
      if (s.type == std::type_index(typeid(T))) return &static_cast<Holder<T>*>(s.holder.get())->value;
    return nullptr;
  }
  std::size_t size() const { return services_.size(); }

private:
  struct HolderBase {
    virtual ~HolderBase() = default;
  };
  template <class T>
  struct Holder final : HolderBase {
    template <class... Args>
    explicit Holder(Args&&... args) : value(std::forward<Args>(args)...) {}
    T value;
  };
  struct Entry {
    std::type_index type;
    std::unique_ptr<HolderBase> holder;
  };
  std::vector<Entry> services_;
};

}  // namespace ompisim
