#include "support/postgres_cluster.h"

#include <fcntl.h>
#include <glob.h>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "support/subprocess.h"

namespace benchprof::testing {
namespace {

// A socket's path must fit sockaddr_un (108 bytes with its NUL).
constexpr size_t kMaxSocketDirectoryLength = 80;

std::string LastLine(const std::string& text) {
  std::string trimmed = text;
  while (!trimmed.empty() && (trimmed.back() == '\n' || trimmed.back() == '\r')) {
    trimmed.pop_back();
  }
  size_t newline = trimmed.find_last_of('\n');
  return newline == std::string::npos ? trimmed : trimmed.substr(newline + 1);
}

std::string OneLine(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  for (char& c : text) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  return text;
}

std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}

std::string PercentEncode(const std::string& text) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string encoded;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == '/') {
      encoded += static_cast<char>(c);
    } else {
      encoded += '%';
      encoded += kHex[c >> 4];
      encoded += kHex[c & 15];
    }
  }
  return encoded;
}

bool IsExecutable(const std::string& path) { return access(path.c_str(), X_OK) == 0; }

// The directory holding initdb, pg_ctl and psql: Debian's newest
// /usr/lib/postgresql/<version>/bin, else the one in PATH.
std::string FindBinDirectory() {
  glob_t found{};
  std::string best;
  int best_version = -1;
  if (glob("/usr/lib/postgresql/*/bin/initdb", 0, nullptr, &found) == 0) {
    for (size_t i = 0; i < found.gl_pathc; ++i) {
      std::string path = found.gl_pathv[i];
      std::string bin = path.substr(0, path.size() - std::strlen("/initdb"));
      std::string version_dir = bin.substr(0, bin.size() - std::strlen("/bin"));
      int version = std::atoi(version_dir.substr(version_dir.find_last_of('/') + 1).c_str());
      if (version > best_version && IsExecutable(bin + "/pg_ctl")) {
        best_version = version;
        best = bin;
      }
    }
  }
  globfree(&found);
  if (!best.empty()) return best;
  const char* path = std::getenv("PATH");
  std::stringstream directories(path ? path : "");
  std::string directory;
  while (std::getline(directories, directory, ':')) {
    if (!directory.empty() && IsExecutable(directory + "/initdb") &&
        IsExecutable(directory + "/pg_ctl")) {
      return directory;
    }
  }
  return "";
}

