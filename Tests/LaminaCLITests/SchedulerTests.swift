import Foundation
import Lamina
import LaminaTestSupport
import Testing

/// `lamina batch` and `lamina export` shards on real schedulers (docs/scale.md, "Slurm", "Kubernetes", "Dask"): a
/// one-node Slurm cluster brought up by tools/slurm-cluster.sh, a Dask scheduler and workers running
/// examples/dask/batch.py, the Kubernetes Indexed Job of examples/kubernetes/batch-job.yaml run index by index, and
/// the Dockerfile its image is built from. Skipped, the reason printed, when slurm-wlm, munge or the Python tools
/// are missing, unless LAMINA_REQUIRE_SCHEDULERS=1 (CI), which makes that a failure.
@Suite struct SchedulerTests {
    static var root: URL { FailureArtifacts.packageRoot }

    // MARK: Slurm

    /// The job script of each array task: its shard of the manifest with --resume and --summary, then its shard of
    /// a y4m export. When the file hold-K exists, task K stops between the two (it writes held-K and waits) so the
    /// test can cancel it part-way, its stills written and its export not.
    static let slurmTask = """
        #!/bin/sh
        #SBATCH --job-name=lamina-test
        #SBATCH --output=logs/%A_%a.out
        #SBATCH --cpus-per-task=1
        K=$SLURM_ARRAY_TASK_ID
        lamina batch jobs.jsonl --shard "$K/4" --jobs 1 --resume --summary "summary/$K.json"
        batch=$?
        if [ -e "hold-$K" ]; then touch "held-$K"; while :; do sleep 1; done; fi
        lamina export card.json --backend cpu --fps 10 --duration 2 --shard "$K/4" -o "parts/part-$K.y4m"
        export=$?
        [ "$batch" -ne 0 ] && exit "$batch"
        exit "$export"
        """

    /// Each task's JobState and ExitCode by array index, from `scontrol show job` (there is no accounting database
    /// for sacct; finished jobs stay known for MinJobAge, 10 minutes).
    static func taskStates(_ job: String, in folder: URL, _ environment: [String: String]) throws -> [Int: String] {
        let result = try Shell.run("scontrol -o show job \(job)", in: folder, environment: environment, timeout: 30)
        var states: [Int: String] = [:]
        for line in result.output.split(separator: "\n") {
            let fields = Dictionary(line.split(separator: " ").compactMap { field -> (String, String)? in
                guard let equals = field.firstIndex(of: "=") else { return nil }
                return (String(field[..<equals]), String(field[field.index(after: equals)...]))
            }, uniquingKeysWith: { first, _ in first })
            if let index = fields["ArrayTaskId"].flatMap({ Int($0) }) {
                states[index] = "\(fields["JobState"] ?? "?") \(fields["ExitCode"] ?? "?")"
            }
        }
        return states
    }

    /// Waits until `condition` holds, polling every 0.2 s, for at most `seconds`.
    static func wait(_ seconds: TimeInterval, until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return try condition()
    }

