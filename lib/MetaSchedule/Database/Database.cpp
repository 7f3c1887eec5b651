//===- Database.cpp - workloads, tuning records, queries ------------------===//

#include "TensorIR/MetaSchedule/Database.h"
#include "TensorIR/Dialect/TIR/IR/ThreadDiagnostics.h"
#include "TensorIR/MetaSchedule/SpaceGenerator.h"

#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::ms;

//===----------------------------------------------------------------------===//
// Workload
//===----------------------------------------------------------------------===//

llvm::json::Value Workload::toJSON() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  mod.get()->print(os);
  return llvm::json::Array{std::to_string(shash), std::move(text)};
}

FailureOr<WorkloadRef> Workload::fromJSON(MLIRContext *ctx,
                                          const llvm::json::Value &json,
                                          std::string &error) {
  const llvm::json::Array *array = json.getAsArray();
  std::optional<StringRef> hash, text;
  if (array && array->size() == 2) {
    hash = (*array)[0].getAsString();
    text = (*array)[1].getAsString();
  }
  if (!hash || !text) {
    error = "a workload is [\"<structural hash>\", \"<module text>\"]";
    return failure();
  }
  auto workload = std::make_shared<Workload>();
  if (hash->getAsInteger(10, workload->shash)) {
    error = "a workload's hash is a decimal integer, got '" + hash->str() + "'";
    return failure();
  }
  std::string diagnostics;
  {
    ThreadDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      diagnostics += diag.str() + "\n";
      return success();
    });
    workload->mod = parseSourceString<ModuleOp>(*text, ctx);
  }
  if (!workload->mod) {
    error = "a workload's module does not parse: " + diagnostics;
    return failure();
  }
  return workload;
}

//===----------------------------------------------------------------------===//
// TuningRecord
//===----------------------------------------------------------------------===//

double TuningRecord::getMeanRunSecs() const {
  if (!runSecs || runSecs->empty())
    return kMaxMeanTime;
  double sum = 0;
  for (double t : *runSecs)
    sum += t;
  return sum / static_cast<double>(runSecs->size());
}

bool TuningRecord::isValid() const {
  if (trace.countUpToPostproc(/*removePostproc=*/true) == 0)
    return false;
  return runSecs &&
         llvm::any_of(*runSecs, [](double t) { return t != kMaxMeanTime; });
}

FailureOr<llvm::json::Value> TuningRecord::toJSON(std::string &error) const {
  FailureOr<std::string> traceText = trace.asJSON(false, error);
  if (failed(traceText))
    return failure();
  llvm::Expected<llvm::json::Value> traceJSON = llvm::json::parse(*traceText);
  if (!traceJSON) {
    error = "internal error: a trace's JSON does not parse: " +
            llvm::toString(traceJSON.takeError());
    return failure();
  }
  llvm::json::Value times = nullptr;
  if (runSecs)
    times = llvm::json::Array(*runSecs);
  llvm::json::Value args = nullptr;
  if (argsInfo) {
    llvm::json::Array list;
    for (const TensorInfo &info : *argsInfo)
      list.push_back(info.toJSON());
    args = std::move(list);
  }
  return llvm::json::Value(llvm::json::Array{
      std::move(*traceJSON), std::move(times),
      target ? target->toJSON() : llvm::json::Value(nullptr), std::move(args)});
}

FailureOr<TuningRecord> TuningRecord::fromJSON(MLIRContext *ctx,
                                               const llvm::json::Value &json,
                                               WorkloadRef workload,
                                               std::string &error) {
  const llvm::json::Array *array = json.getAsArray();
  if (!array || array->size() != 4) {
    error = "a tuning record is [trace, run_secs, target, args_info]";
    return failure();
  }
  TuningRecord record;
  record.workload = std::move(workload);
  std::string traceText;
  llvm::raw_string_ostream(traceText) << (*array)[0];
  FailureOr<Trace> trace = Trace::fromJSON(ctx, traceText, error);
  if (failed(trace)) {
    error = "the record's trace: " + error;
    return failure();
  }
  record.trace = std::move(*trace);
  if ((*array)[1].kind() != llvm::json::Value::Null) {
    const llvm::json::Array *times = (*array)[1].getAsArray();
    if (!times) {
      error = "a record's run_secs is a list of numbers or null";
      return failure();
    }
    record.runSecs.emplace();
    for (const llvm::json::Value &time : *times) {
      std::optional<double> seconds = time.getAsNumber();
      if (!seconds) {
        error = "a record's run_secs is a list of numbers or null";
        return failure();
      }
      record.runSecs->push_back(*seconds);
    }
  }
  if ((*array)[2].kind() != llvm::json::Value::Null) {
    FailureOr<Target> target = Target::fromJSON((*array)[2], error);
    if (failed(target))
      return failure();
    record.target = std::move(*target);
  }
  if ((*array)[3].kind() != llvm::json::Value::Null) {
    const llvm::json::Array *args = (*array)[3].getAsArray();
    if (!args) {
      error = "a record's args_info is a list or null";
      return failure();
    }
    record.argsInfo.emplace();
    for (const llvm::json::Value &arg : *args) {
      FailureOr<TensorInfo> info = TensorInfo::fromJSON(arg, error);
      if (failed(info))
        return failure();
      record.argsInfo->push_back(std::move(*info));
    }
  }
  return record;
}

FailureOr<Schedule> TuningRecord::createSchedule(std::string &error) const {
  FailureOr<Schedule> sch = createTracedSchedule(*workload->mod, -1, error);
  if (failed(sch))
    return failure();
  if (failed(
          (*sch)->applyTrace(trace, /*removePostproc=*/false, nullptr, error)))
    return failure();
  return sch;
}

