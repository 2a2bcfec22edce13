package broken

import "context"

//toolgen:tool
func Broken(ctx context.Context, n int) (string, error) {
	return undefinedThing(n), nil
}
