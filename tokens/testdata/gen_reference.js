// Generates reference_counts.json: token counts of a fixed set of texts under
// o200k_base and cl100k_base, computed by OpenAI's own tokenizer (the npm
// "tiktoken" package is its Rust core compiled to WASM) and cross-checked
// with the pure-JS "js-tiktoken". Special-token-looking text is encoded as
// ordinary text (no allowed specials, no disallowed-special check).
//
// Run from the module root (see README.md next to this file):
//   NODE_PATH=$(bash tokens/testdata/install-tiktoken.sh) node tokens/testdata/gen_reference.js \
//     ../shared/corpus > tokens/testdata/reference_counts.json
"use strict";
const fs = require("fs");
const path = require("path");
const { get_encoding } = require("tiktoken");
const { getEncoding } = require("js-tiktoken");

const corpusDir = process.argv[2];
const encodings = ["o200k_base", "cl100k_base"];

const texts = [
  ["empty", ""],
  ["ascii", "Hello, world! The quick brown fox jumps over the lazy dog."],
  ["ascii_code", "func main() {\n\tfmt.Println(\"hi\")\n\tfor i := 0; i < 10; i++ {\n\t\tx += i\n\t}\n}\n"],
  ["contractions", "I'm sure you'LL see they'd DON'T we've it's THEY'RE"],
  ["mixed_case", "HTTPServerError XMLHttpRequest camelCaseWord snake_case_word SCREAMING_CASE getURLForID"],
  ["numbers", "1234567890 3.14159 -42 1e10 0x1F 1,000,000 ١٢٣٤ ⅷ"],
  ["cjk_zh", "一切始于一个问题：MCP 和 Function Call 有什么区别？讨论后得出结论：MCP 的 JSON Schema 在 LLM 上下文中极度费 tokens。"],
  ["cjk_ja", "東京は日本の首都です。ひらがなとカタカナ、そして漢字を使います。"],
  ["cjk_ko", "안녕하세요, 세계! 한국어 문장입니다."],
  ["cjk_run", "中文".repeat(600)],
  ["emoji", "👍🏽 family 👨‍👩‍👧‍👦 flags 🇨🇳🇺🇸 sparkles ✨✨ 🙂🙃 ❤️"],
  ["marks", "e\u0301 cafe\u0301 नमस्ते दुनिया مرحبا بالعالم สวัสดีชาวโลก"],
  ["ws_spaces", "a" + " ".repeat(17) + "b"],
  ["ws_tabs", "\t\tindent\t\t\tmore\t"],
  ["ws_newlines", "line1\n\n\nline2\r\n\r\nline3\n  \n  indented\n \n"],
  ["ws_trailing", "trailing   "],
  ["ws_leading", "   leading"],
  ["ws_unicode", "a\u00a0b\u3000c\u2028d\u0085e\u000bf\u000cg\u2003h"],
  ["ws_long_run", " ".repeat(3000) + "x"],
  ["ws_long_newlines", "\n".repeat(1500) + "x"],
  ["special_eot", "<|endoftext|>"],
  ["special_all", "<|endoftext|><|endofprompt|><|fim_prefix|>x<|fim_middle|>y<|fim_suffix|>"],
  ["special_inline", "before<|endoftext|>after <|endofprompt|> done"],
  ["slashes", "path/to/file\n/etc/hosts\n//comment\n};\n/**/\n/// doc\n"],
  ["punct_run", "=".repeat(2500) + "\n\n/" + "!?".repeat(300)],
  ["letters_run", "a".repeat(3000)],
  ["upper_run", "A".repeat(2000) + "bc"],
  ["base64", "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAYAAACqaXHeAAAAAXNSR0IArs4c6QAAAARnQU1BAACxjwv8YQUAAAAJcEhZcwAADsMAAA7DAcdvqGQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=="],
  ["sexpr", "(declare\n  (fr file_read (path string) (opt (enc :utf8|:base64) (off number)) string \"Read a file\")\n  (ex exec (cmd string) string))\n(batch (1 (fr \"/a\")) (2 (ex \"whoami\")))"],
];

// Long JSON: the corpus tool lists as the baseline an LLM API receives,
// minified and pretty-printed.
if (corpusDir) {
  for (const f of fs.readdirSync(corpusDir).filter((f) => f.endsWith(".tools.json")).sort()) {
    const doc = JSON.parse(fs.readFileSync(path.join(corpusDir, f), "utf8"));
    const base = doc.tools.map((t) => {
      const o = { name: t.name };
      if (t.description) o.description = t.description;
      o.input_schema = t.inputSchema || { type: "object" };
      return o;
    });
    const stem = f.replace(/\.tools\.json$/, "");
    texts.push(["json_" + stem, JSON.stringify(base)]);
    texts.push(["json_pretty_" + stem, JSON.stringify(base, null, 2)]);
  }
}

// Seeded random strings over an alphabet chosen to stress the pre-tokenizer:
// case changes, apostrophes, digits, slashes, every kind of whitespace,
// marks, CJK, emoji and special-token fragments.
let seed = 20260831;
function rnd(n) {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return ((seed >>> 8) % n);
}
const atoms = ["a", "b", "Z", "Q", "e\u0301", "'s", "'T", "'re", "'", "0", "7", "42", "1234",
  " ", " ", " ", "  ", "\t", "\n", "\r\n", "\n\n", " \n", "\u00a0", "\u3000", "\u2028", "\u0085",
  "/", "//", "{", "}", "\"", ":", ",", ".", "!", "=", "-", "_", "<|endoftext|>", "<|", "|>",
  "中", "文", "の", "한", "👍", "🏽", "\u200d", "é", "ß", "Ω", "ǅ", "ʰ", "ـ", "x-", "$schema"];
for (let i = 0; i < 300; i++) {
  let s = "";
  const n = 1 + rnd(60);
  for (let j = 0; j < n; j++) s += atoms[rnd(atoms.length)];
  texts.push(["random_" + i, s]);
}

const encs = {};
for (const name of encodings) encs[name] = { wasm: get_encoding(name), js: getEncoding(name) };

const out = [];
for (const [name, text] of texts) {
  const row = { name, text };
  for (const e of encodings) {
    const a = encs[e].wasm.encode(text, [], []).length;
    const b = encs[e].js.encode(text, [], []).length;
    if (a !== b) { row["js_tiktoken_" + e] = b; process.stderr.write(`${name}: ${e}: tiktoken ${a}, js-tiktoken ${b}: ${JSON.stringify(text)}\n`); }
    row[e] = a;
  }
  out.push(row);
}
for (const name of encodings) encs[name].wasm.free();

function pkgVersion(name) {
  let dir = path.dirname(require.resolve(name));
  while (!fs.existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir);
  return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version;
}

const meta = {
  generator: "tokens/testdata/gen_reference.js",
  command: "NODE_PATH=$(bash tokens/testdata/install-tiktoken.sh) node tokens/testdata/gen_reference.js ../shared/corpus > tokens/testdata/reference_counts.json",
  note: "js_tiktoken_* fields record where the pure-JS port disagrees with the reference; the reference counts are the ones to match",
  reference: "npm tiktoken@" + pkgVersion("tiktoken") + " (OpenAI's Rust tiktoken as WASM), cross-checked with js-tiktoken@" + pkgVersion("js-tiktoken"),
  encode: "encode(text, allowed_special=[], disallowed_special=[]): special-token text counts as ordinary text",
};
process.stdout.write(JSON.stringify({ meta, texts: out }, null, 1) + "\n");
