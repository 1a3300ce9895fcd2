package app

import (
	"os"
	"testing"
)

// longOnly tells that the long tier runs after the fast tier in the same
// run (.ci/test --long sets TANKBOT_TEST_LONG_ONLY): a test that ran a
// sample under -short skips that sample, which has just passed.
func longOnly() bool { return !testing.Short() && os.Getenv("TANKBOT_TEST_LONG_ONLY") != "" }
