// The reference side of the whole-process comparison in docs/tokens.md:
// counts, with OpenAI's tiktoken (npm "tiktoken", WASM), every text the
// json and term figures of the corpus report are of, in both encodings,
// loading each encoding as a fresh process would. Write the texts, then run
// it (time it beside `mcpterm tokens --tools ...` for each encoding):
//   MCPTERM_REPORT_TEXTS=DIR go test ./tokens/ -run TestWriteReportTexts
//   NODE_PATH=$(bash tokens/testdata/install-tiktoken.sh) node tokens/testdata/count_reference.js DIR
"use strict";
const fs = require("fs");
const path = require("path");
const { get_encoding } = require("tiktoken");
const dir = process.argv[2];
const texts = fs.readdirSync(dir).filter((f) => f.endsWith(".txt")).sort()
  .map((f) => fs.readFileSync(path.join(dir, f), "utf8"));
for (const name of ["o200k_base", "cl100k_base"]) {
  const enc = get_encoding(name);
  let total = 0;
  for (const text of texts) total += enc.encode(text, [], []).length;
  console.log(`${name}: ${total} tokens in ${texts.length} texts`);
  enc.free();
}
