package yaml_err_declared

func toolgenBind() {}

func toolgenNotImplemented() {}

var toolgenAddHandler = 1

// A method of the same name is not a package-level declaration.
type T struct{}

func (T) toolgenAddInputSchema() {}
