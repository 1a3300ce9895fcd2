package main

// The review command's entry in this branch's registry. With the command
// table of main.go (commands) this file goes and the entry is one line
// there:
//
//	{"review", reviewSummary, runReviewMain},
func init() { register("review", reviewSummary, runReviewMain) }
