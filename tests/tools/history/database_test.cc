// The behaviours both backends of database.h share, each tested on SQLite
// and on PostgreSQL (a throwaway cluster; skipped with the reason where
// PostgreSQL is not installed, unless BENCHPROF_REQUIRE_POSTGRES is set).
#include "tools/history/database.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "tools/history/database_test_backend.h"

namespace benchprof::history {
namespace {

using testing::BackendName;

class DatabaseBackendTest : public ::testing::TestWithParam<BackendName> {
 protected:
  void SetUp() override {
    std::string why_not;
    bool must_fail = false;
    location_ = testing::FreshDatabase(GetParam(), &why_not, &must_fail);
    if (location_.empty() && must_fail) FAIL() << why_not;
    if (location_.empty()) GTEST_SKIP() << why_not;
  }

  std::unique_ptr<Database> Open(int busy_timeout_ms = 30000) {
    OpenOptions options;
    options.busy_timeout_ms = busy_timeout_ms;
    StatusOr<std::unique_ptr<Database>> db = OpenDatabase(location_, options);
    EXPECT_TRUE(db.ok()) << db.status().message();
    if (!db.ok()) return nullptr;
    return std::move(*db);
  }

  // A table of one column of each type, in the backend's type names.
  void CreateValuesTable(Database& db) {
    const Dialect& d = db.dialect();
    std::string sql = "CREATE TABLE vals (id " + std::string(d.id_column) + ", i BIGINT, r " +
                      std::string(d.double_type) + ", t TEXT, b " + std::string(d.blob_type) + ")";
    Status s = db.Execute(sql);
    ASSERT_TRUE(s.ok()) << s.message();
  }

  std::string location_;
};

TEST_P(DatabaseBackendTest, IntegersRoundTripExactly) {
  auto db = Open();
  ASSERT_TRUE(db);
  CreateValuesTable(*db);
  const std::vector<int64_t> values = {0,
                                       1,
                                       -1,
                                       std::numeric_limits<int64_t>::min(),
                                       std::numeric_limits<int64_t>::max(),
                                       int64_t{1} << 53,
                                       (int64_t{1} << 53) + 1};
  for (int64_t v : values) {
    ASSERT_TRUE(db->Execute("INSERT INTO vals (i) VALUES ($1)", {SqlValue(v)}).ok());
  }
  StatusOr<SqlRows> rows = db->Query("SELECT i FROM vals ORDER BY id");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    ASSERT_TRUE(std::holds_alternative<int64_t>((*rows)[i][0])) << i;
    EXPECT_EQ(std::get<int64_t>((*rows)[i][0]), values[i]);
  }
}

TEST_P(DatabaseBackendTest, DoublesRoundTripBitForBit) {
  auto db = Open();
  ASSERT_TRUE(db);
  CreateValuesTable(*db);
  const std::vector<double> values = {0.1,
                                      1e-300,
                                      1.0 / 3.0,
                                      123456789.123456789,
                                      std::numeric_limits<double>::max(),
                                      std::numeric_limits<double>::min(),
                                      std::numeric_limits<double>::denorm_min(),
                                      std::numeric_limits<double>::lowest(),
                                      std::numeric_limits<double>::infinity(),
                                      -std::numeric_limits<double>::infinity(),
                                      -2.5,
                                      std::nextafter(1.0, 2.0)};
  for (double v : values) {
    Status s = db->Execute("INSERT INTO vals (r) VALUES ($1)", {SqlValue(v)});
    ASSERT_TRUE(s.ok()) << s.message();
  }
  StatusOr<SqlRows> rows = db->Query("SELECT r FROM vals ORDER BY id");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    ASSERT_TRUE(std::holds_alternative<double>((*rows)[i][0])) << i;
    double got = std::get<double>((*rows)[i][0]);
    EXPECT_EQ(std::memcmp(&got, &values[i], sizeof got), 0)
        << "stored " << values[i] << ", read " << got;
  }
}

