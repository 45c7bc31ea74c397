#include "agents/team.h"

#include <nlohmann/json.hpp>

namespace stark {

std::string Team::identity() const {
  BackendInfo b = info();
  return nlohmann::json{{"backend", b.name}, {"model", b.model}}.dump();
}

}  // namespace stark
