//===- Database.h - what tuning measured ------------------------*- C++ -*-===//
//
// TVM's MetaSchedule database: workloads (the modules tuned, found again
// by module equality) and tuning records (a trace that schedules the
// workload, its measured run times, the target and the arguments). The
// best record of a workload is what compiling with a database applies.
//
//  - MemoryDatabase: records in memory.
//  - JSONDatabase: TVM's two files, one JSON value per line: the workloads
//    (`["<hash>", "<the module as MLIR text>"]`) and the records
//    (`[<workload index>, [<trace as TVM's JSON>, <run secs>, <target>,
//    <args info>]]`); lines are appended as they are committed, so an
//    interrupted tuning leaves a database it resumes from.
//  - UnionDatabase / OrderedUnionDatabase: queries over several databases
//    (the best record of all, or of the first that has one).
//  - FunctionDatabase: one given as functions (TVM's PyDatabase).
//
//===----------------------------------------------------------------------===//

#ifndef TENSORIR_METASCHEDULE_DATABASE_H
#define TENSORIR_METASCHEDULE_DATABASE_H

#include "TensorIR/MetaSchedule/ArgInfo.h"
#include "TensorIR/MetaSchedule/ModuleEquality.h"
#include "TensorIR/MetaSchedule/ScheduleRule.h"
#include "TensorIR/MetaSchedule/Target.h"

#include <set>

namespace mlir::tir::ms {

/// A module tuned, with its hash under the database's module equality.
struct Workload {
  OwningOpRef<ModuleOp> mod;
  uint64_t shash = 0;

  /// `["<shash>", "<module text>"]`.
  llvm::json::Value toJSON() const;
  /// The workload `json` describes, its module parsed in `ctx`.
  static FailureOr<std::shared_ptr<Workload>>
  fromJSON(MLIRContext *ctx, const llvm::json::Value &json, std::string &error);
};
using WorkloadRef = std::shared_ptr<Workload>;

/// A measured (or to be measured) schedule of a workload.
struct TuningRecord {
  Trace trace;
  WorkloadRef workload;
  std::optional<std::vector<double>> runSecs;
  std::optional<Target> target;
  std::optional<std::vector<TensorInfo>> argsInfo;

  /// The stand-in for a time not measured (TVM's kMaxMeanTime).
  static constexpr double kMaxMeanTime = 1e10;
  /// The mean of the run times (kMaxMeanTime for none).
  double getMeanRunSecs() const;
  /// TVM's IsValid: the trace has steps before postprocessing and one run
  /// time at least was measured.
  bool isValid() const;

  /// `[trace, run_secs, target, args_info]`, TVM's layout (null for what
  /// is not known).
  FailureOr<llvm::json::Value> toJSON(std::string &error) const;
  static FailureOr<TuningRecord> fromJSON(MLIRContext *ctx,
                                          const llvm::json::Value &json,
                                          WorkloadRef workload,
                                          std::string &error);
  /// A schedule of the workload with the trace applied (TVM's
  /// AsMeasureCandidate's schedule); fails where the trace does not apply.
  FailureOr<Schedule> createSchedule(std::string &error) const;
  /// The workload's module with the trace as a transform script beside it
  /// (decisions included): `tir-opt --transform-interpreter` on it gives
  /// the scheduled module, with no Python.
  FailureOr<OwningOpRef<ModuleOp>>
  createTransformScript(std::string &error) const;
};

class Database {
public:
  explicit Database(ModuleEquality equality) : equality(equality) {}
  virtual ~Database();

  virtual FailureOr<bool> hasWorkload(ModuleOp mod, std::string &error) = 0;
  /// The workload of `mod` (an equal module's, else a new one).
  virtual FailureOr<WorkloadRef> commitWorkload(ModuleOp mod,
                                                std::string &error) = 0;
  virtual LogicalResult commitTuningRecord(const TuningRecord &record,
                                           std::string &error) = 0;
  /// The `k` valid records of `workload` of least mean run time, best
  /// first.
  virtual FailureOr<std::vector<TuningRecord>>
  getTopK(const WorkloadRef &workload, int64_t k, std::string &error) = 0;
  virtual FailureOr<std::vector<TuningRecord>>
  getAllTuningRecords(std::string &error) = 0;
  virtual FailureOr<int64_t> size(std::string &error) = 0;