TEST_P(DatabaseBackendTest, NanIsStoredAsNull) {
  auto db = Open();
  ASSERT_TRUE(db);
  CreateValuesTable(*db);
  ASSERT_TRUE(db->Execute("INSERT INTO vals (r) VALUES ($1)",
                          {SqlValue(std::numeric_limits<double>::quiet_NaN())})
                  .ok());
  StatusOr<SqlRows> rows = db->Query("SELECT r FROM vals");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_TRUE(std::holds_alternative<std::monostate>((*rows)[0][0]));
}

TEST_P(DatabaseBackendTest, TextAndBlobsRoundTripVerbatim) {
  auto db = Open();
  ASSERT_TRUE(db);
  CreateValuesTable(*db);
  std::string long_text;
  for (int i = 0; i < 100000; ++i) long_text += static_cast<char>('a' + i % 26);
  const std::vector<std::string> texts = {"",
                                          "BM_x",
                                          "'); DROP TABLE vals;--",
                                          "\"quoted\" 'single' `back` $1 $$ ? :name @p ;;; \\ \\\\",
                                          "BM_Unicode/é/ü/日本/🙂",
                                          "line\nbreak\ttab\r",
                                          long_text};
  std::string zeros("\0\0\x01\xff\0", 5);
  std::string all_bytes;
  for (int i = 0; i < 256; ++i) all_bytes += static_cast<char>(i);
  const std::vector<std::string> blobs = {"", zeros, all_bytes, long_text};
  for (const std::string& text : texts) {
    Status s = db->Execute("INSERT INTO vals (t) VALUES ($1)", {SqlValue(text)});
    ASSERT_TRUE(s.ok()) << s.message();
  }
  for (const std::string& blob : blobs) {
    Status s = db->Execute("INSERT INTO vals (b) VALUES ($1)", {SqlValue(SqlBlob{blob})});
    ASSERT_TRUE(s.ok()) << s.message();
  }
  StatusOr<SqlRows> rows = db->Query("SELECT t, b FROM vals ORDER BY id");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), texts.size() + blobs.size());
  for (size_t i = 0; i < texts.size(); ++i) {
    ASSERT_TRUE(std::holds_alternative<std::string>((*rows)[i][0])) << i;
    EXPECT_EQ(std::get<std::string>((*rows)[i][0]), texts[i]);
  }
  for (size_t i = 0; i < blobs.size(); ++i) {
    const SqlValue& got = (*rows)[texts.size() + i][1];
    ASSERT_TRUE(std::holds_alternative<SqlBlob>(got)) << i;
    EXPECT_EQ(std::get<SqlBlob>(got).bytes, blobs[i]) << i;
  }
}

TEST_P(DatabaseBackendTest, NullsAndEveryTypeInOneRow) {
  auto db = Open();
  ASSERT_TRUE(db);
  CreateValuesTable(*db);
  Status s = db->Execute(
      "INSERT INTO vals (i, r, t, b) VALUES ($1, $2, $3, $4)",
      {SqlValue(int64_t{7}), SqlValue(2.5), SqlValue(std::monostate()), SqlValue(SqlBlob{"x"})});
  ASSERT_TRUE(s.ok()) << s.message();
  StatusOr<SqlRows> rows =
      db->Query("SELECT i, r, t, b FROM vals WHERE i = $1", {SqlValue(int64_t{7})});
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0],
            (std::vector<SqlValue>{SqlValue(int64_t{7}), SqlValue(2.5), SqlValue(std::monostate()),
                                   SqlValue(SqlBlob{"x"})}));
}

TEST_P(DatabaseBackendTest, TextWithNulIsRefusedOnBothBackends) {
  auto db = Open();
  ASSERT_TRUE(db);
  CreateValuesTable(*db);
  Status s = db->Execute("INSERT INTO vals (t) VALUES ($1)", {SqlValue(std::string("a\0b", 3))});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("NUL"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find('\n'), std::string::npos);
}

