#include "common/own_thread.h"

namespace benchprof::internal {

__thread bool t_own_thread __attribute__((tls_model("initial-exec"))) = false;

}  // namespace benchprof::internal