    @Test func slurmArrayShardsAKilledTaskResubmittedAndJoinedAreTheSingleRunsBytes() throws {
        let tools = ["munged", "mungekey", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "scancel", "sinfo"]
        var missing = tools.filter { SchedulerRequirement.which($0) == nil }.map { "\($0) (Debian's slurm-wlm, munge)" }
        if getuid() != 0 { missing.append("root (slurmd starts the jobs)") }
        guard SchedulerRequirement.shouldRun("the Slurm job array test",
                                             missing: missing.isEmpty ? nil : missing.joined(separator: ", ")) else { return }
        let manifest = try ShardedManifest.make()
        let folder = manifest.folder
        let cluster = folder.appendingPathComponent("cluster")
        let script = Self.root.appendingPathComponent("tools/slurm-cluster.sh").path
        let started = try Shell.run("\(script) start \(cluster.path)", in: folder, timeout: 90)
        // Torn down whatever happens below.
        defer { _ = try? Shell.run("\(script) stop \(cluster.path)", in: folder, timeout: 60) }
        try #require(started.status == 0, "\(started.output)")
        #expect(started.output.contains("export SLURM_CONF=\(cluster.path)/slurm.conf"), "\(started.output)")
        let environment = ["SLURM_CONF": cluster.appendingPathComponent("slurm.conf").path]

        try Self.slurmTask.write(to: folder.appendingPathComponent("task.sh"), atomically: true, encoding: .utf8)
        for name in ["logs", "summary", "parts"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        FileManager.default.createFile(atPath: folder.appendingPathComponent("hold-2").path, contents: nil)
        let submitted = try Shell.run("sbatch --parsable --array=0-3 task.sh", in: folder, environment: environment)
        try #require(submitted.status == 0, "\(submitted.output)")
        let job = submitted.output.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(Int(job) != nil, "\(submitted.output)")

        // Task 2 is cancelled part-way: its stills are written, its export shard is not.
        let held = Self.wait(120) { FileManager.default.fileExists(atPath: folder.appendingPathComponent("held-2").path) }
        try #require(held, "task 2 never reached its hold; logs: \((try? Shell.run("cat logs/* \(cluster.path)/*.log", in: folder))?.output ?? "")")
        try Shell.run("scancel \(job)_2", in: folder, environment: environment)
        let ended = try Self.wait(60) {
            try Shell.run("squeue -h -j \(job) -o %i", in: folder, environment: environment).output
                .trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        #expect(ended, "the array did not end")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("parts/part-2.y4m").path))
        let states = try Self.taskStates(job, in: folder, environment)
        #expect(states[2]?.hasPrefix("CANCELLED") == true, "\(states)")
        // One task holds the bad line: lamina batch exits 2 (a bad job), which the task passes on to Slurm.
        #expect(states.values.filter { $0 == "FAILED 2:0" }.count == 1, "\(states)")
        #expect(states.values.filter { $0 == "COMPLETED 0:0" }.count == 2, "\(states)")

        // Resubmitted on its own, with the same block of the manifest (--shard "$SLURM_ARRAY_TASK_ID/4").
        try FileManager.default.removeItem(at: folder.appendingPathComponent("hold-2"))
        let again = try Shell.run("sbatch --parsable --array=2 task.sh", in: folder, environment: environment)
        try #require(again.status == 0, "\(again.output)")
        let rerun = again.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let done = try Self.wait(120) {
            try Shell.run("squeue -h -o %i", in: folder, environment: environment).output
                .trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        #expect(done, "the resubmitted task did not end")
        let rerunStates = try Self.taskStates(rerun, in: folder, environment)
        #expect(rerunStates == [2: "COMPLETED 0:0"], "\(rerunStates); \((try? Shell.run("cat logs/*", in: folder))?.output ?? "")")

        // --resume: the resubmitted task skipped the stills its first run had written.
        let summary = manifest.data("summary/2.json").flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        let statuses = (summary?["jobs"] as? [[String: Any]] ?? []).compactMap { $0["status"] as? String }
        #expect(!statuses.isEmpty && statuses.allSatisfy { $0 == "skipped" }, "\(String(describing: summary))")

        try manifest.verify(summaries: "summary")
        // The export's four shards joined are the unsharded export.
        let whole = try CLI.run(["export", "card.json", "--backend", "cpu", "--fps", "10", "--duration", "2", "-o", "whole.y4m"],
                                in: folder)
        #expect(whole.status == 0, "\(whole.stderr)")
        let joined = try CLI.run(["join", "-o", "joined.y4m"] + (0..<4).map { "parts/part-\($0).y4m" }, in: folder)
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(manifest.data("joined.y4m") != nil && manifest.data("joined.y4m") == manifest.data("whole.y4m"))
    }

    // MARK: Dask

    /// The Python tools (Dask, kubernetes-validate) from tools/scheduler-venv.sh, or why they are missing.
    /// Made here only where the tests are required (CI; tools/setup.sh has made it then) or already made by hand:
    /// a first download from PyPI takes minutes.
    static func venv() throws -> (path: String?, missing: String?) {
        let stamp = root.appendingPathComponent(".build/scheduler-venv/.lamina-requirements").path
        if !SchedulerRequirement.required && !FileManager.default.fileExists(atPath: stamp) {
            return (nil, "no .build/scheduler-venv (make it with tools/scheduler-venv.sh)")
        }
        let result = try Shell.run("tools/scheduler-venv.sh", in: root, timeout: 600)
        let lines = result.output.split(separator: "\n")
        guard result.status == 0, let path = lines.last.map(String.init), path.hasPrefix("/") else {
            return (nil, "tools/scheduler-venv.sh failed (python3-venv and PyPI needed): \(result.output.suffix(600))")
        }
        return (path, nil)
    }

    @Test func daskExampleRendersEveryShardAsSingleRunsDo() throws {
        let venv = try Self.venv()
        guard SchedulerRequirement.shouldRun("the Dask test", missing: venv.missing), let path = venv.path else { return }
        let manifest = try ShardedManifest.make()
        let folder = manifest.folder
        // A scheduler and two single-threaded workers on this machine, as `dask scheduler` and `dask worker` run on
        // a cluster; they find each other through the scheduler file. Stopped by pid at the end.
        let log = try FileHandle(forWritingTo: {
            let url = folder.appendingPathComponent("dask.log")
            FileManager.default.createFile(atPath: url.path, contents: nil)
            return url
        }())
        defer { try? log.close() }
        var daemons: [Process] = []
        defer { daemons.reversed().forEach(Shell.stop) }
        daemons.append(try Shell.start("exec \(path)/bin/dask scheduler --host 127.0.0.1 --port 0 --no-dashboard --scheduler-file scheduler.json",
                                       in: folder, output: log))
        let up = Self.wait(60) { FileManager.default.fileExists(atPath: folder.appendingPathComponent("scheduler.json").path) }
        try #require(up, "the scheduler did not start: \((try? String(contentsOf: folder.appendingPathComponent("dask.log"), encoding: .utf8)) ?? "")")
        for _ in 0..<2 {
            daemons.append(try Shell.start("exec \(path)/bin/dask worker --scheduler-file scheduler.json --nthreads 1 --no-nanny --no-dashboard",
                                           in: folder, output: log))
        }
        let example = Self.root.appendingPathComponent("examples/dask/batch.py").path
        let result = try Shell.run("\(path)/bin/python \(example) jobs.jsonl --shards 3 --jobs 1 --scheduler-file scheduler.json --summary summary",
                                   in: folder, timeout: 300)
        // Exit 2: the manifest's bad line, named; every shard ran.
        #expect(result.status == 2, "\(result.output)")
        for k in 0..<3 { #expect(result.output.contains("shard \(k)/3: exit"), "\(result.output)") }
        #expect(result.output.contains(ShardedManifest.badError), "\(result.output)")
        try manifest.verify(summaries: "summary")
    }

    // MARK: Kubernetes

    /// The Indexed Job of examples/kubernetes/batch-job.yaml: its `completions` and its container's command line (the
    /// folded `args` scalar, run by `sh -c`), read from the file itself so that the test runs what the docs show.
    static func indexedJob() throws -> (completions: Int, workingDir: String, command: String) {
        let text = try String(contentsOf: root.appendingPathComponent("examples/kubernetes/batch-job.yaml"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func value(_ key: String) -> String? {
            lines.lazy.map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix(key + ":") }
                .map { String($0.dropFirst(key.count + 1)).split(separator: "#")[0].trimmingCharacters(in: .whitespaces) }
        }
        let indent: (String) -> Int = { $0.prefix { $0 == " " }.count }
        guard let completions = value("completions").flatMap({ Int($0) }),
              let args = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "args:" }),
              lines[args + 1].trimmingCharacters(in: .whitespaces) == "- >-" else {
            throw CocoaError(.fileReadCorruptFile)
        }
        // A folded block scalar without blank or more-indented lines: its lines joined by single spaces.
        let depth = indent(lines[args + 1])
        let body = lines[(args + 2)...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty && indent($0) > depth }
        let command = body.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        return (completions, value("workingDir") ?? "", command)
    }

    @Test func kubernetesIndexedJobCommandRunForEveryIndexRendersTheWholeManifest() throws {
        let job = try Self.indexedJob()
        #expect(job.completions == 8 && job.workingDir == "/data")
        #expect(job.command.contains(#"--shard "$JOB_COMPLETION_INDEX/\#(job.completions)""#), "\(job.command)")
        let manifest = try ShardedManifest.make()
        // Each pod: the container's command in its working folder (the volume: here the manifest's folder), with
        // JOB_COMPLETION_INDEX set as the Job controller sets it.
        var statuses: [Int32] = []
        for index in 0..<job.completions {
            let result = try Shell.run("sh -c '\(job.command.replacingOccurrences(of: "'", with: #"'\''"#))'",
                                       in: manifest.folder, environment: ["JOB_COMPLETION_INDEX": "\(index)"])
            statuses.append(result.status)
            if result.status == 2 { #expect(result.output.contains(ShardedManifest.badError), "\(result.output)") }
        }
        // One index has the bad line and exits 2 (podFailurePolicy: FailIndex, not retried); the others 0.
        #expect(statuses.filter { $0 == 2 }.count == 1 && statuses.filter { $0 == 0 }.count == job.completions - 1, "\(statuses)")
        try manifest.verify(summaries: "summary")
        // A retried pod (backoffLimitPerIndex) rewrites nothing: --resume skips every job its shard finished.
        let retried = try Shell.run("sh -c '\(job.command.replacingOccurrences(of: "'", with: #"'\''"#))'",
                                    in: manifest.folder, environment: ["JOB_COMPLETION_INDEX": "0"])
        #expect(retried.status == 0 && retried.output.contains("0 ok"), "\(retried.output)")
    }

    @Test func theDocsShowTheIndexedJobFileAsItIs() throws {
        let file = try String(contentsOf: Self.root.appendingPathComponent("examples/kubernetes/batch-job.yaml"), encoding: .utf8)
        let docs = try String(contentsOf: Self.root.appendingPathComponent("docs/scale.md"), encoding: .utf8)
        let manifest = String(file[try #require(file.range(of: "apiVersion:")).lowerBound...])
        #expect(docs.contains("```yaml\n" + manifest + "```\n"), "docs/scale.md's Job differs from examples/kubernetes/batch-job.yaml")
    }

    @Test func kubernetesManifestsPassKubernetesValidateStrict() throws {
        let venv = try Self.venv()
        guard SchedulerRequirement.shouldRun("kubernetes-validate", missing: venv.missing) else { return }
        let result = try Shell.run("tools/check-kubernetes.sh", in: Self.root, timeout: 300)
        #expect(result.status == 0, "\(result.output)")
        // examples/kubernetes/batch-job.yaml, docs/scale.md's copy of it and docs/export.md's export Job.
        #expect(result.output.contains("3 manifests pass"), "\(result.output)")
    }

    // MARK: The image

    /// The Dockerfile's instructions, continuation lines joined and comments dropped: (instruction, arguments).
    static func dockerfile() throws -> [(String, String)] {
        let text = try String(contentsOf: root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        var instructions: [(String, String)] = []
        var current = ""
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") || (line.isEmpty && current.isEmpty) { continue }
            if line.hasSuffix("\\") {
                current += line.dropLast() + " "
                continue
            }
            current += line
            let words = current.split(separator: " ", maxSplits: 1)
            if let first = words.first { instructions.append((String(first), words.count > 1 ? String(words[1]) : "")) }
            current = ""
        }
        #expect(current.isEmpty, "the Dockerfile ends in a continuation line")
        return instructions
    }

    /// The packages each `apt-get install` of the stage starting at instruction `from` names.
    static func aptPackages(_ instructions: ArraySlice<(String, String)>) -> [String] {
        instructions.filter { $0.0 == "RUN" }.flatMap { run -> [String] in
            run.1.components(separatedBy: "&&").flatMap { command -> [String] in
                let words = command.split(separator: " ").map(String.init)
                guard let install = words.firstIndex(of: "install"), words.contains("apt-get") else { return [] }
                return words[(install + 1)...].filter { !$0.hasPrefix("-") }
            }
        }
    }

    @Test func dockerfileParsesNamesDebianPackagesAndInstallsWhatTheBinaryNeeds() throws {
        let instructions = try Self.dockerfile()
        let known: Set<String> = ["FROM", "RUN", "CMD", "LABEL", "MAINTAINER", "EXPOSE", "ENV", "ADD", "COPY", "ENTRYPOINT",
                                  "VOLUME", "USER", "WORKDIR", "ARG", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK", "SHELL"]
        for (instruction, arguments) in instructions {
            #expect(known.contains(instruction), "unknown instruction \(instruction)")
            #expect(instruction == instruction.uppercased() && !arguments.isEmpty, "\(instruction) \(arguments)")
        }
        // Two stages: the build (the Swift toolchain image) and the runtime, Debian bookworm.
        let froms = instructions.indices.filter { instructions[$0].0 == "FROM" }
        try #require(froms.count == 2, "\(instructions.map(\.0))")
        #expect(instructions[froms[0]].1.hasSuffix(" AS build"))
        #expect(instructions[froms[1]].1 == "debian:bookworm-slim")
        #expect(instructions.contains { $0.0 == "ARG" && $0.1.hasPrefix("SWIFT_IMAGE=") && $0.1.hasSuffix("-bookworm") })
        #expect(instructions.contains { $0.0 == "COPY" && $0.1 == "--from=build /out/lamina /usr/local/bin/lamina" })
        let build = Self.aptPackages(instructions[froms[0]..<froms[1]])
        let runtime = Self.aptPackages(instructions[froms[1]...])
        #expect(build.contains("libpango1.0-dev") && runtime.contains("libgl1-mesa-dri") && runtime.contains("libegl-mesa0"))

        // Every package is one Debian has (apt-cache policy gives it a candidate), where apt is there to ask.
        if SchedulerRequirement.which("apt-cache") != nil {
            let policy = try Shell.run("apt-cache policy \((build + runtime).joined(separator: " "))", in: Self.root, timeout: 120)
            var candidates: [String: String] = [:]
            var package = ""
            for line in policy.output.split(separator: "\n") {
                if !line.hasPrefix(" ") && line.hasSuffix(":") { package = String(line.dropLast()) }
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("Candidate:") {
                    candidates[package] = line.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
                }
            }
            for name in build + runtime {
                #expect(candidates[name] != nil && candidates[name] != "(none)", "\(name): not a Debian package here")
            }
        }

        // Every shared library the built binary needs (its Swift libraries are linked in statically in the image)
        // comes from a package the runtime stage installs.
        guard SchedulerRequirement.which("readelf") != nil, SchedulerRequirement.which("dpkg") != nil else { return }
        let needed = try Shell.run(#"readelf -d "$0" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'"# .replacingOccurrences(of: "$0", with: LaminaExecutable.path),
                                   in: Self.root, timeout: 60)
        for library in needed.output.split(separator: "\n").map(String.init) {
            let owner = try Shell.run(#"p=$(/sbin/ldconfig -p | awk -v l="LIB" '$1 == l && /x86-64|x86_64/ { print $NF; exit }'); [ -n "$p" ] && { dpkg -S "$(realpath "$p")" 2>/dev/null || dpkg -S "${p}" 2>/dev/null; } | head -1 | cut -d: -f1"#
                .replacingOccurrences(of: "LIB", with: library), in: Self.root, timeout: 60)
            let package = owner.output.trimmingCharacters(in: .whitespacesAndNewlines)
            // Not a Debian package's: the Swift toolchain's own (libswiftCore, libFoundation, libdispatch).
            if package.isEmpty { continue }
            let base: Set<String> = ["libc6", "libgcc-s1"]   // in every Debian image
            #expect(base.contains(package) || runtime.contains(package), "\(library) (\(package)) is not installed by the Dockerfile")
        }
    }
}