TEST_P(DatabaseBackendTest, HostileNamesAreDataNeverSql) {
  auto db = Open();
  ASSERT_TRUE(db);
  ASSERT_TRUE(db->Execute("CREATE TABLE benchmarks (name TEXT)").ok());
  const std::vector<std::string> names = {"'); DROP TABLE benchmarks;--",
                                          "x'; DELETE FROM benchmarks; SELECT '",
                                          "$1",
                                          "'' OR 1=1 --",
                                          "Robert'); DROP TABLE benchmarks; --",
                                          "BM_\"q\";"};
  for (const std::string& name : names) {
    Status s = db->Execute("INSERT INTO benchmarks (name) VALUES ($1)", {SqlValue(name)});
    ASSERT_TRUE(s.ok()) << s.message();
  }
  for (const std::string& name : names) {
    StatusOr<SqlRows> rows =
        db->Query("SELECT name FROM benchmarks WHERE name = $1", {SqlValue(name)});
    ASSERT_TRUE(rows.ok()) << rows.status().message();
    ASSERT_EQ(rows->size(), 1u) << name;
    EXPECT_EQ(std::get<std::string>((*rows)[0][0]), name);
  }
  StatusOr<SqlRows> all = db->Query("SELECT count(*) FROM benchmarks");
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ((*all)[0][0], SqlValue(int64_t(names.size())));
}

TEST_P(DatabaseBackendTest, ParametersMustMatchTheStatement) {
  auto db = Open();
  ASSERT_TRUE(db);
  ASSERT_TRUE(db->Execute("CREATE TABLE t (a BIGINT, b BIGINT)").ok());
  Status unused =
      db->Execute("INSERT INTO t (a) VALUES ($1)", {SqlValue(int64_t{1}), SqlValue(int64_t{2})});
  EXPECT_FALSE(unused.ok());
  Status missing = db->Execute("INSERT INTO t (a, b) VALUES ($1, $2)", {SqlValue(int64_t{1})});
  EXPECT_FALSE(missing.ok());
  Status twice = db->Execute("INSERT INTO t (a, b) VALUES ($1, $1)", {SqlValue(int64_t{5})});
  EXPECT_TRUE(twice.ok()) << twice.message();
  StatusOr<SqlRows> rows = db->Query("SELECT a, b FROM t");
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 1u);
  EXPECT_EQ((*rows)[0], (std::vector<SqlValue>{SqlValue(int64_t{5}), SqlValue(int64_t{5})}));
}

TEST_P(DatabaseBackendTest, SeveralStatementsWithoutParameters) {
  auto db = Open();
  ASSERT_TRUE(db);
  Status s = db->Execute(
      "CREATE TABLE a (x BIGINT); CREATE TABLE b (y BIGINT);\n INSERT INTO a VALUES (1);");
  ASSERT_TRUE(s.ok()) << s.message();
  StatusOr<SqlRows> rows = db->Query("SELECT x FROM a");
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(rows->size(), 1u);
  EXPECT_TRUE(db->Query("SELECT y FROM b").ok());
}

TEST_P(DatabaseBackendTest, NewRowsIdsComeFromReturning) {
  auto db = Open();
  ASSERT_TRUE(db);
  CreateValuesTable(*db);
  StatusOr<SqlRows> first =
      db->Query("INSERT INTO vals (t) VALUES ($1) RETURNING id", {SqlValue("a")});
  StatusOr<SqlRows> second =
      db->Query("INSERT INTO vals (t) VALUES ($1) RETURNING id", {SqlValue("b")});
  ASSERT_TRUE(first.ok()) << first.status().message();
  ASSERT_TRUE(second.ok()) << second.status().message();
  int64_t a = std::get<int64_t>((*first)[0][0]);
  int64_t b = std::get<int64_t>((*second)[0][0]);
  EXPECT_NE(a, b);
  StatusOr<SqlRows> rows = db->Query("SELECT t FROM vals WHERE id = $1", {SqlValue(b)});
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[0][0], SqlValue(std::string("b")));
}

