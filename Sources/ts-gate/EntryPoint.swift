import GateBox

// Embedded Swift has no CommandLine, so the program starts at the C level
// and takes argc/argv itself. SwiftPM links executables with main aliased to
// `<module>_main` (so tests can link them), hence this name; the target is
// compiled with -parse-as-library so no top-level-code main competes with it.
@_cdecl("ts_gate_main")
func tsGateMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var arguments: [String] = []
    for index in 1..<Int(max(argc, 1)) {
        if let argument = argv[index] { arguments.append(String(cString: argument)) }
    }
    return TSGate.main(arguments: arguments)
}
