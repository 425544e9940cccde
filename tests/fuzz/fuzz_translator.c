/* fuzz_translator.c — libFuzzer harness over the whole translator, in memory.
 *
 * Each input is one .ode file.  It goes through what `odegen FILE -o DIR`
 * does before touching the disk: the scanner and parser (parse_program), the
 * checks (check_program, then what lyapunov and a stiff method need of the
 * derivatives) and, when the model is valid, the emitter (emit_model) into
 * memory buffers.  Messages go to /dev/null.  A crash, a
 * sanitizer report (ASan, UBSan), a leak or a run over the time limit is a
 * finding; see tests/fuzz/README.md.
 *
 * Built by `make fuzz` (clang -fsanitize=fuzzer,address,undefined).  Also
 * built with -DFUZZ_REPLAY_MAIN as a plain program that runs the same code on
 * the files named on its command line (tests/fuzz/run.sh replays the
 * regression inputs with it when libFuzzer is not available).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/arena.h"
#include "front/diag.h"
#include "emit/emit.h"
#include "check/model.h"
#include "deriv/needs.h"
#include "front/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "w")))
        abort();
    diag_set_stream(sink);
    const char *text = (const char *)data;
    diag_set_source("fuzz.ode", text, size);
    Program *prog = parse_program("fuzz.ode", text, size);
    Model *m = check_program(prog, -1);
    if (m && !check_lyapunov_derivatives(m)) m = NULL;
    if (m && !method_check_derivatives(m)) m = NULL;
    if (m) {
        GeneratedFile files[GENERATED_FILES];
        emit_model(m, files);
        for (int i = 0; i < GENERATED_FILES; i++)
            buf_free(&files[i].text);
    }
    arena_free_all();
    return 0;
}

#ifdef FUZZ_REPLAY_MAIN
#include "base/input_limits.h"
#include "base/util.h"

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        size_t len;
        char *text = read_file(argv[i], MODEL_MAX_BYTES, false, &len);
        if (!text) {
            perror(argv[i]);
            return 2;
        }
        LLVMFuzzerTestOneInput((const uint8_t *)text, len);
        free(text);
    }
    return 0;
}
#endif