TEST_P(DatabaseBackendTest, ATransactionDroppedWithoutCommitLeavesNothing) {
  auto db = Open();
  ASSERT_TRUE(db);
  CreateValuesTable(*db);
  {
    DatabaseTransaction tx(*db);
    ASSERT_TRUE(tx.begun().ok()) << tx.begun().message();
    for (int64_t i = 0; i < 100; ++i) {
      ASSERT_TRUE(db->Execute("INSERT INTO vals (i) VALUES ($1)", {SqlValue(i)}).ok());
    }
  }
  StatusOr<SqlRows> rows = db->Query("SELECT count(*) FROM vals");
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[0][0], SqlValue(int64_t{0}));
  // And the connection is usable after it, for a committed transaction.
  {
    DatabaseTransaction tx(*db);
    ASSERT_TRUE(tx.begun().ok()) << tx.begun().message();
    ASSERT_TRUE(db->Execute("INSERT INTO vals (i) VALUES ($1)", {SqlValue(int64_t{1})}).ok());
    Status committed = tx.Commit();
    ASSERT_TRUE(committed.ok()) << committed.message();
  }
  rows = db->Query("SELECT count(*) FROM vals");
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[0][0], SqlValue(int64_t{1}));
}

TEST_P(DatabaseBackendTest, UncommittedRowsAreInvisibleToOthers) {
  auto writer = Open();
  auto reader = Open();
  ASSERT_TRUE(writer && reader);
  CreateValuesTable(*writer);
  ASSERT_TRUE(writer->Begin().ok());
  ASSERT_TRUE(writer->Execute("INSERT INTO vals (i) VALUES ($1)", {SqlValue(int64_t{1})}).ok());
  StatusOr<SqlRows> during = reader->Query("SELECT count(*) FROM vals");
  ASSERT_TRUE(during.ok()) << during.status().message();
  EXPECT_EQ((*during)[0][0], SqlValue(int64_t{0}));
  ASSERT_TRUE(writer->Commit().ok());
  StatusOr<SqlRows> after = reader->Query("SELECT count(*) FROM vals");
  ASSERT_TRUE(after.ok());
  EXPECT_EQ((*after)[0][0], SqlValue(int64_t{1}));
}

TEST_P(DatabaseBackendTest, ASecondWriterBeyondTheBusyTimeoutGetsBusy) {
  auto holder = Open();
  auto waiter = Open(/*busy_timeout_ms=*/200);
  ASSERT_TRUE(holder && waiter);
  CreateValuesTable(*holder);
  ASSERT_TRUE(holder->Begin().ok());
  Status s = waiter->Begin();
  if (s.ok()) s = waiter->Execute("INSERT INTO vals (i) VALUES ($1)", {SqlValue(int64_t{1})});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(waiter->last_error_kind(), DatabaseErrorKind::kBusy) << s.message();
  EXPECT_EQ(ExitCodeFor(waiter->last_error_kind()), kExitDatabaseUnavailable);
  EXPECT_NE(s.message().find(waiter->display_name()), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find('\n'), std::string::npos);
  (void)waiter->Rollback();
  ASSERT_TRUE(holder->Commit().ok());
  // Once the holder is done, the waiter writes.
  ASSERT_TRUE(waiter->Begin().ok());
  ASSERT_TRUE(waiter->Execute("INSERT INTO vals (i) VALUES ($1)", {SqlValue(int64_t{1})}).ok());
  ASSERT_TRUE(waiter->Commit().ok());
}

