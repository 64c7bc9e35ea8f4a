// PostgreSQL's client library, loaded when a PostgreSQL database is first
// opened, not linked: libpq brings some twenty libraries with it (OpenSSL,
// Kerberos, LDAP, GnuTLS...), which every benchprof command would otherwise
// load at start (some 10 MB of address space; a command under a tight
// `ulimit -v` could not start at all), while most never open a server.
// The build names the library by its SONAME (BENCHPROF_LIBPQ_SONAME).
//
//   StatusOr<const Libpq*> libpq = LoadLibpq();
//   if (!libpq.ok()) ...;                        // "cannot load libpq.so.5: ..."
//   PGconn* c = (*libpq)->PQconnectdbParams(keywords, values, 1);
//
// Thread-safety: LoadLibpq is thread-safe (loads once); the functions are
// libpq's.
#ifndef BENCHPROF_TOOLS_HISTORY_LIBPQ_LIBRARY_H_
#define BENCHPROF_TOOLS_HISTORY_LIBPQ_LIBRARY_H_

#include <libpq-fe.h>

#include "common/status.h"

namespace benchprof::history {

// The libpq functions benchprof calls, by their own names.
struct Libpq {
  decltype(&::PQclear) PQclear;
  decltype(&::PQcmdStatus) PQcmdStatus;
  decltype(&::PQconnectdbParams) PQconnectdbParams;
  decltype(&::PQconnectionNeedsPassword) PQconnectionNeedsPassword;
  decltype(&::PQconninfoFree) PQconninfoFree;
  decltype(&::PQconninfoParse) PQconninfoParse;
  decltype(&::PQerrorMessage) PQerrorMessage;
  decltype(&::PQexec) PQexec;
  decltype(&::PQexecParams) PQexecParams;
  decltype(&::PQexecPrepared) PQexecPrepared;
  decltype(&::PQfinish) PQfinish;
  decltype(&::PQfreemem) PQfreemem;
  decltype(&::PQftype) PQftype;
  decltype(&::PQgetisnull) PQgetisnull;
  decltype(&::PQgetlength) PQgetlength;
  decltype(&::PQgetvalue) PQgetvalue;
  decltype(&::PQnfields) PQnfields;
  decltype(&::PQntuples) PQntuples;
  decltype(&::PQprepare) PQprepare;
  decltype(&::PQresultErrorField) PQresultErrorField;
  decltype(&::PQresultStatus) PQresultStatus;
  decltype(&::PQstatus) PQstatus;
  decltype(&::PQtransactionStatus) PQtransactionStatus;
  decltype(&::PQunescapeBytea) PQunescapeBytea;
};

// Loads libpq (once) and returns its functions, or why it cannot: one line
// naming the library ("cannot load libpq.so.5 (install libpq5): ...").
StatusOr<const Libpq*> LoadLibpq();

}  // namespace benchprof::history

#endif  // BENCHPROF_TOOLS_HISTORY_LIBPQ_LIBRARY_H_
