//===- JSONDatabase.cpp - TVM's two files of JSON lines -------------------===//

#include "TensorIR/MetaSchedule/Database.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

namespace {

/// The JSON values of the lines of `path` (blank lines skipped); a missing
/// file is created when `allowMissing`.
FailureOr<std::vector<llvm::json::Value>>
readLines(StringRef path, bool allowMissing, std::string &error) {
  if (!llvm::sys::fs::exists(path)) {
    if (!allowMissing) {
      error = ("the database file '" + path + "' does not exist").str();
      return failure();
    }
    std::error_code ec;
    llvm::raw_fd_ostream create(path, ec, llvm::sys::fs::OF_Append);
    if (ec) {
      error =
          ("cannot create the database file '" + path + "': " + ec.message())
              .str();
      return failure();
    }
    return std::vector<llvm::json::Value>();
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    error = ("cannot read the database file '" + path +
             "': " + buffer.getError().message())
                .str();
    return failure();
  }
  std::vector<llvm::json::Value> values;
  StringRef rest = (*buffer)->getBuffer();
  for (unsigned line = 1; !rest.empty(); ++line) {
    auto [text, next] = rest.split('\n');
    rest = next;
    if (text.trim().empty())
      continue;
    llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
    if (!value) {
      error = ("line " + Twine(line) + " of the database file '" + path +
               "' is not JSON: " + llvm::toString(value.takeError()))
                  .str();
      return failure();
    }
    values.push_back(std::move(*value));
  }
  return values;
}

/// Appends `value` to `path` as one line.
LogicalResult appendLine(StringRef path, const llvm::json::Value &value,
                         std::string &error) {
  std::string line;
  llvm::raw_string_ostream(line) << value << "\n";
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec,
                          llvm::sys::fs::OF_Append | llvm::sys::fs::OF_Text);
  if (ec) {
    error = ("cannot write the database file '" + path + "': " + ec.message())
                .str();
    return failure();
  }
  os << line;
  os.flush();
  if (os.has_error()) {
    error = ("cannot write the database file '" + path +
             "': " + os.error().message())
                .str();
    os.clear_error();
    return failure();
  }
  return success();
}

} // namespace

FailureOr<std::shared_ptr<JSONDatabase>>
JSONDatabase::open(MLIRContext *ctx, StringRef pathWorkload,
                   StringRef pathTuningRecord, bool allowMissing,
                   ModuleEquality equality, std::string &error) {
  std::shared_ptr<JSONDatabase> db(new JSONDatabase(equality));
  db->pathWorkload = pathWorkload.str();
  db->pathTuningRecord = pathTuningRecord.str();
  FailureOr<std::vector<llvm::json::Value>> workloadLines =
      readLines(pathWorkload, allowMissing, error);
  if (failed(workloadLines))
    return failure();
  for (auto [index, json] : llvm::enumerate(*workloadLines)) {
    FailureOr<WorkloadRef> workload = Workload::fromJSON(ctx, json, error);
    if (failed(workload)) {
      error =
          ("workload " + Twine(index) + " of '" + pathWorkload + "': " + error)
              .str();
      return failure();
    }
    // The hash is the one this database's equality gives (a file written
    // with another equality, or by another version, is rehashed).
    (*workload)->shash = hashModule(*(*workload)->mod, equality);
    db->workloadsByHash.emplace((*workload)->shash, db->workloads.size());
    db->workloads.push_back(*workload);
  }
  FailureOr<std::vector<llvm::json::Value>> recordLines =
      readLines(pathTuningRecord, allowMissing, error);
  if (failed(recordLines))
    return failure();
  for (size_t index = 0; index < recordLines->size(); ++index) {
    const llvm::json::Value &json = (*recordLines)[index];
    auto fail = [&](const std::string &what) {
      error = ("tuning record " + Twine(index + 1) + " of '" +
               pathTuningRecord + "': " + what)
                  .str();
      return failure();
    };
    const llvm::json::Array *pair = json.getAsArray();
    std::optional<int64_t> workloadIndex;
    if (pair && pair->size() == 2)
      workloadIndex = (*pair)[0].getAsInteger();
    if (!workloadIndex)
      return fail("a line is [<workload index>, <record>]");
    if (*workloadIndex < 0 ||
        static_cast<size_t>(*workloadIndex) >= db->workloads.size())
      return fail("workload index " + std::to_string(*workloadIndex) +
                  " is not one of the " + std::to_string(db->workloads.size()) +
                  " workloads");
    FailureOr<TuningRecord> record = TuningRecord::fromJSON(
        ctx, (*pair)[1], db->workloads[*workloadIndex], error);
    if (failed(record))
      return fail(error);
    db->records.insert(std::move(*record));
  }
  return db;
}

int64_t JSONDatabase::findWorkload(ModuleOp mod, uint64_t shash) const {
  auto [begin, end] = workloadsByHash.equal_range(shash);
  for (auto it = begin; it != end; ++it)
    if (equalModules(*workloads[it->second]->mod, mod, equality))
      return static_cast<int64_t>(it->second);
  return -1;
}

FailureOr<bool> JSONDatabase::hasWorkload(ModuleOp mod, std::string &) {
  return findWorkload(mod, hashModule(mod, equality)) >= 0;
}

FailureOr<WorkloadRef> JSONDatabase::commitWorkload(ModuleOp mod,
                                                    std::string &error) {
  uint64_t shash = hashModule(mod, equality);
  int64_t index = findWorkload(mod, shash);
  if (index >= 0)
    return workloads[index];
  auto workload = std::make_shared<Workload>();
  workload->mod = mod.clone();
  workload->shash = shash;
  if (failed(appendLine(pathWorkload, workload->toJSON(), error)))
    return failure();
  workloadsByHash.emplace(shash, workloads.size());
  workloads.push_back(workload);
  return workload;
}

LogicalResult JSONDatabase::commitTuningRecord(const TuningRecord &record,
                                               std::string &error) {
  auto it = llvm::find(workloads, record.workload);
  if (it == workloads.end()) {
    error = "the tuning record's workload was not committed to this "
            "database (commit_workload gives the database's workload)";
    return failure();
  }
  FailureOr<llvm::json::Value> json = record.toJSON(error);
  if (failed(json))
    return failure();
  llvm::json::Value line = llvm::json::Array{
      static_cast<int64_t>(it - workloads.begin()), std::move(*json)};
  if (failed(appendLine(pathTuningRecord, line, error)))
    return failure();
  records.insert(record);
  return success();
}

FailureOr<std::vector<TuningRecord>>
JSONDatabase::getTopK(const WorkloadRef &workload, int64_t k,
                      std::string &error) {
  if (k < 0) {
    error = "top_k must be non-negative, got " + std::to_string(k);
    return failure();
  }
  std::vector<TuningRecord> found;
  if (k == 0)
    return found;
  for (const TuningRecord &record : records) {
    if (!record.isValid())
      continue;
    if (record.workload == workload ||
        (record.workload->shash == workload->shash &&
         equalModules(*record.workload->mod, *workload->mod, equality))) {
      found.push_back(record);
      if (found.size() == static_cast<size_t>(k))
        break;
    }
  }
  return found;
}

FailureOr<std::vector<TuningRecord>>
JSONDatabase::getAllTuningRecords(std::string &) {
  return std::vector<TuningRecord>(records.begin(), records.end());
}

FailureOr<int64_t> JSONDatabase::size(std::string &) {
  return static_cast<int64_t>(records.size());
}
