"""Cross-check the reply grammar with llama.cpp's own grammar engine (not a test: needs a C++ compiler).

    python benchmarks/gbnf_llama_cpp_check.py [--sdist llama_cpp_python-X.tar.gz] [--work DIR]

Without ``--sdist`` it runs ``pip download --no-deps --no-binary :all: llama-cpp-python`` (the
PyPI source package vendors llama.cpp). From it, it compiles llama.cpp's ``tests/test-gbnf-validator.cpp``
with ``src/llama-grammar.cpp`` and the unicode tables (about 20 s on one core); the model-loading
functions those files reference but the validator never calls are linked to stubs that abort.
It then runs the validator (llama.cpp's GBNF parser, its left-recursion check, and its parse stacks
advanced one code point at a time) on the cases of ``tests/syntagm/test_syntagm_grammar.py``: every
knowledge-base exemplar, the base model, each held-out mistake, and the frames, and prints one line
per case and whether llama.cpp agrees with the test's own recogniser. Exit status 1 on any
disagreement.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "syntagm")]

STUBS = r'''
#include "ggml.h"
#include "gguf.h"
#include "ggml-backend.h"
#include "llama-vocab.h"
#include "llama-mmap.h"
#include <cstdio>
#include <cstdlib>
[[noreturn]] static void unused(const char * what) { std::fprintf(stderr, "not linked: %s\n", what); std::abort(); }
extern "C" {
void ggml_abort(const char * file, int line, const char * fmt, ...) { std::fprintf(stderr, "%s:%d %s\n", file, line, fmt); std::abort(); }
bool ggml_backend_buffer_is_host(ggml_backend_buffer_t) { unused("ggml_backend_buffer_is_host"); }
void ggml_backend_tensor_set(struct ggml_tensor *, const void *, size_t, size_t) { unused("ggml_backend_tensor_set"); }
bool ggml_is_matrix(const struct ggml_tensor *) { unused("ggml_is_matrix"); }
void ggml_log_get(ggml_log_callback * cb, void ** data) { *cb = nullptr; *data = nullptr; }
void ggml_log_set(ggml_log_callback, void *) {}
size_t ggml_row_size(enum ggml_type, int64_t) { unused("ggml_row_size"); }
int64_t ggml_time_us(void) { return 0; }
const void * gguf_get_arr_data(const struct gguf_context *, int64_t) { unused("gguf_get_arr_data"); }
size_t gguf_get_arr_n(const struct gguf_context *, int64_t) { unused("gguf_get_arr_n"); }
const char * gguf_get_arr_str(const struct gguf_context *, int64_t, size_t) { unused("gguf_get_arr_str"); }
enum gguf_type gguf_get_arr_type(const struct gguf_context *, int64_t) { unused("gguf_get_arr_type"); }
enum gguf_type gguf_get_kv_type(const struct gguf_context *, int64_t) { unused("gguf_get_kv_type"); }
const void * gguf_get_val_data(const struct gguf_context *, int64_t) { unused("gguf_get_val_data"); }
const char * gguf_get_val_str(const struct gguf_context *, int64_t) { unused("gguf_get_val_str"); }
}
void llama_prefetch(llama_memory_ranges) { unused("llama_prefetch"); }
bool llama_vocab::is_eog(llama_token) const { unused("is_eog"); }
const std::string & llama_vocab::token_to_piece(llama_token) const { unused("token_to_piece"); }
int32_t llama_vocab::tokenize(const char *, int32_t, llama_token *, int32_t, bool, bool) const { unused("tokenize"); }
'''


def build_validator(sdist: Path, work: Path) -> Path:
    """Compile llama.cpp's GBNF validator from the llama-cpp-python source package; its path."""
    with tarfile.open(sdist) as tar:
        members = [m for m in tar.getmembers() if "/vendor/llama.cpp/" in m.name and (
            "/src/" in m.name or "/include/" in m.name or m.name.endswith("tests/test-gbnf-validator.cpp"))]
        tar.extractall(work, members=members, filter="data")
    src = next(work.glob("*/vendor/llama.cpp"))
    (work / "stubs.cpp").write_text(STUBS)
    exe = work / "gbnf-validator"
    files = [src / "tests/test-gbnf-validator.cpp", src / "src/llama-grammar.cpp", src / "src/unicode.cpp",
             src / "src/unicode-data.cpp", src / "src/llama-impl.cpp", work / "stubs.cpp"]
    subprocess.run(["g++", "-std=c++17", "-O2", f"-I{src / 'include'}", f"-I{src / 'ggml/include'}",
                    f"-I{src / 'src'}", *map(str, files), "-o", str(exe)], check=True)
    return exe


def cases() -> list[tuple[str, str, bool]]:
    """``(name, reply text, accepted by the test's recogniser)`` for every case of the grammar tests."""
    import test_syntagm_grammar as T
    from gbnf_recogniser import Recogniser, read_gbnf
    from syntagm.decoding.contract import contract_grammar

    rec = Recogniser(read_gbnf(contract_grammar()))
    out = []
    for folder in T.EXEMPLARS:
        data = (folder / "data.dat").read_text() if (folder / "data.dat").exists() else ""
        out.append((folder.name, T.reply((folder / "model.mod").read_text(), data)))
    out.append(("base", T.reply(T.BASE_MODEL, T.BASE_DATA)))
    out += [(f"mistake: {k}", T.reply(T.BASE_MODEL.replace(o, n, 1), T.BASE_DATA)) for k, (o, n) in T.MODEL_MISTAKES.items()]
    out += [(f"mistake: {k}", T.reply(T.BASE_MODEL, T.BASE_DATA.replace(o, n, 1))) for k, (o, n) in T.DATA_MISTAKES.items()]
    out.append(("pretty-printed", json.dumps({"model": "dvar float+ x;\nmaximize x;", "data": ""}, indent=2)))
    out.append(("reasoning first", T.reply("dvar float+ x;\nmaximize x; // goal", "", reasoning='a "b" \\ c\nd')))
    return [(name, text, rec.accepts(text)) for name, text in out]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sdist", type=Path)
    ap.add_argument("--work", type=Path)
    args = ap.parse_args()
    from syntagm.decoding.contract import contract_grammar

    work = args.work or Path(tempfile.mkdtemp(prefix="gbnf-check-"))
    sdist = args.sdist
    if sdist is None:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
                        "llama-cpp-python", "-d", str(work)], check=True)
        sdist = next(work.glob("llama_cpp_python-*.tar.gz"))
    exe = build_validator(sdist, work)
    grammar = work / "contract.gbnf"
    grammar.write_text(contract_grammar())
    disagree = 0
    print(f"llama.cpp from {sdist.name}")
    for name, text, ours in cases():
        (work / "input.txt").write_text(text)
        run = subprocess.run([str(exe), str(grammar), str(work / "input.txt")], capture_output=True, text=True)
        theirs = "is valid" in run.stdout
        disagree += theirs != ours
        print(f"{name:48s} llama.cpp {'accepts' if theirs else 'rejects'}"
              f"{'' if theirs == ours else '  <- the test recogniser disagrees'}")
    print(f"{disagree} disagreement(s)")
    return 1 if disagree else 0


if __name__ == "__main__":
    raise SystemExit(main())
