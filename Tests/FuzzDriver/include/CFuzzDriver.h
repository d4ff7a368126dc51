// libFuzzer's own driver, for a fuzz target whose `main` is SwiftPM's
// (Tests/Fuzz/main.swift): declared here, defined in libclang_rt.fuzzer.
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
