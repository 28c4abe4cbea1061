import Foundation

/// `--shard auto`: the slice index and count from the environment job systems give each task,
/// so one command line serves every task of an array job (docs/CARENDER.md, "Render farms"):
/// - Kubernetes Indexed Job: `JOB_COMPLETION_INDEX` (0-based); the count is not in the pod's
///   environment, so it comes from `--shard-count` or `CARENDER_SHARD_COUNT` (set it to the
///   Job's `completions`).
/// - Slurm job array: `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT`, or
///   `SLURM_ARRAY_TASK_MIN`/`SLURM_ARRAY_TASK_MAX` (index = id − min, count = max − min + 1;
///   arrays with a step are not contiguous and need an explicit K/N).
/// - AWS Batch array job: `AWS_BATCH_JOB_ARRAY_INDEX` (0-based); the array size from
///   `--shard-count` or `CARENDER_SHARD_COUNT`.
extension ShardArgument {
    init(auto environment: [String: String], count flag: Int?) throws {
        func int(_ k: String) throws -> Int? {
            guard let s = environment[k], !s.isEmpty else { return nil }
            guard let v = Int(s.trimmingCharacters(in: .whitespaces)) else { throw CLIError.usage("--shard auto: \(k)=\(s) is not a whole number") }
            return v
        }
        let explicit = try flag ?? int("CARENDER_SHARD_COUNT")
        func needCount(_ system: String) throws -> Int {
            guard let explicit else {
                throw CLIError.usage("--shard auto: \(system) gives the index but not the number of tasks; give --shard-count N or set CARENDER_SHARD_COUNT")
            }
            return explicit
        }
        if let k = try int("JOB_COMPLETION_INDEX") {
            self.init(index: k, count: try needCount("JOB_COMPLETION_INDEX (Kubernetes Indexed Job)"))
        } else if let id = try int("SLURM_ARRAY_TASK_ID") {
            let min = try int("SLURM_ARRAY_TASK_MIN") ?? 0
            if let n = try explicit ?? int("SLURM_ARRAY_TASK_COUNT") {
                self.init(index: id - min, count: n)
            } else if let max = try int("SLURM_ARRAY_TASK_MAX") {
                self.init(index: id - min, count: max - min + 1)
            } else {
                throw CLIError.usage("--shard auto: SLURM_ARRAY_TASK_ID without SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MAX")
            }
        } else if let k = try int("AWS_BATCH_JOB_ARRAY_INDEX") {
            self.init(index: k, count: try needCount("AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch array job)"))
        } else {
            throw CLIError.usage("--shard auto: none of JOB_COMPLETION_INDEX (Kubernetes), SLURM_ARRAY_TASK_ID (Slurm) or AWS_BATCH_JOB_ARRAY_INDEX (AWS Batch) is set; give --shard K/N")
        }
        try validate()
    }

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }
}