  /// The best record of a module equal to `mod` (std::nullopt: none).
  virtual FailureOr<std::optional<TuningRecord>>
  queryTuningRecord(ModuleOp mod, const std::optional<Target> &target,
                    StringRef workloadName, std::string &error);
  /// The best record's schedule (null: none).
  virtual FailureOr<Schedule> querySchedule(ModuleOp mod,
                                            const std::optional<Target> &target,
                                            StringRef workloadName,
                                            std::string &error);
  /// The best record's module (null: none).
  virtual FailureOr<OwningOpRef<ModuleOp>>
  queryIRModule(ModuleOp mod, const std::optional<Target> &target,
                StringRef workloadName, std::string &error);

  /// TVM's DumpPruned: the best valid record of each workload, committed
  /// to `destination`.
  LogicalResult dumpPruned(Database &destination, std::string &error);
  /// Beyond TVM: the best valid record of each workload written to
  /// `directory` as `<n>_<function>.mlir`, the workload's module with the
  /// record's transform script (createTransformScript); the paths written.
  FailureOr<std::vector<std::string>>
  exportTransformScripts(StringRef directory, std::string &error);

  ModuleEquality getModuleEquality() const { return equality; }

  /// TVM's `with database:`: the databases entered on this thread, the
  /// last one current (null: none).
  static void enter(std::shared_ptr<Database> database);
  static void exit();
  static std::shared_ptr<Database> current();

protected:
  ModuleEquality equality;
};

/// Records in memory, in the order committed.
class MemoryDatabase : public Database {
public:
  using Database::Database;
  FailureOr<bool> hasWorkload(ModuleOp mod, std::string &error) override;
  FailureOr<WorkloadRef> commitWorkload(ModuleOp mod,
                                        std::string &error) override;
  LogicalResult commitTuningRecord(const TuningRecord &record,
                                   std::string &error) override;
  FailureOr<std::vector<TuningRecord>>
  getTopK(const WorkloadRef &workload, int64_t k, std::string &error) override;
  FailureOr<std::vector<TuningRecord>>
  getAllTuningRecords(std::string &error) override;
  FailureOr<int64_t> size(std::string &error) override;

  const std::vector<WorkloadRef> &getWorkloads() const { return workloads; }

private:
  WorkloadRef findWorkload(ModuleOp mod, uint64_t shash) const;
  std::vector<WorkloadRef> workloads;
  std::vector<TuningRecord> records;
};

/// TVM's JSON database: two files of one JSON value per line.
class JSONDatabase : public Database {
public:
  /// Loads the two files (creating them when missing and
  /// `allowMissing`); fails naming the file and line of what does not
  /// parse.
  static FailureOr<std::shared_ptr<JSONDatabase>>
  open(MLIRContext *ctx, StringRef pathWorkload, StringRef pathTuningRecord,
       bool allowMissing, ModuleEquality equality, std::string &error);

  FailureOr<bool> hasWorkload(ModuleOp mod, std::string &error) override;
  FailureOr<WorkloadRef> commitWorkload(ModuleOp mod,
                                        std::string &error) override;
  LogicalResult commitTuningRecord(const TuningRecord &record,
                                   std::string &error) override;
  FailureOr<std::vector<TuningRecord>>
  getTopK(const WorkloadRef &workload, int64_t k, std::string &error) override;
  FailureOr<std::vector<TuningRecord>>
  getAllTuningRecords(std::string &error) override;
  FailureOr<int64_t> size(std::string &error) override;

  StringRef getPathWorkload() const { return pathWorkload; }
  StringRef getPathTuningRecord() const { return pathTuningRecord; }

private:
  using Database::Database;
  /// The index of the workload of `mod` (-1: none).
  int64_t findWorkload(ModuleOp mod, uint64_t shash) const;
  struct ByMeanRunSecs {
    bool operator()(const TuningRecord &a, const TuningRecord &b) const {
      return a.getMeanRunSecs() < b.getMeanRunSecs();
    }
  };
  std::string pathWorkload, pathTuningRecord;
  std::vector<WorkloadRef> workloads;
  std::unordered_multimap<uint64_t, size_t> workloadsByHash;
  std::multiset<TuningRecord, ByMeanRunSecs> records;
};

/// Queries the best record of all the databases (TVM's UnionDatabase);
/// they are not written through it.
class UnionDatabase : public Database {
public:
  /// With `ordered`, a query takes the first database that has a record
  /// (TVM's OrderedUnionDatabase).
  UnionDatabase(std::vector<std::shared_ptr<Database>> databases, bool ordered)
      : Database(ModuleEquality::Structural), databases(std::move(databases)),
        ordered(ordered) {}