// True if every directory above `path` lets `uid` pass (o+x or owned).
bool Traversable(const std::string& path, uid_t uid) {
  std::filesystem::path current(path);
  while (current.has_parent_path() && current != current.parent_path()) {
    current = current.parent_path();
    struct stat info;
    if (stat(current.c_str(), &info) != 0) return false;
    if (!(info.st_mode & S_IXOTH) && info.st_uid != uid) return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<PostgresCluster> PostgresCluster::Start(const Options& options,
                                                        std::string* why_not) {
  const auto started = std::chrono::steady_clock::now();
  std::string bin = FindBinDirectory();
  if (bin.empty()) {
    *why_not =
        "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb, no initdb in "
        "PATH; ci/setup-debian installs the postgresql package)";
    return nullptr;
  }

  // PostgreSQL refuses to run as root; Debian's package creates its user.
  std::vector<std::string> as_server_user;
  uid_t server_uid = geteuid();
  gid_t server_gid = getegid();
  if (geteuid() == 0) {
    struct passwd* postgres = getpwnam("postgres");
    if (postgres == nullptr) {
      *why_not = "running as root and there is no `postgres` user to run PostgreSQL as";
      return nullptr;
    }
    server_uid = postgres->pw_uid;
    server_gid = postgres->pw_gid;
    as_server_user = {"/usr/bin/setpriv", "--reuid=" + std::to_string(server_uid),
                      "--regid=" + std::to_string(server_gid), "--init-groups", "--"};
    if (!IsExecutable(as_server_user[0])) {
      *why_not = "running as root and no /usr/bin/setpriv to run PostgreSQL as `postgres`";
      return nullptr;
    }
  }
  if (options.small_tablespace_bytes > 0 && geteuid() != 0) {
    *why_not = "a cluster with a small tablespace mounts a tmpfs: needs root";
    return nullptr;
  }

  const char* tmpdir = std::getenv("TMPDIR");
  std::string base = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
  if (base.size() > kMaxSocketDirectoryLength - 20 || !Traversable(base + "/x", server_uid)) {
    base = "/tmp";
  }
  std::string pattern = base + "/benchprof-pg-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    *why_not = "cannot create a directory under " + base + ": " + std::strerror(errno);
    return nullptr;
  }
  std::unique_ptr<PostgresCluster> cluster(new PostgresCluster());
  cluster->directory_ = pattern;
  cluster->bin_directory_ = bin;
  const std::string& directory = cluster->directory_;
  const std::string data = directory + "/data";
  if (geteuid() == 0 && chown(directory.c_str(), server_uid, server_gid) != 0) {
    *why_not = directory + ": cannot give it to the postgres user: " + std::strerror(errno);
    std::filesystem::remove_all(directory);
    return nullptr;
  }
  auto fail = [&](const std::string& step, const ProcessResult& result) {
    std::string log = ReadFile(directory + "/server.log");
    std::string detail =
        LastLine(result.stderr_text.empty() ? result.stdout_text : result.stderr_text);
    if (!log.empty()) detail += " (server log: " + LastLine(log) + ")";
    *why_not = "cannot start a PostgreSQL cluster: " + step + " failed: " + OneLine(detail);
    // The destructor (below, as `cluster` goes) stops whatever started.
  };

  auto as_server = [&](std::vector<std::string> argv) {
    argv.insert(argv.begin(), as_server_user.begin(), as_server_user.end());
    return argv;
  };
  ProcessResult version = RunProcess({bin + "/pg_ctl", "--version"});
  {
    // "pg_ctl (PostgreSQL) 15.18 (Debian ...)": the major version.
    std::string text = version.stdout_text;
    size_t close = text.find(") ");
    if (close != std::string::npos) {
      std::string number = text.substr(close + 2);
      cluster->version_ = number.substr(0, number.find_first_not_of("0123456789"));
    }
  }

  // The watchdog first, so that a cluster half-started is also removed if
  // this program dies now.
  std::string stop_script = ShellQuote(bin + "/pg_ctl") + " -D " + ShellQuote(data) +
                            " -m immediate -w stop >/dev/null 2>&1";
  if (!as_server_user.empty()) {
    std::string prefix;
    for (const std::string& arg : as_server_user) prefix += ShellQuote(arg) + " ";
    stop_script = prefix + stop_script;
  }
  stop_script = "if [ -f " + ShellQuote(data + "/postmaster.pid") + " ]; then " + stop_script +
                "; fi; rm -rf " + ShellQuote(directory);
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    *why_not = std::string("cannot create a pipe: ") + std::strerror(errno);
    std::filesystem::remove_all(directory);
    return nullptr;
  }
  const char* shell_argv[] = {"/bin/sh", "-c", stop_script.c_str(), nullptr};
  // Not the test's output: a test runner waits for its end of that pipe.
  int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  pid_t watchdog = fork();
  if (watchdog == 0) {
    // Only async-signal-safe calls until exec: the test may have threads.
    // It keeps only the pipe's reading end (as its stdin): a copy of
    // another cluster's writing end would keep that watchdog waiting.
    dup2(pipe_fds[0], STDIN_FILENO);
    if (null_fd >= 0) {
      dup2(null_fd, STDOUT_FILENO);
      dup2(null_fd, STDERR_FILENO);
    }
    close_range(3, ~0U, 0);
    setsid();  // out of the test's process group, which a timeout may kill
    char byte;
    while (read(STDIN_FILENO, &byte, 1) < 0 && errno == EINTR) {
    }
    execv(shell_argv[0], const_cast<char**>(shell_argv));
    _exit(127);
  }
  close(pipe_fds[0]);
  if (null_fd >= 0) close(null_fd);
  if (watchdog < 0) {
    close(pipe_fds[1]);
    *why_not = std::string("cannot fork: ") + std::strerror(errno);
    std::filesystem::remove_all(directory);
    return nullptr;
  }
  cluster->watchdog_ = watchdog;
  cluster->watchdog_pipe_ = pipe_fds[1];

  ProcessResult initdb =
      RunProcess(as_server({bin + "/initdb", "-D", data, "--no-sync", "-U", superuser(), "-A",
                            "trust", "-E", "UTF8", "--locale=C"}),
                 {}, directory);
  if (initdb.exit_code != 0) {
    fail("initdb", initdb);
    return nullptr;
  }
  {
    std::ofstream conf(data + "/postgresql.conf", std::ios::app);
    conf << "\n# benchprof's throwaway test cluster: a socket in its directory, no TCP,\n"
         << "# no durability (the cluster is gone after the test)\n"
         << "listen_addresses = ''\n"
         << "unix_socket_directories = '" << directory << "'\n"
         << "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
         << "shared_buffers = 32MB\nmax_connections = 60\n";
    std::ofstream hba(data + "/pg_hba.conf", std::ios::trunc);
    hba << "# Members of benchprof_password_login (CreatePasswordRole) need their password.\n"
        << "local all +benchprof_password_login scram-sha-256\n"
        << "local all all trust\n";
    if (!conf || !hba) {
      *why_not = "cannot write the configuration in " + data;
      return nullptr;
    }
  }

  std::vector<std::string> start = as_server(
      {bin + "/pg_ctl", "-D", data, "-l", directory + "/server.log", "-w", "-t", "60", "start"});
  if (options.small_tablespace_bytes > 0) {
    const std::string small = cluster->small_tablespace_directory();
    if (mkdir(small.c_str(), 0700) != 0 || chown(small.c_str(), server_uid, server_gid) != 0) {
      *why_not = small + ": " + std::strerror(errno);
      return nullptr;
    }
    std::string command;
    for (const std::string& arg : start) command += ShellQuote(arg) + " ";
    start = {"/usr/bin/unshare",
             "--mount",
             "--propagation",
             "private",
             "/bin/sh",
             "-c",
             "mount -t tmpfs -o size=" + std::to_string(options.small_tablespace_bytes) +
                 ",mode=0700,uid=" + std::to_string(server_uid) +
                 ",gid=" + std::to_string(server_gid) + " tmpfs " + ShellQuote(small) +
                 " && exec " + command};
  }
  ProcessResult started_server = RunProcess(start, {}, directory);
  if (started_server.exit_code != 0) {
    fail("pg_ctl start", started_server);
    return nullptr;
  }
  if (options.small_tablespace_bytes > 0) {
    Status s = cluster->RunSql("CREATE TABLESPACE small LOCATION '" +
                               cluster->small_tablespace_directory() + "'");
    if (!s.ok()) {
      *why_not = "cannot create the small tablespace: " + s.message();
      return nullptr;
    }
  }
  cluster->start_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return cluster;
}

