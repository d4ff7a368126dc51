#if GATE_FUZZ
// Built with -sanitize=fuzzer: libFuzzer's main calls this for each input.
// The target is named by GATE_FUZZ_TARGET (Tests/Fuzz/fuzz.sh sets it).
import CFuzzDriver
import Glibc

let fuzzTarget: String = {
    guard let name = getenv("GATE_FUZZ_TARGET") else { fatalError("gate-fuzz: set GATE_FUZZ_TARGET to one of " + FuzzTargets.names.joined(separator: ", ")) }
    return String(cString: name)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTargets.run(fuzzTarget, data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

// SwiftPM names an executable's entry point after its module and links
// `main` to it, so libFuzzer's own main is never pulled in: this one hands
// the arguments to libFuzzer's driver instead.
@_cdecl("gate_fuzz_main")
public func gateFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var vector = argv
    return LLVMFuzzerRunDriver(&count, &vector) { data, size in fuzzOneInput(data, size) }
}
#else
// The plain build: `gate-fuzz TARGET FILE...` runs saved inputs (a corpus,
// or a crash libFuzzer found) through a target without the sanitizer, as
// the tests do with the inputs kept in Tests/Fuzz/regressions.
import Foundation

@main
struct GateFuzzReplay {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let target = arguments.first, FuzzTargets.names.contains(target) else {
            print("usage: gate-fuzz TARGET FILE...  (targets: " + FuzzTargets.names.joined(separator: ", ") + ")")
            exit(2)
        }
        arguments.removeFirst()
        for path in arguments {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("gate-fuzz: " + path + ": cannot read")
                exit(1)
            }
            FuzzTargets.run(target, [UInt8](data))
        }
        print("gate-fuzz " + target + ": " + String(arguments.count) + " inputs, none trapped")
    }
}
#endif
