#include "common/json_document.h"

#include <limits>
#include <utility>

#include "common/json_byte_source.h"

namespace benchprof::json {
namespace {

bool Build(Tokenizer& tokens, Token first, Value& out);

// After kBeginObject: the members, through kEndObject.
bool BuildObject(Tokenizer& tokens, Value& out) {
  Value::Members members;
  // A Google Benchmark row has about 15 members: one allocation, not five.
  members.reserve(16);
  for (Token t = tokens.Next(); t != Token::kEndObject; t = tokens.Next()) {
    if (t != Token::kKey) return false;
    std::string key(tokens.string());
    Value value;
    if (!Build(tokens, tokens.Next(), value)) return false;
    members.emplace_back(std::move(key), std::move(value));
  }
  out = Value::MakeObject(std::move(members));
  return true;
}

// After kBeginArray: the elements, through kEndArray.
bool BuildArray(Tokenizer& tokens, Value& out) {
  Value::Array elements;
  for (Token t = tokens.Next(); t != Token::kEndArray; t = tokens.Next()) {
    Value element;
    if (!Build(tokens, t, element)) return false;
    elements.push_back(std::move(element));
  }
  out = Value::MakeArray(std::move(elements));
  return true;
}

// The value whose first token is `first`. False at kError, or if `first`
// cannot begin a value (the tokenizer then has not failed).
bool Build(Tokenizer& tokens, Token first, Value& out) {
  switch (first) {
    case Token::kBeginObject:
      return BuildObject(tokens, out);
    case Token::kBeginArray:
      return BuildArray(tokens, out);
    case Token::kString:
      out = Value::MakeString(std::string(tokens.string()));
      return true;
    case Token::kNumber:
      out = Value::MakeNumber(tokens.number());
      return true;
    case Token::kTrue:
    case Token::kFalse:
      out = Value::MakeBool(first == Token::kTrue);
      return true;
    case Token::kNull:
      out = Value();
      return true;
    case Token::kEndObject:
    case Token::kEndArray:
    case Token::kKey:
    case Token::kEnd:
    case Token::kError:
      break;
  }
  return false;
}

}  // namespace

Status ReadValue(Tokenizer& tokens, Token first, Value& out) {
  if (Build(tokens, first, out)) return Status();
  return tokens.status().ok() ? Status::Error("expected a value") : tokens.status();
}

StatusOr<Value> ReadDocument(Tokenizer& tokens) {
  Value v;
  if (Status s = ReadValue(tokens, tokens.Next(), v); !s.ok()) return s;
  if (tokens.Next() != Token::kEnd) return tokens.status();
  return v;
}

StatusOr<Value> Parse(std::string_view text) {
  Tokenizer tokens(text);
  return ReadDocument(tokens);
}

StatusOr<Value> ParseFile(const std::string& path) {
  StatusOr<ByteSource> source = OpenFileSource(path);
  if (!source.ok()) return source.status();
  TokenizerOptions options;
  // The document is held in memory anyway; only a token bounds the buffer.
  options.max_buffered_bytes = std::numeric_limits<size_t>::max();
  Tokenizer tokens(std::move(*source), options);
  return ReadDocument(tokens);
}

}  // namespace benchprof::json