PostgresCluster::~PostgresCluster() {
  if (watchdog_pipe_ >= 0) close(watchdog_pipe_);  // the watchdog stops and removes it
  if (watchdog_ > 0) {
    int status;
    while (waitpid(watchdog_, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

std::string PostgresCluster::Url(const std::string& database, const std::string& user,
                                 const std::string& password) const {
  std::string url = "postgresql:///" + PercentEncode(database) +
                    "?host=" + PercentEncode(directory_) +
                    "&user=" + PercentEncode(user.empty() ? superuser() : user);
  if (!password.empty()) url += "&password=" + PercentEncode(password);
  return url;
}

Status PostgresCluster::RunSql(const std::string& sql, const std::string& database) const {
  ProcessResult result = RunProcess({bin_directory_ + "/psql", "-X", "-q", "-v", "ON_ERROR_STOP=1",
                                     "-d", Url(database), "-c", sql});
  if (result.exit_code != 0) {
    return Status::Error("psql -c " + sql + ": " + OneLine(result.stderr_text));
  }
  return Status();
}

Status PostgresCluster::CreateDatabase(const std::string& name) const {
  return RunSql("CREATE DATABASE " + name);
}

Status PostgresCluster::CreatePasswordRole(const std::string& role,
                                           const std::string& password) const {
  std::string quoted_password = "'";
  for (char c : password) quoted_password += c == '\'' ? std::string("''") : std::string(1, c);
  quoted_password += "'";
  if (Status s = RunSql(
          "DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = "
          "'benchprof_password_login') THEN CREATE ROLE benchprof_password_login NOLOGIN; END IF; "
          "END $$");
      !s.ok()) {
    return s;
  }
  return RunSql("CREATE ROLE " + role + " LOGIN PASSWORD " + quoted_password +
                " IN ROLE benchprof_password_login");
}

bool PostgresRequired() {
  const char* required = std::getenv("BENCHPROF_REQUIRE_POSTGRES");
  return required != nullptr && *required != '\0';
}

PostgresCluster* SharedPostgresCluster(std::string* why_not) {
  static bool tried = false;
  static std::unique_ptr<PostgresCluster> cluster;
  static std::string reason;
  if (!tried) {
    tried = true;
    cluster = PostgresCluster::Start({}, &reason);
    if (cluster) {
      std::printf("postgres_cluster: PostgreSQL %s cluster started in %.2f s in %s\n",
                  cluster->version().c_str(), cluster->start_seconds(),
                  cluster->socket_directory().c_str());
      std::fflush(stdout);
    }
  }
  if (!cluster) *why_not = reason;
  return cluster.get();
}

}  // namespace benchprof::testing
