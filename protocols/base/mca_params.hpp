// A run's software (MCA) parameters: one block per component, each a struct declared beside its component (e.g.
// protocols/btl/ugni/btl_ugni_mca.hpp) with a visit() naming every field (a table of rows, one a parameter:
// ParamTable in core/params.hpp), and each component reading only its own
// block: `mca.get<btl::ugni::UgniMca>()`. The set of blocks is not fixed here: the component registry
// (protocols/register.hpp) adds one per registered component that declares parameters, in registration order, so a
// new component brings its block without touching this file (Open MPI's mca_base_component_var_register per
// component, instead of one struct of every knob).
#pragma once
#include "core/params.hpp"

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <typeindex>
#include <vector>

namespace ompisim {

using ParamVisitor = std::function<void(Sourced&, ParamInfo)>;

class McaParams {
public:
  McaParams() = default;
  McaParams(const McaParams& o) {
    for (auto& b : o.blocks_) blocks_.push_back(b->clone());
  }
  McaParams& operator=(const McaParams& o) {
    if (this != &o) {
      McaParams copy(o);
      blocks_.swap(copy.blocks_);
    }
    return *this;
  }
  McaParams(McaParams&&) noexcept = default;
  McaParams& operator=(McaParams&&) noexcept = default;

  // Adds block T with its defaults (no-op when present); returns it.
  template <class T>
  T& add() {
    if (T* t = find<T>()) return *t;
    auto b = std::make_unique<Block<T>>();
    T& ref = b->value;
    blocks_.push_back(std::move(b));
    return ref;
  }
  template <class T>
  T* find() {
    for (auto& b : blocks_)
      if (b->type() == std::type_index(typeid(T))) return &static_cast<Block<T>*>(b.get())->value;
    return nullptr;
  }
  template <class T>
  const T* find() const {
    return const_cast<McaParams*>(this)->find<T>();
  }
  // The block of T; std::logic_error when it was never added (a component asked for a block it did not declare).
  template <class T>
  T& get() {
    if (T* t = find<T>()) return *t;
    throw std::logic_error(std::string("MCA parameters: no block ") + typeid(T).name() + " (not declared by a registered component)");
  }
  template <class T>
  const T& get() const {
    return const_cast<McaParams*>(this)->get<T>();
  }
  std::size_t blocks() const { return blocks_.size(); }

  // Every parameter of every block, in the order the blocks were added (param_list(mca) uses it).
  template <class V>
  void visit(V&& v) {
    ParamVisitor pv(std::ref(v));
    for (auto& b : blocks_) b->visit(pv);
  }

private:
  struct BlockBase {
    virtual ~BlockBase() = default;
    virtual std::type_index type() const = 0;
    virtual std::unique_ptr<BlockBase> clone() const = 0;
    virtual void visit(const ParamVisitor& v) = 0;
  };
  template <class T>
  struct Block final : BlockBase {
    T value{};
    std::type_index type() const override { return std::type_index(typeid(T)); }
    std::unique_ptr<BlockBase> clone() const override { return std::make_unique<Block<T>>(*this); }
    void visit(const ParamVisitor& v) override { value.visit(v); }
  };
  std::vector<std::unique_ptr<BlockBase>> blocks_;
};

// How a component declares its block: add it to a run's McaParams, and visit only its own parameters.
struct ParamBlock {
  std::function<void(McaParams&)> declare;
  std::function<void(McaParams&, const ParamVisitor&)> visit;
  explicit operator bool() const { return static_cast<bool>(declare); }
};
template <class T>
ParamBlock param_block() {
  return {[](McaParams& m) { m.add<T>(); }, [](McaParams& m, const ParamVisitor& v) { m.get<T>().visit(v); }};
}

}  // namespace ompisim
