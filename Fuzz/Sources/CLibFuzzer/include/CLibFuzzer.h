// libFuzzer's entry point for programs with their own main (compiler-rt's FuzzerInterface.h), declared here
// because Swift cannot import it from the runtime archive.
#ifndef LAMINA_CLIBFUZZER_H
#define LAMINA_CLIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer with the command line `argc`/`argv` on `callback`, as libFuzzer's own main would.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
