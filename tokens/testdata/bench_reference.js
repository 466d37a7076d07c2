// Times warm encoding with the reference WASM build (npm "tiktoken") on the
// texts BenchmarkEncodeThroughput uses, written by
//   MCPTERM_BENCH_TEXTS=DIR go test ./tokens/ -run TestWriteTokenizerBenchTexts
// and prints MB/s per text and encoding:
//   NODE_PATH=$(bash tokens/testdata/install-tiktoken.sh) node tokens/testdata/bench_reference.js DIR
"use strict";
const fs = require("fs");
const path = require("path");
const { get_encoding } = require("tiktoken");
const dir = process.argv[2];
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".txt")).sort()) {
  const text = fs.readFileSync(path.join(dir, file), "utf8");
  const bytes = Buffer.byteLength(text);
  for (const name of ["o200k_base", "cl100k_base"]) {
    const t0 = process.hrtime.bigint();
    const enc = get_encoding(name);
    const load = Number(process.hrtime.bigint() - t0) / 1e6;
    enc.encode(text, [], []); // warm up
    let n = 0;
    const start = process.hrtime.bigint();
    let el = 0;
    while (el < 2e9) { enc.encode(text, [], []); n++; el = Number(process.hrtime.bigint() - start); }
    console.log(`${file} ${name}: ${(bytes * n / (el / 1e9) / 1e6).toFixed(2)} MB/s (${bytes} bytes, ${n} runs; load ${load.toFixed(1)} ms)`);
    enc.free();
  }
}
