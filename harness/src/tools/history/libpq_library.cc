#include "tools/history/libpq_library.h"

#include <dlfcn.h>

#include <mutex>
#include <string>

#ifndef BENCHPROF_LIBPQ_SONAME
#error "BENCHPROF_LIBPQ_SONAME must name libpq's shared library (its SONAME)"
#endif

namespace benchprof::history {
namespace {

// Each function by its name, into its member.
template <typename Function>
bool Bind(void* handle, const char* name, Function* member, std::string* missing) {
  void* symbol = ::dlsym(handle, name);
  if (symbol == nullptr) {
    *missing = name;
    return false;
  }
  *member = reinterpret_cast<Function>(symbol);
  return true;
}

StatusOr<const Libpq*> Load() {
  // Local: its symbols must not stand in for anyone else's.
  void* handle = ::dlopen(BENCHPROF_LIBPQ_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    return Status::Error(std::string("cannot load PostgreSQL's client library ") +
                         BENCHPROF_LIBPQ_SONAME + " (install libpq5): " +
                         (why != nullptr ? why : "unknown error"));
  }
  static Libpq libpq;
  std::string missing;
  const bool bound =
      Bind(handle, "PQclear", &libpq.PQclear, &missing) &&
      Bind(handle, "PQcmdStatus", &libpq.PQcmdStatus, &missing) &&
      Bind(handle, "PQconnectdbParams", &libpq.PQconnectdbParams, &missing) &&
      Bind(handle, "PQconnectionNeedsPassword", &libpq.PQconnectionNeedsPassword, &missing) &&
      Bind(handle, "PQconninfoFree", &libpq.PQconninfoFree, &missing) &&
      Bind(handle, "PQconninfoParse", &libpq.PQconninfoParse, &missing) &&
      Bind(handle, "PQerrorMessage", &libpq.PQerrorMessage, &missing) &&
      Bind(handle, "PQexec", &libpq.PQexec, &missing) &&
      Bind(handle, "PQexecParams", &libpq.PQexecParams, &missing) &&
      Bind(handle, "PQexecPrepared", &libpq.PQexecPrepared, &missing) &&
      Bind(handle, "PQfinish", &libpq.PQfinish, &missing) &&
      Bind(handle, "PQfreemem", &libpq.PQfreemem, &missing) &&
      Bind(handle, "PQftype", &libpq.PQftype, &missing) &&
      Bind(handle, "PQgetisnull", &libpq.PQgetisnull, &missing) &&
      Bind(handle, "PQgetlength", &libpq.PQgetlength, &missing) &&
      Bind(handle, "PQgetvalue", &libpq.PQgetvalue, &missing) &&
      Bind(handle, "PQnfields", &libpq.PQnfields, &missing) &&
      Bind(handle, "PQntuples", &libpq.PQntuples, &missing) &&
      Bind(handle, "PQprepare", &libpq.PQprepare, &missing) &&
      Bind(handle, "PQresultErrorField", &libpq.PQresultErrorField, &missing) &&
      Bind(handle, "PQresultStatus", &libpq.PQresultStatus, &missing) &&
      Bind(handle, "PQstatus", &libpq.PQstatus, &missing) &&
      Bind(handle, "PQtransactionStatus", &libpq.PQtransactionStatus, &missing) &&
      Bind(handle, "PQunescapeBytea", &libpq.PQunescapeBytea, &missing);
  if (!bound) {
    return Status::Error(std::string(BENCHPROF_LIBPQ_SONAME) + " has no function " + missing +
                         " (too old a libpq?)");
  }
  // The handle stays open for the process's life: connections use it.
  return &libpq;
}

}  // namespace

StatusOr<const Libpq*> LoadLibpq() {
  static std::once_flag once;
  static StatusOr<const Libpq*> loaded = Status::Error("not loaded");
  std::call_once(once, [] { loaded = Load(); });
  return loaded;
}

}  // namespace benchprof::history