TEST_P(DatabaseBackendTest, ConcurrentWritersLoseNoRow) {
  {
    auto db = Open();
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->Execute("CREATE TABLE runs (writer BIGINT, n BIGINT)").ok());
  }
  const int writers = GetParam() == BackendName::kSqlite ? 2 : 16;
  const int transactions = GetParam() == BackendName::kSqlite ? 200 : 50;
  std::atomic<int> failures{0};
  std::vector<std::string> messages(writers);
  std::vector<std::thread> threads;
  for (int w = 0; w < writers; ++w) {
    threads.emplace_back([&, w] {
      StatusOr<std::unique_ptr<Database>> db = OpenDatabase(location_, {});
      if (!db.ok()) {
        messages[w] = db.status().message();
        ++failures;
        return;
      }
      for (int n = 0; n < transactions; ++n) {
        DatabaseTransaction tx(**db);
        Status s = tx.begun();
        if (s.ok()) {
          s = (*db)->Execute("INSERT INTO runs (writer, n) VALUES ($1, $2)",
                             {SqlValue(int64_t{w}), SqlValue(int64_t{n})});
        }
        if (s.ok()) s = tx.Commit();
        if (!s.ok()) {
          messages[w] = s.message();
          ++failures;
          return;
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const std::string& m : messages) EXPECT_EQ(m, "");
  EXPECT_EQ(failures.load(), 0);
  auto db = Open();
  ASSERT_TRUE(db);
  StatusOr<SqlRows> rows =
      db->Query("SELECT count(*), count(DISTINCT writer * 100000 + n) FROM runs");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  EXPECT_EQ((*rows)[0][0], SqlValue(int64_t{writers * transactions}));
  EXPECT_EQ((*rows)[0][1], SqlValue(int64_t{writers * transactions}));
}

TEST_P(DatabaseBackendTest, TwentyThousandRowsInOneTransaction) {
  auto db = Open();
  ASSERT_TRUE(db);
  CreateValuesTable(*db);
  auto start = std::chrono::steady_clock::now();
  DatabaseTransaction tx(*db);
  ASSERT_TRUE(tx.begun().ok());
  for (int64_t i = 0; i < 20000; ++i) {
    Status s = db->Execute("INSERT INTO vals (i, r, t) VALUES ($1, $2, $3)",
                           {SqlValue(i), SqlValue(i * 0.5), SqlValue("BM_Something/1024")});
    ASSERT_TRUE(s.ok()) << s.message();
  }
  ASSERT_TRUE(tx.Commit().ok());
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s: 20000 rows of 3 parameters in one transaction: %.3f s\n",
              db->dialect().name.data(), seconds);
  StatusOr<SqlRows> rows = db->Query("SELECT count(*), sum(i) FROM vals");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  EXPECT_EQ((*rows)[0][0], SqlValue(int64_t{20000}));
  EXPECT_EQ((*rows)[0][1], SqlValue(int64_t{19999LL * 20000 / 2}));
}

INSTANTIATE_TEST_SUITE_P(Backends, DatabaseBackendTest,
                         ::testing::Values(BackendName::kSqlite, BackendName::kPostgresql),
                         [](const ::testing::TestParamInfo<BackendName>& param_info) {
                           return std::string(
                               param_info.param == BackendName::kSqlite ? "Sqlite" : "Postgresql");
                         });

TEST(ExitCodeTest, UnavailableDatabasesExitFourBadOnesThree) {
  EXPECT_EQ(ExitCodeFor(DatabaseErrorKind::kUnreachable), 4);
  EXPECT_EQ(ExitCodeFor(DatabaseErrorKind::kAuthentication), 4);
  EXPECT_EQ(ExitCodeFor(DatabaseErrorKind::kBusy), 4);
  EXPECT_EQ(ExitCodeFor(DatabaseErrorKind::kReadOnly), 4);
  EXPECT_EQ(ExitCodeFor(DatabaseErrorKind::kDiskFull), 4);
  EXPECT_EQ(ExitCodeFor(DatabaseErrorKind::kNotADatabase), 3);
  EXPECT_EQ(ExitCodeFor(DatabaseErrorKind::kOther), 3);
}

}  // namespace
}  // namespace benchprof::history
