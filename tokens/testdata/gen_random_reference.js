// Generates random_reference.json.gz: 30,000 seeded random texts built to
// stress the pre-tokenizers (contractions in every case, including U+017F
// long s; letters, marks and digits of many scripts; titlecase and modifier
// letters; whitespace runs with \r\n and Unicode spaces; CJK; emoji with
// modifiers and ZWJ; special-token strings; punctuation and slashes) with
// their token counts under o200k_base and cl100k_base from OpenAI's tiktoken
// (npm "tiktoken", the Rust core as WASM), cross-checked with js-tiktoken.
// The texts are stored with the counts, so the Go test needs no generator of
// its own that must stay identical to this one.
//
// Run from the module root (see README.md next to this file):
//   NODE_PATH=$(bash tokens/testdata/install-tiktoken.sh) node tokens/testdata/gen_random_reference.js \
//     | gzip -9n > tokens/testdata/random_reference.json.gz
"use strict";
const fs = require("fs");
const path = require("path");
const { get_encoding } = require("tiktoken");
const { getEncoding } = require("js-tiktoken");

const N = 30000;
let seed = 20261202;
function rnd(n) {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 8) % n;
}
function pick(a) { return a[rnd(a.length)]; }
function range(lo, hi) { return String.fromCodePoint(lo + rnd(hi - lo + 1)); }

const contractions = ["'s", "'S", "'\u017f", "'t", "'T", "'re", "'RE", "'Re", "'rE", "'ve", "'VE", "'Ve",
  "'m", "'M", "'ll", "'LL", "'lL", "'Ll", "'d", "'D", "'", "'r", "'l", "'v", "''", "\u017f", "'\u017fs", "\u2019s"];
const lower = () => pick([range(0x61, 0x7a), range(0x61, 0x7a), range(0x3b1, 0x3c9), range(0x430, 0x44f),
  range(0x561, 0x586), "\u00df", "\u00e9", "\u0107", "\u0142", "\u017f", "\u0131", "\u01c6"]);
const upper = () => pick([range(0x41, 0x5a), range(0x41, 0x5a), range(0x391, 0x3a9), range(0x410, 0x42f),
  range(0x531, 0x556), "\u00c9", "\u0106", "\u0141", "\u0130", "\u01c4"]);
const title = () => pick(["\u01c5", "\u01c8", "\u01cb", "\u01f2", "\u1f88"]);
const modifier = () => pick(["\u02b0", "\u02c6", "\u30fc", "\u0640", "\u3005", "\u02e0"]);
const other = () => pick([range(0x5d0, 0x5ea), range(0x628, 0x64a), range(0x915, 0x939), range(0xe01, 0xe2e),
  range(0xac00, 0xd7a3), range(0x4e00, 0x9fff), range(0x3041, 0x3096), range(0x30a1, 0x30fa), "\u01bb"]);
const mark = () => pick(["\u0301", "\u0308", "\u0327", range(0x300, 0x36f), "\u093f", "\u094d", "\u0e31",
  "\u20dd", "\ufe0f", "\u0651", "\u05b7", "\u3099"]);
const digit = () => pick([range(0x30, 0x39), range(0x30, 0x39), range(0x660, 0x669), range(0xff10, 0xff19),
  range(0x966, 0x96f), range(0x2160, 0x216b), "\u00bd", "\u00b2", range(0x2460, 0x2473)]);
const space = () => pick([" ", " ", " ", "  ", "\t", "\n", "\n", "\r\n", "\r", "\n\n", " \n", "\n ", "\u00a0",
  "\u3000", "\u2028", "\u2029", "\u0085", "\u000b", "\u000c", "\u2003", "\u202f", "\u205f", "\u1680", "\u200b"]);
