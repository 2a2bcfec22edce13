package gen

import (
	"encoding/json"
	"go/token"
	"runtime"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/toolgen-go/toolgen/internal/fastcheck"
)

// exampleCheck is a //toolgen:example to check against its tool's input
// schema.
type exampleCheck struct {
	tool    string
	schema  json.RawMessage
	example json.RawMessage
	pos     token.Position
	problem string // what is wrong with it, once checked
}

// exampleChecker checks every example against its tool's input schema, so
// that a wrong example fails at generation instead of in a client's hands.
//
// The schemas come from the type rules, which only write valid ones (the
// golden tests compile every one), so a schema is compiled only for its
// examples, once per distinct schema. Compiling is most of what generation
// costs beyond loading the package, so it is done on other goroutines, on
// every CPU, while the package is still being read (which takes one): an
// example is checked as soon as its tool is read.
type exampleChecker struct {
	checks []*exampleCheck // in the order added
	queue  chan *exampleCheck
	wg     sync.WaitGroup

	mu      sync.Mutex
	schemas map[string]*compiledSchema
}

// compiledSchema is a schema compiled once, by whichever check needs it first.
type compiledSchema struct {
	fastOnce sync.Once
	fast     *fastcheck.Checker

	once sync.Once
	s    *jsonschema.Schema
	err  error
}

// add queues an example to check, starting the workers with the first.
func (c *exampleChecker) add(check exampleCheck) {
	if c.queue == nil {
		// Room for many checks, so that reading seldom waits for the
		// workers; they drain the queue while it reads.
		c.queue = make(chan *exampleCheck, 256)
		c.schemas = map[string]*compiledSchema{}
		for range runtime.GOMAXPROCS(0) {
			c.wg.Add(1)
			go c.work()
		}
	}
	ch := &check
	c.checks = append(c.checks, ch)
	c.queue <- ch
}

func (c *exampleChecker) work() {
	defer c.wg.Done()
	for check := range c.queue {
		check.problem = c.check(check)
	}
}

// check checks one example: "" when it is right.
func (c *exampleChecker) check(check *exampleCheck) string {
	c.mu.Lock()
	cs := c.schemas[string(check.schema)]
	if cs == nil {
		cs = &compiledSchema{}
		c.schemas[string(check.schema)] = cs
	}
	c.mu.Unlock()
	cs.fastOnce.Do(func() { cs.fast = fastChecker(check.schema) })
	if knownValid(cs.fast, check.example) {
		return ""
	}
	cs.once.Do(func() { cs.s, cs.err = compileSchema(check.schema) })
	if cs.err != nil {
		return "the input schema does not compile: " + cs.err.Error()
	}
	if err := validateExample(cs.s, check.example); err != nil {
		return "does not match the input schema of " + check.tool + ": " + err.Error()
	}
	return ""
}

// finish waits for every check queued and returns them, in the order
// added; the checker is then as new.
func (c *exampleChecker) finish() []*exampleCheck {
	if c.queue != nil {
		close(c.queue)
		c.wg.Wait()
	}
	checks := c.checks
	*c = exampleChecker{}
	return checks
}

// checkExamples reports the examples that failed their checks.
func (g *generator) checkExamples() {
	for _, c := range g.examples.finish() {
		if c.problem != "" {
			g.errs.add(c.pos, "//toolgen:example %s", c.problem)
		}
	}
}
