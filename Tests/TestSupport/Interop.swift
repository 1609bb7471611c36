import Foundation

/// Runs the real age tools for interoperability tests.
public enum Interop {
    /// The Python with pexpect and pyrage: `$GYMCARD_TEST_PYTHON`, else the `.venv-test` that
    /// scripts/test makes, else python3.
    public static var python: String {
        if let configured = ProcessInfo.processInfo.environment["GYMCARD_TEST_PYTHON"] { return configured }
        let venv = GymcardProcess.packageRoot.appendingPathComponent(".venv-test/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "/usr/bin/python3"
    }

    /// Runs a Python script with arguments; returns (status, stdout, stderr). Nothing blocks a thread of
    /// the concurrency pool meanwhile (``ChildProcess``), so a server in the test process keeps answering.
    public static func runPython(_ script: String, _ arguments: [String], input: Data? = nil) async throws
        -> (Int32, Data, String)
    {
        let output = try await ChildProcess.run(python, ["-c", script] + arguments, input: input)
        return (output.status, output.stdout, output.stderrText)
    }

    /// Whether the test Python imports `modules` (`"zxingcpp, PIL"`), for a trait's `.enabled(if:)`, which
    /// cannot await: run to its end on the calling thread (``ChildProcess/runBlocking(_:environment:standardOutput:)``;
    /// Foundation's `Process` beside swift-subprocess is two reapers in one process).
    public static func pythonImports(_ modules: String) -> Bool {
        (try? ChildProcess.runBlocking([python, "-c", "import \(modules)"])) == 0
    }

    /// Whether a Python module can be imported.
    public static func pythonHas(_ module: String) async -> Bool {
        (try? await runPython("import \(module)", []).0) == 0
    }

    /// `age -d` (Debian's age 1.1.1), answering its passphrase prompt on a pseudo-terminal.
    public static func ageDecrypt(_ path: String, passphrase: String) async throws -> (Int32, Data) {
        let script = """
            import pexpect, sys
            child = pexpect.spawn("age", ["-d", sys.argv[1]], timeout=120)
            child.expect("passphrase")
            child.sendline(sys.argv[2])
            child.expect(pexpect.EOF)
            child.close()
            out = child.before.decode("utf-8", "replace")
            sys.stdout.write(out[out.find("{"):] if "{" in out else out)
            sys.exit(child.exitstatus or 0)
            """
        let (status, output, _) = try await runPython(script, [path, passphrase])
        return (status, output)
    }

    /// `age -p` (with `armored`, `age -a -p`) encrypting a file, answering the passphrase prompt (twice)
    /// on a pseudo-terminal.
    public static func ageEncrypt(
        _ input: String, to output: String, passphrase: String, armored: Bool = false
    )
        async throws -> Int32
    {
        let script = """
            import pexpect, sys
            flags = ["-a"] if sys.argv[4] == "armored" else []
            child = pexpect.spawn("age", flags + ["-p", "-o", sys.argv[2], sys.argv[1]], timeout=120)
            for _ in range(2):
                child.expect("passphrase")
                child.sendline(sys.argv[3])
            child.expect(pexpect.EOF)
            child.close()
            sys.exit(child.exitstatus or 0)
            """
        return try await runPython(script, [input, output, passphrase, armored ? "armored" : "binary"]).0
    }
}
