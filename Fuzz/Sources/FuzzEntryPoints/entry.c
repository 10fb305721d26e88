// Entry points for the fuzzers when SwiftPM renames `main`.
//
// In debug builds SwiftPM compiles an executable's module with
// `-entry-point-function-name <module>_main` (so tests can link it) and links with
// `--defsym main=<module>_main`. A libFuzzer target has no Swift `main` (-parse-as-library;
// libFuzzer provides one), so that symbol would be missing. Each one here starts libFuzzer's
// driver with the target's LLVMFuzzerTestOneInput instead. Where SwiftPM does not rename (release
// builds), these are unused and libFuzzer's own `main` runs.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ENTRY(name) \
    int name(int argc, char **argv) { return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput); }

FUZZ_ENTRY(fuzz_front_matter_main)
FUZZ_ENTRY(fuzz_sanitizer_main)
FUZZ_ENTRY(fuzz_signature_headers_main)
FUZZ_ENTRY(fuzz_activity_main)
