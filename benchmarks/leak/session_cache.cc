#include "leak/session_cache.h"

namespace benchprof::leak {

Session LoadSession(std::string_view id) {
  // Five allocations, all kept: the id, the vector and its three strings.
  Session session;
  session.id = id;
  session.roles.reserve(3);
  for (const std::string_view role : {"/reader", "/writer", "/auditor"}) {
    std::string& name = session.roles.emplace_back();
    name.reserve(id.size() + role.size());
    name.append(id).append(role);
  }
  return session;
}

const Session& SessionCache::Get(std::string_view id) {
  if (const auto found = index_.find(id); found != index_.end()) {
    recent_.splice(recent_.begin(), recent_, found->second);
    return recent_.front();
  }
  if (capacity_ != 0 && recent_.size() == capacity_) {
    index_.erase(recent_.back().id);
    recent_.pop_back();
  }
  recent_.push_front(LoadSession(id));
  index_.emplace(recent_.front().id, recent_.begin());
  return recent_.front();
}

}  // namespace benchprof::leak