const punct = () => pick(["/", "//", "/", "\\", ".", ",", ":", ";", "!", "?", "\"", "{", "}", "[", "]", "(", ")",
  "-", "_", "=", "+", "*", "&", "#", "@", "$", "%", "^", "~", "`", "|", "<", ">", "\u2026", "\u2014", "\u00ab",
  "\u00bb", "\u00bf", "\u00a1", "\u20ac", "\u00a9", "\u00b1", "\u2192", "\u3001", "\u3002", "\uff01", "\u200d"]);
const emoji = () => pick(["\ud83d\udc4d", "\ud83c\udffd", "\ud83d\udc68\u200d\ud83d\udc69\u200d\ud83d\udc67",
  "\u2764\ufe0f", "\ud83c\uddfa\ud83c\uddf8", range(0x1f600, 0x1f64f), range(0x1f300, 0x1f5ff), "\u2728", "\u2705"]);
const special = () => pick(["<|endoftext|>", "<|endofprompt|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>",
  "<|", "|>", "endoftext", "<|im_start|>"]);

function word() {
  let s = "";
  const shape = rnd(8);
  const n = 1 + rnd(8);
  for (let i = 0; i < n; i++) {
    switch (shape) {
      case 0: s += lower(); break;
      case 1: s += i === 0 ? upper() : lower(); break;
      case 2: s += upper(); break;
      case 3: s += rnd(3) === 0 ? upper() : lower(); break;
      case 4: s += pick([lower, upper, title, modifier, other, mark])(); break;
      case 5: s += other(); if (rnd(3) === 0) s += mark(); break;
      case 6: s += rnd(2) ? upper() : modifier(); break;
      default: s += lower(); if (rnd(4) === 0) s += mark();
    }
  }
  return s;
}

function item() {
  switch (rnd(14)) {
    case 0: case 1: case 2: return word();
    case 3: return word() + pick(contractions);
    case 4: return pick(contractions);
    case 5: { let s = ""; for (let i = 1 + rnd(6); i > 0; i--) s += digit(); return s; }
    case 6: case 7: { let s = ""; for (let i = 1 + rnd(5); i > 0; i--) s += space(); return s; }
    case 8: { let s = ""; for (let i = 1 + rnd(4); i > 0; i--) s += punct(); return s; }
    case 9: return emoji();
    case 10: return special();
    case 11: return mark();
    case 12: { let s = ""; for (let i = 1 + rnd(10); i > 0; i--) s += other(); return s; }
    default: return pick([title, modifier, upper, lower])();
  }
}

const texts = [];
for (let i = 0; i < N; i++) {
  let s = "";
  const n = 1 + rnd(30);
  for (let j = 0; j < n; j++) s += item();
  texts.push(s);
}

const encodings = ["o200k_base", "cl100k_base"];
const counts = {};
const jsDisagree = {};
for (const name of encodings) {
  const wasm = get_encoding(name);
  const js = getEncoding(name);
  counts[name] = texts.map((t) => wasm.encode(t, [], []).length);
  jsDisagree[name] = texts.filter((t, i) => js.encode(t, [], []).length !== counts[name][i]).length;
  wasm.free();
}

function pkgVersion(name) {
  let dir = path.dirname(require.resolve(name));
  while (!fs.existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir);
  return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version;
}

const meta = {
  generator: "tokens/testdata/gen_random_reference.js",
  command: "NODE_PATH=$(bash tokens/testdata/install-tiktoken.sh) node tokens/testdata/gen_random_reference.js | gzip -9n > tokens/testdata/random_reference.json.gz",
  reference: "npm tiktoken@" + pkgVersion("tiktoken") + " (OpenAI's Rust tiktoken as WASM); js-tiktoken@" + pkgVersion("js-tiktoken") + " disagreed on " +
    encodings.map((e) => jsDisagree[e] + " (" + e + ")").join(", ") + " of the texts",
  encode: "encode(text, allowed_special=[], disallowed_special=[]): special-token text counts as ordinary text",
  seed: 20261202,
};
process.stdout.write(JSON.stringify({ meta, texts, counts }) + "\n");
