// Package bpe is mcpterm's exact tiktoken core: the ranks of each encoding
// precomputed (package ranks, blobs generated here by gen_ranks.go),
// tiktoken's byte-pair merge, and hand-written pre-tokenizers equal to the
// encodings' regular expressions. tiktoken-go's regexp2 pre-tokenizer was
// the slowest step of counting and, on Unicode case folding, wrong.
package bpe

//go:generate go run gen_ranks.go
