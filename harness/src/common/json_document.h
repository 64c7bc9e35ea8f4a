// JSON documents into json::Value, built from the tokens of json::Tokenizer:
// a whole file (ParseFile, streaming: memory is the value plus one chunk),
// text in memory (json::Parse, declared in json_value.h and defined here), or
// one value in the middle of a token stream (ReadValue, e.g. a trace's
// "otherData" while its events are streamed past).
//
//   StatusOr<json::Value> doc = json::ParseFile(path);
//   if (!doc.ok()) return doc.status().WithContext(path);  // "f.json: line 3, column 9: ..."
//
// Thread-safety: thread-safe (no shared state; a tokenizer is used by one
// thread at a time).
#ifndef BENCHPROF_COMMON_JSON_DOCUMENT_H_
#define BENCHPROF_COMMON_JSON_DOCUMENT_H_

#include <string>

#include "common/json_tokenizer.h"
#include "common/json_value.h"
#include "common/status.h"

namespace benchprof::json {

// Builds in `out` the value whose first token `tokens` just returned
// (`first`), reading through its last token. Fails with tokens.status() at
// the first problem (with "expected a value" if `first` cannot begin one,
// e.g. kEndArray), after which `out` is unspecified. Recursion follows the
// nesting, which the tokenizer caps at kMaxDepth.
Status ReadValue(Tokenizer& tokens, Token first, Value& out);

// Reads one whole document from a fresh tokenizer: a value, then the end of
// the input. Fails like json::Parse.
StatusOr<Value> ReadDocument(Tokenizer& tokens);

// Reads the document in the file at `path`, streaming from the file rather
// than reading it whole first. Fails with "cannot open: <reason>", "is a
// directory", "cannot read: <reason>" or json::Parse's messages; none names
// the file, so add it with WithContext(path).
StatusOr<Value> ParseFile(const std::string& path);

}  // namespace benchprof::json

#endif  // BENCHPROF_COMMON_JSON_DOCUMENT_H_
