package contract

import (
	"fmt"

	"golang.org/x/mod/semver"
)

// allows reports whether going from version old to version new allows a
// breaking change, as semantic versioning has it: the major version
// raised, or at 0.x the minor. what names the version in the verdict
// ("version", "toolkit version").
func allows(what, old, new string) (bool, string) {
	ov, nv := canon(old), canon(new)
	if !semver.IsValid(ov) || !semver.IsValid(nv) {
		return false, fmt.Sprintf("%s %s → %s: not semantic versions, so no version allows a breaking change", what, old, new)
	}
	next := nextMajor(ov)
	raised := semver.Compare(semver.Major(nv), semver.Major(ov)) > 0
	if semver.Major(ov) == "v0" && semver.Major(nv) == "v0" {
		raised = semver.Compare(semver.MajorMinor(nv), semver.MajorMinor(ov)) > 0
	}
	if raised {
		return true, fmt.Sprintf("allowed: %s %s → %s", what, old, new)
	}
	if old == new {
		return false, fmt.Sprintf("%s %s: raise it to %s for this breaking change", what, old, next)
	}
	return false, fmt.Sprintf("%s %s → %s: a breaking change needs %s", what, old, new, next)
}

// suggestMinor is the verdict on a compatible change: the minor version
// raised is expected, suggested when it was not, and never enforced.
func suggestMinor(old, new string) string {
	ov, nv := canon(old), canon(new)
	if !semver.IsValid(ov) || !semver.IsValid(nv) || semver.Compare(nv, ov) > 0 && semver.MajorMinor(nv) != semver.MajorMinor(ov) {
		return fmt.Sprintf("version %s", new)
	}
	var maj, min int
	fmt.Sscanf(semver.MajorMinor(ov), "v%d.%d", &maj, &min)
	return fmt.Sprintf("version %s: consider %d.%d.0 for this change", new, maj, min+1)
}

// nextMajor is the first version that allows a breaking change after v
// (canonical): the next major, or at 0.x the next minor.
func nextMajor(v string) string {
	var maj, min int
	fmt.Sscanf(semver.MajorMinor(v), "v%d.%d", &maj, &min)
	if maj == 0 {
		return fmt.Sprintf("0.%d.0", min+1)
	}
	return fmt.Sprintf("%d.0.0", maj+1)
}

func canon(v string) string {
	if v == "" {
		v = DefaultVersion
	}
	if v[0] != 'v' {
		v = "v" + v
	}
	return v
}