  FailureOr<bool> hasWorkload(ModuleOp mod, std::string &error) override;
  FailureOr<WorkloadRef> commitWorkload(ModuleOp mod,
                                        std::string &error) override;
  LogicalResult commitTuningRecord(const TuningRecord &record,
                                   std::string &error) override;
  FailureOr<std::vector<TuningRecord>>
  getTopK(const WorkloadRef &workload, int64_t k, std::string &error) override;
  FailureOr<std::vector<TuningRecord>>
  getAllTuningRecords(std::string &error) override;
  FailureOr<int64_t> size(std::string &error) override;
  FailureOr<std::optional<TuningRecord>>
  queryTuningRecord(ModuleOp mod, const std::optional<Target> &target,
                    StringRef workloadName, std::string &error) override;

  const std::vector<std::shared_ptr<Database>> &getDatabases() const {
    return databases;
  }

private:
  std::string unsupported(StringRef method) const;
  std::vector<std::shared_ptr<Database>> databases;
  bool ordered;
};

/// A database given as functions (TVM's PyDatabase); a query function not
/// given falls back to the one every database has.
class FunctionDatabase : public Database {
public:
  using Database::Database;
  std::string name = "PyDatabase";
  std::function<FailureOr<bool>(ModuleOp, std::string &)> hasWorkloadFn;
  std::function<FailureOr<WorkloadRef>(ModuleOp, std::string &)>
      commitWorkloadFn;
  std::function<LogicalResult(const TuningRecord &, std::string &)>
      commitTuningRecordFn;
  std::function<FailureOr<std::vector<TuningRecord>>(const WorkloadRef &,
                                                     int64_t, std::string &)>
      getTopKFn;
  std::function<FailureOr<std::vector<TuningRecord>>(std::string &)>
      getAllTuningRecordsFn;
  std::function<FailureOr<int64_t>(std::string &)> sizeFn;
  std::function<FailureOr<std::optional<TuningRecord>>(
      ModuleOp, const std::optional<Target> &, StringRef, std::string &)>
      queryTuningRecordFn;
  std::function<FailureOr<Schedule>(ModuleOp, const std::optional<Target> &,
                                    StringRef, std::string &)>
      queryScheduleFn;
  std::function<FailureOr<OwningOpRef<ModuleOp>>(
      ModuleOp, const std::optional<Target> &, StringRef, std::string &)>
      queryIRModuleFn;

  FailureOr<bool> hasWorkload(ModuleOp mod, std::string &error) override;
  FailureOr<WorkloadRef> commitWorkload(ModuleOp mod,
                                        std::string &error) override;
  LogicalResult commitTuningRecord(const TuningRecord &record,
                                   std::string &error) override;
  FailureOr<std::vector<TuningRecord>>
  getTopK(const WorkloadRef &workload, int64_t k, std::string &error) override;
  FailureOr<std::vector<TuningRecord>>
  getAllTuningRecords(std::string &error) override;
  FailureOr<int64_t> size(std::string &error) override;
  FailureOr<std::optional<TuningRecord>>
  queryTuningRecord(ModuleOp mod, const std::optional<Target> &target,
                    StringRef workloadName, std::string &error) override;
  FailureOr<Schedule> querySchedule(ModuleOp mod,
                                    const std::optional<Target> &target,
                                    StringRef workloadName,
                                    std::string &error) override;
  FailureOr<OwningOpRef<ModuleOp>>
  queryIRModule(ModuleOp mod, const std::optional<Target> &target,
                StringRef workloadName, std::string &error) override;
};

} // namespace mlir::tir::ms

#endif // TENSORIR_METASCHEDULE_DATABASE_H