FailureOr<OwningOpRef<ModuleOp>>
TuningRecord::createTransformScript(std::string &error) const {
  MLIRContext *ctx = workload->mod.get()->getContext();
  FailureOr<OwningOpRef<ModuleOp>> script =
      trace.render(ctx, /*removePostproc=*/false, error);
  if (failed(script))
    return failure();
  // The trace must apply to the workload: a record that does not is
  // refused here rather than written as a script tir-opt rejects.
  FailureOr<Schedule> applied = createSchedule(error);
  if (failed(applied))
    return failure();
  OwningOpRef<ModuleOp> out(workload->mod.get().clone());
  out->getBody()->push_back(script->release());
  return out;
}

//===----------------------------------------------------------------------===//
// Database
//===----------------------------------------------------------------------===//

Database::~Database() = default;

FailureOr<std::optional<TuningRecord>>
Database::queryTuningRecord(ModuleOp mod, const std::optional<Target> &,
                            StringRef, std::string &error) {
  FailureOr<bool> has = hasWorkload(mod, error);
  if (failed(has))
    return failure();
  if (!*has)
    return std::optional<TuningRecord>();
  FailureOr<WorkloadRef> workload = commitWorkload(mod, error);
  if (failed(workload))
    return failure();
  FailureOr<std::vector<TuningRecord>> top = getTopK(*workload, 1, error);
  if (failed(top))
    return failure();
  if (top->empty())
    return std::optional<TuningRecord>();
  return std::optional<TuningRecord>(std::move(top->front()));
}

FailureOr<Schedule> Database::querySchedule(ModuleOp mod,
                                            const std::optional<Target> &target,
                                            StringRef workloadName,
                                            std::string &error) {
  FailureOr<std::optional<TuningRecord>> record =
      queryTuningRecord(mod, target, workloadName, error);
  if (failed(record))
    return failure();
  if (!*record)
    return Schedule();
  return (*record)->createSchedule(error);
}

FailureOr<OwningOpRef<ModuleOp>>
Database::queryIRModule(ModuleOp mod, const std::optional<Target> &target,
                        StringRef workloadName, std::string &error) {
  FailureOr<Schedule> sch = querySchedule(mod, target, workloadName, error);
  if (failed(sch))
    return failure();
  if (!*sch)
    return OwningOpRef<ModuleOp>();
  return OwningOpRef<ModuleOp>((*sch)->getPayload().clone());
}

/// The best valid record of each workload of `records`, workloads in the
/// order their first record came.
static std::vector<const TuningRecord *>
bestPerWorkload(const std::vector<TuningRecord> &records) {
  std::vector<const Workload *> order;
  std::map<const Workload *, const TuningRecord *> best;
  for (const TuningRecord &record : records) {
    if (!record.isValid())
      continue;
    auto [it, inserted] = best.emplace(record.workload.get(), &record);
    if (inserted)
      order.push_back(record.workload.get());
    else if (record.getMeanRunSecs() < it->second->getMeanRunSecs())
      it->second = &record;
  }
  std::vector<const TuningRecord *> out;
  for (const Workload *workload : order)
    out.push_back(best[workload]);
  return out;
}

LogicalResult Database::dumpPruned(Database &destination, std::string &error) {
  FailureOr<std::vector<TuningRecord>> all = getAllTuningRecords(error);
  if (failed(all))
    return failure();
  for (const TuningRecord *best : bestPerWorkload(*all)) {
    const TuningRecord &record = *best;
    FailureOr<WorkloadRef> committed =
        destination.commitWorkload(*record.workload->mod, error);
    if (failed(committed))
      return failure();
    TuningRecord copy = record;
    copy.workload = *committed;
    if (failed(destination.commitTuningRecord(copy, error)))
      return failure();
  }
  return success();
}

FailureOr<std::vector<std::string>>
Database::exportTransformScripts(StringRef directory, std::string &error) {
  FailureOr<std::vector<TuningRecord>> all = getAllTuningRecords(error);
  if (failed(all))
    return failure();
  if (std::error_code ec = llvm::sys::fs::create_directories(directory)) {
    error = ("cannot create '" + directory + "': " + ec.message()).str();
    return failure();
  }
  std::vector<std::string> paths;
  for (auto [index, record] : llvm::enumerate(bestPerWorkload(*all))) {
    FailureOr<OwningOpRef<ModuleOp>> script =
        record->createTransformScript(error);
    if (failed(script))
      return failure();
    FunctionOpInterface entry = getEntryFunction(*record->workload->mod);
    SmallString<128> path(directory);
    llvm::sys::path::append(
        path, std::to_string(index) + "_" +
                  (entry ? entry.getName() : "module").str() + ".mlir");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec) {
      error = ("cannot write '" + path + "': " + ec.message()).str();
      return failure();
    }
    os << "// The best schedule MetaSchedule recorded (mean run time "
       << llvm::format("%.6g", record->getMeanRunSecs())
       << " s): tir-opt --transform-interpreter applies it.\n";
    script->get()->print(os);
    paths.push_back(std::string(path));
  }
  return paths;
}

static std::vector<std::shared_ptr<Database>> &currentDatabases() {
  static thread_local std::vector<std::shared_ptr<Database>> stack;
  return stack;
}

void Database::enter(std::shared_ptr<Database> database) {
  currentDatabases().push_back(std::move(database));
}

void Database::exit() {
  if (!currentDatabases().empty())
    currentDatabases().pop_back();
}

std::shared_ptr<Database> Database::current() {
  return currentDatabases().empty() ? nullptr : currentDatabases().back();
}
