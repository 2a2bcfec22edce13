package history

// Registered reports whether a store for scheme ("sqlite", "postgres") was
// registered, that is, whether the program imports its package.
func Registered(scheme string) bool {
	regMu.Lock()
	defer regMu.Unlock()
	_, ok := openers[scheme]
	return ok
}
