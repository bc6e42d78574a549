// Errors that cross module boundaries. InputError is a user mistake (exit status 2); ProtocolError is an impossible
// (state, event) pair in a protocol state machine (a bug in the model, never a user mistake).
#pragma once
#include <stdexcept>
#include <string>

namespace ompisim {

// A bad input: names the file, the key path and the reason, laid out on one line.
class InputError : public std::runtime_error {
public:
  InputError(std::string file, std::string key, std::string reason)
      : std::runtime_error((file.empty() ? std::string() : file + ": ") + (key.empty() ? std::string() : "key '" + key + "': ") +
                           reason)
      , file_(std::move(file)), key_(std::move(key)), reason_(std::move(reason)) {}
  const std::string& file() const { return file_; }
  const std::string& key() const { return key_; }
  const std::string& reason() const { return reason_; }

private:
  std::string file_, key_, reason_;
};

class ProtocolError : public std::logic_error {
public:
  ProtocolError(const std::string& machine, const std::string& state, const std::string& event)
      : std::logic_error(machine + ": event '" + event + "' is impossible in state '" + state + "'") {}
};

}  // namespace ompisim
